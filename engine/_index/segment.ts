// An immutable segment: the inverted index and doc values of a batch of documents.

import type { FieldKind } from "./field_map.ts";
import type { IdIndex } from "./id_index.ts";
import type { Exact } from "./exact_long.ts";
import type { StoredDoc } from "./types.ts";
import type { VectorColumn } from "./vectors.ts";

/** Small non-negative integers in the narrowest array that holds them (frequencies, positions). */
export type SmallInts = Int32Array | Uint16Array | Uint8Array;

/** Numeric doc values: 32-bit integers when every value is one, else doubles. */
export type NumberColumn = Float64Array | Int32Array;

/**
 * `values` as a {@link NumberColumn}: an Int32Array when each is an integer in the 32-bit range
 * (and not −0), else a Float64Array; a copy.
 *
 * @example
 * ```ts
 * import { numberColumn } from "./segment.ts";
 * console.assert(numberColumn([1, -2, 3]) instanceof Int32Array);
 * console.assert(numberColumn([1, 2.5]) instanceof Float64Array);
 * console.assert(numberColumn([-0]) instanceof Float64Array);
 * ```
 */
export function numberColumn(values: ArrayLike<number>): NumberColumn {
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v !== (v | 0) || (v === 0 && 1 / v < 0)) return Float64Array.from(values);
  }
  return Int32Array.from(values);
}

/**
 * {@link numberColumn} of `values` in steps of `block` values (a background merge's pauses come
 * between them): the same column, though a Float64Array that owns its whole buffer is returned
 * as it is rather than copied.
 *
 * @example
 * ```ts
 * import { numberColumnSteps } from "./segment.ts";
 * const steps = numberColumnSteps(new Float64Array([1, 2, 3]), 2);
 * let r = steps.next();
 * while (!r.done) r = steps.next();
 * console.assert(r.value instanceof Int32Array && String(r.value) === "1,2,3");
 * ```
 */
export function* numberColumnSteps(
  values: Float64Array,
  block: number,
): Generator<void, NumberColumn, void> {
  const n = values.length;
  let ints = true;
  for (let from = 0; from < n && ints; from += block) {
    if (from > 0) yield;
    const end = Math.min(from + block, n);
    for (let i = from; i < end; i++) {
      const v = values[i]!;
      if (v !== (v | 0) || (v === 0 && 1 / v < 0)) {
        ints = false;
        break;
      }
    }
  }
  if (!ints && values.byteOffset === 0 && values.byteLength === values.buffer.byteLength) {
    return values;
  }
  const out = ints ? new Int32Array(n) : new Float64Array(n);
  for (let from = 0; from < n; from += block) {
    yield;
    out.set(values.subarray(from, Math.min(from + block, n)), from);
  }
  return out;
}

/** The documents containing one term, ascending by doc ordinal. */
export interface Posting {
  /** Doc ordinals. */
  readonly docs: Int32Array;
  /** Term frequency per doc (text fields), else null (frequency 1). */
  readonly freqs: SmallInts | null;
  /** Offsets into `positions` per doc (length docs+1), text fields only. */
  readonly posStart: Int32Array | null;
  /** Token positions, text fields only. */
  readonly positions: SmallInts | null;
}

/** Per-field index data within one segment. */
export interface FieldIndex {
  /** How the field is indexed. */
  readonly kind: FieldKind;
  /** Term → posting (text, keyword, boolean). */
  readonly terms: Map<string, Posting>;
  /** Encoded field length per doc (text only). */
  readonly norms: Uint8Array | null;
  /** Docs that have a value, ascending. */
  readonly present: Int32Array;
  /** Sum of term frequencies over all docs. */
  readonly sumTotalTermFreq: number;
  /** Offsets into the doc values per doc (length maxDoc+1). */
  readonly dvStart: Int32Array;
  /** Numeric doc values (numbers, dates as millis, booleans as 0/1), sorted within a doc. */
  readonly numValues: NumberColumn | null;
  /** Keyword doc values, sorted within a doc. */
  readonly strValues: string[] | null;
  /** Numeric values sorted ascending, with `pointDocs` the doc of each, for range queries. */
  readonly pointValues: NumberColumn | null;
  /** Doc ordinal of each entry of `pointValues`. */
  readonly pointDocs: Int32Array | null;
  /**
   * Whole-number fields only, null when every value is a safe integer: beside each entry of
   * `numValues`, its exact value when beyond ±2^53 − 1 (`numValues` holds its nearest double).
   */
  readonly exact?: readonly (bigint | undefined)[] | null;
  /** The same beside `pointValues` (sorted by double, then exactly). */
  readonly pointExact?: readonly (bigint | undefined)[] | null;
}

/** The value at position `i` of a field's doc values, exact for whole numbers beyond 2^53. */
export function numAt(f: FieldIndex, i: number): Exact {
  return (f.exact && f.exact[i]) ?? f.numValues![i]!;
}

/** An immutable batch of indexed documents. */
export class Segment {
  /** Stored documents by ordinal. */
  readonly docs: StoredDoc[];
  /** `_id` → ordinal. */
  readonly ids: IdIndex;
  /** Field path → index data. */
  readonly fields: Map<string, FieldIndex>;
  /** Field path → vectors (dense_vector fields). */
  readonly vectors: Map<string, VectorColumn>;
  #sortedTerms = new Map<string, string[]>();

  constructor(
    docs: StoredDoc[],
    ids: IdIndex,
    fields: Map<string, FieldIndex>,
    vectors: Map<string, VectorColumn> = new Map(),
  ) {
    this.docs = docs;
    this.ids = ids;
    this.fields = fields;
    this.vectors = vectors;
  }

  /** Number of documents (live or deleted) in this segment. */
  get maxDoc(): number {
    return this.docs.length;
  }

  /** The field's terms in sorted order (computed once), for prefix, wildcard and range. */
  sortedTerms(field: string): string[] {
    let terms = this.#sortedTerms.get(field);
    if (!terms) {
      terms = [...(this.fields.get(field)?.terms.keys() ?? [])].sort(compareStrings);
      this.#sortedTerms.set(field, terms);
    }
    return terms;
  }
}

/** Orders strings by UTF-16 code units, as Lucene orders BytesRef terms for ASCII. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
