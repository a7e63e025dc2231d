// Aggregations over the matching docs: terms (with sub-aggregations), min, max, avg, sum,
// value_count, cardinality, stats, filter and missing.

import { illegalArgument, parsingError } from "../_errors.ts";
import {
  type BucketDocs,
  dateHistogramAgg,
  histogramAgg,
  rangeAgg,
  type ValueSource,
} from "./bucket_aggs.ts";
import { formatDateAt } from "./dates.ts";
import type { ExecContext } from "./exec_context.ts";
import type { FieldInfo } from "./field_map.ts";
import { matchLive } from "./query_exec.ts";
import { parseQuery } from "./query_parser.ts";
import { intersect } from "./doc_set.ts";

/** The docs one target contributes to an aggregation. */
export interface AggInput {
  /** Execution context of the target. */
  readonly ctx: ExecContext;
  /** Matching docs (global ordinals, ascending). */
  readonly docs: Int32Array;
}

type Json = Record<string, unknown>;
type AggFn = (body: Json, inputs: AggInput[], sub: Json | undefined, name: string) => Json;

function fieldInfo(input: AggInput, field: string): FieldInfo | undefined {
  const info = input.ctx.fields.byPath.get(field);
  if (info?.kind === "text") {
    throw illegalArgument(
      `Fielddata is disabled on [${field}] in [${input.ctx.index}]. Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [${field}] in order to load field data by uninverting the inverted index. Note that this can use significant memory.`,
    );
  }
  return info;
}

/** Calls `fn` with each value of `field` in each doc. */
function eachValue(
  inputs: AggInput[],
  field: string,
  fn: (v: number | string, doc: number, input: AggInput) => void,
): FieldInfo | undefined {
  let seen: FieldInfo | undefined;
  for (const input of inputs) {
    const info = fieldInfo(input, field);
    if (!info) continue;
    seen ??= info;
    const snap = input.ctx.snapshot;
    for (const d of input.docs) {
      const v = snap.viewOf(d);
      const f = v.segment.fields.get(field);
      if (!f) continue;
      const local = d - v.base;
      for (let i = f.dvStart[local]; i < f.dvStart[local + 1]; i++) {
        fn(f.strValues ? f.strValues[i] : f.numValues![i], d, input);
      }
    }
  }
  return seen;
}

function fieldOf(body: Json, name: string, type: string): string {
  if (typeof body.field !== "string") {
    throw parsingError(`[${type}] aggregation [${name}] requires a [field]`);
  }
  return body.field;
}

function metric(reduce: (values: number[]) => number | null): AggFn {
  return (body, inputs, _sub, name) => {
    const values: number[] = [];
    const info = eachValue(inputs, fieldOf(body, name, "metric"), (v) => values.push(Number(v)));
    const value = reduce(values);
    const out: Json = { value };
    if (info?.kind === "date" && value !== null) {
      out.value_as_string = formatDateAt(value, info.nanos);
    }
    return out;
  };
}

function keyOf(info: FieldInfo | undefined, v: number | string): Json {
  if (info?.kind === "boolean") return { key: v, key_as_string: v ? "true" : "false" };
  if (info?.kind === "date") return { key: v, key_as_string: formatDateAt(Number(v), info.nanos) };
  return { key: v };
}

function compareKeys(a: number | string, b: number | string): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

