// Shared pieces of the aggregations: the per-target input and reading a field's doc values.

import { type EngineError, esError, illegalArgument, parsingError } from "../_errors.ts";
import { dateValueAt, formatDateAt } from "../_index/dates.ts";
import { decimalFormat } from "../_index/decimal_format.ts";
import type { Hits } from "../_query/doc_set.ts";
import type { ExecContext } from "../_query/exec_context.ts";
import type { FieldInfo } from "../_index/field_map.ts";
import { numAt } from "../_index/segment.ts";
import { isIpText } from "../_index/ip_address.ts";
import { dateParseError } from "../_query/range_query.ts";
import { compileRegexp } from "../_query/regexp_syntax.ts";
import type { JsonObject } from "../_json.ts";

/** The docs one target contributes to an aggregation. */
export interface AggInput {
  /** Execution context of the target. */
  readonly ctx: ExecContext;
  /** The top-level matches with their scores (for `top_hits`). */
  readonly scored?: Hits;
  /** Matching docs (global ordinals, ascending). */
  readonly docs: Int32Array;
}

/** A JSON object. */
/** One aggregation type: body, inputs, sub-aggregations, name → result. */
export type AggFn = (
  body: JsonObject,
  inputs: AggInput[],
  sub: JsonObject | undefined,
  name: string,
) => JsonObject;

/** The field of an input, refusing text fields like Elasticsearch (fielddata disabled). */
export function fieldInfo(input: AggInput, field: string): FieldInfo | undefined {
  const info = input.ctx.fields.byPath.get(field);
  if (info?.kind === "text") {
    throw illegalArgument(
      `Fielddata is disabled on [${field}] in [${input.ctx.index}]. Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [${field}] in order to load field data by uninverting the inverted index. Note that this can use significant memory.`,
    );
  }
  return info;
}

/**
 * Calls `fn` with each value of `field` in each doc: numbers as doubles, or with `exact`, whole
 * numbers beyond 2^53 as bigints (for keys and distinct counts).
 */
export function eachValue(
  inputs: AggInput[],
  field: string,
  fn: (v: number | string, doc: number, input: AggInput) => void,
): FieldInfo | undefined;
export function eachValue(
  inputs: AggInput[],
  field: string,
  fn: (v: number | string | bigint, doc: number, input: AggInput) => void,
  exact: true,
): FieldInfo | undefined;
export function eachValue(
  inputs: AggInput[],
  field: string,
  fn:
    | ((v: number | string, doc: number, input: AggInput) => void)
    | ((v: number | string | bigint, doc: number, input: AggInput) => void),
  exact = false,
): FieldInfo | undefined {
  const call = fn as (v: number | string | bigint, doc: number, input: AggInput) => void;
  let seen: FieldInfo | undefined;
  for (const input of inputs) {
    const info = fieldInfo(input, field);
    if (!info) continue;
    seen ??= info;
    // Docs are ascending, so walk the segments in step instead of looking each doc up.
    const views = input.ctx.snapshot.views;
    let vi = 0;
    for (const d of input.docs) {
      while (vi + 1 < views.length && views[vi + 1]!.base <= d) vi++;
      const v = views[vi]!;
      const f = v.segment.fields.get(field);
      if (!f) continue;
      const local = d - v.base;
      const end = f.dvStart[local + 1]!;
      const strs = f.strValues;
      const nums = f.numValues;
      if (exact && f.exact) {
        for (let i = f.dvStart[local]!; i < end; i++) call(numAt(f, i), d, input);
        continue;
      }
      for (let i = f.dvStart[local]!; i < end; i++) call(strs ? strs[i]! : nums![i]!, d, input);
    }
  }
  return seen;
}

/** The required `field` of an aggregation body (scripts are refused). */
export function fieldOf(body: JsonObject, _name: string, type: string): string {
  if (typeof body.field === "string") return body.field;
  if (body.script !== undefined) {
    throw illegalArgument(
      `[${type}] aggregation scripts are not supported by this engine; use a [field]`,
    );
  }
  throw illegalArgument("Required one of fields [field, script], but none were specified.");
}

/**
 * Like {@link eachValue}, and a doc without a value counts as `missing` when the body gives one
 * (converted to the field's type: a date string becomes its epoch millis).
 */
export function eachValueOrMissing(
  inputs: AggInput[],
  body: JsonObject,
  field: string,
  fn: (v: number | string, doc: number, input: AggInput) => void,
): FieldInfo | undefined {
  const missing = body.missing;
  if (missing === undefined || missing === null) return eachValue(inputs, field, fn);
  let seen: FieldInfo | undefined;
  for (const input of inputs) {
    const has = new Set<number>();
    const info = eachValue([input], field, (v, d, i) => {
      has.add(d);
      fn(v, d, i);
    });
    seen ??= info;
    const value = missingValue(missing, info, input.ctx.now);
    for (const d of input.docs) if (!has.has(d)) fn(value, d, input);
  }
  return seen;
}

