// Field checks against a mapping: unknown fields (honouring dynamic mapping and `*` patterns),
// full-text queries on fields that are not text, `term` on text, sorting or aggregating on text
// without fielddata.

import type { MappingModel } from "./mapping_model.ts";
import { NUMBER_TYPES as NUMBER_FIELD_TYPES } from "../template/internal.ts";
import { suggest } from "./_suggest.ts";

/** How a field is used: the query or aggregation type around it, in an aggregation, in sort. */
export interface FieldUse {
  readonly variant?: string;
  readonly agg: boolean;
  readonly sort: boolean;
}

/** One finding about a field. */
export interface FieldFinding {
  readonly code: "unknown-field" | "field-type";
  readonly severity: "error" | "warning";
  readonly message: string;
  readonly suggestion?: string;
}

const META = new Set([
  "_id",
  "_index",
  "_score",
  "_doc",
  "_source",
  "_routing",
  "_seq_no",
  "_primary_term",
  "_version",
  "_ignored",
  "_tier",
  "_shard_doc",
  "_count",
  "_key",
  "_term",
  "_field_names",
  "_name",
  "*",
]);
const FULL_TEXT = new Set([
  "match",
  "match_phrase",
  "match_phrase_prefix",
  "match_bool_prefix",
  "intervals",
]);
const TERM_LEVEL = new Set(["term", "terms"]);
/** The mapping types that hold numbers (the template's, with `scaled_float`). */
export const NUMBER_TYPES: ReadonlySet<string> = new Set([...NUMBER_FIELD_TYPES, "scaled_float"]);
// Types a full-text query does not analyse: numbers and the other exact types.
const NUMERIC = new Set([...NUMBER_TYPES, "boolean", "date", "date_nanos", "ip"]);
// Aggregations whose `field` is read from doc values.
const NON_FIELD_AGGS = new Set(["significant_text"]);

/** Checks one field name used in a body. */
export function checkField(mapping: MappingModel, name: string, use: FieldUse): FieldFinding[] {
  if (META.has(name) || name === "") return [];
  if (name.includes("*")) {
    return mapping.matches(name) || mapping.dynamicAt(name.split("*")[0]!.replace(/\.$/, ""))
      ? []
      : [{
        code: "unknown-field",
        severity: "warning",
        message: `no mapped field matches "${name}"`,
      }];
  }
  const field = mapping.field(name);
  if (!field) {
    const dynamic = mapping.dynamicAt(name);
    const s = suggestField(mapping, name);
    return [{
      code: "unknown-field",
      severity: dynamic && !s ? "warning" : "error",
      message: `"${name}" is not in the mapping${
        s ? `; did you mean "${s}"?` : dynamic ? " (it may come from dynamic mapping)" : ""
      }`,
      ...(s ? { suggestion: s } : {}),
    }];
  }
  const out: FieldFinding[] = [];
  const v = use.variant ?? "";
  if (
    !use.agg && !use.sort && FULL_TEXT.has(v) &&
    (NUMERIC.has(field.type) || field.type === "keyword") &&
    v !== "match"
  ) {
    out.push({
      code: "field-type",
      severity: "warning",
      message: `${v} is a full-text query but "${name}" is ${field.type}: use term or range`,
    });
  }
  if (!use.agg && !use.sort && TERM_LEVEL.has(v) && field.type === "text") {
    out.push({
      code: "field-type",
      severity: "warning",
      message:
        `${v} on the text field "${name}" compares with analyzed tokens and usually finds nothing; ` +
        `use match, or a keyword sub-field`,
    });
  }
  if (
    (use.sort || (use.agg && !NON_FIELD_AGGS.has(v))) && field.type === "text" && !field.fielddata
  ) {
    const keyword = mapping.field(`${name}.keyword`) ? `${name}.keyword` : undefined;
    out.push({
      code: "field-type",
      severity: "error",
      message:
        `"${name}" is a text field without fielddata: it cannot be ${
          use.sort ? "sorted on" : "aggregated"
        }` +
        (keyword ? `; use "${keyword}"` : "; map a keyword sub-field"),
      ...(keyword ? { suggestion: keyword } : {}),
    });
  }
  return out;
}

function suggestField(mapping: MappingModel, name: string): string | undefined {
  const parts = name.split(".");
  const candidates: string[] = [];
  // Only names at the same depth and under the same parent are sensible suggestions.
  const parent = parts.slice(0, -1).join(".");
  for (const candidate of allPaths(mapping)) {
    const cp = candidate.split(".");
    if (cp.length === parts.length && cp.slice(0, -1).join(".") === parent) {
      candidates.push(candidate);
    }
  }
  return suggest(name, candidates);
}

function allPaths(mapping: MappingModel): string[] {
  return mapping.paths();
}

/** True when a date literal parses with a date format (the common named and pattern formats). */
export function dateParses(value: string | number, format: string | undefined): boolean {
  const formats = (format ?? "strict_date_optional_time||epoch_millis").split("||");
  if (typeof value === "string" && /^now([+-]\d+[yMwdhHms])*(\/[yMwdhHms])?$/.test(value)) {
    return true;
  }
  const text = String(value).split("||")[0]!;
  return formats.some((f) => parsesWith(text, f.trim()));
}

const ISO =
  /^[+-]?\d{4,}(-\d{2}(-\d{2}([T ]\d{2}(:\d{2}(:\d{2}([.,]\d{1,9})?)?)?(Z|[+-]\d{2}(:?\d{2})?)?)?)?)?$/;

function parsesWith(text: string, format: string): boolean {
  switch (format) {
    case "epoch_millis":
    case "epoch_second":
      return /^-?\d+(\.\d+)?$/.test(text);
    case "strict_date_optional_time":
    case "date_optional_time":
    case "strict_date_optional_time_nanos":
    case "date_time":
    case "strict_date_time":
      return ISO.test(text);
    case "date":
    case "strict_date":
    case "yyyy-MM-dd":
      return /^\d{4}-\d{2}-\d{2}$/.test(text);
    case "year":
    case "strict_year":
    case "yyyy":
      return /^\d{4}$/.test(text);
    case "basic_date":
    case "yyyyMMdd":
      return /^\d{8}$/.test(text);
  }
  if (/^[yMdHhmsSaZXz'T :./,-]+$/.test(format) && /[yMd]/.test(format)) {
    const re = format.replace(/'([^']*)'/g, "$1").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
      .replace(/y+|M+|d+|H+|h+|m+|s+|S+/g, (m) => `\\d{1,${Math.max(m.length, 2)}}`)
      .replace(/Z+|X+|z+/g, "[+-Z][0-9:]*").replace(/a/g, "[AaPp][Mm]");
    return new RegExp(`^${re}$`).test(text);
  }
  return true; // A format this reader does not know: no finding.
}
