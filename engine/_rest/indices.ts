// Handlers of index management: create, delete, exists, get, refresh, open and close.

import { checkWholeMapping, mappingLimits } from "../_state/mapping_limits.ts";
import { esError, illegalArgument } from "../_errors.ts";
import { parseMappings, withMappingDefaults } from "../_state/mapping_merge.ts";
import { mappingView } from "../_state/mapping_view.ts";
import { flattenSettings, nestSettings } from "../_state/settings.ts";
import { checkKnownSettings, defaultsBeside } from "../_state/setting_registry.ts";
import {
  bodyObject,
  boolParam,
  type EngineState,
  ok,
  type Reply,
  type RequestContext,
} from "./context.ts";
import { mergeMappings } from "../_state/templates.ts";
import type { IndexState } from "../_state/index_state.ts";
import { broadcastShards, resolveOptions, targets } from "./targets.ts";
import { changeAliases } from "../_state/alias_changes.ts";
import { resolveDateMathName } from "../_state/date_math_names.ts";
import { aliasView, readAliasMeta } from "./aliases.ts";
import { settingsView } from "./settings.ts";

/** PUT /{index}. */
export function createIndexHandler(ctx: RequestContext): Reply {
  const body = bodyObject(ctx) ?? {};
  for (const key of Object.keys(body)) {
    if (!["settings", "mappings", "aliases"].includes(key)) {
      throw esError("parse_exception", `unknown key [${key}] for create index`);
    }
  }
  const name = createIndex(ctx.state, ctx.p.index!, body, "request").name;
  return ok({ acknowledged: true, shards_acknowledged: true, index: name });
}

/**
 * Creates index `name` from a create-index body over what the matching templates give (the
 * composable template of the highest priority, else the legacy ones): the request's settings,
 * mappings and aliases win. `by` says who asks: a create-index request or a document write that
 * creates its index (their refusals are worded differently).
 */
export function createIndex(
  state: EngineState,
  requested: string,
  body: Record<string, unknown>,
  by: "request" | "write",
): IndexState {
  const cluster = state.cluster;
  const resolvedName = resolveDateMathName(requested, state.now());
  const template = cluster.templates.resolve(resolvedName);
  if (template?.dataStream) {
    throw illegalArgument(
      by === "write"
        ? `index [${resolvedName}] matches template [${template.composable}] that creates data streams, and data streams are not supported by this engine`
        : `cannot create index with name [${resolvedName}], because it matches with template [${template.composable}] that creates data streams only, use create data stream api instead`,
    );
  }
  const rawMappings = template
    ? mergeMappings(template.mappings, (body.mappings ?? {}) as Record<string, unknown>)
    : body.mappings;
  const parsed = parseMappings(rawMappings, "create", state.flavour);
  const mappings = state.flavour === "elasticsearch" ? withMappingDefaults(parsed) : parsed;
  const rawAliases = {
    ...template?.aliases,
    ...(body.aliases ?? {}) as Record<string, unknown>,
  };
  const aliases = Object.entries(rawAliases).map(
    ([name, meta]) => [name.replaceAll("{index}", resolvedName), readAliasMeta(meta)] as const,
  );
  const settings = { ...template?.settings, ...flattenSettings(body.settings ?? {}) };
  checkKnownSettings(settings, state.flavour);
  checkWholeMapping(mappings.properties, mappingLimits(settings));
  if (aliases.length === 0) {
    return cluster.create(resolvedName, settings, structuredClone(mappings));
  }
  let created: IndexState | undefined;
  changeAliases(cluster, () => {
    const index = cluster.create(resolvedName, settings, structuredClone(mappings));
    created = index;
    for (const [alias, meta] of aliases) {
      cluster.putAlias(index, resolveDateMathName(alias, state.now()), meta);
    }
  });
  return created!;
}

/** `action.destructive_requires_name`: true by default in Elasticsearch 8, false in OpenSearch. */
function requiresName(ctx: RequestContext): boolean {
  const key = "action.destructive_requires_name";
  const value = ctx.state.transientSettings[key] ?? ctx.state.persistentSettings[key];
  return value === undefined ? ctx.state.flavour === "elasticsearch" : String(value) === "true";
}

/** Refuses `_all` and wildcards in a destructive request's index list when names are required. */
function requireNames(ctx: RequestContext): void {
  if (requiresName(ctx) && ctx.p.index!.split(",").some((p) => p === "_all" || p.includes("*"))) {
    throw illegalArgument("Wildcard expressions or all indices are not allowed");
  }
}

/**
 * DELETE /{index}. Aliases are not index names here: a wildcard matches concrete indices only,
 * and a bare alias name is refused (or skipped with `ignore_unavailable`), as in Elasticsearch.
 */
