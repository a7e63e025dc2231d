// Scores as Elasticsearch reports them: Lucene scores in 32-bit floats.

/** A score as Elasticsearch prints it: a 32-bit float in its shortest decimal form. */
export function float32(n: number): number {
  const f = Math.fround(n);
  if (!Number.isFinite(f)) return f;
  // Hits of one page often share scores, and pages repeat: the last few thousand are remembered.
  const known = shortest.get(f);
  if (known !== undefined) return known;
  if (shortest.size >= MAX_REMEMBERED) shortest.clear();
  const s = shortestDecimal(f);
  shortest.set(f, s);
  return s;
}

const shortest = new Map<number, number>();
const MAX_REMEMBERED = 4096;

function shortestDecimal(f: number): number {
  const a = Math.abs(f);
  if (a === 0 || a === 2 ** Math.round(Math.log2(a))) return shortestByScan(f);
  // Off powers of two the floats rounding to f lie symmetric around it, so when p digits
  // round-trip so do p + 1 (never farther): binary search for the fewest (9 always do).
  let lo = 1;
  let hi = 9;
  let best = Number(f.toPrecision(9));
  while (lo < hi) {
    const p = (lo + hi) >> 1;
    const s = Number(f.toPrecision(p));
    if (Math.fround(s) === f) {
      best = s;
      hi = p;
    } else lo = p + 1;
  }
  return Math.fround(best) === f ? best : f;
}

function shortestByScan(f: number): number {
  for (let p = 1; p <= 9; p++) {
    const s = Number(f.toPrecision(p));
    if (Math.fround(s) === f) return s;
  }
  return f;
}
