// The `terms` aggregation: counting a field's values among the matching docs (straight from the
// postings for keyword fields), `min_doc_count`, include/exclude, ordering and sub-aggregations.

import { consumeBuckets } from "../_index/limits.ts";
import { illegalArgument } from "../_errors.ts";
import {
  type AggFn,
  type AggInput,
  type AggSpec,
  eachValue,
  eachValueOrMissing,
  fieldInfo,
  fieldOf,
  keyFilter,
  orderSign,
  positiveSetting,
  valueFormat,
} from "./agg_values.ts";
import type { FieldInfo } from "../_index/field_map.ts";
import type { Posting } from "../_index/segment.ts";
import { matchLive } from "../_query/query_exec.ts";
import { seek } from "../_query/score_heap.ts";
import { STEP_BLOCK } from "../_query/query_steps.ts";
import { compareOrderValues, orderPathValue } from "./buckets_path.ts";
import type { SubAggs } from "./scope_aggs.ts";
import type { JsonObject } from "../_json.ts";
import { compareIpPart } from "./compound_keys.ts";

/** A terms bucket key: a bigint for a whole number beyond 2^53. */
type Key = number | string | bigint;

function keyOf(info: FieldInfo | undefined, v: Key, body: JsonObject): JsonObject {
  if (info?.kind === "boolean") return { key: v, key_as_string: v ? "true" : "false" };
  const text = typeof v === "string" ? null : valueFormat(body, info);
  return text ? { key: v, key_as_string: text(Number(v)) } : { key: v };
}

function compareKeys(a: Key, b: Key, ip = false): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (ip) return compareIpPart(a, b);
  if (typeof a !== "string" && typeof b !== "string") return a < b ? -1 : a > b ? 1 : 0;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/** Where a keyword field's counting stands in one segment: its terms, walked in chunks. */
interface SegmentCount {
  readonly terms: Iterator<[string, Posting]>;
  readonly marks: Uint8Array | null;
  readonly base: number;
  readonly input: AggInput;
}

/**
 * Counts the next terms of a segment, until about `work` postings (or terms) are walked; true
 * when the segment's terms are done.
 */
function countTerms(
  seg: SegmentCount,
  counts: Map<Key, number>,
  buckets: Map<Key, Map<AggInput, number[]>> | null,
  work: number,
): boolean {
  const { marks, base, input } = seg;
  let walked = 0;
  for (;;) {
    if (walked >= work) return false;
    const next = seg.terms.next();
    if (next.done) return true;
    const [term, p] = next.value;
    const list = p.docs;
    walked += marks === null ? 1 : list.length + 1;
    let c = 0;
    let kept: number[] | null = null;
    if (marks === null) {
      c = list.length;
      if (buckets && c > 0) {
        kept = new Array<number>(c);
        for (let i = 0; i < c; i++) kept[i] = list[i]! + base;
      }
    } else {
      for (let i = 0; i < list.length; i++) {
        const d = list[i]!;
        if (!marks[d]) continue;
        c++;
        if (buckets) (kept ??= []).push(d + base);
      }
    }
    if (c === 0) continue;
    counts.set(term, (counts.get(term) ?? 0) + c);
    if (buckets && kept) {
      let per = buckets.get(term);
      if (!per) buckets.set(term, per = new Map());
      const prev = per.get(input);
      per.set(input, prev ? prev.concat(kept) : kept);
    }
  }
}

/**
 * Adds term counts (and, for sub-aggregations, the docs) of a keyword field for one input,
 * segment by segment and a chunk of terms at a time, pausing between chunks (a time-sliced
 * search's pause points). The counts and doc lists are those of one pass over every term.
 */
function* countFromPostings(
  input: AggInput,
  field: string,
  counts: Map<Key, number>,
  buckets: Map<Key, Map<AggInput, number[]>> | null,
): Generator<void, void, void> {
  const views = input.ctx.snapshot.views;
  const docs = input.docs;
  let at = 0;
  for (const v of views) {
    const f = v.segment.fields.get(field);
    const maxDoc = v.segment.maxDoc;
    const end = v.base + maxDoc;
    const from = at;
    at = seek(docs, at, end); // galloping: a segment whose docs all match is found in log steps
    if (!f || at === from) continue;
    // Every doc of the segment matches (no deletes, a match_all): each posting counts whole.
    const whole = at - from === maxDoc;
    let marks: Uint8Array | null = null;
    if (!whole) {
      marks = new Uint8Array(maxDoc);
      for (let i = from; i < at; i++) marks[docs[i]! - v.base] = 1;
    }
    const seg = { terms: f.terms.entries(), marks, base: v.base, input };
    while (!countTerms(seg, counts, buckets, STEP_BLOCK)) yield;
  }
}

/**
 * The `terms` aggregation: a bucket per value of the field, ordered by count, key or a
 * sub-aggregation's value; `run` runs each bucket's sub-aggregations.
 */
export function termsAgg(run: SubAggs): AggFn {
  const steps = termsAggSteps(run);
  return (body, inputs, sub, name) => {
    const s = steps(body, inputs, sub, name);
    for (;;) {
      const r = s.next();
      if (r.done) return r.value;
    }
  };
}

/** An aggregation in steps: it yields where a time-sliced search may pause. */
export type AggSteps = (
  body: JsonObject,
  inputs: AggInput[],
  sub: JsonObject | undefined,
  name: string,
) => Generator<void, JsonObject, void>;

/**
 * {@link termsAgg} in steps: it pauses between chunks of the counting (a chunk of a segment's
 * terms, or a block of matching docs) and between the buckets' sub-aggregations; the answer is
 * the one {@link termsAgg} gives.
 */
