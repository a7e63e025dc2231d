// Mappings as GET /{index}/_mapping and GET /{index} print them: Elasticsearch and OpenSearch
// keep what they parsed, not the request's text, so values come back in their parsed form
// (booleans and numbers given as strings, `copy_to` and `dynamic_date_formats` as lists,
// `dynamic` as a string), parameters equal to their defaults are left out, a plain object loses
// its `"type": "object"` beside `properties`, and fields are listed by name.

import { NUMBER_TYPES } from "../_index/field_map.ts";
import { setOwn } from "../_index/own.ts";
import type { FieldMapping, Mappings } from "../_index/types.ts";

type Json = Record<string, unknown>;

/** Field parameters read as booleans ("true"/"false" strings become booleans). */
const BOOLEAN_PARAMS = new Set([
  "index",
  "doc_values",
  "store",
  "norms",
  "enabled",
  "coerce",
  "ignore_malformed",
  "eager_global_ordinals",
  "include_in_parent",
  "include_in_root",
  "index_phrases",
  "fielddata",
  "ignore_z_value",
  "split_queries_on_whitespace",
  "preserve_separators",
  "preserve_position_increments",
]);

/** Field parameters read as numbers (numeric strings become numbers). */
const NUMBER_PARAMS = new Set([
  "ignore_above",
  "position_increment_gap",
  "scaling_factor",
  "boost",
  "dims",
  "max_shingle_size",
  "max_input_length",
  "depth_limit",
]);

const VECTOR_TYPES = new Set(["dense_vector", "knn_vector", "sparse_vector"]);

const KEYWORD_LIKE = new Set(["keyword", "constant_keyword", "wildcard", "flattened"]);

/** The value a parameter has when it is not given, for the field type, if any. */
function defaultOf(type: string, param: string): unknown {
  // Vector mappings print their defaults (`index: true` among them).
  if (VECTOR_TYPES.has(type)) return undefined;
  switch (param) {
    case "index":
    case "enabled":
      return true;
    case "doc_values":
      return type === "text" || type === "match_only_text" ? undefined : true;
    case "store":
    case "eager_global_ordinals":
      return false;
    case "norms":
      return type === "text" ? true : KEYWORD_LIKE.has(type) ? false : undefined;
    case "boost":
      return 1;
    case "ignore_above":
      return type === "keyword" ? 2147483647 : undefined;
    case "index_options":
      return type === "text" ? "positions" : type === "keyword" ? "docs" : undefined;
    case "format":
      return type === "date" || type === "date_nanos"
        ? "strict_date_optional_time||epoch_millis"
        : undefined;
    default:
      return undefined;
  }
}

function asBoolean(v: unknown): unknown {
  return v === "true" ? true : v === "false" ? false : v;
}

function asNumber(v: unknown): unknown {
  return typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : v;
}

function byName(props: Record<string, FieldMapping>): Record<string, FieldMapping> {
  const out: Record<string, FieldMapping> = {};
  for (const name of Object.keys(props).sort()) setOwn(out, name, fieldView(props[name]!));
  return out;
}

/**
 * Leaves out analyzers equal to their defaults, as both real engines print them: `analyzer` when
 * it is `default` and the search analyzer is the same, `search_analyzer` when it is the
 * analyzer, `search_quote_analyzer` when it is the search analyzer.
 */
function dropDefaultAnalyzers(out: Json): void {
  const analyzer = out.analyzer ?? "default";
  const search = out.search_analyzer ?? analyzer;
  const quote = out.search_quote_analyzer ?? search;
  if (quote === search) delete out.search_quote_analyzer;
  if (search === analyzer) delete out.search_analyzer;
  if (analyzer === "default" && search === analyzer) delete out.analyzer;
}

function fieldView(field: FieldMapping): FieldMapping {
  const type = field.type ?? "object";
  const out: Json = {};
  for (const [key, raw] of Object.entries(field)) {
    let value = raw;
    if (BOOLEAN_PARAMS.has(key)) value = asBoolean(value);
    else if (NUMBER_PARAMS.has(key)) value = asNumber(value);
    else if (key === "null_value" && NUMBER_TYPES.has(type)) value = asNumber(value);
    else if (key === "dynamic" && value !== null && value !== undefined) value = String(value);
    else if (key === "copy_to" && typeof value === "string") value = [value];
    if (key === "copy_to" && Array.isArray(value) && value.length === 0) continue;
    if ((key === "properties" || key === "fields") && value && typeof value === "object") {
      if (Object.keys(value).length === 0) continue;
      value = byName(value as Record<string, FieldMapping>);
    }
    if (key !== "type" && value === defaultOf(type, key)) continue;
    out[key] = value;
  }
  if (out.type === "object" && out.properties !== undefined) delete out.type;
  dropDefaultAnalyzers(out);
  return out as FieldMapping;
}

/**
 * The mappings as the real engines print them (both Elasticsearch 9.5 and OpenSearch 3.8 alike).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mappingView } from "./mapping_view.ts";
 *
 * const view = mappingView({
 *   dynamic: false,
 *   properties: { b: { type: "text", copy_to: "a" }, a: { type: "object", properties: {} } },
 * });
 * assert.deepEqual(view, {
 *   dynamic: "false",
 *   properties: { a: { type: "object" }, b: { type: "text", copy_to: ["a"] } },
 * });
 * ```
 */
export function mappingView(mappings: Mappings): Mappings {
  const out: Json = {};
  for (const [key, raw] of Object.entries(mappings)) {
    let value = raw;
    if (key === "properties" && value && typeof value === "object") {
      value = byName(value as Record<string, FieldMapping>);
    } else if (key === "dynamic" && value !== null && value !== undefined) value = String(value);
    else if (key === "date_detection" || key === "numeric_detection") value = asBoolean(value);
    else if (key === "dynamic_date_formats" && typeof value === "string") value = [value];
    else if ((key === "_source" || key === "_routing") && value && typeof value === "object") {
      const meta: Json = {};
      for (const [k, v] of Object.entries(value as Json)) {
        const parsed = k === "enabled" || k === "required" ? asBoolean(v) : v;
        if ((k === "enabled" && parsed === true) || (k === "required" && parsed === false)) {
          continue;
        }
        meta[k] = parsed;
      }
      if (Object.keys(meta).length === 0) continue;
      value = meta;
    }
    out[key] = value;
  }
  return out as Mappings;
}
