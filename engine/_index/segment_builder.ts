// Builds an immutable Segment from documents: tokens, postings, norms, doc values and points.

import { parseDateAt } from "./dates.ts";
import type { FieldInfo, FieldMap } from "./field_map.ts";
import { encodeNorm } from "./norms.ts";
import { compareStrings, type FieldIndex, Segment } from "./segment.ts";
import { TokenStream } from "./token_stream.ts";
import type { StoredDoc } from "./types.ts";

const POSITION_GAP = 100; // between array elements, like position_increment_gap

class FieldBuilder {
  readonly stream: TokenStream = new TokenStream();
  readonly present: number[] = [];
  readonly norms: number[] | null;
  readonly dvStart: number[] = [0];
  readonly numValues: number[] = [];
  readonly strValues: string[] = [];
  sumTotalTermFreq = 0;
  lastDoc = -1;

  constructor(readonly info: FieldInfo) {
    this.norms = info.kind === "text" ? [] : null;
  }

  /** Indexes all values of one doc for this field. */
  add(doc: number, values: unknown[]): void {
    while (this.dvStart.length <= doc) this.dvStart.push(this.dvStart[this.dvStart.length - 1]!);
    if (this.norms) { while (this.norms.length < doc) this.norms.push(0); }
    const kind = this.info.kind;
    let any = false;
    if (kind === "text") {
      let base = 0;
      let length = 0;
      for (const v of values) {
        if (typeof v === "object") continue;
        any = true;
        const tokens = this.info.analyzer(String(v));
        for (const t of tokens) this.stream.add(t.term, doc, base + t.position);
        length += tokens.length;
        if (tokens.length) base += tokens[tokens.length - 1]!.position + 1 + POSITION_GAP;
      }
      this.sumTotalTermFreq += length;
      this.norms!.push(encodeNorm(length));
    } else if (kind === "keyword" && values.length === 1) {
      // The common single-value case, without a Set or a sort.
      const v = values[0];
      if (v !== null && typeof v !== "object") {
        const s = String(v);
        if (s.length <= this.info.ignoreAbove) {
          const term = this.info.normalize(s);
          this.stream.add(term, doc, 0);
          this.strValues.push(term);
          any = true;
        }
      }
    } else if (kind === "keyword") {
      const terms = new Set<string>();
      for (const v of values) {
        if (v === null || typeof v === "object") continue;
        const s = String(v);
        if (s.length <= this.info.ignoreAbove) terms.add(this.info.normalize(s));
      }
      const sorted = [...terms].sort(compareStrings);
      for (const term of sorted) this.stream.add(term, doc, 0);
      this.strValues.push(...sorted);
      any = sorted.length > 0;
    } else if (kind !== "boolean" && values.length === 1) {
      const n = this.#toNumber(values[0]);
      if (!Number.isNaN(n)) {
        this.numValues.push(n);
        any = true;
      }
    } else {
      const nums: number[] = [];
      for (const v of values) {
        const n = this.#toNumber(v);
        if (!Number.isNaN(n)) nums.push(n);
      }
      nums.sort((a, b) => a - b);
      if (kind === "boolean") {
        for (const n of new Set(nums)) this.stream.add(n ? "true" : "false", doc, 0);
      }
      this.numValues.push(...nums);
      any = nums.length > 0;
    }
    this.dvStart.push(kind === "keyword" ? this.strValues.length : this.numValues.length);
    if (any) this.present.push(doc);
  }

  #toNumber(v: unknown): number {
    const kind = this.info.kind;
    if (kind === "date") return parseDateAt(v, this.info.format, this.info.nanos);
    if (kind === "boolean") {
      return v === true || v === "true" ? 1 : v === false || v === "false" ? 0 : NaN;
    }
    if (typeof v !== "number" && typeof v !== "string") return NaN;
    if (v === "") return NaN;
    const n = Number(v);
    return this.info.integer ? Math.trunc(n) : this.info.round ? this.info.round(n) : n;
  }

  build(maxDoc: number): FieldIndex {
    while (this.dvStart.length <= maxDoc) this.dvStart.push(this.dvStart[this.dvStart.length - 1]!);
    if (this.norms) { while (this.norms.length < maxDoc) this.norms.push(0); }
    const text = this.info.kind === "text";
    const terms = this.stream.build(text);
    const numeric = this.info.kind !== "text" && this.info.kind !== "keyword";
    let pointValues: Float64Array | null = null;
    let pointDocs: Int32Array | null = null;
    if (numeric) {
      const order = new Int32Array(this.numValues.length);
      for (let i = 0; i < order.length; i++) order[i] = i;
      order.sort((a, b) => this.numValues[a]! - this.numValues[b]!);
      pointValues = Float64Array.from(order, (i) => this.numValues[i]!);
      const docOf = new Int32Array(this.numValues.length);
      for (let d = 0; d < maxDoc; d++) {
        for (let i = this.dvStart[d]!; i < this.dvStart[d + 1]!; i++) docOf[i] = d;
      }
      pointDocs = Int32Array.from(order, (i) => docOf[i]!);
    }
    return {
      kind: this.info.kind,
      terms,
      norms: this.norms ? Uint8Array.from(this.norms) : null,
      present: Int32Array.from(this.present),
      sumTotalTermFreq: text
        ? this.sumTotalTermFreq
        : this.info.kind === "keyword"
        ? this.strValues.length
        : this.present.length,
      dvStart: Int32Array.from(this.dvStart),
      numValues: numeric ? Float64Array.from(this.numValues) : null,
      strValues: this.info.kind === "keyword" ? this.strValues : null,
      pointValues,
      pointDocs,
    };
  }
}

function collect(value: unknown, path: string, out: Map<string, unknown[]>): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    for (const v of value) collect(v, path, out);
    return;
  }
  if (typeof value === "object") {
    for (const [k, v] of Object.entries(value)) collect(v, path ? `${path}.${k}` : k, out);
    // Also offer the whole object, e.g. for fields mapped as keyword that receive objects.
    return;
  }
  let list = out.get(path);
  if (!list) out.set(path, list = []);
  list.push(value);
}

/** Indexes `docs` (ordinals 0..n-1) into a new segment using the field map. */
export function buildSegment(docs: StoredDoc[], fields: FieldMap): Segment {
  const builders = new Map<string, FieldBuilder>();
  const ids = new Map<string, number>();
  const values = new Map<string, unknown[]>();
  for (let d = 0; d < docs.length; d++) {
    ids.set(docs[d]!.id, d);
    values.clear();
    collect(docs[d]!.source, "", values);
    for (const [path, vals] of values) {
      const info = fields.roots.get(path);
      if (!info) continue;
      addAll(builders, info, d, vals);
    }
  }
  const built = new Map<string, FieldIndex>();
  for (const [path, b] of builders) built.set(path, b.build(docs.length));
  return new Segment(docs, ids, built);
}

function addAll(
  builders: Map<string, FieldBuilder>,
  info: FieldInfo,
  doc: number,
  vals: unknown[],
): void {
  let b = builders.get(info.path);
  if (!b) builders.set(info.path, b = new FieldBuilder(info));
  b.add(doc, vals);
  for (const sub of info.subFields) addAll(builders, sub, doc, vals);
}
