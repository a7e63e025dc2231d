// Bucket aggregations keyed by value ranges: histogram, date_histogram and range.

import { esError, illegalArgument, parsingError } from "../_errors.ts";
import { bucketsLeft, consumeBuckets, emptyBucketSurcharge } from "../_index/limits.ts";
import { formatDateAt } from "../_index/dates.ts";
import { parseTimeZone, type TimeZone } from "../_index/time_zones.ts";
import { type Rounding, zonedRounding } from "./zoned_rounding.ts";
import { setOwn } from "../_index/own.ts";
import type { FieldInfo } from "../_index/field_map.ts";
import type { JsonObject } from "../_json.ts";
import {
  type HistogramBounds,
  histogramBounds,
  orderHistogram,
  withinHard,
} from "./histogram_shape.ts";
import { valueFormat } from "./agg_values.ts";
import { keyedRanges } from "./buckets_path.ts";
import { rangeIndex } from "./range_buckets.ts";

/** Docs of one target (by index in the inputs) that fell into a bucket. */
export type BucketDocs = Map<number, number[]>;

/** Feeds every (value, doc, input index) of the aggregated field. */
export type ValueSource = (
  fn: (v: number, doc: number, input: number) => void,
) => FieldInfo | undefined;

/** Renders the sub-aggregations of a bucket's docs. */
export type SubRunner = (docs: BucketDocs) => JsonObject;

const CALENDAR: Record<string, string> = {
  minute: "m",
  "1m": "m",
  hour: "h",
  "1h": "h",
  day: "d",
  "1d": "d",
  week: "w",
  "1w": "w",
  month: "M",
  "1M": "M",
  quarter: "q",
  "1q": "q",
  year: "y",
  "1y": "y",
};
const FIXED_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

function calendarFloor(ms: number, unit: string): number {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  switch (unit) {
    case "y":
      return Date.UTC(y, 0, 1);
    case "q":
      return Date.UTC(y, Math.floor(d.getUTCMonth() / 3) * 3, 1);
    case "M":
      return Date.UTC(y, d.getUTCMonth(), 1);
    case "w":
      return Date.UTC(y, d.getUTCMonth(), d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
    default:
      return Math.floor(ms / FIXED_MS[unit]!) * FIXED_MS[unit]!;
  }
}

function calendarNext(ms: number, unit: string): number {
  const d = new Date(ms);
  if (unit === "y") return Date.UTC(d.getUTCFullYear() + 1, 0, 1);
  if (unit === "q") return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 3, 1);
  if (unit === "M") return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  if (unit === "w") return ms + 7 * 86_400_000;
  return ms + FIXED_MS[unit]!;
}

/** Groups docs by key, counting each doc once per key. */
function group(
  source: ValueSource,
  keyOf: (v: number) => number,
): { info?: FieldInfo; buckets: Map<number, BucketDocs> } {
  const buckets = new Map<number, BucketDocs>();
  const info = source((v, doc, input) => {
    const key = keyOf(v);
    let per = buckets.get(key);
    if (!per) buckets.set(key, per = new Map());
    let list = per.get(input);
    if (!list) per.set(input, list = []);
    if (list[list.length - 1] !== doc) list.push(doc);
  });
  return { info, buckets };
}

function count(docs: BucketDocs | undefined): number {
  let n = 0;
  for (const l of docs?.values() ?? []) n += l.length;
  return n;
}

/** How a histogram writes its buckets: which it leaves out and what each carries. */
interface BucketWriting {
  /** Buckets with fewer documents are left out. */
  readonly minDocCount: number;
  /** A bucket's key fields (`key`, `key_as_string`). */
  readonly render: (k: number) => JsonObject;
  /** Runs a bucket's sub-aggregations, if there are any. */
  readonly sub: SubRunner | null;
}

function keyed(
  keys: number[],
  buckets: Map<number, BucketDocs>,
  writing: BucketWriting,
): JsonObject[] {
  const { minDocCount, render, sub } = writing;
  const out: JsonObject[] = [];
  for (const k of keys) {
    const docs = buckets.get(k);
    const n = count(docs);
    if (n < minDocCount) continue;
    consumeBuckets(1);
    out.push({ ...render(k), doc_count: n, ...(sub ? sub(docs ?? new Map()) : {}) });
  }
  return out;
}

/**
 * The `buckets` of a histogram: an array, or with `keyed: true` an object in the same order keyed
 * by `key_as_string` (dates) or the key written as a double (`"10.0"`).
 */
function byKey(body: JsonObject, list: JsonObject[]): JsonObject {
  if (body.keyed !== true) return { buckets: list };
  const out: JsonObject = {};
  for (const b of list) {
    const k = b.key_as_string ?? (Number.isInteger(b.key) ? `${b.key}.0` : String(b.key));
    setOwn(out, String(k), b);
  }
  return { buckets: out };
}

