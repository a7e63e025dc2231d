// Entities from mappings: the TypeScript source of an entity class (`@Table`/`@Column` with each
// field's mapping) for a live mapping, such that `mappingOf` of the generated class gives that
// mapping again. Object and nested fields become classes of their own; options this library does
// not type are kept in `raw` and listed at the top of the file.

import { canonicalMapping } from "./mapping_drift.ts";
import {
  checkFieldMapping,
  isSimpleFieldType,
  NUMBER_TYPES as NUMBER_TYPE_NAMES,
  typedOptions,
} from "./mapping_types.ts";

/**
 * Options of {@linkcode entitySourceFromMapping}.
 *
 * @example
 * ```ts
 * import { type EntitySourceOptions, entitySourceFromMapping } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const options: EntitySourceOptions = { index: "logs", className: "LogLine" };
 * assert.match(entitySourceFromMapping({ properties: {} }, options), /export class LogLine \{/);
 * ```
 */
export interface EntitySourceOptions {
  /** The index the entity lives in (`@Table`). */
  index: string;
  /** The class name (default: the index name in PascalCase). */
  className?: string;
  /** Where the decorators are imported from (default `@searchvisitor/searchvisitor/template`). */
  importFrom?: string;
  /**
   * The index's settings as `GET /{index}/_settings` returns them (`{index: {…}}` or the reply);
   * shards, replicas, refresh interval, `max_result_window` and analysis are declared on `@Table`.
   */
  settings?: unknown;
  /** What the header says the source was (default: `the mapping of index "…"`). */
  from?: string;
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A field name as a camelCase identifier (`first-name` → `firstName`, `@timestamp` → `timestamp`). */
function identifier(name: string): string {
  const parts = name.split(/[^A-Za-z0-9_$]+/).filter((p) => p !== "");
  let out = parts.map((p, i) => (i === 0 ? p : p[0]!.toUpperCase() + p.slice(1))).join("");
  if (out === "") out = "field";
  if (/^[0-9]/.test(out)) out = `_${out}`;
  return out;
}

function pascal(name: string): string {
  const id = identifier(name);
  return id.startsWith("_") ? `T${id}` : id[0]!.toUpperCase() + id.slice(1);
}

function unique(name: string, taken: Set<string>): string {
  let out = name;
  for (let n = 2; taken.has(out); n++) out = `${name}${n}`;
  taken.add(out);
  return out;
}

/** A JSON value as a TypeScript literal (identifier keys bare, `entity` as a class reference). */
function literal(value: unknown, indent: string, used = indent.length): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (value instanceof ClassRef) return value.name;
  if (Array.isArray(value)) return `[${value.map((v) => literal(v, indent)).join(", ")}]`;
  const entries = Object.entries(value as Json);
  if (entries.length === 0) return "{}";
  const inner = entries.map(([k, v]) =>
    `${IDENT.test(k) ? k : JSON.stringify(k)}: ${literal(v, indent + "  ")}`
  );
  const flat = `{ ${inner.join(", ")} }`;
  if (flat.length + used <= 96) return flat;
  return `{\n${inner.map((l) => `${indent}  ${l},`).join("\n")}\n${indent}}`;
}

class ClassRef {
  constructor(readonly name: string) {}
}

interface Ctx {
  readonly classes: string[];
  readonly classNames: Set<string>;
  readonly notes: string[];
  readonly multiFields: string[];
}

const STRING_TYPES = new Set([
  "keyword",
  "text",
  "ip",
  "date",
  "date_nanos",
  "wildcard",
  "match_only_text",
  "constant_keyword",
  "search_as_you_type",
  "version",
  "binary",
]);
const NUMBER_TYPES: ReadonlySet<string> = new Set([
  ...NUMBER_TYPE_NAMES,
  "scaled_float",
  "token_count",
  "rank_feature",
]);

function tsType(type: string): string {
  if (STRING_TYPES.has(type)) return "string | null";
  // Whole numbers beyond 2^53 are read exactly, as bigint.
  if (type === "long" || type === "unsigned_long") return "number | bigint | null";
  if (NUMBER_TYPES.has(type)) return "number | null";
  if (type === "boolean") return "boolean | null";
  if (type === "geo_point") return "{ lat: number; lon: number } | string | number[] | null";
  return "unknown";
}

/**
 * A field's mapping as the declaration `@Column({ mapping })` takes: typed options as they are,
 * the others in `raw`; one the declaration check refuses is kept whole in `raw`.
 */
