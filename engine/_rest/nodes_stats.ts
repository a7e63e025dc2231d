// GET /_nodes/stats[/{metric}[/{index_metric}]], /_nodes/{node_id}/stats[...]: the one node's
// `indices` section (what `_stats` counts, summed over every index on the node; `level=indices`
// adds each index, `level=shards` each shard). The engine cannot read its host's memory, threads or disks from web
// standards alone, so the os, process, jvm, thread pool and fs metrics are accepted and left out.

import { illegalArgument } from "../_errors.ts";
import { refreshDue } from "../_state/refresh.ts";
import { boolParam, ok, type Reply, type RequestContext } from "./context.ts";
import { unrecognized } from "./params.ts";
import { holdingOf, openContextsByIndex, shardParts } from "./stats_mapped.ts";
import { section, type SectionOptions, STATS_METRICS } from "./stats_sections.ts";
import { nodeName, transportAddress } from "./node_identity.ts";

/** The one node's roles as Elasticsearch 9 lists them (`_cat/nodes` abbreviates `cdfhilmrstw`). */
export const ELASTICSEARCH_ROLES: readonly string[] = [
  "data",
  "data_cold",
  "data_content",
  "data_frozen",
  "data_hot",
  "data_warm",
  "ingest",
  "master",
  "ml",
  "remote_cluster_client",
  "transform",
];

/** The node metrics Elasticsearch knows; only `indices` has content here. */
const NODE_METRICS = [
  "indices",
  "os",
  "process",
  "jvm",
  "thread_pool",
  "fs",
  "transport",
  "http",
  "breaker",
  "script",
  "discovery",
  "ingest",
  "adaptive_selection",
  "script_cache",
  "indexing_pressure",
  "repositories",
  "allocations",
];

function listed(
  ctx: RequestContext,
  raw: string | undefined,
  known: readonly string[],
  what: string,
) {
  if (raw === undefined) return [...known];
  const names = raw.split(",").filter((n) => n !== "");
  if (names.length === 1 && names[0] === "_all") return [...known];
  const unknown = [...new Set(names.filter((n) => !known.includes(n)))].sort();
  if (unknown.length > 0) {
    throw illegalArgument(unrecognized(ctx.path, unknown, [...known, "_all"], what));
  }
  return known.filter((m) => names.includes(m));
}

/** GET /_nodes/stats and its metric forms. */
export function nodesStatsHandler(ctx: RequestContext): Reply {
  const metrics = listed(ctx, ctx.p.metric, NODE_METRICS, "metric");
  const indexMetrics = listed(ctx, ctx.p.index_metric, STATS_METRICS, "index metric");
  const level = ctx.params.get("level") ?? "node";
  if (!["node", "indices", "shards"].includes(level)) {
    throw illegalArgument(
      `level parameter must be one of [node] or [indices] or [shards] but was [${level}]`,
    );
  }
  const nodeId = ctx.state.clusterUuid;
  const wanted = ctx.p.node_id;
  const selected = wanted === undefined ||
    wanted.split(",").some((n) =>
      ["_all", "_local", "_master", "*", nodeId, nodeName(ctx)].includes(n)
    );
  const node: Record<string, unknown> = {
    timestamp: ctx.state.now(),
    name: nodeName(ctx),
    transport_address: transportAddress(ctx),
    host: "127.0.0.1",
    ip: transportAddress(ctx),
    // The roles `_cat/nodes` abbreviates (`cdfhilmrstw`, OpenSearch `dimr`).
    roles: ctx.state.flavour === "opensearch"
      ? ["cluster_manager", "data", "ingest", "remote_cluster_client"]
      : [...ELASTICSEARCH_ROLES],
    attributes: {},
  };
  if (metrics.includes("indices")) {
    const indices = [...ctx.state.cluster.indices.values()].filter((i) => !i.closed);
    refreshDue(indices, ctx.state.now());
    const o: SectionOptions = {
      human: boolParam(ctx, "human"),
      groups: (ctx.params.get("groups") ?? "").split(",").filter((g) => g !== ""),
      completionFields: (ctx.params.get("completion_fields") ?? "").split(",").filter(Boolean),
      fielddataFields: (ctx.params.get("fielddata_fields") ?? "").split(",").filter(Boolean),
      includeSegmentFileSizes: boolParam(ctx, "include_segment_file_sizes"),
      openContexts: openContextsByIndex(ctx),
    };
    const parts = indices.map(holdingOf);
    const block = (of: typeof parts): Record<string, unknown> =>
      Object.fromEntries(
        indexMetrics.map((m) => [m === "merge" ? "merges" : m, section(m, of, o)]),
      );
    const out = block(parts);
    if (level === "indices") {
      out.indices = Object.fromEntries(parts.map((p) => [p.index.name, block([p])]));
    } else if (level === "shards") {
      out.shards = Object.fromEntries(
        indices.map((i) => [i.name, shardParts(i).map((p, n) => ({ [String(n)]: block([p]) }))]),
      );
    }
    node.indices = out;
  }
  const nodes = selected ? { [nodeId]: node } : {};
  const count = selected ? 1 : 0;
  return ok({
    _nodes: { total: count, successful: count, failed: 0 },
    cluster_name: "searchvisitor",
    nodes,
  });
}
