// Builds an immutable Segment from documents: tokens, postings, norms, doc values and points.

import { standardAnalyzer, streamStandardAscii } from "./analysis.ts";
import { parseDateAt } from "./dates.ts";
import { compareExact, type Exact, exactInteger } from "./exact_long.ts";
import { parseExactJson } from "./exact_json.ts";
import { IdIndex } from "./id_index.ts";
import { KeptDoc } from "./kept_doc.ts";
import { sourceText } from "./raw_source.ts";
import type { FieldInfo, FieldMap } from "./field_map.ts";
import { encodeNorm } from "./norms.ts";
import { ascendingOrderSteps } from "./point_order.ts";
import {
  compareStrings,
  type FieldIndex,
  type NumberColumn,
  numberColumn,
  numberColumnSteps,
  Segment,
} from "./segment.ts";
import { ordinalList } from "./shared_runs.ts";
import { TokenStream } from "./token_stream.ts";
import type { StoredDoc } from "./types.ts";
import { buildVectorColumn, type VectorColumn } from "./vectors.ts";

const POSITION_GAP = 100; // between array elements, like position_increment_gap

class FieldBuilder {
  readonly stream: TokenStream = new TokenStream();
  readonly present: number[] = [];
  readonly norms: number[] | null;
  readonly dvStart: number[] = [0];
  readonly numValues: number[] = [];
  readonly strValues: string[] = [];
  /** Exact values beyond the safe range by position in `numValues` (whole numbers only). */
  exact: (bigint | undefined)[] | null = null;
  sumTotalTermFreq = 0;
  lastDoc = -1;

  constructor(readonly info: FieldInfo) {
    this.norms = info.kind === "text" ? [] : null;
  }

  /** Indexes all values of one doc for this field: `values[0]` … `values[n - 1]`. */
  add(doc: number, values: readonly unknown[], n: number): void {
    while (this.dvStart.length <= doc) this.dvStart.push(this.dvStart[this.dvStart.length - 1]!);
    if (this.norms) { while (this.norms.length < doc) this.norms.push(0); }
    const kind = this.info.kind;
    let any = false;
    if (kind === "text") {
      let base = 0;
      let length = 0;
      for (let k = 0; k < n; k++) {
        const v = values[k];
        if (typeof v === "object") continue;
        any = true;
        const text = String(v);
        if (this.info.analyzer === standardAnalyzer) {
          // Straight from the text into the term table: no token objects, no string per token.
          this.stream.doc = doc;
          const count = streamStandardAscii(text, this.stream, base);
          if (count >= 0) {
            length += count;
            if (count) base += count + POSITION_GAP;
            continue;
          }
        }
        const tokens = this.info.analyzer(text);
        for (const t of tokens) this.stream.add(t.term, doc, base + t.position);
        length += tokens.length;
        if (tokens.length) base += tokens[tokens.length - 1]!.position + 1 + POSITION_GAP;
      }
      this.sumTotalTermFreq += length;
      this.norms!.push(encodeNorm(length));
    } else if (kind === "keyword" && n === 1) {
      // The common single-value case, without a Set or a sort.
      const v = values[0];
      if (v !== null && typeof v !== "object") {
        const s = String(v);
        if (s.length <= this.info.ignoreAbove) {
          // The term dictionary's copy of the string: one per distinct value, not one per doc.
          this.strValues.push(this.stream.add(this.info.normalize(s), doc, 0));
          any = true;
        }
      }
    } else if (kind === "keyword") {
      const terms = new Set<string>();
      for (let k = 0; k < n; k++) {
        const v = values[k];
        if (v === null || typeof v === "object") continue;
        const s = String(v);
        if (s.length <= this.info.ignoreAbove) terms.add(this.info.normalize(s));
      }
      const sorted = [...terms].sort(compareStrings);
      for (const term of sorted) this.strValues.push(this.stream.add(term, doc, 0));
      any = sorted.length > 0;
    } else if (kind !== "boolean" && n === 1) {
      const x = this.#toNumber(values[0]);
      if (!Number.isNaN(x)) {
        this.#push(x);
        any = true;
      }
    } else {
      const nums: Exact[] = [];
      let big = false;
      for (let k = 0; k < n; k++) {
        const x = this.#toNumber(values[k]);
        if (typeof x === "bigint") big = true;
        if (!Number.isNaN(x)) nums.push(x);
      }
      nums.sort(big ? compareExact : (a, b) => (a as number) - (b as number));
      if (kind === "boolean") {
        for (const x of new Set(nums)) this.stream.add(x ? "true" : "false", doc, 0);
      }
      for (const x of nums) this.#push(x);
      any = nums.length > 0;
    }
    this.dvStart.push(kind === "keyword" ? this.strValues.length : this.numValues.length);
    if (any) this.present.push(doc);
  }

