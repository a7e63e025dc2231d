// Merging segments as Lucene does: the live documents of several segments, in order, become one
// segment by copying their postings, norms and doc values with new ordinals — nothing is parsed
// or analysed again. Points are sorted anew. Segments with vectors are rebuilt instead.
// The work is a generator that pauses every few thousand postings, so a background job
// (see merge_job.ts) can run it in slices between requests.

import { IdIndex } from "./id_index.ts";
import { type FieldIndex, numberColumnSteps, type Posting, Segment } from "./segment.ts";
import { pointsSteps } from "./segment_builder.ts";
import { ordinalListSteps } from "./shared_runs.ts";
import { TextPostingsWriter } from "./text_posting.ts";
import type { StoredDoc } from "./types.ts";

/**
 * Documents (or values) a merge handles between two pauses in its long per-document loops: small
 * enough that a pause comes every fraction of a millisecond at a million documents, so a slice
 * of half a millisecond (while searches run) overruns by little.
 */
const MERGE_BLOCK = 8_192;

/** One segment to merge, with its deletions (1 = deleted, per ordinal). */
export interface MergeInput {
  /** The segment. */
  readonly segment: Segment;
  /** Its deletions, null when none. */
  readonly deleted: Uint8Array | null;
}

/** A merge's result: the segment and, per input, the new ordinal of each old one (-1 = gone). */
export interface Merged {
  /** The merged segment. */
  readonly segment: Segment;
  /** Per input, old ordinal → new ordinal (-1 = deleted at merge time). */
  readonly maps: readonly Int32Array[];
}

/** Resumable merge work: each `next()` does a bounded amount of copying. */
export type MergeSteps = Generator<void, Merged | null, void>;

/** Postings or docs copied between pauses. */
const STEP = 2048;
/** What one term of a dictionary costs against one posting copied (a map lookup, a list). */
const TERM_COST = 8;

