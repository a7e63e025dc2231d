// GET /_stats, /{index}/_stats[/{metric}]: per-index `primaries`/`total` and `_all`, for the
// metrics the engine can report (docs, store, indexing, search). Indexing and search counters
// are not tracked, so they read 0.

import { illegalArgument } from "../_errors.ts";
import type { IndexState } from "../_state/index_state.ts";
import { refreshDue } from "../_state/refresh.ts";
import { storeSize } from "./cat.ts";
import { statusOf } from "./cluster.ts";
import { ok, type Reply, type RequestContext } from "./context.ts";
import { targets } from "./targets.ts";
import type { JsonObject } from "../_json.ts";

const METRICS = ["docs", "store", "indexing", "search"] as const;
/** Metrics Elasticsearch knows that the engine answers empty. */
const OTHER_METRICS = new Set([
  "get",
  "merge",
  "refresh",
  "flush",
  "warmer",
  "query_cache",
  "fielddata",
  "completion",
  "segments",
  "translog",
  "request_cache",
  "recovery",
  "bulk",
  "shard_stats",
  "dense_vector",
  "sparse_vector",
  "mappings",
]);

function metricsOf(ctx: RequestContext): string[] {
  const raw = ctx.p.metric;
  if (raw === undefined || raw === "_all") return [...METRICS];
  const names = raw.split(",");
  const unknown = names.filter((n) =>
    !(METRICS as readonly string[]).includes(n) && !OTHER_METRICS.has(n)
  );
  if (unknown.length) {
    const listed = unknown.length === 1
      ? `metric: [${unknown[0]}]`
      : `metrics: [${unknown.join(", ")}]`;
    throw illegalArgument(`request [${ctx.path}] contains unrecognized ${listed}`);
  }
  return names.filter((n) => (METRICS as readonly string[]).includes(n));
}

function section(index: IndexState | null, metric: string): JsonObject {
  const bytes = index ? storeSize(index) : 0;
  switch (metric) {
    case "docs":
      return { count: index?.searchableCount ?? 0, deleted: 0, total_size_in_bytes: bytes };
    case "store":
      return { size_in_bytes: bytes, total_data_set_size_in_bytes: bytes, reserved_in_bytes: 0 };
    case "indexing":
      return {
        index_total: 0,
        index_time_in_millis: 0,
        index_current: 0,
        index_failed: 0,
        delete_total: 0,
        delete_time_in_millis: 0,
        delete_current: 0,
        noop_update_total: 0,
        is_throttled: false,
        throttle_time_in_millis: 0,
      };
    default:
      return {
        open_contexts: 0,
        query_total: 0,
        query_time_in_millis: 0,
        query_current: 0,
        fetch_total: 0,
        fetch_time_in_millis: 0,
        fetch_current: 0,
        scroll_total: 0,
        scroll_time_in_millis: 0,
        scroll_current: 0,
        suggest_total: 0,
        suggest_time_in_millis: 0,
        suggest_current: 0,
      };
  }
}

/** Sums the metrics over indices; on one node replicas stay unassigned, so total = primaries. */
function block(indices: IndexState[], metrics: string[]): JsonObject {
  const out: JsonObject = {};
  for (const m of metrics) {
    const parts = indices.length ? indices.map((i) => section(i, m)) : [section(null, m)];
    const sum: JsonObject = {};
    for (const p of parts) {
      for (const [k, v] of Object.entries(p)) {
        sum[k] = typeof v === "number" ? ((sum[k] as number | undefined) ?? 0) + v : v;
      }
    }
    out[m] = sum;
  }
  return out;
}

/** GET /_stats, /{index}/_stats, /{index}/_stats/{metric}. */
export function indicesStatsHandler(ctx: RequestContext): Reply {
  const metrics = metricsOf(ctx);
  const indices = targets(ctx).filter((i) => !i.closed);
  refreshDue(indices, ctx.state.now());
  const shards = indices.reduce((n, i) => n + i.shardCount, 0);
  const perIndex: JsonObject = {};
  for (const i of indices) {
    perIndex[i.name] = {
      uuid: i.uuid,
      health: statusOf(i),
      status: "open",
      primaries: block([i], metrics),
      total: block([i], metrics),
    };
  }
  return ok({
    _shards: { total: shards, successful: shards, failed: 0 },
    _all: { primaries: block(indices, metrics), total: block(indices, metrics) },
    indices: perIndex,
  });
}
