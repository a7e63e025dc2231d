// Sort specs: parsing (`sort` body and `sort=f:asc` param), per-doc sort values and comparison.

import { EngineError, esError, illegalArgument, parsingError } from "../_errors.ts";
import type { FieldInfo } from "../_index/field_map.ts";
import { geoSortReader, type GeoSortSpec, parseGeoSort } from "./geo_sort.ts";
import {
  type NestedSort,
  nestedSortReader,
  parseNestedSort,
  type SortTarget,
} from "./nested_sort.ts";
import { float32 } from "../_query/score.ts";
import { type FieldIndex, numAt } from "../_index/segment.ts";
import { exactInteger } from "../_index/exact_long.ts";
import type { SegmentView, ShardSnapshot } from "../_index/shard_snapshot.ts";
import { bigIntToIp, ipToBigInt } from "../_index/ip_address.ts";

/** One sort key. */
export interface SortKey {
  /** Field path, `_score`, `_doc` or `_shard_doc`. */
  readonly field: string;
  /** 1 ascending, -1 descending. */
  readonly order: 1 | -1;
  /** `_last`, `_first` or a substitute value. */
  readonly missing: unknown;
  /** Type to assume when the field is unmapped. */
  readonly unmappedType?: string;
  /** Multi-value mode: min, max, sum, avg, median. */
  readonly mode?: string;
  /** Date format the sort values are written in (and `search_after` read with). */
  readonly format?: string;
  /** `nested`: the values come from the objects under this path (matching its filter). */
  readonly nested?: NestedSort;
  /** `_geo_distance`: distances from points (see `geo_sort.ts`). */
  readonly geo?: GeoSortSpec;
}

const LONG_MAX = 2n ** 63n - 1n; // Long.MAX_VALUE
const LONG_MIN = -(2n ** 63n);
const ULONG_MAX = 2n ** 64n - 1n;
const INT_MAX = 2147483647; // Integer.MAX_VALUE
const INT_MIN = -2147483648;
const INT_TYPES = new Set(["integer", "short", "byte"]);

/**
 * A sort value as reported in `hits.hits[].sort`: a bigint for a whole number beyond 2^53
 * (written with its exact digits).
 */
export type SortValue = number | bigint | string | null;

function key(field: string, opts: Record<string, unknown>, inObject = false): SortKey {
  const isScore = field === "_score";
  const orderText = String(opts.order ?? (isScore ? "desc" : "asc")).toLowerCase();
  if (orderText !== "asc" && orderText !== "desc") {
    // As the real engines: Java's enum lookup fails; inside `{"order": …}` the body parser wraps it.
    const cause = illegalArgument(
      `No enum constant org.elasticsearch.search.sort.SortOrder.${
        String(opts.order).toUpperCase()
      }`,
    );
    if (!inObject) throw cause;
    throw new EngineError(
      400,
      "x_content_parse_exception",
      "[field_sort] failed to parse field [order]",
      { causedBy: cause },
    );
  }
  return {
    field,
    order: orderText === "asc" ? 1 : -1,
    missing: opts.missing ?? "_last",
    unmappedType: opts.unmapped_type as string | undefined,
    mode: opts.mode as string | undefined,
    ...(typeof opts.format === "string" ? { format: opts.format } : {}),
    ...(opts.nested === undefined ? {} : { nested: parseNestedSort(opts.nested) }),
  };
}

/** Parses the body `sort` (string, object or array) or the `sort` URL parameter. */
export function parseSort(body: unknown, param: string | null): SortKey[] {
  if (param) {
    return param.split(",").filter((s) => s).map((s) => {
      const [field, order] = s.split(":");
      return key(field!, order ? { order } : {});
    });
  }
  if (body === undefined || body === null) return [];
  const list = Array.isArray(body) ? body : [body];
  return list.map((item) => {
    if (typeof item === "string") return key(item, {});
    if (typeof item !== "object" || item === null) {
      throw parsingError(`[sort] malformed sort element`);
    }
    const entries = Object.entries(item as Record<string, unknown>);
    if (entries.length !== 1) {
      throw parsingError(`[sort] malformed sort element, expected a single field`);
    }
    const [field, v] = entries[0]!;
    if (typeof v === "string") return key(field, { order: v });
    if (field === "_geo_distance" && typeof v === "object" && v !== null) {
      const opts = v as Record<string, unknown>;
      return { ...key(field, opts, true), geo: parseGeoSort(opts) };
    }
    if (typeof v === "object" && v !== null) {
      return key(field, v as Record<string, unknown>, true);
    }
    throw parsingError(`[sort] malformed sort element for [${field}]`);
  });
}