function termsAgg(body: Json, inputs: AggInput[], sub: Json | undefined, name: string): Json {
  const field = fieldOf(body, name, "terms");
  const size = Number(body.size ?? 10);
  const minDocCount = Number(body.min_doc_count ?? 1);
  const buckets = new Map<number | string, Map<AggInput, number[]>>();
  const counts = new Map<number | string, number>();
  let lastDoc = -1;
  let lastInput: AggInput | null = null;
  const seenInDoc = new Set<number | string>();
  const info = eachValue(inputs, field, (v, doc, input) => {
    if (doc !== lastDoc || input !== lastInput) {
      seenInDoc.clear();
      lastDoc = doc;
      lastInput = input;
    }
    if (seenInDoc.has(v)) return;
    seenInDoc.add(v);
    counts.set(v, (counts.get(v) ?? 0) + 1);
    if (sub) {
      let per = buckets.get(v);
      if (!per) buckets.set(v, per = new Map());
      let list = per.get(input);
      if (!list) per.set(input, list = []);
      list.push(doc);
    }
  });
  const order = (body.order ?? { _count: "desc" }) as Json | Json[];
  const orders = (Array.isArray(order) ? order : [order]).flatMap((o) => Object.entries(o));
  const entries = [...counts].filter(([, c]) => c >= minDocCount);
  const subOf = new Map<number | string, Json>();
  const subResult = (k: number | string): Json => {
    let r = subOf.get(k);
    if (!r) {
      const per = buckets.get(k)!;
      r = runAggregations(
        sub!,
        inputs.map((i) => ({ ctx: i.ctx, docs: Int32Array.from(per.get(i) ?? []) })),
      );
      subOf.set(k, r);
    }
    return r;
  };
  // Ordering by a sub-aggregation (`{"avg_price": "desc"}` or `{"stats.max": "asc"}`) reads its value.
  const metricOf = (k: number | string, path: string): number => {
    const [aggName, prop = "value"] = path.split(/[.>]/);
    if (!sub || !(aggName in sub)) {
      throw illegalArgument(
        `Invalid aggregation order path [${path}]. Unknown aggregation [${aggName}]`,
      );
    }
    const v = (subResult(k)[aggName] as Json | undefined)?.[prop];
    return typeof v === "number" ? v : -Infinity;
  };
  entries.sort((a, b) => {
    for (const [k, dir] of orders) {
      const sign = String(dir).toLowerCase() === "asc" ? 1 : -1;
      const c = k === "_key" || k === "_term"
        ? compareKeys(a[0], b[0])
        : k === "_count"
        ? a[1] - b[1]
        : metricOf(a[0], k) - metricOf(b[0], k);
      if (c) return c * sign;
    }
    return b[1] - a[1] || compareKeys(a[0], b[0]);
  });
  const top = entries.slice(0, size);
  let other = 0;
  for (const [, c] of entries.slice(size)) other += c;
  return {
    doc_count_error_upper_bound: 0,
    sum_other_doc_count: other,
    buckets: top.map(([k, c]) => ({
      ...keyOf(info, k),
      doc_count: c,
      ...(sub ? subResult(k) : {}),
    })),
  };
}

function filterAgg(body: Json, inputs: AggInput[], sub: Json | undefined): Json {
  const q = parseQuery(body);
  const narrowed = inputs.map((i) => ({
    ctx: i.ctx,
    docs: intersect({ docs: i.docs, scores: null }, matchLive(q, i.ctx, false)).docs,
  }));
  let count = 0;
  for (const n of narrowed) count += n.docs.length;
  return { doc_count: count, ...(sub ? runAggregations(sub, narrowed) : {}) };
}

function missingAgg(body: Json, inputs: AggInput[], sub: Json | undefined, name: string): Json {
  const field = fieldOf(body, name, "missing");
  const narrowed = inputs.map((i) => {
    const has = new Set<number>();
    eachValue([i], field, (_v, d) => has.add(d));
    return { ctx: i.ctx, docs: i.docs.filter((d) => !has.has(d)) };
  });
  let count = 0;
  for (const n of narrowed) count += n.docs.length;
  return { doc_count: count, ...(sub ? runAggregations(sub, narrowed) : {}) };
}

const sum = (vs: number[]) => vs.reduce((a, b) => a + b, 0);
const min = (vs: number[]) => vs.reduce((a, b) => (b < a ? b : a), Infinity);
const max = (vs: number[]) => vs.reduce((a, b) => (b > a ? b : a), -Infinity);

