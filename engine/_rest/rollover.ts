// `POST /{alias}/_rollover[/{new_index}]`: moves an alias's writes to a new index when its
// conditions are met (or always, with none), as the real engines roll an alias over. The engine
// has no data streams, so any other target is refused as the product refuses a missing one.

import { esError, illegalArgument } from "../_errors.ts";
import { changeAliases } from "../_state/alias_changes.ts";
import type { IndexState } from "../_state/index_state.ts";
import { checkWholeMapping, mappingLimits } from "../_state/mapping_limits.ts";
import { parseMappings, withMappingDefaults } from "../_state/mapping_merge.ts";
import { flattenSettings, parseInterval } from "../_state/settings.ts";
import { checkKnownSettings } from "../_state/setting_registry.ts";
import { readAliasMeta } from "./aliases.ts";
import { bodyObject, boolParam, ok, type Reply, type RequestContext } from "./context.ts";
import { storeSize } from "./stats_mapped.ts";
import { parseByteSize } from "./cat_units.ts";

const CONDITIONS = new Set([
  "max_age",
  "max_docs",
  "max_size",
  "max_primary_shard_size",
  "max_primary_shard_docs",
  "min_age",
  "min_docs",
  "min_size",
  "min_primary_shard_size",
  "min_primary_shard_docs",
]);

/** Whether one condition holds for the write index. */
function holds(key: string, value: unknown, index: IndexState, now: number): boolean {
  const docs = index.visible.size;
  const shards = Math.max(1, index.shardCount);
  switch (key) {
    case "max_age":
      return now - index.creationDate >= parseInterval(String(value), key);
    case "min_age":
      return now - index.creationDate >= parseInterval(String(value), key);
    case "max_docs":
      return docs >= Number(value);
    case "min_docs":
      return docs >= Number(value);
    case "max_primary_shard_docs":
    case "min_primary_shard_docs":
      return docs / shards >= Number(value);
    case "max_size":
    case "min_size":
      return storeSize(index) >= parseByteSize(String(value), key);
    default:
      return storeSize(index) / shards >= parseByteSize(String(value), key);
  }
}

/** The next name of a `prefix-000001` index: the number plus one, six digits at least. */
function nextName(old: string): string {
  const m = /^(.*-)(\d+)$/.exec(old);
  if (!m) throw illegalArgument(`index name [${old}] does not match pattern '^.*-\\d+$'`);
  return `${m[1]}${String(Number(m[2]) + 1).padStart(6, "0")}`;
}

/** `POST /{alias}/_rollover[/{new_index}]`. */
export function rolloverHandler(ctx: RequestContext): Reply {
  const cluster = ctx.state.cluster;
  const target = ctx.p.alias!;
  const body = bodyObject(ctx) ?? {};
  for (const key of Object.keys(body)) {
    if (!["conditions", "settings", "mappings", "aliases"].includes(key)) {
      throw esError("x_content_parse_exception", `[1:2] [rollover] unknown field [${key}]`);
    }
  }
  if (cluster.indices.has(target)) {
    throw illegalArgument(
      "rollover target is a [concrete index] but one of [alias,data_stream] was expected",
    );
  }
  const members = cluster.aliasIndices(target);
  if (members.length === 0) {
    const reason = `rollover target [${target}] does not exist`;
    throw ctx.state.flavour === "opensearch"
      ? illegalArgument(reason)
      : esError("resource_not_found_exception", reason);
  }
  const writer = members.length === 1
    ? members[0]!
    : members.find((i) => i.aliases.get(target)?.is_write_index === true);
  if (writer === undefined) {
    throw illegalArgument(`rollover target [${target}] does not point to a write index`);
  }
  const conditions = (body.conditions ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(conditions)) {
    if (!CONDITIONS.has(key)) {
      throw esError("x_content_parse_exception", `[conditions] unknown field [${key}]`);
    }
  }
  const now = ctx.state.now();
  const results: Record<string, boolean> = {};
  for (const [key, value] of Object.entries(conditions)) {
    results[`[${key}: ${value}]`] = holds(key, value, writer, now);
  }
  const entries = Object.entries(conditions);
  const maxes = entries.filter(([k]) => k.startsWith("max_"));
  const mins = entries.filter(([k]) => k.startsWith("min_"));
  const met = entries.length === 0 ||
    ((maxes.length === 0 || maxes.some(([k, v]) => holds(k, v, writer, now))) &&
      mins.every(([k, v]) => holds(k, v, writer, now)));
  const newName = ctx.p.new_index ?? nextName(writer.name);
  const dryRun = boolParam(ctx, "dry_run");
  const rolled = met && !dryRun;
  if (rolled) {
    const parsed = parseMappings(body.mappings, "create", ctx.state.flavour);
    const mappings = ctx.state.flavour === "elasticsearch" ? withMappingDefaults(parsed) : parsed;
    const settings = flattenSettings(body.settings ?? {});
    checkKnownSettings(settings);
    checkWholeMapping(mappings.properties, mappingLimits(settings));
    const extra = Object.entries((body.aliases ?? {}) as Record<string, unknown>);
    changeAliases(cluster, () => {
      const created = cluster.create(newName, settings, structuredClone(mappings));
      for (const [alias, meta] of extra) cluster.putAlias(created, alias, readAliasMeta(meta));
      const meta = writer.aliases.get(target) ?? {};
      if (meta.is_write_index === true) {
        writer.aliases.set(target, { ...meta, is_write_index: false });
        cluster.putAlias(created, target, { ...meta, is_write_index: true });
      } else {
        writer.aliases.delete(target);
        cluster.putAlias(created, target, meta);
      }
    });
  }
  const out: Record<string, unknown> = {
    acknowledged: rolled,
    shards_acknowledged: rolled,
    old_index: writer.name,
    new_index: newName,
    rolled_over: rolled,
    dry_run: dryRun,
  };
  if (ctx.state.flavour === "elasticsearch") out.lazy = false;
  out.conditions = results;
  return ok(out);
}
