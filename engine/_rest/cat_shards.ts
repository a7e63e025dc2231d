// GET /_cat/shards[/{index}]: one started primary per shard on the one node, each with its own
// documents, size and stats; replicas stay unassigned (a single node cannot hold them).

import { refreshDue } from "../_state/refresh.ts";
import type { Reply, RequestContext } from "./context.ts";
import { catTable } from "./cat.ts";
import { statsCells } from "./cat_index_columns.ts";
import { formatBytes, formatTime } from "./cat_units.ts";
import { openContextsByIndex, shardParts } from "./stats_mapped.ts";
import { targets } from "./targets.ts";

/** Every column, in Elasticsearch's order; the first eight are shown by default. */
const COLUMNS = [
  "index",
  "shard",
  "prirep",
  "state",
  "docs",
  "store",
  "dataset",
  "ip",
  "id",
  "node",
  "sync_id",
  "unassigned.reason",
  "unassigned.at",
  "unassigned.for",
  "unassigned.details",
  "recoverysource.type",
  "completion.size",
  "fielddata.memory_size",
  "fielddata.evictions",
  "query_cache.memory_size",
  "query_cache.evictions",
  "flush.total",
  "flush.total_time",
  "get.current",
  "get.time",
  "get.total",
  "get.exists_time",
  "get.exists_total",
  "get.missing_time",
  "get.missing_total",
  "indexing.delete_current",
  "indexing.delete_time",
  "indexing.delete_total",
  "indexing.index_current",
  "indexing.index_time",
  "indexing.index_total",
  "indexing.index_failed",
  "merges.current",
  "merges.current_docs",
  "merges.current_size",
  "merges.total",
  "merges.total_docs",
  "merges.total_size",
  "merges.total_time",
  "refresh.total",
  "refresh.time",
  "refresh.external_total",
  "refresh.external_time",
  "refresh.listeners",
  "search.fetch_current",
  "search.fetch_time",
  "search.fetch_total",
  "search.open_contexts",
  "search.query_current",
  "search.query_time",
  "search.query_total",
  "search.scroll_current",
  "search.scroll_time",
  "search.scroll_total",
  "segments.count",
  "segments.memory",
  "segments.index_writer_memory",
  "segments.version_map_memory",
  "segments.fixed_bitset_memory",
  "seq_no.max",
  "seq_no.local_checkpoint",
  "seq_no.global_checkpoint",
  "warmer.current",
  "warmer.total",
  "warmer.total_time",
  "path.data",
  "path.state",
  "refresh.is_search_idle",
  "bulk.total_operations",
  "bulk.total_time",
  "bulk.total_size_in_bytes",
  "bulk.avg_time",
  "bulk.avg_size_in_bytes",
  "dense_vector.value_count",
  "sparse_vector.value_count",
];

const DEFAULTS = ["index", "shard", "prirep", "state", "docs", "store", "dataset", "ip", "node"];
const STATS = new Set(COLUMNS.slice(COLUMNS.indexOf("completion.size")));

/** GET /_cat/shards[/{index}]: hidden indices too unless `expand_wildcards` says otherwise. */
export function catShardsHandler(ctx: RequestContext): Reply {
  const indices = targets(ctx, { expandHidden: true });
  const now = ctx.state.now();
  refreshDue(indices, now);
  const units = { bytes: ctx.params.get("bytes"), time: ctx.params.get("time") };
  const contexts = openContextsByIndex(ctx);
  const rows: Array<Record<string, string>> = [];
  for (const index of indices) {
    shardParts(index).forEach((part, shard) => {
      const seqNo = String(index.maxSeqNo(shard));
      const size = formatBytes(part.bytes, units.bytes);
      rows.push({
        ...statsCells(part, units, contexts, STATS),
        index: index.name,
        shard: String(shard),
        prirep: "p",
        state: "STARTED",
        docs: String(part.docs),
        store: size,
        dataset: size,
        ip: "127.0.0.1",
        id: ctx.state.node.id.slice(0, 4),
        node: ctx.state.node.name,
        "recoverysource.type": "EMPTY_STORE",
        "seq_no.max": seqNo,
        "seq_no.local_checkpoint": seqNo,
        "seq_no.global_checkpoint": seqNo,
        "path.data": `/searchvisitor/${index.uuid}`,
        "path.state": `/searchvisitor/${index.uuid}`,
        "refresh.is_search_idle": "false",
      });
      for (let r = 0; r < index.replicas; r++) {
        rows.push({
          index: index.name,
          shard: String(shard),
          prirep: "r",
          state: "UNASSIGNED",
          "unassigned.reason": "INDEX_CREATED",
          "unassigned.at": new Date(index.creationDate).toISOString(),
          "unassigned.for": formatTime(Math.max(0, now - index.creationDate), units.time),
          "recoverysource.type": "PEER",
        });
      }
    });
  }
  return catTable(ctx, rows, DEFAULTS, COLUMNS);
}