function numericSource(inputs: AggInput[], body: Json, name: string, type: string): ValueSource {
  const field = fieldOf(body, name, type);
  const nanos = type === "date_histogram" &&
    inputs.some((i) => i.ctx.fields.byPath.get(field)?.nanos);
  return (fn) =>
    eachValue(
      inputs,
      field,
      (v, doc, input) =>
        fn(nanos ? Math.floor(Number(v) / 1e6) : Number(v), doc, inputs.indexOf(input)),
    );
}

function subRunner(inputs: AggInput[], sub: Json | undefined): ((docs: BucketDocs) => Json) | null {
  if (!sub) return null;
  return (docs) =>
    runAggregations(
      sub,
      inputs.map((i, k) => ({ ctx: i.ctx, docs: Int32Array.from(docs.get(k) ?? []) })),
    );
}

const AGGS: Record<string, AggFn> = {
  terms: termsAgg,
  min: metric((vs) => (vs.length ? min(vs) : null)),
  max: metric((vs) => (vs.length ? max(vs) : null)),
  avg: metric((vs) => (vs.length ? sum(vs) / vs.length : null)),
  sum: metric(sum),
  value_count: (body, inputs, _s, name) => {
    let n = 0;
    eachValue(inputs, fieldOf(body, name, "value_count"), () => n++);
    return { value: n };
  },
  cardinality: (body, inputs, _s, name) => {
    const set = new Set<number | string>();
    eachValue(inputs, fieldOf(body, name, "cardinality"), (v) => set.add(v));
    return { value: set.size };
  },
  stats: (body, inputs, _s, name) => {
    const vs: number[] = [];
    eachValue(inputs, fieldOf(body, name, "stats"), (v) => vs.push(Number(v)));
    const n = vs.length;
    return {
      count: n,
      min: n ? min(vs) : null,
      max: n ? max(vs) : null,
      avg: n ? sum(vs) / n : null,
      sum: sum(vs),
    };
  },
  filter: (body, inputs, sub) => filterAgg(body, inputs, sub),
  missing: missingAgg,
  histogram: (body, inputs, sub, name) =>
    histogramAgg(body, numericSource(inputs, body, name, "histogram"), subRunner(inputs, sub)),
  date_histogram: (body, inputs, sub, name) =>
    dateHistogramAgg(
      body,
      numericSource(inputs, body, name, "date_histogram"),
      subRunner(inputs, sub),
    ),
  range: (body, inputs, sub, name) =>
    rangeAgg(body, numericSource(inputs, body, name, "range"), subRunner(inputs, sub)),
};

/** Runs an `aggs` object and returns the `aggregations` response object. */
export function runAggregations(aggs: Json, inputs: AggInput[]): Json {
  const out: Json = {};
  for (const [name, def] of Object.entries(aggs)) {
    if (typeof def !== "object" || def === null) {
      throw parsingError(
        `Expected [START_OBJECT] under [${name}], but got a [VALUE_STRING] in [${name}]`,
      );
    }
    let type: string | undefined;
    let body: Json | undefined;
    let sub: Json | undefined;
    let meta: unknown;
    for (const [k, v] of Object.entries(def as Json)) {
      if (k === "aggs" || k === "aggregations") sub = v as Json;
      else if (k === "meta") meta = v;
      else if (type !== undefined) {
        throw parsingError(
          `Found two aggregation type definitions in [${name}]: [${type}] and [${k}]`,
        );
      } else {
        type = k;
        body = v as Json;
      }
    }
    if (!type) throw parsingError(`Missing definition for aggregation [${name}]`);
    const fn = AGGS[type];
    if (!fn) throw parsingError(`Unknown aggregation type [${type}]`);
    const result = fn(body ?? {}, inputs, sub, name);
    out[name] = meta === undefined ? result : { meta, ...result };
  }
  return out;
}
