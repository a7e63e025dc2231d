// Index settings: kept flat (`index.number_of_shards` → "1"), shown flat or nested like Elasticsearch.

import { esError, illegalArgument } from "../_errors.ts";
import { setOwn } from "../_index/own.ts";
import { timeValueMs } from "../_index/time_value.ts";

/** Flat settings map, values as strings (Elasticsearch returns setting values as strings). */
export type FlatSettings = Record<string, string>;

/** Index settings Elasticsearch only takes at creation or on a closed index. */
const STATIC = new Set([
  "index.number_of_shards",
  "index.number_of_routing_shards",
  "index.routing_partition_size",
  "index.codec",
  "index.shard.check_on_startup",
  "index.store.type",
  "index.soft_deletes.enabled",
  "index.mode",
  "index.load_fixed_bitset_filters_eagerly",
]);
/** Prefixes of static setting groups (analysis chains, index sorting, similarities). */
const STATIC_GROUPS = ["index.analysis.", "index.sort.", "index.similarity."];

function isStatic(key: string): boolean {
  return STATIC.has(key) || STATIC_GROUPS.some((p) => key.startsWith(p));
}

/** Flattens `{index: {number_of_shards: 1}}` or `{number_of_shards: 1}` into `{"index.number_of_shards": "1"}`. */
export function flattenSettings(input: unknown, prefix = ""): FlatSettings {
  const out: FlatSettings = {};
  if (input === null || typeof input !== "object" || Array.isArray(input)) return out;
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(flattenSettings(value, path))) setOwn(out, k, v);
    } else {
      // Own properties: a key such as `__proto__` is a (refused) setting name, not the prototype.
      setOwn(
        out,
        path,
        Array.isArray(value) ? value.map(String).join(",") : value === null ? "" : String(value),
      );
    }
  }
  if (prefix) return out;
  const normalized: FlatSettings = {};
  for (const [key, value] of Object.entries(out)) {
    setOwn(normalized, key.startsWith("index.") ? key : `index.${key}`, value);
  }
  return normalized;
}

/** Turns flat settings back into the nested form. */
export function nestSettings(flat: FlatSettings): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(flat)) {
    const parts = key.split(".");
    let node = out;
    for (const part of parts.slice(0, -1)) {
      if (typeof node[part] !== "object" || node[part] === null) node[part] = {};
      node = node[part] as Record<string, unknown>;
    }
    node[parts[parts.length - 1]!] = value;
  }
  return out;
}

function checkInt(key: string, value: string, min: number, max = Number.MAX_SAFE_INTEGER): void {
  const n = Number(value);
  if (!/^-?\d+$/.test(value)) {
    throw illegalArgument(`Failed to parse value [${value}] for setting [${key}]`);
  }
  if (n < min) {
    throw illegalArgument(
      `Failed to parse value [${value}] for setting [${key}] must be >= ${min}`,
    );
  }
  if (n > max) {
    throw illegalArgument(
      `Failed to parse value [${value}] for setting [${key}] must be <= ${max}`,
    );
  }
}

/** Validates the settings we understand; throws like Elasticsearch for bad values. */
export function validateSettings(flat: FlatSettings): void {
  for (const [key, value] of Object.entries(flat)) {
    if (value === "") continue; // a null resets the setting to its default
    if (key === "index.number_of_shards") checkInt(key, value, 1, 1024);
    if (key === "index.number_of_replicas") checkInt(key, value, 0);
    if (key === "index.max_result_window") checkInt(key, value, 1);
    if (key === "index.max_docvalue_fields_search") checkInt(key, value, 0);
    if (key === "index.max_script_fields") checkInt(key, value, 0);
    if (key === "index.max_regex_length") checkInt(key, value, 1);
    if (key === "index.max_terms_count") checkInt(key, value, 1);
    if (key === "index.mapping.total_fields.limit") checkInt(key, value, 0);
    if (key === "index.mapping.depth.limit") checkInt(key, value, 1);
    if (key === "index.mapping.nested_objects.limit") checkInt(key, value, 0);
    if (key === "index.mapping.nested_fields.limit") checkInt(key, value, 0);
    if (key === "index.mapping.field_name_length.limit") checkInt(key, value, 1, Number.MAX_VALUE);
    if (key === "index.refresh_interval") parseInterval(value, key);
    if (key === "index.auto_expand_replicas") autoExpandReplicas(value);
  }
}

/**
 * `index.auto_expand_replicas` (`false`, `min-max`, `min-all`) read as Elasticsearch reads it:
 * `undefined` when off, else the bounds (`max` is `Infinity` for `all`).
 */
export function autoExpandReplicas(value: string): { min: number; max: number } | undefined {
  if (value === "false" || value === "") return undefined;
  const dash = value.indexOf("-");
  const fail = (part?: string): never => {
    throw illegalArgument(
      `failed to parse [index.auto_expand_replicas] from value: [${value}] at index ${dash}`,
      part === undefined
        ? undefined
        : esError("number_format_exception", `For input string: "${part}"`),
    );
  };
  if (dash <= 0) return fail();
  const int = (part: string): number => /^[0-9]+$/.test(part) ? Number(part) : fail(part);
  const min = int(value.slice(0, dash));
  const rest = value.slice(dash + 1);
  const max = rest === "all" ? Infinity : int(rest);
  if (min > max) {
    throw illegalArgument(
      `[index.auto_expand_replicas] minReplicas must be =< maxReplicas but wasn't ${min} > ${max}`,
    );
  }
  return { min, max };
}

/**
 * Refuses changes to static settings when any target index is open, as Elasticsearch does: every
 * static key and every open index (`[name/uuid]`) in one message.
 */
export function checkUpdatable(flat: FlatSettings, openIndices: readonly string[]): void {
  const keys = Object.keys(flat).filter(isStatic);
  if (keys.length === 0 || openIndices.length === 0) return;
  throw illegalArgument(
    `Can't update non dynamic settings [[${keys.join(", ")}]] for open indices [${
      openIndices.map((i) => `[${i}]`).join(", ")
    }]`,
  );
}

/** Parses a time value like `1s`, `500ms`, `-1` into milliseconds (-1 means disabled). */
export function parseInterval(text: string, setting = "index.refresh_interval"): number {
  if (text === "-1") return -1;
  const ms = timeValueMs(text);
  if (!(ms >= 0)) {
    throw illegalArgument(
      `failed to parse setting [${setting}] with value [${text}] as a time value: unit is missing or unrecognized`,
    );
  }
  return ms;
}
