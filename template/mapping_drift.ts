// Drift: how a live mapping differs from a declared one, as plain data (missing fields, type
// conflicts, option differences, extra fields), and the one normal form both are compared in.

import type { FieldMappingJson, TypeMappingJson } from "./index_mapping.ts";
import type { MappingValue } from "./mapping_types.ts";

/**
 * One difference between a declared mapping and the live one.
 *
 * - `missing`: the entity maps `path`, the index does not have it.
 * - `type`: both have `path` with different types (`expected` / `actual` are the types).
 * - `option`: `option` of `path` differs (`actual` undefined: the index lacks it); `path` `""` is
 *   the top level (`dynamic`, `_source`, …).
 * - `extra`: the index has `path`, the entity does not map it (`actual` is its type).
 *
 * Multi-fields have paths like `name.raw`, object fields `address.city`.
 *
 * @example
 * ```ts
 * import { type MappingDrift, mappingDrift } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const drift: MappingDrift[] = mappingDrift(
 *   { properties: { a: { type: "keyword" } } },
 *   { properties: { a: { type: "text" } } },
 * );
 * assert.deepEqual(drift, [{ kind: "type", path: "a", expected: "keyword", actual: "text" }]);
 * ```
 */
export interface MappingDrift {
  /** What differs. */
  readonly kind: "missing" | "type" | "option" | "extra";
  /** The field's dotted path (`""` for the top level). */
  readonly path: string;
  /** The option, for `option`. */
  readonly option?: string;
  /** The declared type or option value. */
  readonly expected?: MappingValue;
  /** The live type or option value. */
  readonly actual?: MappingValue;
}

/**
 * How `mappingDrift` compares.
 *
 * @example
 * ```ts
 * import { type DriftOptions, mappingDrift } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const options: DriftOptions = { strict: true };
 * const live = { properties: { v: { type: "dense_vector", dims: 3, similarity: "cosine" } } };
 * const declared = { properties: { v: { type: "dense_vector", dims: 3 } } };
 * assert.deepEqual(mappingDrift(declared, live), []);
 * assert.deepEqual(mappingDrift(declared, live, options), [
 *   { kind: "option", path: "v", option: "similarity", actual: "cosine" },
 * ]);
 * ```
 */