function declaration(
  path: string,
  field: Json,
  ctx: Ctx,
  as: "field" | "multi-field",
): unknown {
  const leaf = as === "multi-field";
  const type = typeof field.type === "string" ? field.type : undefined;
  const typed = type === undefined ? undefined : typedOptions(type);
  const whole = () => {
    ctx.notes.push(`${path}: ${type ?? "(no type)"} kept whole in raw (not typed)`);
    return { raw: field };
  };
  if (typed === undefined || ((type === "object" || type === "nested") && leaf)) return whole();
  const out: Json = { type };
  const raw: Json = {};
  for (const [key, value] of Object.entries(field)) {
    if (key === "type") continue;
    if (key === "fields" && isObject(value) && typed.has("fields")) {
      const fields: Json = {};
      for (const [name, sub] of Object.entries(value)) {
        const subType = isObject(sub) && typeof sub.type === "string" ? sub.type : "?";
        ctx.multiFields.push(`${path}.${name} (${subType})`);
        fields[name] = isObject(sub)
          ? declaration(`${path}.${name}`, sub, ctx, "multi-field")
          : sub;
      }
      out.fields = fields;
    } else if (typed.has(key) && key !== "raw" && key !== "entity") out[key] = value;
    else raw[key] = value;
  }
  if (Object.keys(raw).length > 0) {
    ctx.notes.push(`${path}: ${Object.keys(raw).join(", ")} of ${type} kept in raw (not typed)`);
    out.raw = raw;
  }
  try {
    checkFieldMapping(path, out, leaf);
  } catch {
    ctx.notes.pop();
    return whole();
  }
  if (Object.keys(out).length === 1 && isSimpleFieldType(type!)) return type;
  return out;
}

/** One class `writeClass` writes. */
interface ClassSpec {
  /** The class's name. */
  readonly name: string;
  /** The dotted path of its object field ("" for the root). */
  readonly path: string;
  /** The mapping's `properties` it declares. */
  readonly properties: Json;
  /** Text before `export class` (the root's `@Table(…)`); default none. */
  readonly header?: string;
  /** Whether it gets an `_id` key member (the root does); default false. */
  readonly withId?: boolean;
}

/** Writes the class of `spec` into `ctx.classes` (children first) and returns its name. */
function writeClass(spec: ClassSpec, ctx: Ctx): string {
  const { name, path, properties, header = "", withId: key = false } = spec;
  const members: string[] = [];
  const taken = new Set<string>();
  if (key) {
    const id = unique("id" in properties ? "docId" : "id", taken);
    members.push(`  @Column({ primary: true, name: "_id" })\n  ${id}: string | null = null;`);
  }
  for (const [field, raw] of Object.entries(properties)) {
    const at = path === "" ? field : `${path}.${field}`;
    const id = unique(identifier(field), taken);
    const nameOption = id === field ? "" : `name: ${JSON.stringify(field)}, `;
    if (!isObject(raw)) continue;
    const type = typeof raw.type === "string" ? raw.type : isObject(raw.properties) ? "object" : "";
    const hasDots = isObject(raw.properties) &&
      Object.keys(raw.properties).some((k) => k.includes("."));
    let mapping: unknown;
    let ts: string;
    let init = "null";
    if ((type === "object" || type === "nested") && isObject(raw.properties) && !hasDots) {
      const child = unique(`${name}${pascal(field)}`, ctx.classNames);
      writeClass({ name: child, path: at, properties: raw.properties }, ctx);
      const { properties: _, ...rest } = raw;
      const m = declaration(at, { type, ...rest }, ctx, "field");
      if (typeof m === "string") mapping = { type, entity: new ClassRef(child) };
      else if (isObject(m) && m.type !== undefined) {
        mapping = { ...m, type, entity: new ClassRef(child) };
      } else mapping = { raw };
      ts = type === "nested" ? `${child}[]` : `${child} | null`;
      if (type === "nested") init = "[]";
    } else {
      if (hasDots) ctx.notes.push(`${at}: dotted names inside (subobjects: false) kept whole`);
      mapping = hasDots ? { raw } : declaration(at, raw, ctx, "field");
      ts = type === "dense_vector" || type === "knn_vector" ? "number[]" : tsType(type);
      if (ts === "number[]") init = "[]";
    }
    const head = `  @Column({ ${nameOption}mapping: `;
    members.push(`${head}${literal(mapping, "  ", head.length)} })\n  ${id}: ${ts} = ${init};`);
  }
  ctx.classes.push(`${header}export class ${name} {\n${members.join("\n\n")}\n}\n`);
  return name;
}

const SETTING_NUMBERS = ["number_of_shards", "number_of_replicas", "max_result_window"];