/** True when hits are ordered by relevance first (no sort, or `_score` descending first). */
export function sortsByScore(keys: readonly SortKey[]): boolean {
  return keys.length === 0 || (keys[0]!.field === "_score" && keys[0]!.order === -1);
}

/**
 * The sort value of a doc without a value. Whole-number and date fields report Long.MAX/MIN_VALUE
 * (or the given `missing`), as Elasticsearch does, so search_after round-trips; other kinds report
 * null. Per type, as Lucene's sort fields do: int for integer/short/byte, float and double
 * infinities; booleans as OpenSearch's int or Elasticsearch's long.
 */
export function missingValue(
  k: SortKey,
  info: FieldInfo,
  flavour?: "elasticsearch" | "opensearch",
): SortValue {
  let missing: SortValue = null;
  if (info.kind === "boolean") {
    // Booleans sort as whole numbers: OpenSearch 3.8.0 reports Integer.MIN/MAX_VALUE for a doc
    // without one, Elasticsearch 9.5.4 Long.MIN/MAX_VALUE.
    const last = (k.missing === "_last") === (k.order === 1);
    const [max, min] = flavour === "opensearch" ? [INT_MAX, INT_MIN] : [LONG_MAX, LONG_MIN];
    // An explicit `missing` on a boolean: not read here (the real engines refuse `true`).
    return k.missing === "_last" || k.missing === "_first" ? (last ? max : min) : null;
  }
  if (info.kind === "number" && !info.integer) {
    const last = (k.missing === "_last") === (k.order === 1);
    missing = k.missing === "_last" || k.missing === "_first"
      ? (last ? Infinity : -Infinity)
      : Number(k.missing);
  }
  if (info.integer || info.kind === "date") {
    const last = (k.missing === "_last") === (k.order === 1);
    const [max, min] = info.type === "unsigned_long"
      ? [ULONG_MAX, 0]
      : INT_TYPES.has(info.type)
      ? [INT_MAX, INT_MIN]
      : [LONG_MAX, LONG_MIN];
    missing = k.missing === "_last" || k.missing === "_first"
      ? (last ? max : min)
      : info.integer
      ? exactInteger(k.missing)
      : Number(k.missing);
  }
  return missing;
}

/** Reads the sort value of a doc for one key in one target. */
export type ValueReader = (global: number, score: number) => SortValue;

/**
 * Builds a reader of sort values for `key` in one target; throws like ES for unmapped or text
 * fields. `shardDocBase` is added to a document's ordinal for `_shard_doc`.
 */
export function sortReader(k: SortKey, on: SortTarget, shardDocBase: number): ValueReader {
  const { snapshot, fields, index } = on;
  if (k.field === "_score") return (_d, score) => float32(score);
  if (k.field === "_doc") return (d) => d;
  if (k.field === "_shard_doc") return (d) => shardDocBase + d;
  if (k.field === "_id") {
    throw illegalArgument(
      "Fielddata access on the _id field is disallowed, you can re-enable it by updating the dynamic cluster setting: indices.id_field_data.enabled",
    );
  }
  if (k.field === "_index") return () => index;
  if (k.geo) {
    return geoSortReader(k.geo, k.mode ?? (k.order === 1 ? "min" : "max"), k.order, on);
  }
  if (k.nested) return nestedSortReader(k, on, sortReader, missingValue);
  const info = fields.byPath.get(k.field);
  if (!info && fields.full.byPath.has(k.field)) {
    throw esError(
      "query_shard_exception",
      `it is mandatory to set the [nested] context on the nested sort field: [${k.field}].`,
      { index },
    );
  }
  if (!info) {
    if (k.unmappedType) return () => null;
    throw esError(
      "query_shard_exception",
      `No mapping found for [${k.field}] in order to sort on`,
      { index },
    );
  }
  if (info.kind === "text") {
    throw illegalArgument(
      `Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [${k.field}] in order to load field data by uninverting the inverted index. Note that this can use significant memory.`,
    );
  }
  const mode = k.mode ?? (k.order === 1 ? "min" : "max");
  const missing = missingValue(k, info, on.flavour);
  if (info.type === "ip") {
    return ipReader(snapshot, info.path, mode === "max" ? "max" : "min", missing);
  }
  // Callers mostly read ascending ordinals: remember the last segment instead of searching each time.
  let v: SegmentView | undefined;
  let f: FieldIndex | undefined;
  const read: ValueReader = (global) => {
    if (!v || global < v.base || global >= v.base + v.segment.maxDoc) {
      v = snapshot.viewOf(global);
      f = v.segment.fields.get(info.path);
    }
    if (!f) return missing;
    const local = global - v.base;
    const start = f.dvStart[local]!;
    const end = f.dvStart[local + 1]!;
    if (start === end) return missing;
    if (f.strValues) return mode === "max" ? f.strValues[end - 1]! : f.strValues[start]!;
    const nums = f.numValues!;
    switch (mode) {
      case "max":
        return numAt(f, end - 1);
      case "sum":
      case "avg": {
        if (info.integer) {
          // Java long arithmetic: the sum wraps around on overflow; avg rounds.
          let big = 0n;
          for (let i = start; i < end; i++) big += BigInt(numAt(f, i));
          const wrapped = exactInteger(BigInt.asIntN(64, big));
          return mode === "sum"
            ? wrapped
            : exactInteger(Math.round(Number(wrapped) / (end - start)));
        }
        let s = 0;
        for (let i = start; i < end; i++) s += nums[i]!;
        return mode === "sum" ? s : s / (end - start);
      }
      case "median": {
        const n = end - start;
        const mid = start + (n >> 1);
        return n % 2 ? nums[mid]! : (nums[mid - 1]! + nums[mid]!) / 2;
      }
      default:
        return numAt(f, start);
    }
  };
  // Epoch nanoseconds pass 2^53: report them as whole numbers (Elasticsearch writes a long),
  // with the shortest digits that read back as the double kept (ordered as the doubles are).
  return info.nanos ? (global, score) => wholeNumber(read(global, score)) : read;
}

