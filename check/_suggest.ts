// "Did you mean": the nearest known word by edit distance (adjacent swaps count as one edit).

/** The known word nearest to `word` (at most 2 edits, 1 for short words), or undefined. */
export function suggest(word: string, known: Iterable<string>): string | undefined {
  if (word.length <= 2) return undefined;
  const limit = word.length <= 4 ? 1 : 2;
  let best: string | undefined;
  let bestDistance = limit + 1;
  const lower = word.toLowerCase();
  for (const candidate of known) {
    if (Math.abs(candidate.length - word.length) > limit) continue;
    const d = distance(lower, candidate.toLowerCase());
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  return best;
}

/** Optimal string alignment distance. */
export function distance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[0]!.push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      }
      rows[i]!.push(d);
    }
  }
  return rows[a.length]![b.length]!;
}
