// Measuring helpers shared by the benchmarks: percentiles of sorted samples and the heap in use.

/** The value at fraction `p` (0..1) of ascending `sorted` samples. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

/** Heap plus external memory in use, after a collection when `--v8-flags=--expose-gc` allows one. */
export function heapInUse(): number {
  (globalThis as { gc?: () => void }).gc?.();
  const m = Deno.memoryUsage();
  return m.heapUsed + m.external;
}
