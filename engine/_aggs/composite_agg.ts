// `composite`: buckets keyed by the combination of several sources' values (terms, histogram,
// date_histogram), sorted by that compound key and paged with `after` / `after_key`.

import { esError, illegalArgument, parsingError } from "../_errors.ts";
import { bucketsLeft, consumeBuckets } from "../_index/limits.ts";
import { dateValueAt, formatDateAt } from "../_index/dates.ts";
import { parseTimeZone, type TimeZone } from "../_index/time_zones.ts";
import { decimalFormat } from "../_index/decimal_format.ts";
import type { FieldInfo } from "../_index/field_map.ts";
import { setOwn } from "../_index/own.ts";
import type { AggInput } from "./agg_values.ts";
import {
  addToBucket,
  combinations,
  docParts,
  type KeyBucket,
  type Part,
  partComparator,
} from "./compound_keys.ts";
import { dateRounding, type SubRunner } from "./bucket_aggs.ts";
import { parseSources, type Source } from "./composite_sources.ts";
import type { JsonObject } from "../_json.ts";

/** Compares two compound keys source by source, each in its own direction and by its own `compares`. */
function compareKeys(
  sources: Source[],
  compares: ((a: Part, b: Part) => number)[],
  a: Part[],
  b: Part[],
): number {
  for (let i = 0; i < sources.length; i++) {
    const s = sources[i]!;
    const x = a[i]!;
    const y = b[i]!;
    if (x === null || y === null) {
      if (x === y) continue;
      return (x === null) === s.nullFirst ? -1 : 1;
    }
    const c = compares[i]!(x, y);
    if (c) return s.desc ? -c : c;
  }
  return 0;
}

/** The function from a field value to the source's key part. */
function rounder(s: Source): (v: number | string | bigint) => Part {
  if (s.type === "histogram") {
    const interval = Number(s.body.interval);
    return (v) => Math.floor(Number(v) / interval) * interval;
  }
  if (s.type === "date_histogram") {
    const { floor } = dateRounding(s.body);
    return (v) => floor(Number(v));
  }
  return (v) => v;
}

/** Whether the source's keys are dates (written as millis, or in `format` when one is given). */
function isDate(s: Source, info: FieldInfo | undefined): boolean {
  return s.type === "date_histogram" || info?.kind === "date";
}

/** The `time_zone` of a date source: keys are written, and `after` read, on its clock. */
function zoneOf(s: Source): TimeZone | undefined {
  const zone = s.body.time_zone;
  return zone === undefined || s.type === "histogram" ? undefined : parseTimeZone(String(zone));
}

function renderPart(s: Source, info: FieldInfo | undefined, p: Part): unknown {
  if (p === null) return null;
  if (info?.kind === "boolean" && s.type === "terms") return p === 1 || p === "true";
  if (isDate(s, info) && typeof s.body.format === "string") {
    return formatDateAt(Number(p), { format: s.body.format, zone: zoneOf(s) });
  }
  if (typeof s.body.format === "string" && typeof p !== "string") {
    return decimalFormat(Number(p), s.body.format);
  }
  return p;
}

function afterPart(
  s: Source,
  info: FieldInfo | undefined,
  v: unknown,
  now: number,
): Part {
  if (v === null && s.missingBucket) return null;
  if (v === null || typeof v === "object") {
    throw illegalArgument(
      `Invalid value for [after.${s.name}], expected comparable, got [${
        v === null ? "null" : Array.isArray(v) ? "ArrayList" : "LinkedHashMap"
      }]`,
    );
  }
  if (isDate(s, info)) {
    const format = typeof s.body.format === "string" ? s.body.format : info?.format;
    return typeof v === "number" ? v : dateValueAt(v, now, { format, zone: zoneOf(s) });
  }
  if (info?.kind === "boolean") return v === true || v === "true" ? 1 : 0;
  if (s.type === "histogram" || (info && info.kind !== "keyword")) {
    const n = typeof v === "number" ? v : Number(v);
    if (Number.isNaN(n)) {
      throw esError("number_format_exception", `For input string: "${String(v)}"`);
    }
    return n;
  }
  return String(v);
}

/** The `composite` aggregation. */
export function compositeAgg(
  body: JsonObject,
  inputs: AggInput[],
  sub: SubRunner | null,
  name: string,
): JsonObject {
  const sources = parseSources(body, name);
  const size = body.size === undefined ? 10 : Number(body.size);
  if (!Number.isInteger(size) || size <= 0) {
    throw illegalArgument(
      `[size] must be greater than 0. Found [${String(body.size)}] in [${name}]`,
    );
  }
  if (size > bucketsLeft()) consumeBuckets(size, true);
  const after = body.after;
  if (
    after !== undefined && (after === null || typeof after !== "object" || Array.isArray(after))
  ) {
    throw parsingError(`[composite] after must be an object`);
  }
  if (after && Object.keys(after).length !== sources.length) {
    throw illegalArgument(
      `[after] has ${Object.keys(after).length} value(s) but [sources] has ${sources.length}`,
    );
  }
  for (const s of sources) {
    if (after && !Object.hasOwn(after, s.name)) {
      throw illegalArgument(`Missing value for [after.${s.name}]`);
    }
  }
  // Per source and input: each doc's distinct key parts (docs ascending).
  const infos: (FieldInfo | undefined)[] = [];
  const perSource = sources.map((s) => {
    const round = rounder(s);
    const nanos = s.type === "date_histogram" &&
      inputs.some((i) => i.ctx.fields.byPath.get(s.field)?.nanos);
    const { maps, info } = docParts(
      inputs,
      s.field,
      (v) => round(nanos ? Math.floor(Number(v) / 1e6) : v),
    );
    infos.push(info);
    return maps;
  });
  const compares = infos.map((info) => partComparator(info?.type === "ip"));
  const afterKey = after
    ? sources.map((s, i) =>
      afterPart(s, infos[i], (after as JsonObject)[s.name], inputs[0]?.ctx.now ?? Date.now())
    )
    : null;
  const buckets = new Map<string, KeyBucket<Part[]>>();
  inputs.forEach((input, k) => {
    for (const doc of input.docs) {
      const lists: Part[][] = [];
      for (let i = 0; i < sources.length; i++) {
        const got = perSource[i]![k]!.get(doc);
        if (got) lists.push(got);
        else if (sources[i]!.missingBucket) lists.push([null]);
        else break;
      }
      if (lists.length < sources.length) continue;
      for (const key of combinations(lists)) {
        if (afterKey && compareKeys(sources, compares, key, afterKey) <= 0) continue;
        addToBucket(buckets, key, k, doc);
      }
    }
  });
  const page = [...buckets.values()].sort((a, b) => compareKeys(sources, compares, a.key, b.key))
    .slice(0, size);
  consumeBuckets(page.length);
  const keyObject = (key: Part[]): JsonObject => {
    const o: JsonObject = {};
    sources.forEach((s, i) => {
      setOwn(o, s.name, renderPart(s, infos[i], key[i]!));
    });
    return o;
  };
  const out: JsonObject = {};
  const last = page[page.length - 1];
  if (last) out.after_key = keyObject(last.key);
  out.buckets = page.map((b) => ({
    key: keyObject(b.key),
    doc_count: b.count,
    ...(sub ? sub(b.docs) : {}),
  }));
  return out;
}