export function deleteIndexHandler(ctx: RequestContext): Reply {
  const cluster = ctx.state.cluster;
  requireNames(ctx);
  const options = resolveOptions(ctx, { expandClosed: true, includeClosed: true });
  for (const part of ctx.p.index!.split(",")) {
    if (
      !options.ignoreUnavailable && !part.includes("*") && part !== "_all" &&
      !cluster.indices.has(part) && cluster.aliasIndices(part).length > 0
    ) {
      throw illegalArgument(
        `The provided expression [${part}] matches an alias, specify the corresponding concrete indices instead.`,
      );
    }
  }
  const found = cluster.resolve(ctx.p.index, { ...options, ignoreAliases: true });
  for (const index of found) {
    index.release();
    cluster.indices.delete(index.name);
  }
  return ok({ acknowledged: true });
}

/** HEAD /{index}. */
export function existsIndexHandler(ctx: RequestContext): Reply {
  try {
    const found = targets(ctx, { includeClosed: true, expandClosed: true });
    return { status: found.length > 0 ? 200 : 404 };
  } catch {
    return { status: 404 };
  }
}

const FEATURES = ["aliases", "mappings", "settings"];

/** The `features` of GET /{index} (all when absent); an unknown one is a 400 as in Elasticsearch. */
function featuresOf(ctx: RequestContext): Set<string> {
  const raw = ctx.params.get("features");
  if (raw === null || raw === "") return new Set(FEATURES);
  const wanted = new Set<string>();
  for (const name of raw.split(",").map((n) => n.trim().toLowerCase())) {
    if (name === "_all") FEATURES.forEach((f) => wanted.add(f));
    else if (FEATURES.includes(name)) wanted.add(name);
    else throw illegalArgument(`No endpoint or operation is available at [${name}]`);
  }
  return wanted;
}

/**
 * GET /{index}: `aliases`, `mappings` and `settings` of each index, each `{}` when `features`
 * leaves it out; `defaults` with `include_defaults`; `human` adds the readable dates.
 */
export function getIndexHandler(ctx: RequestContext): Reply {
  const flat = boolParam(ctx, "flat_settings");
  const human = boolParam(ctx, "human");
  const withDefaults = boolParam(ctx, "include_defaults");
  const features = featuresOf(ctx);
  const out: Record<string, unknown> = {};
  for (const index of targets(ctx, { includeClosed: true })) {
    const entry: Record<string, unknown> = {
      aliases: features.has("aliases") ? aliasView(index) : {},
      mappings: features.has("mappings") ? mappingView(index.mappings) : {},
      settings: features.has("settings") ? settingsView(index, { flat, human }) : {},
    };
    if (withDefaults && features.has("settings")) {
      const defaults = defaultsBeside(index.settings);
      if (Object.keys(defaults).length > 0) {
        entry.defaults = flat ? defaults : nestSettings(defaults);
      }
    }
    out[index.name] = entry;
  }
  return ok(out);
}

/** POST /_refresh, POST /{index}/_refresh. */
export function refreshHandler(ctx: RequestContext): Reply {
  const found = targets(ctx);
  for (const index of found) {
    const started = performance.now();
    index.refresh(ctx.state.now());
    index.stats.externalRefreshTotal++;
    index.stats.externalRefreshMillis += performance.now() - started;
  }
  return ok({ _shards: broadcastShards(found) });
}

/**
 * POST|GET /_flush, /{index}/_flush: writes are already durable in memory, so a flush commits
 * the translog's operations (counted in `flush` and cleared from `translog` stats).
 */
export function flushHandler(ctx: RequestContext): Reply {
  const found = targets(ctx);
  for (const index of found) {
    const started = performance.now();
    index.refresh(ctx.state.now());
    index.stats.flushTotal++;
    index.stats.translogOps = 0;
    index.stats.flushMillis += performance.now() - started;
  }
  return ok({ _shards: broadcastShards(found) });
}

/** POST /{index}/_close and /{index}/_open. */
export function openCloseHandler(ctx: RequestContext, action: "open" | "close"): Reply {
  const close = action === "close";
  requireNames(ctx); // Elasticsearch refuses `_open` with a wildcard as it does `_close`
  const found = targets(ctx, { includeClosed: true, expandClosed: true });
  const indices: Record<string, unknown> = {};
  for (const index of found) {
    if (close && !index.closed) {
      // Closing commits: everything is searchable-on-reopen and the translog is empty.
      index.refresh(ctx.state.now());
      index.stats.translogOps = 0;
    }
    index.closed = close;
    indices[index.name] = { closed: true };
  }
  return ok(
    close
      ? { acknowledged: true, shards_acknowledged: true, indices }
      : { acknowledged: true, shards_acknowledged: true },
  );
}