function missingValue(missing: unknown, info: FieldInfo | undefined, now: number): number | string {
  if (info?.kind === "date") {
    const ms = dateValueAt(missing, now, info);
    if (Number.isNaN(ms) && typeof missing === "string") {
      throw dateParseError(missing, info.format ?? "strict_date_optional_time||epoch_millis");
    }
    return ms;
  }
  if (info?.type === "ip" && !isIpText(missing)) {
    // Real OpenSearch 3.8.0 and Elasticsearch 9.5.4: a 400 from the shards.
    throw illegalArgument(`'${String(missing)}' is not an IP string literal.`);
  }
  if (info?.kind === "keyword") return String(missing);
  if (info?.kind === "boolean") {
    if (typeof missing === "string" && missing !== "true" && missing !== "false") {
      // Real OpenSearch 3.8.0 and Elasticsearch 9.5.4: a 400 from the shards.
      throw illegalArgument(`Cannot parse boolean [${missing}], expected either [true] or [false]`);
    }
    return missing === true || missing === "true" ? 1 : 0;
  }
  const n = Number(missing);
  if (Number.isNaN(n)) {
    if (info) throw numberFormat(missing);
    return String(missing);
  }
  return n;
}

function numberFormat(v: unknown): Error {
  return esError("number_format_exception", `For input string: "${String(v)}"`);
}

/**
 * How an aggregation writes its numbers as text (`key_as_string`, `value_as_string`): the body's
 * `format` (a date pattern on dates, a `DecimalFormat` pattern otherwise) or a date field's own
 * format; `null` when the numbers are written as numbers only.
 */
export function valueFormat(
  body: JsonObject,
  info: FieldInfo | undefined,
): ((n: number) => string) | null {
  const format = typeof body.format === "string" ? body.format : undefined;
  if (info?.kind === "date") {
    const shape = { nanos: info.nanos, format: format ?? info.format };
    return (n) => formatDateAt(n, shape);
  }
  if (format === undefined) return null;
  return (n) => decimalFormat(n, format);
}

/**
 * A field of an aggregation body the parser refuses, as Elasticsearch wraps it: an
 * `x_content_parse_exception` "failed to parse field" caused by `cause` (an illegal argument
 * with `reason` by default).
 */
export function badField(
  type: string,
  field: string,
  reason: string,
  cause?: EngineError,
): Error {
  return esError(
    "x_content_parse_exception",
    `[${type}] failed to parse field [${field}]`,
    {},
    cause ?? illegalArgument(reason),
  );
}

/**
 * A terms `include`/`exclude` test: an array of values or a whole-key Lucene regular expression
 * (run on the engine's bounded automaton, as the `regexp` query is).
 */
export function keyFilter(spec: unknown): ((k: number | string | bigint) => boolean) | null {
  if (spec === undefined || spec === null) return null;
  if (Array.isArray(spec)) {
    const set = new Set(spec.map(String));
    return (k) => set.has(String(k));
  }
  if (typeof spec === "string") {
    const re = compileRegexp(spec);
    return (k) => re.test(String(k));
  }
  if (typeof spec === "object" && Object.hasOwn(spec, "partition")) {
    throw illegalArgument(
      "terms partitions ([include.partition]) are not supported by this engine; page with a composite aggregation instead",
    );
  }
  return null;
}

/** One aggregation of a request as it is read: its body, type and name (errors name them). */
export interface AggSpec {
  readonly body: JsonObject;
  readonly type: string;
  readonly name: string;
}

/** A positive `size`-like setting of an aggregation body (`fallback` when absent), as parsed. */
export function positiveSetting(agg: AggSpec, key: string, fallback: number): number {
  const { body, type, name } = agg;
  const v = body[key];
  if (v === undefined) return fallback;
  if (!(Number(v) > 0)) {
    throw badField(type, key, `[${key}] must be greater than 0. Found [${v}] in [${name}]`);
  }
  return Number(v);
}

/** The sign of an `order` direction (`asc` 1, `desc` -1); anything else refused as the parser does. */
export function orderSign(type: string, dir: unknown): 1 | -1 {
  const d = String(dir).toLowerCase();
  if (d === "asc") return 1;
  if (d === "desc") return -1;
  throw badField(type, "order", "", parsingError(`Unknown order direction [${dir}]`));
}

/** Refuses a keyword field where a metric needs numbers, as Elasticsearch does. */
export function numericOnly(inputs: AggInput[], field: string, type: string): void {
  for (const input of inputs) {
    if (fieldInfo(input, field)?.kind === "keyword") {
      throw illegalArgument(
        `Field [${field}] of type [keyword] is not supported for aggregation [${type}]`,
      );
    }
  }
}
