// Ordinal lists that every segment would otherwise hold a copy of: `0, 1, 2, …` (a field every
// document has, or the doc-value offsets of a field with one value per document) and all zeros
// (the doc-value offsets of a field without doc values). One buffer of each is shared, read-only,
// by every segment as views of the length it needs, instead of 4 bytes per document per field.

let identity = new Int32Array(0);
let zeros = new Int32Array(0);

function grown(size: number, have: number): number {
  return Math.max(size, Math.min(have * 2, size + (1 << 20)), 1024);
}

/** `0, 1, …, length − 1` as a view of the shared buffer (never written to). */
export function identityRun(length: number): Int32Array {
  if (identity.length < length) {
    identity = new Int32Array(grown(length, identity.length));
    for (let i = 0; i < identity.length; i++) identity[i] = i;
  }
  return identity.subarray(0, length);
}

/** `length` zeros as a view of the shared buffer (never written to). */
export function zeroRun(length: number): Int32Array {
  if (zeros.length < length) zeros = new Int32Array(grown(length, zeros.length));
  return zeros.subarray(0, length);
}

/**
 * `values` as an Int32Array: a view of a shared run when it is `0, 1, …` or all zeros, else a
 * copy of its own.
 *
 * @example
 * ```ts
 * import { ordinalList } from "./shared_runs.ts";
 * const a = ordinalList([0, 1, 2]);
 * const b = ordinalList([0, 1, 2, 3]);
 * console.assert(a.buffer === b.buffer && String(a) === "0,1,2");
 * console.assert(String(ordinalList([0, 2])) === "0,2" && ordinalList([0, 0]).buffer !== a.buffer);
 * ```
 */
export function ordinalList(values: ArrayLike<number>): Int32Array {
  const n = values.length;
  let ascending = true;
  let zero = true;
  for (let i = 0; i < n && (ascending || zero); i++) {
    const v = values[i]!;
    if (v !== i) ascending = false;
    if (v !== 0) zero = false;
  }
  if (n > 1 && ascending) return identityRun(n);
  if (n > 1 && zero) return zeroRun(n);
  return Int32Array.from(values);
}

/**
 * {@link ordinalList} of `values` in steps of `block` values (a background merge's pauses come
 * between them): the same list, though an array that owns its whole buffer is returned as it is
 * rather than copied (its caller hands it over).
 *
 * @example
 * ```ts
 * import { identityRun, ordinalListSteps } from "./shared_runs.ts";
 * const steps = ordinalListSteps(Int32Array.of(0, 1, 2), 2);
 * let r = steps.next();
 * while (!r.done) r = steps.next();
 * console.assert(r.value.buffer === identityRun(3).buffer);
 * ```
 */
export function* ordinalListSteps(
  values: Int32Array,
  block: number,
): Generator<void, Int32Array, void> {
  const n = values.length;
  let ascending = true;
  let zero = true;
  for (let from = 0; from < n && (ascending || zero); from += block) {
    if (from > 0) yield;
    const end = Math.min(from + block, n);
    for (let i = from; i < end && (ascending || zero); i++) {
      const v = values[i]!;
      if (v !== i) ascending = false;
      if (v !== 0) zero = false;
    }
  }
  if (n > 1 && ascending) return identityRun(n);
  if (n > 1 && zero) return zeroRun(n);
  if (values.byteOffset === 0 && values.byteLength === values.buffer.byteLength) return values;
  const out = new Int32Array(n);
  for (let from = 0; from < n; from += block) {
    yield;
    out.set(values.subarray(from, Math.min(from + block, n)), from);
  }
  return out;
}
