// Scores as Elasticsearch reports them: Lucene scores in 32-bit floats.

/** A score as Elasticsearch prints it: a 32-bit float in its shortest decimal form. */
export function float32(n: number): number {
  const f = Math.fround(n);
  if (!Number.isFinite(f)) return f;
  for (let p = 1; p <= 9; p++) {
    const s = Number(f.toPrecision(p));
    if (Math.fround(s) === f) return s;
  }
  return f;
}