  #push(n: Exact): void {
    if (typeof n === "bigint") {
      this.exact ??= new Array<bigint | undefined>(this.numValues.length).fill(undefined);
      this.exact.push(n);
    } else if (this.exact) this.exact.push(undefined);
    this.numValues.push(Number(n));
  }

  #toNumber(v: unknown): Exact {
    const kind = this.info.kind;
    if (kind === "date") return parseDateAt(v, this.info);
    if (kind === "boolean") {
      return v === true || v === "true" ? 1 : v === false || v === "false" ? 0 : NaN;
    }
    if (this.info.integer) return exactInteger(v);
    if (typeof v !== "number" && typeof v !== "string" && typeof v !== "bigint") return NaN;
    if (v === "") return NaN;
    const n = Number(v);
    return this.info.round ? this.info.round(n) : n;
  }

  /** A field index that only records which docs have a value. */
  static presence(info: FieldInfo, maxDoc: number, docs: number[]): FieldIndex {
    const b = new FieldBuilder(info);
    const index = b.build(maxDoc);
    return { ...index, present: ordinalList(docs), sumTotalTermFreq: docs.length };
  }

  build(maxDoc: number): FieldIndex {
    while (this.dvStart.length <= maxDoc) this.dvStart.push(this.dvStart[this.dvStart.length - 1]!);
    if (this.norms) { while (this.norms.length < maxDoc) this.norms.push(0); }
    const text = this.info.kind === "text";
    const terms = this.stream.build(text);
    const numeric = this.info.kind !== "text" && this.info.kind !== "keyword";
    const points = numeric ? pointsOf(this.numValues, this.exact, this.dvStart, maxDoc) : null;
    return {
      kind: this.info.kind,
      terms,
      norms: this.norms ? Uint8Array.from(this.norms) : null,
      present: ordinalList(this.present),
      sumTotalTermFreq: text
        ? this.sumTotalTermFreq
        : this.info.kind === "keyword"
        ? this.strValues.length
        : this.present.length,
      dvStart: ordinalList(this.dvStart),
      numValues: numeric ? numberColumn(this.numValues) : null,
      strValues: this.info.kind === "keyword" ? this.strValues : null,
      pointValues: points?.values ?? null,
      pointDocs: points?.docs ?? null,
      exact: this.exact,
      pointExact: points?.exact ?? null,
    };
  }
}

