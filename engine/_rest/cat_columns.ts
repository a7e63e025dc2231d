// The _cat columns' short aliases and descriptions (for `h=` and `?help`), as Elasticsearch
// registers them.

import { INDEX_STATS_COLUMN_INFO } from "./cat_index_columns.ts";

/** Aliases and a description per column name. */
export const CAT_COLUMNS: Record<string, { aliases: string[]; desc: string }> = {
  health: { aliases: ["h"], desc: "current health status" },
  status: { aliases: ["s", "st"], desc: "open/close status (cluster status in health)" },
  index: { aliases: ["i", "idx"], desc: "index name" },
  uuid: { aliases: ["id", "uuid"], desc: "index uuid" },
  pri: { aliases: ["p", "shards.primary", "shardsPrimary"], desc: "number of primary shards" },
  rep: { aliases: ["r", "shards.replica", "shardsReplica"], desc: "number of replica shards" },
  "docs.count": { aliases: ["dc", "docsCount"], desc: "available docs" },
  "docs.deleted": { aliases: ["dd", "docsDeleted"], desc: "deleted docs" },
  "store.size": { aliases: ["ss", "storeSize"], desc: "store size of primaries & replicas" },
  "pri.store.size": { aliases: [], desc: "store size of primaries" },
  "dataset.size": { aliases: [], desc: "total size of dataset" },
  epoch: { aliases: ["t", "time"], desc: "seconds since 1970-01-01 00:00:00" },
  timestamp: { aliases: ["ts", "hms", "hhmmss"], desc: "time in HH:MM:SS" },
  cluster: { aliases: ["cl"], desc: "cluster name" },
  "node.total": { aliases: ["nt", "nodeTotal"], desc: "total number of nodes" },
  "node.data": { aliases: ["nd", "nodeData"], desc: "number of nodes that can store data" },
  shards: { aliases: ["t", "sh", "shards.total", "shardsTotal"], desc: "total number of shards" },
  relo: { aliases: ["r", "shards.relocating"], desc: "number of relocating nodes" },
  init: { aliases: ["i", "shards.initializing"], desc: "number of initializing nodes" },
  unassign: { aliases: ["u", "shards.unassigned"], desc: "number of unassigned shards" },
  "unassign.pri": {
    aliases: ["up", "shards.unassigned.primary", "shardsUnassignedPrimary"],
    desc: "number of unassigned primary shards",
  },
  pending_tasks: { aliases: ["pt", "pendingTasks"], desc: "number of pending tasks" },
  max_task_wait_time: { aliases: ["mtwt"], desc: "wait time of longest task pending" },
  active_shards_percent: { aliases: ["asp"], desc: "active number of shards in percent" },
  count: { aliases: ["dc", "docs.count", "docsCount"], desc: "the document count" },
  alias: { aliases: ["a"], desc: "alias name" },
  filter: { aliases: ["f", "fi"], desc: "filter" },
  "routing.index": { aliases: ["ri", "routingIndex"], desc: "index routing" },
  "routing.search": { aliases: ["rs", "routingSearch"], desc: "search routing" },
  is_write_index: { aliases: ["w", "isWriteIndex"], desc: "write index" },
  shard: { aliases: ["s", "sh"], desc: "shard name" },
  prirep: { aliases: ["p", "pr", "primaryOrReplica"], desc: "primary or replica" },
  state: { aliases: ["st"], desc: "shard state" },
  docs: { aliases: ["d", "dc"], desc: "number of docs in shard" },
  store: { aliases: ["sto"], desc: "store size of shard (how much disk it uses)" },
  dataset: { aliases: [], desc: "total size of dataset" },
  ip: { aliases: [], desc: "ip address" },
  id: { aliases: [], desc: "unique id of node where it lives" },
  sync_id: { aliases: [], desc: "sync id" },
  "unassigned.reason": { aliases: ["ur"], desc: "reason shard became unassigned" },
  "unassigned.at": { aliases: ["ua"], desc: "time shard became unassigned (UTC)" },
  "unassigned.for": { aliases: ["uf"], desc: "time has been unassigned" },
  "unassigned.details": {
    aliases: ["ud"],
    desc: "additional details as to why the shard became unassigned",
  },
  "recoverysource.type": { aliases: ["rs"], desc: "recovery source type" },
  "seq_no.max": { aliases: ["sqm", "maxSeqNo"], desc: "max sequence number" },
  "seq_no.local_checkpoint": { aliases: ["sql", "localCheckpoint"], desc: "local checkpoint" },
  "seq_no.global_checkpoint": { aliases: ["sqg", "globalCheckpoint"], desc: "global checkpoint" },
  "path.data": { aliases: ["pd", "dataPath"], desc: "shard data path" },
  "path.state": { aliases: ["ps", "statsPath"], desc: "shard state path" },
  "refresh.is_search_idle": { aliases: ["risi", "searchIdle"], desc: "shard search idle status" },
  node: { aliases: ["n"], desc: "name of node where it lives" },
  name: { aliases: ["n"], desc: "node name" },
  uptime: { aliases: ["u"], desc: "node uptime" },
  port: { aliases: ["po"], desc: "bound transport port" },
  version: { aliases: ["v"], desc: "es version" },
  master: { aliases: ["m"], desc: "*:current master" },
  ...INDEX_STATS_COLUMN_INFO,
};

/**
 * Resolves a `h=` entry against a table's columns: the column itself, or the one column of the
 * table that has it as an alias; unknown names are kept (they render empty).
 */
export function resolveColumn(name: string, columns: readonly string[]): string {
  if (columns.includes(name)) return name;
  return columns.find((c) => CAT_COLUMNS[c]?.aliases.includes(name)) ?? name;
}

/** The `?help` text of a table: one `column | aliases | description` line per column. */
export function catHelp(columns: readonly string[]): string {
  const rows = columns.map((
    c,
  ) => [c, (CAT_COLUMNS[c]?.aliases ?? []).join(","), CAT_COLUMNS[c]?.desc ?? c]);
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ").trimEnd() + "\n")
    .join("");
}