/**
 * The sort values of an `ip` field: the address as a 128-bit bigint, so that values order by
 * address (IPv4 mapped into IPv6: `::1` < `10.0.0.1` < `2001:db8::7`) as in the real engines;
 * `presentSortValue` writes them back as addresses.
 */
function ipReader(
  snapshot: ShardSnapshot,
  path: string,
  pick: "min" | "max",
  missing: SortValue,
): ValueReader {
  const max = pick === "max";
  return (global) => {
    const v = snapshot.viewOf(global);
    const f = v.segment.fields.get(path);
    if (!f?.strValues) return missing;
    const local = global - v.base;
    let best: bigint | null = null;
    for (let i = f.dvStart[local]!; i < f.dvStart[local + 1]!; i++) {
      const n = ipToBigInt(f.strValues[i]!);
      if (n !== null && (best === null || (max ? n > best : n < best))) best = n;
    }
    return best ?? missing;
  };
}

/**
 * A sort value as the hit reports it: an `ip` field's address (kept as a bigint to order by)
 * written as the real engines print it; other values unchanged.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { presentSortValue } from "./sort.ts";
 * assert.equal(presentSortValue(0xffff0a000001n, "ip"), "10.0.0.1");
 * assert.equal(presentSortValue(7, "long"), 7);
 * ```
 */
export function presentSortValue(v: SortValue, type: string | undefined): SortValue {
  return type === "ip" && typeof v === "bigint" ? bigIntToIp(v) : v;
}

/** The `search_after` value of an `ip` sort key: the address as the reader keeps it. */
export function ipAfterValue(v: unknown): SortValue {
  const n = ipToBigInt(String(v));
  if (n === null) throw illegalArgument(`'${String(v)}' is not an IP string literal.`);
  return n;
}

function wholeNumber(v: SortValue): SortValue {
  if (typeof v !== "number" || Number.isSafeInteger(v) || !Number.isFinite(v)) return v;
  const digits = String(v);
  return /^-?\d+$/.test(digits) ? BigInt(digits) : v;
}

/** Compares two sort values under a key, placing missing values per `missing`. */
export function compareValues(a: SortValue, b: SortValue, k: SortKey): number {
  if (a === null || b === null) {
    if (a === b) return 0;
    const missingFirst = k.missing === "_first";
    if (k.missing !== "_last" && !missingFirst) {
      return compareValues(a ?? (k.missing as SortValue), b ?? (k.missing as SortValue), {
        ...k,
        missing: "_last",
      });
    }
    return (a === null) === missingFirst ? -1 : 1;
  }
  if (typeof a === "number" && typeof b === "number") return (a - b) * k.order;
  if (typeof a !== "string" && typeof b !== "string") return (a < b ? -1 : a > b ? 1 : 0) * k.order;
  const x = String(a);
  const y = String(b);
  return (x < y ? -1 : x > y ? 1 : 0) * k.order;
}