/** A numeric field's points: its values ascending (then exactly), with the doc of each. */
export function pointsOf(
  nums: ArrayLike<number>,
  exact: readonly (bigint | undefined)[] | null | undefined,
  dvStart: ArrayLike<number>,
  maxDoc: number,
): Points {
  const steps = pointsSteps({ nums, exact, dvStart, maxDoc }, Math.max(1, nums.length, maxDoc));
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** A numeric field's points (see {@link pointsOf}). */
export interface Points {
  readonly values: NumberColumn;
  readonly docs: Int32Array;
  readonly exact: (bigint | undefined)[] | null;
}

/**
 * {@link pointsOf} in steps of `block` values (or docs): it yields between blocks (a background
 * merge builds a large segment's points so) and returns the same points.
 */
export function* pointsSteps(
  field: {
    readonly nums: ArrayLike<number>;
    readonly exact: readonly (bigint | undefined)[] | null | undefined;
    readonly dvStart: ArrayLike<number>;
    readonly maxDoc: number;
  },
  block: number,
): Generator<void, Points, void> {
  const { nums, exact, dvStart, maxDoc } = field;
  let order: Int32Array;
  let pointExact: (bigint | undefined)[] | null = null;
  if (exact) {
    order = new Int32Array(nums.length);
    for (let i = 0; i < order.length; i++) order[i] = i;
    order.sort((a, b) => nums[a]! - nums[b]! || compareExact(exact[a] ?? 0, exact[b] ?? 0));
    pointExact = Array.from(order, (i) => exact[i]);
  } else order = yield* ascendingOrderSteps(nums, block);
  const docOf = new Int32Array(nums.length);
  for (let from = 0; from < maxDoc; from += block) {
    yield;
    docsOfValues(dvStart, docOf, { from, to: Math.min(from + block, maxDoc) });
  }
  const values = new Float64Array(order.length);
  const docs = new Int32Array(order.length);
  for (let from = 0; from < order.length; from += block) {
    yield;
    placePoints({ nums, docOf, order }, { values, docs }, {
      from,
      to: Math.min(from + block, order.length),
    });
  }
  yield;
  return { values: yield* numberColumnSteps(values, block), docs, exact: pointExact };
}

/** Points `from` … `to - 1` in order: their values and docs. */
function placePoints(
  by: { nums: ArrayLike<number>; docOf: Int32Array; order: Int32Array },
  into: { values: Float64Array; docs: Int32Array },
  range: { from: number; to: number },
): void {
  const { nums, docOf, order } = by;
  const { values, docs } = into;
  for (let j = range.from; j < range.to; j++) {
    values[j] = nums[order[j]!]!;
    docs[j] = docOf[order[j]!]!;
  }
}

/** The doc of each value of docs `from` … `to - 1`. */
function docsOfValues(
  dvStart: ArrayLike<number>,
  docOf: Int32Array,
  range: { from: number; to: number },
): void {
  for (let d = range.from; d < range.to; d++) {
    for (let i = dvStart[d]!; i < dvStart[d + 1]!; i++) docOf[i] = d;
  }
}

/**
 * One field path's values within the document being indexed: `values[0]` … `values[n - 1]` (the
 * list is reused per doc, the slots past `n` are stale).
 */
interface PathValues {
  readonly values: unknown[];
  n: number;
  readonly path: string;
  /** The mapped field, resolved once per segment; null when the path is not mapped. */
  info: FieldInfo | null | undefined;
}

/** A document's leaf values by field path, in the order paths first appear; reused across docs. */
class Collected {
  readonly #byPath = new Map<string, PathValues>();
  /** Paths holding values for the current document: `used[0]` … `used[count - 1]`. */
  readonly used: PathValues[] = [];
  count = 0;
  /** Whether the current document has a whole number beyond 2^53 (rounded when parsed). */
  unsafeInteger = false;

  add(path: string, value: unknown): void {
    if (
      typeof value === "number" && (value >= 2 ** 53 || value <= -(2 ** 53)) &&
      Number.isFinite(value)
    ) this.unsafeInteger = true;
    let entry = this.#byPath.get(path);
    if (!entry) this.#byPath.set(path, entry = { values: [], n: 0, path, info: undefined });
    if (entry.n === 0) {
      if (this.count < this.used.length) this.used[this.count] = entry;
      else this.used.push(entry);
      this.count++;
    }
    entry.values[entry.n++] = value;
  }

  clear(): void {
    const used = this.used;
    for (let i = 0; i < this.count; i++) used[i]!.n = 0;
    this.count = 0;
    this.unsafeInteger = false;
  }
}

function collect(
  value: unknown,
  path: string,
  out: Collected,
  vectors?: Map<string, unknown>,
): void {
  if (value === null || value === undefined) return;
  if (vectors?.has(path)) {
    // A vector field: the whole array is one value, kept apart from the flattened ones.
    vectors.set(path, value);
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) collect(v, path, out, vectors);
    return;
  }
  if (typeof value === "object") {
    const object = value as Record<string, unknown>;
    for (const k of Object.keys(object)) {
      collect(object[k], path ? `${path}.${k}` : k, out, vectors);
    }
    return;
  }
  out.add(path, value);
}