/** The settings `@Table` declares, from a `GET /{index}/_settings` reply (or its `index`). */
function tableSettings(settings: unknown): Json | undefined {
  let s = settings;
  if (isObject(s) && !isObject(s.index) && Object.keys(s).length === 1) {
    const only = Object.values(s)[0];
    if (isObject(only) && isObject(only.settings)) s = only.settings;
  }
  if (isObject(s) && isObject(s.settings)) s = s.settings;
  if (isObject(s) && isObject(s.index)) s = s.index;
  if (!isObject(s)) return undefined;
  const out: Json = {};
  for (const key of SETTING_NUMBERS) {
    if (s[key] !== undefined && Number.isFinite(Number(s[key]))) out[key] = Number(s[key]);
  }
  if (typeof s.refresh_interval === "string") out.refresh_interval = s.refresh_interval;
  if (isObject(s.analysis)) out.analysis = s.analysis;
  // OpenSearch's knn_vector fields need the index flag to be searchable.
  if (s.knn === "true" || s.knn === true) out.raw = { "index.knn": true };
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * The TypeScript source of an entity class for a live mapping: `@Table` with the index (its
 * `dynamic`, other top-level mapping keys and, when given, settings), one `@Column` per field with
 * its mapping, object and nested fields as classes of their own, names made identifiers (the
 * original kept as the column name), a key field for `_id`. `mappingOf` of the generated class
 * equals the mapping (in the servers' normal form, `canonicalMapping`). Multi-fields and whatever
 * is kept as untyped `raw` JSON are listed in a comment at the top.
 *
 * @param mapping `{properties, …}` or a `GET /{index}/_mapping` reply of one index.
 * @param options The index, class name, import path, settings.
 * @returns The source text of a module.
 *
 * @example
 * ```ts
 * import { entitySourceFromMapping } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const source = entitySourceFromMapping({
 *   properties: {
 *     "first-name": { type: "text", fields: { raw: { type: "keyword" } } },
 *     address: { properties: { city: { type: "keyword" } } },
 *   },
 * }, { index: "people" });
 * assert.match(source, /@Table\({ index: "people" }\)\nexport class People \{/);
 * assert.match(source, /@Column\(\{ name: "first-name", mapping: \{ type: "text", fields: \{ raw: "keyword" \} \} \}\)\n  firstName: string \| null = null;/);
 * assert.match(source, /export class PeopleAddress \{\n  @Column\(\{ mapping: "keyword" \}\)\n  city: string \| null = null;/);
 * assert.match(source, /address: PeopleAddress \| null = null;/);
 * assert.match(source, /multi-fields: first-name\.raw \(keyword\)/);
 * ```
 */
export function entitySourceFromMapping(mapping: unknown, options: EntitySourceOptions): string {
  const m = canonicalMapping(mapping) as unknown as Json;
  const rootName = options.className ?? pascal(options.index);
  const ctx: Ctx = { classes: [], classNames: new Set([rootName]), notes: [], multiFields: [] };
  const table: Json = { index: options.index };
  const rawMappings: Json = {};
  for (const [key, value] of Object.entries(m)) {
    if (key === "properties") continue;
    if (key === "dynamic") table.dynamic = value;
    else rawMappings[key] = value;
  }
  const settings = options.settings === undefined ? undefined : tableSettings(options.settings);
  if (settings !== undefined) table.settings = settings;
  if (Object.keys(rawMappings).length > 0) {
    table.rawMappings = rawMappings;
    ctx.notes.push(`top level: ${Object.keys(rawMappings).join(", ")} kept in rawMappings`);
  }
  writeClass({
    name: rootName,
    path: "",
    properties: m.properties as Json,
    header: `@Table(${literal(table, "")})\n`,
    withId: true,
  }, ctx);
  const from = options.from ?? `the mapping of index ${JSON.stringify(options.index)}`;
  const head = [
    `// Generated by searchvisitor gen from ${from}.`,
    "// mappingOf(" + rootName + ").mappings equals that mapping (in the servers' normal form).",
    ...(ctx.multiFields.length > 0 ? [`// multi-fields: ${ctx.multiFields.join(", ")}`] : []),
    ...(ctx.notes.length > 0
      ? [
        "// Not typed (kept as raw JSON, so they still round-trip):",
        ...ctx.notes.map((n) => `//   ${n}`),
      ]
      : ["// Every type and option is typed."]),
    ...(settings === undefined ? [] : [
      "// Settings: shards, replicas, refresh interval, max_result_window, analysis, index.knn only.",
    ]),
  ];
  const from_ = options.importFrom ?? "@searchvisitor/searchvisitor/template";
  return `${head.join("\n")}\nimport { Column, Table } from ${JSON.stringify(from_)};\n\n${
    ctx.classes.join("\n")
  }`;
}
