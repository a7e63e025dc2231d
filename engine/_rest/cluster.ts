// Handlers of GET /, _cluster/health and _cluster/settings.

import { setOwn } from "../_index/own.ts";
import { illegalArgument } from "../_errors.ts";
import {
  MAX_BUCKETS,
  MAX_BUCKETS_OPENSEARCH,
  MAX_CLAUSE_COUNT,
  MAX_OPEN_PIT_CONTEXT,
  MAX_OPEN_SCROLL_CONTEXT,
} from "../_index/limits.ts";
import { MAX_SHARDS_PER_NODE } from "../_state/shard_limit.ts";
import { parseKeepAlive } from "../_search/search_api.ts";
import type { IndexState } from "../_state/index_state.ts";
import { nestSettings } from "../_state/settings.ts";
import { parseAutoCreate } from "../_state/auto_create.ts";
import { bodyObject, boolParam, ok, type Reply, type RequestContext } from "./context.ts";
import { targets } from "./targets.ts";

/** GET / (and HEAD /). */
export function infoHandler(ctx: RequestContext): Reply {
  if (ctx.method === "HEAD") return { status: 200 };
  const os = ctx.state.flavour === "opensearch";
  const major = Number(ctx.state.version.split(".")[0]);
  const version: Record<string, unknown> = os
    ? {
      distribution: "opensearch",
      number: ctx.state.version,
      build_type: "tar",
      build_hash: "searchvisitor",
      build_date: "2025-01-01T00:00:00.000Z",
      build_snapshot: false,
      lucene_version: major >= 3 ? "10.2.1" : "9.12.1",
      minimum_wire_compatibility_version: major >= 3 ? "2.19.0" : "7.10.0",
      minimum_index_compatibility_version: major >= 3 ? "2.0.0" : "7.0.0",
    }
    : {
      number: ctx.state.version,
      build_flavor: "default",
      build_type: "tar",
      build_hash: "searchvisitor",
      build_date: "2025-01-01T00:00:00.000Z",
      build_snapshot: false,
      lucene_version: major >= 9 ? "10.2.2" : "9.11.1",
      minimum_wire_compatibility_version: major >= 9 ? "8.19.0" : "7.17.0",
      minimum_index_compatibility_version: major >= 9 ? "8.0.0" : "7.0.0",
    };
  return ok({
    name: ctx.state.node.name,
    cluster_name: ctx.state.node.clusterName,
    cluster_uuid: ctx.state.clusterUuid,
    version,
    tagline: os ? "The OpenSearch Project: https://opensearch.org/" : "You Know, for Search",
  });
}

/** Health of one index on a single node: replicas cannot be assigned, so they make it yellow. */
export function statusOf(index: IndexState): "green" | "yellow" | "red" {
  return index.replicas > 0 ? "yellow" : "green";
}

const ORDER = { green: 0, yellow: 1, red: 2 };

/** One index's health at the request's `level`: `shards` lists each shard too. */
function indexHealth(
  index: IndexState,
  level: "indices" | "shards",
  flavour: string,
): Record<string, unknown> {
  const shards = index.shardCount;
  const status = statusOf(index);
  const out: Record<string, unknown> = {
    status,
    number_of_shards: shards,
    number_of_replicas: index.replicas,
    active_primary_shards: shards,
    active_shards: shards,
    relocating_shards: 0,
    initializing_shards: 0,
    unassigned_shards: shards * index.replicas,
    // Elasticsearch 8.16+ counts unassigned primaries apart (one node: always none).
    ...(flavour === "elasticsearch" ? { unassigned_primary_shards: 0 } : {}),
  };
  if (level === "shards") {
    const list: Record<string, unknown> = {};
    for (let n = 0; n < shards; n++) {
      list[String(n)] = {
        status,
        primary_active: true,
        active_shards: 1,
        relocating_shards: 0,
        initializing_shards: 0,
        unassigned_shards: index.replicas,
        // and per shard (Elasticsearch 9.5.4's `level=shards`)
        ...(flavour === "elasticsearch" ? { unassigned_primary_shards: 0 } : {}),
      };
    }
    out.shards = list;
  }
  return out;
}

/**
 * `active_shards_percent_as_number`: over the indices asked about on Elasticsearch 9.5.4; on
 * OpenSearch 3.8.0 100 when they are green, else over the whole cluster whatever was asked.
 */
function activePercent(
  ctx: RequestContext,
  asked: { status: string; primaries: number; unassigned: number },
): number {
  let { primaries, unassigned } = asked;
  if (ctx.state.flavour === "opensearch") {
    if (asked.status === "green") return 100;
    primaries = unassigned = 0;
    for (const index of ctx.state.cluster.indices.values()) {
      primaries += index.shardCount;
      unassigned += index.shardCount * index.replicas;
    }
  }
  return primaries + unassigned === 0 ? 100 : (primaries / (primaries + unassigned)) * 100;
}

