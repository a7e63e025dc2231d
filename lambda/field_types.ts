// The index mapping as the compiler needs it: which fields are `text`, and the keyword sub-field
// that gives a text field its exact form. Read from `GET /{index}/_mapping`.

import { DataAccessError } from "../driver/mod.ts";
import { AS_WRITTEN, type ExactResolver } from "./compiler.ts";

/** One mapped field: its type, and for a text field the path of a keyword sub-field. */
export interface FieldType {
  /** The mapping type (`text`, `keyword`, `long`, `date`, …). */
  readonly type: string;
  /** For a text field: the path of its keyword sub-field, when it has one. */
  readonly keyword?: string;
  /** For a vector field: its similarity (`cosine`, `l2_norm`, OpenSearch's `l2`, ...). */
  readonly similarity?: string;
}

/** Field path → type, as read from an index mapping. */
export type FieldTypes = ReadonlyMap<string, FieldType>;

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function walk(properties: Record<string, unknown>, prefix: string, out: Map<string, FieldType>) {
  for (const [name, def] of Object.entries(properties)) {
    if (!isObject(def)) continue;
    const path = prefix + name;
    if (isObject(def.properties)) walk(def.properties, path + ".", out);
    if (typeof def.type !== "string") continue;
    let keyword: string | undefined;
    if (def.type === "text" && isObject(def.fields)) {
      const subs = Object.entries(def.fields).filter(([, s]) =>
        isObject(s) && s.type === "keyword"
      );
      const sub = subs.find(([n]) => n === "keyword") ?? subs[0];
      if (sub) keyword = `${path}.${sub[0]}`;
    }
    // Multi-fields are fields too (`name.keyword` named directly is exact as it is).
    for (const [sub, subDef] of Object.entries(isObject(def.fields) ? def.fields : {})) {
      const subPath = `${path}.${sub}`;
      if (isObject(subDef) && typeof subDef.type === "string" && !out.has(subPath)) {
        out.set(subPath, Object.freeze({ type: subDef.type }));
      }
    }
    const previous = out.get(path);
    // Several indices (a pattern): a field that is text anywhere needs its exact form everywhere.
    if (previous && previous.type === "text" && def.type !== "text") continue;
    const similarity = vectorSimilarity(def);
    out.set(
      path,
      Object.freeze({
        type: def.type,
        ...(keyword ? { keyword } : {}),
        ...(similarity ? { similarity } : {}),
      }),
    );
  }
}

/** The similarity of a `dense_vector` (default cosine) or `knn_vector` (default l2) mapping. */
function vectorSimilarity(def: Record<string, unknown>): string | undefined {
  if (def.type === "dense_vector") return String(def.similarity ?? "cosine");
  if (def.type !== "knn_vector") return undefined;
  const method = isObject(def.method) ? def.method : {};
  return String(method.space_type ?? def.space_type ?? "l2");
}

/**
 * Field types from a `_mapping` response (`{index: {mappings: {properties}}}`, every index of a
 * pattern merged; ES 6 typed mappings too).
 */
export function readFieldTypes(response: unknown): FieldTypes {
  const out = new Map<string, FieldType>();
  for (const entry of Object.values(isObject(response) ? response : {})) {
    const mappings = isObject(entry) ? entry.mappings : undefined;
    if (!isObject(mappings)) continue;
    if (isObject(mappings.properties)) walk(mappings.properties, "", out);
    else {
      for (const typed of Object.values(mappings)) {
        if (isObject(typed) && isObject(typed.properties)) walk(typed.properties, "", out);
      }
    }
  }
  return out;
}

/**
 * The field an exact condition (`term`, `terms`, `range`, `prefix`, `wildcard`, sort) must use:
 * the field itself, or the keyword sub-field of a text field. A text field without one is an
 * error that says what to do.
 */
export function exactField(types: FieldTypes, field: string, method: string): string {
  const t = types.get(field);
  if (t === undefined || t.type !== "text") return field;
  if (t.keyword !== undefined) return t.keyword;
  throw new DataAccessError(
    "MAPPING",
    `${method}(${
      JSON.stringify(field)
    }): the field is "text" with no keyword sub-field, so it has no exact form; add one to the mapping ("fields": {"keyword": {"type": "keyword"}}) or use match()/matchPhrase() for full-text search`,
  );
}

/**
 * Options of `toCommand()`.
 *
 * @example
 * ```ts
 * import { LambdaTemplate, type ToCommandOptions } from "@searchvisitor/searchvisitor/lambda";
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const options: ToCommandOptions = { mapping: new Map([["name", { type: "text", keyword: "name.raw" }]]) };
 * const lambda = new LambdaTemplate(new DataSource("http://127.0.0.1:9200"));
 * assert.match(lambda.query("users").eq("name", "Ann").toCommand(options).text, /"name\.raw"/);
 * ```
 */
export interface ToCommandOptions {
  /**
   * Field types (from `lambda.fieldTypes(index)`): exact conditions on a text field then use its
   * keyword sub-field, as they do when the command runs. Without it, the mapping the template
   * has cached for the index is used (the field really sent — `await lambda.fieldTypes(index)`
   * reads it); before any read, fields are shown as written.
   */
  readonly mapping?: FieldTypes;
  /**
   * How an order by vector similarity is shown (default `"knn"`, Elasticsearch 8+). When it
   * runs, the dialect comes from the LambdaTemplate (by default from the server's version).
   */
  readonly vectorDialect?: "knn" | "opensearch" | "script";
}

/**
 * The resolver of `toCommand()`: the given mapping, else the one the template has cached for the
 * index (what the command will really send), else fields as written.
 */
export function resolverOf(
  options: ToCommandOptions | undefined,
  known?: FieldTypes,
): ExactResolver {
  const types = options?.mapping ?? known;
  const resolver: ExactResolver = types === undefined
    ? AS_WRITTEN
    : (f, m) => exactField(types, f, m);
  return options?.vectorDialect === "opensearch"
    ? Object.assign((f: string, m: string) => resolver(f, m), { openSearch: true })
    : resolver;
}
