// The `sources` of a `composite` aggregation, parsed and checked as Elasticsearch checks them, and
// where a composite may sit in the aggregation tree.

import { illegalArgument, parsingError } from "../_errors.ts";
import { dateRounding } from "./bucket_aggs.ts";
import type { JsonObject } from "../_json.ts";

/** One parsed composite source. */
export interface Source {
  readonly name: string;
  readonly type: string;
  readonly field: string;
  readonly body: JsonObject;
  readonly desc: boolean;
  readonly missingBucket: boolean;
  /** Whether the missing bucket sorts before every value (after the direction is applied). */
  readonly nullFirst: boolean;
}

const SOURCE_TYPES = new Set(["terms", "histogram", "date_histogram"]);
/** What every source takes; each type adds its own. */
const COMMON_SOURCE_FIELDS = [
  "field",
  "missing_bucket",
  "missing_order",
  "order",
  "format",
  "value_type",
];
const SOURCE_FIELDS: Record<string, Set<string>> = {
  terms: new Set(COMMON_SOURCE_FIELDS),
  histogram: new Set([...COMMON_SOURCE_FIELDS, "interval"]),
  date_histogram: new Set([
    ...COMMON_SOURCE_FIELDS,
    "calendar_interval",
    "fixed_interval",
    "interval",
    "offset",
    "time_zone",
  ]),
};
// Aggregations a composite may sit under: they do not split their docs into several buckets.
const TRANSPARENT = new Set(["nested", "filter"]);

function factoryName(type: string): string {
  const camel = type.split("_").map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("");
  return type === "composite" ? "CompositeAggregationFactory" : `${camel}AggregatorFactory`;
}

/**
 * Refuses a `composite` below a multi-bucket (or any non-transparent) aggregation, before
 * anything runs, as Elasticsearch does when it builds the aggregators.
 */
export function checkCompositePlacement(aggs: JsonObject, parent: string | null): void {
  for (const def of Object.values(aggs)) {
    if (def === null || typeof def !== "object" || Array.isArray(def)) continue;
    let type: string | null = null;
    let sub: unknown;
    for (const [k, v] of Object.entries(def as JsonObject)) {
      if (k === "aggs" || k === "aggregations") sub = v;
      else if (k !== "meta") type = k;
    }
    if (type === "composite" && parent !== null) {
      throw illegalArgument(
        `[composite] aggregation cannot be used with a parent aggregation of type: [${
          factoryName(parent)
        }]`,
      );
    }
    if (sub !== null && typeof sub === "object" && !Array.isArray(sub)) {
      const next = type !== null && TRANSPARENT.has(type) ? parent : type;
      checkCompositePlacement(sub as JsonObject, next);
    }
  }
}

/** Parses and checks a composite body's `sources`. */
export function parseSources(body: JsonObject, name: string): Source[] {
  const list = body.sources;
  if (list === undefined) throw illegalArgument("Required [sources]");
  if (list === null || (Array.isArray(list) && list.length === 0)) {
    throw illegalArgument("Composite [sources] cannot be null or empty");
  }
  if (!Array.isArray(list)) {
    throw parsingError(`[composite] sources must be an array in [${name}]`);
  }
  const sources: Source[] = [];
  const dups: string[] = [];
  for (const entry of list) {
    const pairs = entry !== null && typeof entry === "object" && !Array.isArray(entry)
      ? Object.entries(entry as JsonObject)
      : [];
    if (pairs.length !== 1) {
      throw parsingError(`[composite] each source must be an object with one named source`);
    }
    const [srcName, def] = pairs[0]!;
    const inner = def !== null && typeof def === "object" && !Array.isArray(def)
      ? Object.entries(def as JsonObject)
      : [];
    if (inner.length !== 1) {
      throw parsingError(`[composite] source [${srcName}] must name exactly one source type`);
    }
    const [type, spec] = inner[0]!;
    if (!SOURCE_TYPES.has(type)) throw parsingError(`invalid source type: ${type}`);
    const src = spec as JsonObject;
    for (const k of Object.keys(src)) {
      if (!SOURCE_FIELDS[type]!.has(k)) {
        throw parsingError(`[${type}] unknown field [${k}]`);
      }
    }
    if (typeof src.field !== "string") {
      throw illegalArgument(`Composite values source [${srcName}] requires a [field]`);
    }
    const order = String(src.order ?? "asc").toLowerCase();
    if (order !== "asc" && order !== "desc") {
      throw illegalArgument(`Unknown SortOrder [${String(src.order)}]`);
    }
    const missingBucket = src.missing_bucket === true || src.missing_bucket === "true";
    const missingOrder = String(src.missing_order ?? "default").toLowerCase();
    if (!["first", "last", "default"].includes(missingOrder)) {
      throw illegalArgument(`Unknown MissingOrder [${String(src.missing_order)}]`);
    }
    if (!missingBucket && missingOrder !== "default") {
      throw illegalArgument("missingOrder can only be set if missingBucket is true");
    }
    if (type === "histogram" && !(Number(src.interval) > 0)) {
      throw illegalArgument(
        `[interval] must be greater than 0 for [histogram] source [${srcName}]`,
      );
    }
    if (type === "date_histogram") dateRounding(src);
    if (sources.some((s) => s.name === srcName) && !dups.includes(srcName)) dups.push(srcName);
    const desc = order === "desc";
    sources.push({
      name: srcName,
      type,
      field: src.field,
      body: src,
      desc,
      missingBucket,
      nullFirst: missingOrder === "first" || (missingOrder === "default" && !desc),
    });
  }
  if (dups.length) {
    throw illegalArgument(
      `Composite source names must be unique, found duplicates: [${dups.join(", ")}]`,
    );
  }
  return sources;
}