/** How a histogram numbers its buckets: slots, stepped through in order, each with its key. */
interface SlotScale {
  /** The key of a slot. */
  readonly keyOf: (slot: number) => number;
  /** The slot a value falls in. */
  readonly slotOf: (value: number) => number;
  /** The slot after a slot. */
  readonly next: (slot: number) => number;
}

/**
 * Keys of the buckets to render, ascending: the present ones, and with `min_doc_count: 0` every
 * one between the extremes (widened by `extended_bounds`), all inside `hard_bounds`.
 */
function slotsOf(
  present: number[],
  minDocCount: number,
  bounds: HistogramBounds,
  scale: SlotScale,
): number[] {
  const { keyOf, slotOf, next } = scale;
  const inside = present.filter((k) => withinHard(bounds, keyOf(k)));
  if (minDocCount !== 0) return inside;
  let first = inside[0];
  let last = inside[inside.length - 1];
  const ext = bounds.extended;
  if (ext?.min !== undefined) {
    const s = slotOf(ext.min);
    if (first === undefined || s < first) first = s;
  }
  if (ext?.max !== undefined) {
    const s = slotOf(ext.max);
    if (last === undefined || s > last) last = s;
  }
  if (first === undefined || last === undefined) return inside;
  const slots: number[] = [];
  for (let k = first; k <= last; k = next(k)) {
    if (!withinHard(bounds, keyOf(k))) continue;
    slots.push(k);
    const cost = slots.length + emptyBucketSurcharge(slots.length);
    if (cost > bucketsLeft()) consumeBuckets(cost);
  }
  // each bucket is counted as it is written; what the product counts beyond that, now
  consumeBuckets(emptyBucketSurcharge(slots.length));
  return slots;
}

/** `histogram` on a numeric field (empty buckets between the extremes with min_doc_count 0). */
export function histogramAgg(
  body: JsonObject,
  source: ValueSource,
  sub: SubRunner | null,
  name = "histogram",
): JsonObject {
  // No interval fails on each shard (the builder's default is 0); one of 0 or less, named, is
  // refused while the body is read.
  if (body.interval === undefined) throw illegalArgument("interval must be positive, got: 0.0");
  const interval = Number(body.interval);
  if (!(interval > 0)) {
    throw esError(
      "x_content_parse_exception",
      "[histogram] failed to parse field [interval]",
      {},
      illegalArgument(`[interval] must be >0 for histogram aggregation [${name}]`),
    );
  }
  const offset = Number(body.offset ?? 0);
  const bounds = histogramBounds(body, "histogram", name, Number);
  // Buckets are numbered (value - offset) / interval, so filling the gaps never accumulates
  // rounding and the number of buckets is known before any is made.
  const slotOf = (v: number) => Math.floor((v - offset) / interval);
  const keyOf = (i: number) => i * interval + offset;
  const { info, buckets } = group(source, slotOf);
  const present = [...buckets.keys()].sort((a, b) => a - b);
  const minDocCount = Number(body.min_doc_count ?? 0);
  const slots = slotsOf(present, minDocCount, bounds, { keyOf, slotOf, next: (i) => i + 1 });
  const text = valueFormat(body, info);
  const render = (i: number): JsonObject =>
    text ? { key: keyOf(i), key_as_string: text(keyOf(i)) } : { key: keyOf(i) };
  const list = keyed(slots, buckets, { minDocCount, render, sub });
  return byKey(body, orderHistogram(list, body.order));
}

/** The rounding of a `date_histogram` body (`calendar_interval`, `fixed_interval`, `interval`,
 * `time_zone`, `offset`). */
export function dateRounding(body: JsonObject): Rounding {
  const base = intervalRounding(body, zoneOf(body));
  const off = offsetMs(body.offset);
  if (off === 0) return base;
  return { floor: (ms) => base.floor(ms - off) + off, next: (ms) => base.next(ms - off) + off };
}

/** The `time_zone` of an aggregation body, if any. */
function zoneOf(body: JsonObject): TimeZone | undefined {
  return body.time_zone === undefined ? undefined : parseTimeZone(String(body.time_zone));
}

/** A date `offset` (`"+6h"`, `"-1d"`, or millis) in milliseconds. */
function offsetMs(offset: unknown): number {
  if (offset === undefined || offset === null) return 0;
  if (typeof offset === "number") return offset;
  const m = /^([+-]?)(\d+)(ms|s|m|h|d)$/.exec(String(offset));
  if (!m) {
    throw parsingError(
      `failed to parse setting [date_histogram.offset] with value [${
        String(offset)
      }] as a time value: unit is missing or unrecognized`,
    );
  }
  return (m[1] === "-" ? -1 : 1) * Number(m[2]) * FIXED_MS[m[3]!]!;
}

