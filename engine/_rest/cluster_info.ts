// The one-node cluster's informational APIs that have nothing to report beyond that one node:
// `_cat` tables of master, node attributes, pending tasks, plugins, repositories, snapshots
// and field data, and `_cluster/pending_tasks`, `_remote/info`, `_cluster/reroute`,
// voting exclusions, `_dangling`, `_info/ingest` and `_cache/clear`, as the real engines answer
// them.

import { esError, illegalArgument, validationFailed } from "../_errors.ts";
import { catTable } from "./cat.ts";
import { ok, type Reply, type RequestContext } from "./context.ts";
import { targets } from "./targets.ts";
import { nodeName } from "./node_identity.ts";

const CLUSTER = "searchvisitor";
const HOST = "127.0.0.1";

/** `GET /_cat/master`. */
export function catMasterHandler(ctx: RequestContext): Reply {
  const row = { id: ctx.state.clusterUuid, host: HOST, ip: HOST, node: nodeName(ctx) };
  return catTable(ctx, [row], Object.keys(row));
}

/** `GET /_cat/nodeattrs`: the attribute each product sets on its nodes. */
export function catNodeattrsHandler(ctx: RequestContext): Reply {
  const [attr, value] = ctx.state.flavour === "opensearch"
    ? ["shard_indexing_pressure_enabled", "true"]
    : ["xpack.installed", "true"];
  const row = { node: nodeName(ctx), host: HOST, ip: HOST, attr, value };
  return catTable(ctx, [row], Object.keys(row));
}

/** A `_cat` table with no rows (the columns still head the text form). */
function empty(columns: string[]): (ctx: RequestContext) => Reply {
  return (ctx) => catTable(ctx, [], columns);
}

/** `GET /_cat/pending_tasks`: none (the engine's cluster state changes at once). */
export const catPendingTasksHandler = empty(["insertOrder", "timeInQueue", "priority", "source"]);
/** `GET /_cat/plugins`: no plugins installed. */
export const catPluginsHandler = empty(["name", "component", "version"]);
/** `GET /_cat/repositories`: no snapshot repositories. */
export const catRepositoriesHandler = empty(["id", "type"]);
/** `GET /_cat/fielddata`: no field data is loaded (the engine keeps none on the heap). */
export const catFielddataHandler = empty(["id", "host", "ip", "node", "field", "size"]);
/** `GET /_cat/snapshots/{repository?}`: no repository exists. */
export function catSnapshotsHandler(ctx: RequestContext): Reply {
  const repository = ctx.p.repository;
  if (repository === undefined) {
    if (ctx.state.flavour === "opensearch") throw validationFailed("repository is missing");
    return catTable(ctx, [], [
      "id",
      "repository",
      "status",
      "start_epoch",
      "start_time",
      "end_epoch",
      "end_time",
      "duration",
      "indices",
      "successful_shards",
      "failed_shards",
      "total_shards",
    ]);
  }
  throw esError("repository_missing_exception", `[${repository.split(",")[0]}] missing`);
}

/** `GET /_cluster/pending_tasks`. */
export function pendingTasksHandler(): Reply {
  return ok({ tasks: [] });
}

/** `GET /_remote/info`: no remote clusters. */
export function remoteInfoHandler(): Reply {
  return ok({});
}

/** Node names a request may use for the one node. */
function knownNode(ctx: RequestContext, name: unknown): boolean {
  return name === nodeName(ctx) || name === ctx.state.clusterUuid || name === "_local" ||
    name === "_master";
}

/**
 * `POST /_cluster/reroute`: with nothing to move on one node it acknowledges; a command naming
 * another node is refused as the real engines do.
 */
export function rerouteHandler(ctx: RequestContext): Reply {
  const text = ctx.bodyText.trim();
  const body = text ? JSON.parse(text) as { commands?: unknown[] } : {};
  for (const command of body.commands ?? []) {
    for (const args of Object.values(command as Record<string, Record<string, unknown>>)) {
      for (const key of ["from_node", "node", "to_node"]) {
        if (args?.[key] !== undefined && !knownNode(ctx, args[key])) {
          throw illegalArgument(`failed to resolve [${args[key]}], no matching nodes`);
        }
      }
    }
  }
  return ok({ acknowledged: true });
}

/** `POST|DELETE /_cluster/voting_config_exclusions`: nothing to answer but 200. */
export function votingExclusionsHandler(): Reply {
  return { status: 200, text: "" };
}

/** `GET /_dangling`: no dangling indices. */
export function danglingHandler(): Reply {
  return ok({
    _nodes: { total: 1, successful: 1, failed: 0 },
    cluster_name: CLUSTER,
    dangling_indices: [],
  });
}

/** `GET /_info/ingest` (Elasticsearch): no pipeline has run. */
export function infoIngestHandler(): Reply {
  return ok({
    cluster_name: CLUSTER,
    ingest: { total: { count: 0, time_in_millis: 0, current: 0, failed: 0 }, pipelines: {} },
  });
}

/**
 * `POST /{index?}/_cache/clear`: the engine keeps no query, request or field-data caches, so there
 * is nothing to drop; the answer counts the shards as the real engines do (replicas unassigned).
 */
export function clearCacheHandler(ctx: RequestContext): Reply {
  const indices = targets(ctx);
  const primaries = indices.reduce((n, i) => n + i.shardCount, 0);
  const copies = indices.reduce((n, i) => n + i.shardCount * (1 + i.replicas), 0);
  return ok({ _shards: { total: copies, successful: primaries, failed: 0 } });
}