/** Indexes `docs` (ordinals 0..n-1) into a new segment using the field map. */
export function buildSegment(docs: StoredDoc[], fields: FieldMap): Segment {
  const builders = new Map<string, FieldBuilder>();
  const values = new Collected();
  // Fields whose whole value is one unit: vectors, and `sparse_vector` token maps (presence only).
  const wholeFields = [...fields.roots.values()].filter((f) =>
    f.vector !== undefined || f.type === "sparse_vector"
  );
  const vectorFields = wholeFields.filter((f) => f.vector !== undefined);
  const vectorValues = wholeFields.length ? new Map<string, unknown>() : undefined;
  const sparseDocs = new Map<string, number[]>();
  for (const f of wholeFields) if (f.vector === undefined) sparseDocs.set(f.path, []);
  const vectorEntries = new Map<string, Array<[number, number[]]>>();
  for (const f of vectorFields) vectorEntries.set(f.path, []);
  for (let d = 0; d < docs.length; d++) {
    values.clear();
    if (vectorValues) { for (const f of wholeFields) vectorValues.set(f.path, undefined); }
    const doc = docs[d]!;
    // A kept document's text is parsed without being remembered: this object dies with the build.
    const source = doc instanceof KeptDoc ? doc.parse() : doc.source;
    collect(source, "", values, vectorValues);
    if (values.unsafeInteger) {
      // A whole number beyond 2^53 was rounded when the source was parsed: read its digits again.
      const text = doc instanceof KeptDoc ? doc.text : sourceText(source);
      if (text !== undefined) {
        values.clear();
        collect(parseExactJson(text), "", values, vectorValues);
      }
    }
    if (vectorValues) {
      for (const [path, v] of vectorValues) {
        const sparse = sparseDocs.get(path);
        if (sparse) {
          if (v !== null && typeof v === "object") sparse.push(d);
        } else if (Array.isArray(v)) vectorEntries.get(path)!.push([d, v as number[]]);
      }
    }
    const used = values.used;
    for (let i = 0; i < values.count; i++) {
      const entry = used[i]!;
      if (entry.info === undefined) entry.info = fields.roots.get(entry.path) ?? null;
      if (entry.info) addAll(builders, entry.info, d, entry);
    }
  }
  const built = new Map<string, FieldIndex>();
  for (const [path, b] of builders) built.set(path, b.build(docs.length));
  const vectors = new Map<string, VectorColumn>();
  for (const f of vectorFields) {
    const entries = vectorEntries.get(f.path)!;
    vectors.set(f.path, buildVectorColumn(f.vector!, docs.length, entries));
    // Presence only (for `exists`): no terms, no doc values.
    const present = FieldBuilder.presence(f, docs.length, entries.map(([d]) => d));
    built.set(f.path, present);
  }
  for (const f of wholeFields) {
    const sparse = sparseDocs.get(f.path);
    if (sparse) built.set(f.path, FieldBuilder.presence(f, docs.length, sparse));
  }
  return new Segment(docs, new IdIndex(docs), built, vectors);
}

/** Adds a document's first `entry.n` values of one path to `info`'s builder and its sub-fields'. */
function addAll(
  builders: Map<string, FieldBuilder>,
  info: FieldInfo,
  doc: number,
  entry: { readonly values: readonly unknown[]; readonly n: number },
): void {
  let b = builders.get(info.path);
  if (!b) builders.set(info.path, b = new FieldBuilder(info));
  b.add(doc, entry.values, entry.n);
  const subs = info.subFields;
  for (let i = 0; i < subs.length; i++) addAll(builders, subs[i]!, doc, entry);
}
