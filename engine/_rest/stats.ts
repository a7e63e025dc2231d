// GET /_stats, /{index}/_stats[/{metric}]: `_shards`, `_all` and each index's `primaries`/`total`
// (and `shards` with `level=shards`), counted from what the engine really did. On one node the
// replicas stay unassigned, so `total` equals `primaries` and `_shards.successful` counts primaries.

import { illegalArgument, validationFailed } from "../_errors.ts";
import type { IndexState } from "../_state/index_state.ts";
import { refreshDue } from "../_state/refresh.ts";
import { statusOf } from "./cluster.ts";
import { boolParam, ok, type Reply, type RequestContext } from "./context.ts";
import { unrecognized } from "./params.ts";
import { type Holding, holdingOf, openContextsByIndex, shardParts } from "./stats_mapped.ts";
import { section, type SectionOptions, STATS_METRICS } from "./stats_sections.ts";
import { broadcastShards, targets } from "./targets.ts";

/** Metrics Elasticsearch accepts that the engine has nothing to report for. */
const SILENT_METRICS = ["mappings"];

function metricsOf(ctx: RequestContext): string[] {
  const raw = ctx.p.metric;
  if (raw === undefined) return [...STATS_METRICS];
  const names = raw.split(",").filter((n) => n !== "");
  if (names.length === 1 && names[0] === "_all") return [...STATS_METRICS];
  if (names.includes("_all")) {
    throw illegalArgument(`request [${ctx.path}] contains _all and individual metrics [${raw}]`);
  }
  const known = new Set<string>([...STATS_METRICS, ...SILENT_METRICS]);
  const unknown = [...new Set(names.filter((n) => !known.has(n)))].sort();
  if (unknown.length > 0) {
    throw illegalArgument(unrecognized(ctx.path, unknown, [...known, "_all"], "metric"));
  }
  return STATS_METRICS.filter((m) => names.includes(m));
}

function listParam(ctx: RequestContext, name: string): string[] {
  return (ctx.params.get(name) ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "");
}

function block(metrics: readonly string[], parts: readonly Holding[], o: SectionOptions) {
  const out: Record<string, unknown> = {};
  for (const m of metrics) out[m === "merge" ? "merges" : m] = section(m, parts, o);
  return out;
}

/** One shard of an index: its number and what it holds. */
interface ShardOf {
  index: IndexState;
  shard: number;
  part: Holding;
}

function shardEntry(
  ctx: RequestContext,
  of: ShardOf,
  metrics: readonly string[],
  o: SectionOptions,
): Record<string, unknown> {
  const { index, shard, part } = of;
  const seqNo = index.maxSeqNo(shard);
  return {
    routing: {
      state: "STARTED",
      primary: true,
      node: ctx.state.node.id,
      relocating_node: null,
    },
    ...block(metrics, [part], o),
    commit: {
      id: `${index.uuid.slice(0, 10)}${part.counters ? "0" : "1"}${index.stats.flushTotal}`,
      generation: index.stats.flushTotal + 1,
      user_data: {},
      num_docs: part.docs,
    },
    seq_no: { max_seq_no: seqNo, local_checkpoint: seqNo, global_checkpoint: seqNo },
    shard_path: {
      state_path: `/searchvisitor/${index.uuid}`,
      data_path: `/searchvisitor/${index.uuid}`,
      is_custom_data_path: false,
    },
    search_idle: false,
    search_idle_time: 0,
  };
}

/** GET /_stats, /{index}/_stats, /{index}/_stats/{metric}. */
export function indicesStatsHandler(ctx: RequestContext): Reply {
  const metrics = metricsOf(ctx);
  const level = ctx.params.get("level") ?? "indices";
  if (!["cluster", "indices", "shards"].includes(level)) {
    throw validationFailed(
      `level parameter must be one of [cluster] or [indices] or [shards] but was [${level}]`,
    );
  }
  const forbidClosed = boolParam(ctx, "forbid_closed_indices", true);
  const found = targets(ctx, { includeClosed: !forbidClosed });
  const indices = forbidClosed ? found.filter((i) => !i.closed) : found;
  const open = indices.filter((i) => !i.closed);
  refreshDue(open, ctx.state.now());
  const contexts = openContextsByIndex(ctx);
  const fields = listParam(ctx, "fields");
  const o: SectionOptions = {
    human: boolParam(ctx, "human"),
    groups: listParam(ctx, "groups"),
    completionFields: ctx.params.has("completion_fields")
      ? listParam(ctx, "completion_fields")
      : fields,
    fielddataFields: ctx.params.has("fielddata_fields")
      ? listParam(ctx, "fielddata_fields")
      : fields,
    includeSegmentFileSizes: boolParam(ctx, "include_segment_file_sizes"),
    openContexts: contexts,
    level,
  };
  // A closed index keeps its documents; its segments are unloaded (listed with
  // `include_unloaded_segments`) and closing committed its translog.
  const unloaded = boolParam(ctx, "include_unloaded_segments");
  const wholes = new Map(
    indices.map((i) => {
      const h = holdingOf(i);
      return [i, i.closed && !unloaded ? { ...h, segments: 0 } : h];
    }),
  );
  const all = [...wholes.values()];
  const out: Record<string, unknown> = {
    _shards: broadcastShards(indices),
    // No index at all: the real engines print both sections empty.
    _all: indices.length === 0
      ? { primaries: {}, total: {} }
      : { primaries: block(metrics, all, o), total: block(metrics, all, o) },
  };
  if (level === "cluster") return ok(out);
  const perIndex: Record<string, unknown> = {};
  for (const index of indices) {
    const whole = wholes.get(index);
    const entry: Record<string, unknown> = { uuid: index.uuid };
    if (!index.closed) entry.health = statusOf(index);
    entry.status = index.closed ? "close" : "open";
    const own = { ...o, perIndex: true };
    entry.primaries = block(metrics, [whole!], own);
    entry.total = block(metrics, [whole!], own);
    if (level === "shards" && !index.closed) {
      const shards: Record<string, unknown> = {};
      shardParts(index).forEach((part, n) => {
        shards[String(n)] = [shardEntry(ctx, { index, shard: n, part }, metrics, o)];
      });
      entry.shards = shards;
    }
    perIndex[index.name] = entry;
  }
  out.indices = perIndex;
  return ok(out);
}