export function termsAggSteps(run: SubAggs): AggSteps {
  return (body, inputs, sub, name) => terms({ body, type: "terms", name }, inputs, sub, run);
}

function* terms(
  agg: AggSpec,
  inputs: AggInput[],
  sub: JsonObject | undefined,
  run: SubAggs,
): Generator<void, JsonObject, void> {
  const { body, name } = agg;
  const field = fieldOf(body, name, "terms");
  const size = positiveSetting(agg, "size", 10);
  positiveSetting(agg, "shard_size", size);
  const minDocCount = Number(body.min_doc_count ?? 1);
  const hasMissing = body.missing !== undefined && body.missing !== null;
  const buckets = new Map<Key, Map<AggInput, number[]>>();
  const counts = new Map<Key, number>();
  let info: FieldInfo | undefined;
  const keywordOnly = inputs.every((input) => {
    const f = fieldInfo(input, field);
    info ??= f;
    return !f || f.kind === "keyword";
  }) && !hasMissing;
  if (keywordOnly) {
    // Keyword terms are unique per doc: count each term's postings among the matching docs.
    for (const input of inputs) {
      yield* countFromPostings(input, field, counts, sub ? buckets : null);
    }
  } else {
    let lastDoc = -1;
    let lastInput: AggInput | null = null;
    let lastValue: Key | undefined;
    const count = (v: Key, doc: number, input: AggInput) => {
      // A doc's values arrive sorted, so a repeated value is adjacent: count each doc once per key.
      if (doc === lastDoc && input === lastInput && v === lastValue) return;
      lastDoc = doc;
      lastInput = input;
      lastValue = v;
      counts.set(v, (counts.get(v) ?? 0) + 1);
      if (sub) {
        let per = buckets.get(v);
        if (!per) buckets.set(v, per = new Map());
        let list = per.get(input);
        if (!list) per.set(input, list = []);
        list.push(doc);
      }
    };
    if (hasMissing) info = eachValueOrMissing(inputs, body, field, count);
    else {
      // Block by block of each input's docs (ascending, so a doc's values stay together): the
      // calls are those of one pass, in the same order.
      let seen: FieldInfo | undefined;
      for (const input of inputs) {
        const block = (v: Key, doc: number) => count(v, doc, input);
        for (let at = 0; at === 0 || at < input.docs.length; at += STEP_BLOCK) {
          if (at > 0) yield;
          const docs = input.docs.subarray(at, at + STEP_BLOCK);
          const found = eachValue([{ ...input, docs }], field, block, true);
          seen ??= found;
        }
      }
      info = seen;
    }
  }
  if (minDocCount === 0) {
    // Every term of the field in the targets gets a bucket, empty ones too.
    const everything = inputs.map((i) => ({
      ctx: i.ctx,
      docs: matchLive({ kind: "match_all", boost: 1 }, i.ctx, "filter").docs,
    }));
    const all = eachValue(everything, field, (v) => {
      if (!counts.has(v)) counts.set(v, 0);
    }, true);
    info ??= all;
  }
  const order = (body.order ?? { _count: "desc" }) as JsonObject | JsonObject[];
  const orders = (Array.isArray(order) ? order : [order]).flatMap((o) => Object.entries(o));
  for (const [, dir] of orders) orderSign("terms", dir);
  const include = keyFilter(body.include);
  const exclude = keyFilter(body.exclude);
  const entries = [...counts].filter(([k, c]) =>
    c >= minDocCount && (!include || include(k)) && !(exclude && exclude(k))
  );
  const subOf = new Map<Key, JsonObject>();
  const subResult = (k: Key): JsonObject => {
    let r = subOf.get(k);
    if (!r) {
      const per = buckets.get(k) ?? new Map<AggInput, number[]>();
      r = run(
        sub!,
        inputs.map((i) => ({
          ctx: i.ctx,
          docs: Int32Array.from(per.get(i) ?? []),
          scored: i.scored,
        })),
      );
      subOf.set(k, r);
    }
    return r;
  };
  // Ordering by a sub-aggregation (`{"avg_price": "desc"}` or `{"stats.max": "asc"}`) reads its value.
  const metricOf = (k: Key, path: string): number | string => {
    const first = path.split(/[.>[]/)[0]!;
    if (!sub || !Object.hasOwn(sub, first)) {
      throw illegalArgument(
        `Invalid aggregation order path [${path}]. Unknown aggregation [${first}]`,
      );
    }
    return orderPathValue(subResult(k), path);
  };
  // `ip` keys order by address, as the real engines keep them.
  const ip = info?.type === "ip";
  entries.sort((a, b) => {
    for (const [k, dir] of orders) {
      const sign = String(dir).toLowerCase() === "asc" ? 1 : -1;
      const c = k === "_key" || k === "_term"
        ? compareKeys(a[0], b[0], ip)
        : k === "_count"
        ? a[1] - b[1]
        : compareOrderValues(metricOf(a[0], k), metricOf(b[0], k));
      if (c) return c * sign;
    }
    return b[1] - a[1] || compareKeys(a[0], b[0], ip);
  });
  const top = entries.slice(0, size);
  consumeBuckets(top.length);
  let other = 0;
  for (const [, c] of entries.slice(size)) other += c;
  const out: JsonObject[] = [];
  for (const [k, c] of top) {
    // A bucket's sub-aggregations run in a step of their own.
    if (sub && out.length > 0) yield;
    out.push({
      ...keyOf(info, k, body),
      doc_count: c,
      ...(body.show_term_doc_count_error === true ? { doc_count_error_upper_bound: 0 } : {}),
      ...(sub ? subResult(k) : {}),
    });
  }
  return { doc_count_error_upper_bound: 0, sum_other_doc_count: other, buckets: out };
}
