// `auto_date_histogram`: a date histogram that picks its own interval, the finest of
// Elasticsearch's roundings (1, 5, 10, 30 seconds or minutes; 1, 3, 12 hours; 1, 7 days; 1, 3
// months; 1, 5, 10, 20, 50, 100 years) that gives at most `buckets` buckets. Multi-unit
// intervals group the unit's buckets from the first one (7 days from the first day).

import { illegalArgument } from "../_errors.ts";
import { consumeBuckets } from "../_index/limits.ts";
import { formatDateAt } from "../_index/dates.ts";
import { parseTimeZone } from "../_index/time_zones.ts";
import { type BucketDocs, dateRounding, type SubRunner, type ValueSource } from "./bucket_aggs.ts";
import type { JsonObject } from "../_json.ts";

const ROUNDINGS: { unit: string; body: JsonObject; inner: number[] }[] = [
  { unit: "s", body: { fixed_interval: "1s" }, inner: [1, 5, 10, 30] },
  { unit: "m", body: { fixed_interval: "1m" }, inner: [1, 5, 10, 30] },
  { unit: "h", body: { fixed_interval: "1h" }, inner: [1, 3, 12] },
  { unit: "d", body: { fixed_interval: "1d" }, inner: [1, 7] },
  { unit: "M", body: { calendar_interval: "1M" }, inner: [1, 3] },
  { unit: "y", body: { calendar_interval: "1y" }, inner: [1, 5, 10, 20, 50, 100] },
];
const MINIMUM: Record<string, number> = {
  second: 0,
  minute: 1,
  hour: 2,
  day: 3,
  month: 4,
  year: 5,
};

/** The `auto_date_histogram` aggregation. */
export function autoDateHistogramAgg(
  body: JsonObject,
  source: ValueSource,
  sub: SubRunner | null,
  name: string,
): JsonObject {
  const target = Number(body.buckets ?? 10);
  if (!(Number.isInteger(target) && target > 0)) {
    throw illegalArgument(
      `[buckets] must be a positive integer in [${name}], got [${body.buckets}]`,
    );
  }
  const minimum = body.minimum_interval;
  if (minimum !== undefined && !Object.hasOwn(MINIMUM, String(minimum))) {
    throw illegalArgument(
      `minimum_interval must be one of [second, minute, hour, day, month, year], got [${minimum}]`,
    );
  }
  const values: { v: number; doc: number; input: number }[] = [];
  const info = source((v, doc, input) => values.push({ v, doc, input }));
  const format = typeof body.format === "string" ? body.format : info?.format;
  const zone = body.time_zone === undefined ? undefined : parseTimeZone(String(body.time_zone));
  let lo = Infinity;
  let hi = -Infinity;
  for (const { v } of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  // The finest rounding whose bucket count fits; the coarsest when none does.
  let unit = "y";
  let inner = 100;
  let base: number[] = [];
  let floor = (ms: number) => ms;
  const first = minimum === undefined ? 0 : MINIMUM[String(minimum)]!;
  search: for (const r of ROUNDINGS.slice(first)) {
    const rounding = dateRounding(
      body.time_zone === undefined ? r.body : { ...r.body, time_zone: body.time_zone },
    );
    const keys: number[] = [];
    if (values.length) {
      const limit = target * r.inner[r.inner.length - 1]!;
      for (let k = rounding.floor(lo); k <= hi && keys.length <= limit; k = rounding.next(k)) {
        keys.push(k);
      }
    }
    for (const n of r.inner) {
      unit = r.unit;
      inner = n;
      base = keys;
      floor = rounding.floor;
      if (Math.ceil(keys.length / n) <= target) break search;
    }
  }
  const slots = new Map<number, number>();
  base.forEach((k, i) => slots.set(k, Math.floor(i / inner)));
  const count = Math.ceil(base.length / inner);
  consumeBuckets(count);
  const docs: BucketDocs[] = Array.from({ length: count }, () => new Map());
  for (const { v, doc, input } of values) {
    const slot = slots.get(floor(v));
    if (slot === undefined) continue;
    let list = docs[slot]!.get(input);
    if (!list) docs[slot]!.set(input, list = []);
    if (list[list.length - 1] !== doc) list.push(doc);
  }
  const buckets = docs.map((d, slot) => {
    const key = base[slot * inner]!;
    let n = 0;
    for (const l of d.values()) n += l.length;
    return {
      key_as_string: formatDateAt(key, { format, zone }),
      key,
      doc_count: n,
      ...(sub ? sub(d) : {}),
    };
  });
  return { buckets, interval: `${inner}${unit}` };
}