function intervalRounding(body: JsonObject, zone: TimeZone | undefined): Rounding {
  const spec = String(body.calendar_interval ?? body.fixed_interval ?? body.interval ?? "");
  let utc: Rounding;
  let size: number | null;
  if (
    body.calendar_interval !== undefined || (body.fixed_interval === undefined && CALENDAR[spec])
  ) {
    const unit = CALENDAR[spec];
    if (!unit) {
      throw parsingError(
        `The supplied interval [${spec}] could not be parsed as a calendar interval.`,
      );
    }
    utc = { floor: (ms) => calendarFloor(ms, unit), next: (ms) => calendarNext(ms, unit) };
    size = FIXED_MS[unit] ?? null;
  } else {
    const m = /^(\d+)(ms|s|m|h|d)$/.exec(spec);
    if (!m) {
      throw parsingError(
        `failed to parse setting [date_histogram.fixedInterval] with value [${spec}] as a time value: unit is missing or unrecognized`,
      );
    }
    const fixed = Number(m[1]) * FIXED_MS[m[2]!]!;
    if (!(fixed > 0)) {
      throw illegalArgument("Zero or negative time interval not supported");
    }
    utc = { floor: (ms) => Math.floor(ms / fixed) * fixed, next: (ms) => ms + fixed };
    size = fixed;
  }
  if (zone && !(zone.fixed && zone.offsetAt(0) === 0)) return zonedRounding(utc, size, zone);
  return utc;
}

/** What a `date_histogram` is called and how it reads the dates its body gives. */
export interface DateHistogramOptions {
  /** The aggregation's name in the request (errors name it); `date_histogram` by default. */
  name?: string;
  /** Reads a bound (`extended_bounds`, `hard_bounds`) as epoch millis; `Number` by default. */
  toNumber?: (v: unknown) => number;
}

/** `date_histogram` with `calendar_interval` or `fixed_interval`. */
export function dateHistogramAgg(
  body: JsonObject,
  source: ValueSource,
  sub: SubRunner | null,
  opts: DateHistogramOptions = {},
): JsonObject {
  const { name = "date_histogram", toNumber = Number } = opts;
  const { floor, next } = dateRounding(body);
  const zone = zoneOf(body);
  const bounds = histogramBounds(body, "date_histogram", name, toNumber);
  // Values arrive in millis (date_nanos are scaled down by the source).
  const { info, buckets } = group(source, floor);
  const format = typeof body.format === "string" ? body.format : info?.format;
  const present = [...buckets.keys()].sort((a, b) => a - b);
  const minDocCount = Number(body.min_doc_count ?? 0);
  const keys = slotsOf(present, minDocCount, bounds, { keyOf: (k) => k, slotOf: floor, next });
  const shape = { format, zone };
  const render = (k: number) => ({ key_as_string: formatDateAt(k, shape), key: k });
  const list = keyed(keys, buckets, { minDocCount, render, sub });
  return byKey(body, orderHistogram(list, body.order));
}

function rangeKey(from?: number, to?: number): string {
  const f = (n?: number) => (n === undefined ? "*" : Number.isInteger(n) ? `${n}.0` : String(n));
  return `${f(from)}-${f(to)}`;
}

/** How a `range` reads the bounds its body gives and writes them back. */
export interface RangeValues {
  /** Reads a `from` or `to` as a number (a date in the field's format); `Number` by default. */
  toNumber?: (v: unknown) => number;
  /** Writes a bound as text (`from_as_string`, the key); without it no text is written. */
  format?: (n: number) => string;
}

/** `range` buckets: `[from, to)` per range, keyed `from-to` unless a `key` is given. */
export function rangeAgg(
  body: JsonObject,
  source: ValueSource,
  sub: SubRunner | null,
  values: RangeValues = {},
): JsonObject {
  const { toNumber = Number, format: given } = values;
  // Each bound is written up to three times (key, from_as_string, to_as_string) and neighbouring
  // ranges share bounds: formatted once each.
  const written = new Map<number, string>();
  const format = given && ((n: number) => {
    let text = written.get(n);
    if (text === undefined) written.set(n, text = given(n));
    return text;
  });
  const ranges = body.ranges;
  if (!Array.isArray(ranges)) throw parsingError(`[ranges] must be an array`);
  const defs = ranges.map((r: JsonObject) => ({
    from: r.from === undefined || r.from === null ? undefined : toNumber(r.from),
    to: r.to === undefined || r.to === null ? undefined : toNumber(r.to),
    key: r.key as string | undefined,
  }));
  const index = rangeIndex(defs, (fn) => void source(fn));
  const buckets = defs.map((d, i) => {
    const text = (n?: number) => (n === undefined ? "*" : format!(n));
    const b: JsonObject = {
      key: d.key ?? (format ? `${text(d.from)}-${text(d.to)}` : rangeKey(d.from, d.to)),
    };
    if (d.from !== undefined) {
      b.from = d.from;
      if (format) b.from_as_string = format(d.from);
    }
    if (d.to !== undefined) {
      b.to = d.to;
      if (format) b.to_as_string = format(d.to);
    }
    b.doc_count = index.counts[i]!;
    consumeBuckets(1);
    return sub ? { ...b, ...sub(index.docsOf(i)) } : b;
  });
  return { buckets: body.keyed === true ? keyedRanges(buckets) : buckets };
}