/** GET /_cluster/health[/{index}]. */
export function healthHandler(ctx: RequestContext): Reply {
  const indices = targets(ctx, { expandClosed: true, includeClosed: true });
  let status: "green" | "yellow" | "red" = "green";
  let primaries = 0;
  let unassigned = 0;
  for (const index of indices) {
    if (ORDER[statusOf(index)] > ORDER[status]) status = statusOf(index);
    const shards = index.shardCount;
    primaries += shards;
    unassigned += shards * index.replicas;
  }
  const body: Record<string, unknown> = {
    cluster_name: ctx.state.node.clusterName,
    status,
    timed_out: false,
    number_of_nodes: 1,
    number_of_data_nodes: 1,
    // OpenSearch reports whether the node found a cluster manager, under both names.
    ...(ctx.state.flavour === "opensearch"
      ? { discovered_master: true, discovered_cluster_manager: true }
      : {}),
    active_primary_shards: primaries,
    active_shards: primaries,
    relocating_shards: 0,
    initializing_shards: 0,
    unassigned_shards: unassigned,
    ...(ctx.state.flavour === "elasticsearch" ? { unassigned_primary_shards: 0 } : {}),
    delayed_unassigned_shards: 0,
    number_of_pending_tasks: 0,
    number_of_in_flight_fetch: 0,
    task_max_waiting_in_queue_millis: 0,
    active_shards_percent_as_number: activePercent(ctx, { status, primaries, unassigned }),
  };
  const level = ctx.params.get("level");
  if (level === "indices" || level === "shards") {
    body.indices = Object.fromEntries(
      indices.map((i) => [i.name, indexHealth(i, level, ctx.state.flavour)]),
    );
  }
  const wanted = ctx.params.get("wait_for_status");
  if (wanted && wanted in ORDER && ORDER[wanted as keyof typeof ORDER] < ORDER[status]) {
    body.timed_out = true;
    return { status: 408, body };
  }
  return ok(body);
}

function flatten(
  input: unknown,
  prefix = "",
  out: Record<string, unknown> = {},
): Record<string, unknown> {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return out;
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      flatten(value, path, out);
    } else setOwn(out, path, value);
  }
  return out;
}

const NO_SETTING = new Set(["__proto__", "constructor", "prototype"]);

function applySettings(target: Record<string, unknown>, changes: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete target[key];
    else setOwn(target, key, typeof value === "string" ? value : String(value));
  }
}

/** PUT /_cluster/settings and GET /_cluster/settings; `search.max_keep_alive` takes effect. */
export function clusterSettingsHandler(ctx: RequestContext): Reply {
  const state = ctx.state;
  const view = (flat: Record<string, unknown>): Record<string, unknown> =>
    boolParam(ctx, "flat_settings") ? { ...flat } : nestSettings(flat as Record<string, string>);
  if (ctx.method === "GET") {
    return ok({
      persistent: view(state.persistentSettings),
      transient: view(state.transientSettings),
    });
  }
  const body = bodyObject(ctx) ?? {};
  const persistent = flatten(body.persistent);
  const transient = flatten(body.transient);
  for (const [kind, flat] of [["persistent", persistent], ["transient", transient]] as const) {
    for (const key of Object.keys(flat)) {
      // The engine does not hold Elasticsearch's whole registry of cluster settings; a name
      // that no setting can have (a JavaScript member) is refused as Elasticsearch refuses it.
      if (key.split(".").some((part) => NO_SETTING.has(part))) {
        throw illegalArgument(`${kind} setting [${key}], not recognized`);
      }
    }
  }
  const maxKeepAlive = transient["search.max_keep_alive"] ?? persistent["search.max_keep_alive"];
  if (typeof maxKeepAlive === "string") parseKeepAlive(maxKeepAlive, "search.max_keep_alive");
  parseAutoCreate(persistent["action.auto_create_index"]);
  parseAutoCreate(transient["action.auto_create_index"]);
  applySettings(state.persistentSettings, persistent);
  applySettings(state.transientSettings, transient);
  state.cluster.autoCreateIndex = parseAutoCreate(
    state.transientSettings["action.auto_create_index"] ??
      state.persistentSettings["action.auto_create_index"],
  );
  const effective = state.transientSettings["search.max_keep_alive"] ??
    state.persistentSettings["search.max_keep_alive"];
  state.search.maxKeepAlive = typeof effective === "string"
    ? parseKeepAlive(effective, "search.max_keep_alive")
    : 86_400_000;
  const limit = (key: string, fallback: number): number => {
    const v = Number(state.transientSettings[key] ?? state.persistentSettings[key] ?? fallback);
    return Number.isInteger(v) && v >= 0 ? v : fallback;
  };
  state.search.maxBuckets = limit(
    "search.max_buckets",
    state.flavour === "opensearch" ? MAX_BUCKETS_OPENSEARCH : MAX_BUCKETS,
  );
  state.search.maxClauseCount = limit("indices.query.bool.max_clause_count", MAX_CLAUSE_COUNT);
  state.search.maxOpenScrollContext = limit(
    "search.max_open_scroll_context",
    MAX_OPEN_SCROLL_CONTEXT,
  );
  state.search.maxOpenPitContext = limit("search.max_open_pit_context", MAX_OPEN_PIT_CONTEXT);
  state.cluster.shardLimit.perNode = limit("cluster.max_shards_per_node", MAX_SHARDS_PER_NODE);
  const shown = (flat: Record<string, unknown>): Record<string, unknown> =>
    view(Object.fromEntries(Object.entries(flat).filter(([, v]) => v !== null)));
  return ok({ acknowledged: true, persistent: shown(persistent), transient: shown(transient) });
}
