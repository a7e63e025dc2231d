// The tabular result shapes: `_cat/*`, `_mapping`, `_settings`, `_aliases` (one row per index,
// field or alias, as dbVisitor reads them), and the generic "one row per object" shape.

import { JsonCell } from "../jdbc/_json_cell.ts";
import { isJsonObject } from "../_json.ts";

/** Columns and rows, before they become a ResultSet. */
export interface Table {
  columns: readonly string[];
  rows: readonly (readonly unknown[])[];
}

const CAT_COLUMNS: Record<string, readonly string[]> = {
  indices: [
    "INDEX",
    "HEALTH",
    "STATUS",
    "UUID",
    "PRI",
    "PRI.STORE.SIZE",
    "REP",
    "DOCS.COUNT",
    "DOCS.DELETED",
    "STORE.SIZE",
  ],
  health: [
    "CLUSTER",
    "STATUS",
    "NODE.TOTAL",
    "NODE.DATA",
    "SHARDS",
    "PRI",
    "RELO",
    "INIT",
    "UNASSIGN",
    "PENDING_TASKS",
    "MAX_TASK_WAIT_TIME",
    "ACTIVE_SHARDS_PERCENT",
  ],
  nodes: [
    "IP",
    "NAME",
    "MASTER",
    "HEAP.PERCENT",
    "RAM.PERCENT",
    "CPU",
    "LOAD_1M",
    "LOAD_5M",
    "LOAD_15M",
    "NODE.ROLE",
    "VERSION",
  ],
};

/** A scalar stays as it is; an object or array becomes a JSON cell. */
export function cell(value: unknown): unknown {
  if (value === undefined) return null;
  return value !== null && typeof value === "object" ? new JsonCell(value) : value;
}

/**
 * `_cat/<name>` in JSON: the reference's fixed columns for indices, health and nodes, then any
 * other key upper-cased; other `_cat` endpoints give their keys upper-cased.
 */
export function catTable(name: string, body: unknown): Table {
  const items = Array.isArray(body) ? body.filter(isJsonObject) : isJsonObject(body) ? [body] : [];
  const columns = [...(CAT_COLUMNS[name] ?? [])];
  const seen = new Set(columns);
  for (const item of items) {
    for (const key of Object.keys(item)) {
      const upper = key.toUpperCase();
      if (!seen.has(upper)) {
        seen.add(upper);
        columns.push(upper);
      }
    }
  }
  const rows = items.map((item) => {
    const byUpper = new Map(Object.entries(item).map(([k, v]) => [k.toUpperCase(), v]));
    return columns.map((c) => cell(byUpper.get(c)));
  });
  return { columns, rows };
}

/** `_mapping`: NAME, MAPPING, FIELD, TYPE, NESTED, OPTION; one row per property and multi-field. */
export function mappingTable(body: unknown): Table {
  const columns = ["NAME", "MAPPING", "FIELD", "TYPE", "NESTED", "OPTION"];
  const rows: unknown[][] = [];
  for (const [index, entry] of Object.entries(isJsonObject(body) ? body : {})) {
    for (const properties of propertySets(isJsonObject(entry) ? entry.mappings : undefined)) {
      for (const [name, def] of Object.entries(properties)) {
        if (!isJsonObject(def)) continue;
        const nested = isJsonObject(def.properties) || def.type === "nested" ||
          def.type === "object";
        const type = def.type ?? (isJsonObject(def.properties) ? "object" : null);
        rows.push([index, name, null, type, nested, new JsonCell(def)]);
        for (const [field, sub] of Object.entries(isJsonObject(def.fields) ? def.fields : {})) {
          if (!isJsonObject(sub)) continue;
          rows.push([index, name, field, sub.type ?? null, false, new JsonCell(sub)]);
        }
      }
    }
  }
  return { columns, rows };
}

function propertySets(mappings: unknown): Record<string, unknown>[] {
  if (!isJsonObject(mappings)) return [];
  if (isJsonObject(mappings.properties)) return [mappings.properties];
  // ES 6: properties sit under the type name.
  return Object.values(mappings).filter(isJsonObject).map((t) => t.properties).filter(isJsonObject);
}

/** `_settings`: NAME, SETTING (flattened dotted key), VALUE (text). */
export function settingsTable(body: unknown): Table {
  const rows: unknown[][] = [];
  for (const [index, entry] of Object.entries(isJsonObject(body) ? body : {})) {
    const settings = isJsonObject(entry) ? entry.settings : undefined;
    if (!isJsonObject(settings)) continue;
    flatten(settings, "", (key, value) => rows.push([index, key, value]));
  }
  return { columns: ["NAME", "SETTING", "VALUE"], rows };
}

function flatten(
  value: Record<string, unknown>,
  prefix: string,
  emit: (key: string, value: string | null) => void,
): void {
  for (const [key, inner] of Object.entries(value)) {
    const path = prefix + key;
    if (isJsonObject(inner)) flatten(inner, path + ".", emit);
    else if (inner === null || inner === undefined) emit(path, null);
    else emit(path, typeof inner === "string" ? inner : JSON.stringify(inner));
  }
}

/** `_aliases`: per index a row (NAME, null, false), then per alias (alias, index, true). */
export function aliasesTable(body: unknown): Table {
  const rows: unknown[][] = [];
  for (const [index, entry] of Object.entries(isJsonObject(body) ? body : {})) {
    rows.push([index, null, false]);
    const aliases = isJsonObject(entry) && isJsonObject(entry.aliases) ? entry.aliases : {};
    for (const alias of Object.keys(aliases)) rows.push([alias, index, true]);
  }
  return { columns: ["NAME", "SOURCE", "ALIASES"], rows };
}

/**
 * Any other JSON: an object is one row of its top-level keys; an array is one row per element
 * (objects by their keys, scalars in column `value`); a scalar is one row `value`.
 */
export function genericTable(body: unknown): Table {
  const items = Array.isArray(body) ? body : [body];
  const columns: string[] = [];
  const index = new Map<string, number>();
  const add = (key: string): number => {
    let at = index.get(key);
    if (at === undefined) {
      at = columns.push(key) - 1;
      index.set(key, at);
    }
    return at;
  };
  const cells = items.map((item) => {
    const row = new Map<number, unknown>();
    if (isJsonObject(item)) {
      for (const [key, value] of Object.entries(item)) row.set(add(key), cell(value));
    } else {
      row.set(add("value"), cell(item));
    }
    return row;
  });
  const rows = cells.map((row) => columns.map((_, i) => row.has(i) ? row.get(i) : null));
  return { columns, rows };
}