/** Counts work and tells when to pause. */
class Budget {
  #n = 0;
  /** Adds `units` of work; true when a pause is due. */
  spend(units: number): boolean {
    this.#n += units;
    if (this.#n < STEP) return false;
    this.#n = 0;
    return true;
  }
}

/** One input's field, with the new ordinal of each old one (-1 = deleted). */
interface Part {
  readonly field: FieldIndex | undefined;
  readonly map: Int32Array;
  readonly deletes: boolean;
}

/**
 * The live documents of `inputs`, in order, as one segment; null when the inputs cannot be
 * merged by copying (vectors, or a field indexed differently in two of them): rebuild then.
 */
export function mergeSegments(inputs: readonly MergeInput[]): Segment | null {
  const steps = mergeSteps(inputs);
  let r = steps.next();
  while (!r.done) r = steps.next();
  return r.value?.segment ?? null;
}

/** Old ordinal → new ordinal per input, and the live docs in order (the merged segment's). */
export function ordinalMaps(
  inputs: readonly MergeInput[],
): { docs: StoredDoc[]; maps: Int32Array[] } {
  const steps = ordinalMapsSteps(inputs, Infinity);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** {@link ordinalMaps} in steps of `block` documents, in order (the same maps). */
function* ordinalMapsSteps(
  inputs: readonly MergeInput[],
  block: number,
): Generator<void, { docs: StoredDoc[]; maps: Int32Array[] }, void> {
  const docs: StoredDoc[] = [];
  const maps: Int32Array[] = [];
  for (const { segment, deleted } of inputs) {
    const map = new Int32Array(segment.maxDoc);
    for (let from = 0; from < map.length; from += block) {
      if (from > 0) yield;
      mapOrdinals({ segment, deleted }, { map, docs }, {
        from,
        to: Math.min(from + block, map.length),
      });
    }
    maps.push(map);
  }
  return { docs, maps };
}

/** Old ordinals `from` … `to - 1` of one input: their new ones, or -1 when deleted. */
function mapOrdinals(
  input: MergeInput,
  into: { map: Int32Array; docs: StoredDoc[] },
  range: { from: number; to: number },
): void {
  const { segment, deleted } = input;
  const { map, docs } = into;
  for (let i = range.from; i < range.to; i++) {
    if (deleted?.[i]) map[i] = -1;
    else {
      map[i] = docs.length;
      docs.push(segment.docs[i]!);
    }
  }
}

/**
 * {@link mergeSegments} as resumable steps; null when the inputs must be rebuilt instead.
 *
 * @example
 * ```ts
 * import { mergeSteps } from "./segment_merge.ts";
 * const steps = mergeSteps([]);
 * let r = steps.next();
 * while (!r.done) r = steps.next();
 * if (r.value?.segment.maxDoc !== 0) throw new Error("empty");
 * ```
 */
export function* mergeSteps(inputs: readonly MergeInput[]): MergeSteps {
  if (inputs.some((i) => i.segment.vectors.size > 0)) return null;
  const budget = new Budget();
  const { docs, maps } = yield* ordinalMapsSteps(inputs, MERGE_BLOCK);
  yield;
  const names = new Set<string>();
  for (const { segment } of inputs) for (const name of segment.fields.keys()) names.add(name);
  const fields = new Map<string, FieldIndex>();
  for (const name of names) {
    const parts: Part[] = inputs.map((input, i) => ({
      field: input.segment.fields.get(name),
      map: maps[i]!,
      deletes: input.deleted !== null,
    }));
    const merged = yield* mergeField(parts, docs.length, budget);
    if (!merged) return null;
    fields.set(name, merged);
  }
  const ids = yield* IdIndex.steps(docs, MERGE_BLOCK / 8);
  return { segment: new Segment(docs, ids, fields), maps };
}

function sameShape(a: FieldIndex, b: FieldIndex): boolean {
  return a.kind === b.kind && (a.norms === null) === (b.norms === null) &&
    (a.numValues === null) === (b.numValues === null) &&
    (a.strValues === null) === (b.strValues === null) &&
    (a.pointValues === null) === (b.pointValues === null);
}

function* mergeField(
  parts: readonly Part[],
  maxDoc: number,
  budget: Budget,
): Generator<void, FieldIndex | null, void> {
  const first = parts.find((p) => p.field)!.field!;
  if (parts.some((p) => p.field && !sameShape(p.field, first))) return null;
  const text = first.kind === "text";
  const { terms, keptFreqs } = yield* mergeTerms(parts, text ? "positions" : "docs", budget);
  let norms: Uint8Array | null = null;
  if (first.norms) {
    norms = new Uint8Array(maxDoc);
    for (const { field, map } of parts) {
      if (!field) continue;
      const from = field.norms!;
      for (let b = 0; b < map.length; b += MERGE_BLOCK) {
        yield;
        const end = Math.min(b + MERGE_BLOCK, map.length);
        for (let i = b; i < end; i++) if (map[i]! >= 0) norms[map[i]!] = from[i]!;
      }
    }
  }
  yield; // each of the loops over every document below goes by blocks, a pause between them
  let presentCount = 0;
  for (const { field } of parts) presentCount += field?.present.length ?? 0;
  const present = new Int32Array(presentCount);
  let n = 0;
  for (const { field, map } of parts) {
    if (!field) continue;
    const docs = field.present;
    for (let b = 0; b < docs.length; b += MERGE_BLOCK) {
      yield;
      const end = Math.min(b + MERGE_BLOCK, docs.length);
      for (let i = b; i < end; i++) {
        const m = map[docs[i]!]!;
        if (m >= 0) present[n++] = m;
      }
    }
  }
  yield;
  // Doc values, doc by doc in the new order.
  const numeric = first.numValues !== null;
  const keyword = first.strValues !== null;
  const anyExact = parts.some((p) => p.field?.exact);
  let valueCount = 0;
  for (const { field } of parts) valueCount += field ? field.dvStart[field.dvStart.length - 1]! : 0;
  const dvStart = new Int32Array(maxDoc + 1);
  const numValues = numeric ? new Float64Array(valueCount) : null;
  const strValues: string[] | null = keyword ? [] : null;
  const exact: (bigint | undefined)[] | null = anyExact ? [] : null;
  let v = 0;
  for (const { field, map } of parts) {
    for (let i = 0; i < map.length; i++) {
      const m = map[i]!;
      if (m < 0) continue;
      dvStart[m] = v;
      if (!field) continue;
      for (let j = field.dvStart[i]!; j < field.dvStart[i + 1]!; j++) {
        if (numValues) numValues[v] = field.numValues![j]!;
        else if (strValues) strValues.push(field.strValues![j]!);
        if (exact) exact.push(field.exact?.[j]);
        v++;
      }
      if (budget.spend(1)) yield;
    }
  }
  dvStart[maxDoc] = v;
  const nums = numValues ? numValues.subarray(0, v) : null;
  yield;
  const numColumn = nums ? yield* numberColumnSteps(nums, MERGE_BLOCK) : null;
  const points = first.pointValues && nums
    ? yield* pointsSteps({ nums, exact, dvStart, maxDoc }, MERGE_BLOCK)
    : null;
  // The statistics a rebuild would count: tokens (text), values (keyword), else docs with a
  // value (also for presence-only fields); a part without deletions brings its own.
  yield;
  let sumTotalTermFreq = 0;
  for (const part of parts) {
    const { field, map, deletes } = part;
    if (!field) continue;
    if (!deletes) sumTotalTermFreq += field.sumTotalTermFreq;
    else if (text && field.terms.size > 0) sumTotalTermFreq += keptFreqs.get(part) ?? 0;
    else if (keyword && field.sumTotalTermFreq === field.strValues!.length) {
      const starts = field.dvStart;
      for (let b = 0; b < map.length; b += MERGE_BLOCK) {
        yield;
        const end = Math.min(b + MERGE_BLOCK, map.length);
        for (let i = b; i < end; i++) {
          if (map[i]! >= 0) sumTotalTermFreq += starts[i + 1]! - starts[i]!;
        }
      }
    } else {
      const docs = field.present;
      for (let b = 0; b < docs.length; b += MERGE_BLOCK) {
        yield;
        const end = Math.min(b + MERGE_BLOCK, docs.length);
        for (let i = b; i < end; i++) if (map[docs[i]!]! >= 0) sumTotalTermFreq++;
      }
    }
  }
  yield;
  const presentList = yield* ordinalListSteps(present.subarray(0, n), MERGE_BLOCK);
  const dvList = yield* ordinalListSteps(dvStart, MERGE_BLOCK);
  return {
    kind: first.kind,
    terms,
    norms,
    present: presentList,
    sumTotalTermFreq,
    dvStart: dvList,
    numValues: numColumn,
    strValues,
    pointValues: points?.values ?? null,
    pointDocs: points?.docs ?? null,
    exact,
    pointExact: points?.exact ?? null,
  };
}

/**
 * Every term's postings, the parts' in order with new ordinals; terms left without docs go.
 * A text field's postings carry `positions`; other fields' only their `docs`.
 */
function* mergeTerms(
  parts: readonly Part[],
  postings: "positions" | "docs",
  budget: Budget,
): Generator<void, { terms: Map<string, Posting>; keptFreqs: Map<Part, number> }, void> {
  const withPositions = postings === "positions";
  const byTerm = new Map<string, Array<[Part, Posting]>>();
  let docTotal = 0;
  let posTotal = 0;
  const keptFreqs = new Map<Part, number>(); // token counts of the live docs, parts with deletions
  for (const part of parts) {
    if (!part.field) continue;
    for (const [term, posting] of part.field.terms) {
      let list = byTerm.get(term);
      if (!list) byTerm.set(term, list = []);
      list.push([part, posting]);
      docTotal += posting.docs.length;
      posTotal += posting.positions?.length ?? 0;
      if (budget.spend(TERM_COST)) yield;
    }
  }
  const terms = new Map<string, Posting>();
  if (withPositions) {
    const writer = new TextPostingsWriter(docTotal, posTotal);
    for (const [term, list] of byTerm) {
      for (const [part, p] of list) {
        const map = part.map;
        const docs = p.docs;
        const freqs = p.freqs;
        const positions = p.positions!;
        let kept = 0;
        let at = 0;
        // By blocks: one posting of a common word can hold most of a large segment's docs.
        for (let b = 0; b < docs.length; b += STEP) {
          const end = Math.min(b + STEP, docs.length);
          const from = at;
          for (let k = b; k < end; k++) {
            const f = freqs ? freqs[k]! : 1;
            const m = map[docs[k]!]!;
            if (m >= 0) {
              writer.add(m, positions, at, at + f);
              kept += f;
            }
            at += f;
          }
          if (budget.spend(end - b + at - from)) yield;
        }
        if (part.deletes && kept > 0) keptFreqs.set(part, (keptFreqs.get(part) ?? 0) + kept);
        if (budget.spend(TERM_COST)) yield;
      }
      writer.endTerm(term);
    }
    yield;
    for (const [term, posting] of yield* writer.finishSteps(MERGE_BLOCK)) terms.set(term, posting);
    return { terms, keptFreqs };
  }
  const allDocs = new Int32Array(docTotal);
  let docAt = 0;
  for (const [term, list] of byTerm) {
    const docBase = docAt;
    for (const [part, p] of list) {
      const map = part.map;
      const docs = p.docs;
      for (let b = 0; b < docs.length; b += STEP) {
        const end = Math.min(b + STEP, docs.length);
        for (let k = b; k < end; k++) {
          const m = map[docs[k]!]!;
          if (m >= 0) allDocs[docAt++] = m;
        }
        if (budget.spend(end - b)) yield;
      }
      if (budget.spend(TERM_COST)) yield;
    }
    // A term whose every doc was deleted goes.
    if (docAt > docBase) {
      terms.set(term, {
        docs: allDocs.subarray(docBase, docAt),
        freqs: null,
        posStart: null,
        positions: null,
      });
    }
  }
  return { terms, keptFreqs };
}