export interface DriftOptions {
  /**
   * Also report options the index has and the entity does not declare. Off by default: servers
   * add their defaults to some types (a `dense_vector`'s `index_options`), which is no drift.
   */
  readonly strict?: boolean;
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** A field node in normal form (see {@linkcode canonicalMapping}). */
function canonicalField(field: unknown): unknown {
  if (!isObject(field)) return field;
  const out: Json = {};
  for (const [key, value] of Object.entries(field)) {
    if (key === "copy_to" && typeof value === "string") out[key] = [value];
    else if (key === "dynamic" && typeof value === "boolean") out[key] = String(value);
    else if ((key === "properties" || key === "fields") && isObject(value)) {
      const sub: Json = {};
      for (const [name, f] of Object.entries(value)) sub[name] = canonicalField(f);
      out[key] = sub;
    } else out[key] = value;
  }
  if (out.type === "object" && isObject(out.properties)) delete out.type;
  return out;
}

/**
 * A mapping in the normal form servers return and `mappingOf` writes: `copy_to` as a list,
 * `dynamic` as text, an object with properties without `"type": "object"`. Accepts the `mappings`
 * object or a whole `GET /{index}/_mapping` reply of one index.
 *
 * @param mapping `{properties, …}` or `{index: {mappings: {…}}}`.
 * @returns The `mappings` in normal form.
 *
 * @example
 * ```ts
 * import { canonicalMapping } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const reply = { users: { mappings: { dynamic: false, properties: {
 *   a: { type: "keyword", copy_to: "b" }, o: { type: "object", properties: { c: { type: "long" } } },
 * } } } };
 * assert.deepEqual(canonicalMapping(reply), { dynamic: "false", properties: {
 *   a: { type: "keyword", copy_to: ["b"] }, o: { properties: { c: { type: "long" } } },
 * } });
 * ```
 */
export function canonicalMapping(mapping: unknown): TypeMappingJson {
  let m = mapping;
  if (isObject(m) && !("properties" in m)) {
    const only = Object.values(m);
    if (only.length === 1 && isObject(only[0]) && isObject(only[0].mappings)) {
      m = only[0].mappings;
    } else if (isObject(m.mappings)) m = m.mappings;
  }
  if (!isObject(m)) throw new TypeError("canonicalMapping: a mapping is a JSON object");
  const out = canonicalField(m) as Json;
  delete out.type;
  out.properties ??= {};
  return out as unknown as TypeMappingJson;
}

/** Equal as JSON, numbers and their digits alike (`100` and `"100"` differ; key order not). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === "bigint" || typeof b === "bigint") return String(a) === String(b);
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && sameValue(a[k], b[k]));
  }
  return false;
}

const STRUCTURE = new Set(["type", "properties", "fields"]);

function typeOf(field: Json): string {
  return typeof field.type === "string" ? field.type : isObject(field.properties) ? "object" : "";
}

/** One comparison's state: whether live-only options count, and the drift found so far. */
interface Comparison {
  /** {@linkcode DriftOptions.strict}. */
  readonly strict: boolean;
  /** The drift found so far, appended to in order. */
  readonly out: MappingDrift[];
}

function compareField(path: string, expected: Json, actual: Json, cmp: Comparison): void {
  const { strict, out } = cmp;
  const te = typeOf(expected);
  const ta = typeOf(actual);
  if (path !== "" && te !== ta) {
    out.push({ kind: "type", path, expected: te, actual: ta });
    return;
  }
  for (const [option, value] of Object.entries(expected)) {
    if (STRUCTURE.has(option)) continue;
    if (!sameValue(value, actual[option])) {
      out.push({
        kind: "option",
        path,
        option,
        expected: value as MappingValue,
        ...(actual[option] !== undefined ? { actual: actual[option] as MappingValue } : {}),
      });
    }
  }
  if (strict) {
    for (const [option, value] of Object.entries(actual)) {
      if (!STRUCTURE.has(option) && !(option in expected)) {
        out.push({ kind: "option", path, option, actual: value as MappingValue });
      }
    }
  }
  for (const key of ["properties", "fields"] as const) {
    const e = expected[key];
    if (!isObject(e)) continue; // nothing declared inside: what the index has is not drift
    const a = isObject(actual[key]) ? actual[key] as Json : {};
    for (const [name, sub] of Object.entries(e)) {
      const at = path === "" ? name : `${path}.${name}`;
      const live = a[name];
      if (!isObject(live)) {
        out.push({ kind: "missing", path: at, expected: typeOf(sub as Json) });
      } else compareField(at, sub as Json, live, cmp);
    }
    for (const [name, sub] of Object.entries(a)) {
      if (!(name in e)) {
        const at = path === "" ? name : `${path}.${name}`;
        out.push({ kind: "extra", path: at, actual: isObject(sub) ? typeOf(sub) : "" });
      }
    }
  }
}

/**
 * The drift between a declared mapping (`mappingOf(Entity).mappings`) and a live one, both taken
 * in normal form ({@linkcode canonicalMapping}): fields the entity maps and the index lacks, type
 * conflicts, options the entity declares that the index has otherwise, and fields the index has
 * that the entity does not map (inside objects the entity declares fields of). An empty list: no
 * drift.
 *
 * @param expected The declared mapping (`{properties, …}`).
 * @param live The live mapping (`{properties, …}`, or a `GET /{index}/_mapping` reply).
 * @param options {@linkcode DriftOptions}.
 * @returns The differences, in the declared order, extras after each level's own fields.
 *
 * @example
 * ```ts
 * import { Column, mappingDrift, mappingOf } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * class User {
 *   @Column({ mapping: { type: "keyword", ignore_above: 256 } }) email = "";
 *   @Column({ mapping: "date" }) born = "";
 * }
 * const live = { users: { mappings: { properties: {
 *   email: { type: "keyword" },
 *   nick: { type: "text" },
 * } } } };
 * assert.deepEqual(mappingDrift(mappingOf(User).mappings, live), [
 *   { kind: "option", path: "email", option: "ignore_above", expected: 256 },
 *   { kind: "missing", path: "born", expected: "date" },
 *   { kind: "extra", path: "nick", actual: "text" },
 * ]);
 * ```
 */
export function mappingDrift(
  expected: TypeMappingJson | { readonly properties: Readonly<Record<string, FieldMappingJson>> },
  live: unknown,
  options: DriftOptions = {},
): MappingDrift[] {
  const out: MappingDrift[] = [];
  const e = canonicalMapping(expected) as unknown as Json;
  const a = canonicalMapping(live) as unknown as Json;
  compareField("", e, a, { strict: options.strict === true, out });
  return out;
}
