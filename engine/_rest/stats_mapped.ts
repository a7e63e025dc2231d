// What `_stats` reads from mappings and documents: fields of a type (completion, fielddata,
// vectors) and how many vector values the searchable documents hold.

import type { JsonObject } from "../_json.ts";
import { matchPattern } from "../_index/name_pattern.ts";
import type { IndexState } from "../_state/index_state.ts";

/** Fields of the mappings with one of `types`, as dotted paths (multi-fields included). */
export function fieldsOfType(mapping: unknown, types: readonly string[], prefix = ""): string[] {
  const out: string[] = [];
  const props = (mapping as { properties?: Record<string, unknown> } | undefined)?.properties;
  for (const [name, def] of Object.entries(props ?? {})) {
    const path = prefix + name;
    const d = def as { type?: string; fields?: Record<string, unknown> };
    if (d.type !== undefined && types.includes(d.type)) out.push(path);
    for (const [sub, subDef] of Object.entries(d.fields ?? {})) {
      if (types.includes((subDef as { type?: string }).type ?? "")) out.push(`${path}.${sub}`);
    }
    out.push(...fieldsOfType(def, types, `${path}.`));
  }
  return out;
}

/** The fields of `types` in the indices' mappings that match one of `patterns`, sorted. */
export function fieldList(
  indices: readonly IndexState[],
  patterns: string[],
  types: string[],
): string[] {
  if (patterns.length === 0) return [];
  const names = new Set<string>();
  for (const i of indices) for (const f of fieldsOfType(i.mappings, types)) names.add(f);
  return [...names].filter((n) => patterns.some((g) => matchPattern(g, n))).sort();
}

/** How many `dense_vector` (or `sparse_vector`) values the searchable documents hold. */
export function vectorValues(index: IndexState, metric: string): number {
  const type = metric === "dense_vector" ? ["dense_vector"] : ["sparse_vector"];
  const fields = fieldsOfType(index.mappings, type);
  if (fields.length === 0) return 0;
  let n = 0;
  for (const doc of index.visible.values()) {
    for (const f of fields) if (valueAt(doc.source, f) !== undefined) n++;
  }
  return n;
}

function valueAt(source: JsonObject, path: string): unknown {
  if (Object.hasOwn(source, path)) return source[path];
  let at: unknown = source;
  for (const key of path.split(".")) {
    if (at === null || typeof at !== "object" || !Object.hasOwn(at, key)) return undefined;
    at = (at as JsonObject)[key];
  }
  return at;
}
