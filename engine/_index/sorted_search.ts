// Binary search in ascending arrays: doc ordinals, point values, sorted terms.

/**
 * The first index of ascending `a`, at `from` or after, whose item is not below `x`; `a.length`
 * when every item is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lowerBound } from "./sorted_search.ts";
 * assert.equal(lowerBound([1, 3, 3, 5], 3), 1);
 * assert.equal(lowerBound([1, 3, 3, 5], 4), 3);
 * assert.equal(lowerBound(["a", "b"], "c"), 2);
 * assert.equal(lowerBound([1, 3, 3, 5], 1, 2), 2);
 * ```
 */
export function lowerBound<T extends number | string>(a: ArrayLike<T>, x: T, from = 0): number {
  let lo = from;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The first index of ascending `a` whose item is above `x`; `a.length` when none is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { upperBound } from "./sorted_search.ts";
 * assert.equal(upperBound([1, 3, 3, 5], 3), 3);
 * assert.equal(upperBound([1, 3, 3, 5], 9), 4);
 * ```
 */
export function upperBound(a: ArrayLike<number>, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The index of `x` in ascending `a` (a doc of a sorted doc list), or -1 when it is absent.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { indexOfSorted } from "./sorted_search.ts";
 * assert.equal(indexOfSorted(Int32Array.of(2, 4, 8), 4), 1);
 * assert.equal(indexOfSorted(Int32Array.of(2, 4, 8), 5), -1);
 * ```
 */
export function indexOfSorted(a: ArrayLike<number>, x: number): number {
  const i = lowerBound(a, x);
  return i < a.length && a[i] === x ? i : -1;
}
