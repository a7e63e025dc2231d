// Deterministic vectors and exact rankings in plain JS, the yardstick vector search is checked
// (and benchmarked) against.

import { prng } from "./prng.ts";

/** The project's seeded PRNG (mulberry32): the same seed gives the same numbers on every runtime. */
export const seeded: (seed: number) => () => number = prng;

/** `count` vectors of `dims` numbers in [-1, 1), as float32 values (what the engine stores). */
export function randomVectors(count: number, dims: number, seed: number): number[][] {
  const next = seeded(seed);
  return Array.from(
    { length: count },
    () => Array.from({ length: dims }, () => Math.fround(next() * 2 - 1)),
  );
}

/** `v` scaled to length 1 (float32 values). */
export function unit(v: readonly number[]): number[] {
  const m = Math.hypot(...v);
  return v.map((x) => Math.fround(x / m));
}

/** Dot product. */
export function dot(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** Cosine similarity. */
export function cosine(a: readonly number[], b: readonly number[]): number {
  return dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));
}

/** Euclidean distance. */
export function l2(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i]! - b[i]!) ** 2;
  return Math.sqrt(s);
}

/**
 * Indices of `vectors` best first by `score` (higher is better), ties by index, first `k`.
 */
export function exactTopK(
  vectors: readonly (readonly number[])[],
  score: (v: readonly number[]) => number,
  k: number,
): number[] {
  return vectors.map((v, i) => [score(v), i] as const)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1])
    .slice(0, k)
    .map(([, i]) => i);
}
