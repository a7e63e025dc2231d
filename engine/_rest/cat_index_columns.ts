// The `_cat/indices` columns beyond the default ones: creation date and the index stats, each
// with its `pri.` sibling (what `?pri` adds), read from the same sections `_stats` answers with.

import type { IndexState } from "../_state/index_state.ts";
import { formatBytes, formatTime } from "./cat_units.ts";
import { type Holding, holdingOf } from "./stats_mapped.ts";
import { section, type SectionOptions } from "./stats_sections.ts";

/** A stats column: name, short aliases, `_stats` section and key, and how its cell is written. */
type StatsColumn = readonly [string, string, string, string, "n" | "t" | "b", string];

const N = "n";
const T = "t";
const B = "b";

/** Elasticsearch's non-default `_cat/indices` stats columns, in its order. */
// deno-fmt-ignore
const STATS_COLUMNS: readonly StatsColumn[] = [
  ["completion.size", "cs,completionSize", "completion", "size_in_bytes", B, "size of completion"],
  ["fielddata.memory_size", "fm,fielddataMemory", "fielddata", "memory_size_in_bytes", B, "used fielddata cache"],
  ["fielddata.evictions", "fe,fielddataEvictions", "fielddata", "evictions", N, "fielddata evictions"],
  ["query_cache.memory_size", "qcm,queryCacheMemory", "query_cache", "memory_size_in_bytes", B, "used query cache"],
  ["query_cache.evictions", "qce,queryCacheEvictions", "query_cache", "evictions", N, "query cache evictions"],
  ["request_cache.memory_size", "rcm,requestCacheMemory", "request_cache", "memory_size_in_bytes", B, "used request cache"],
  ["request_cache.evictions", "rce,requestCacheEvictions", "request_cache", "evictions", N, "request cache evictions"],
  ["request_cache.hit_count", "rchc,requestCacheHitCount", "request_cache", "hit_count", N, "request cache hit count"],
  ["request_cache.miss_count", "rcmc,requestCacheMissCount", "request_cache", "miss_count", N, "request cache miss count"],
  ["flush.total", "ft,flushTotal", "flush", "total", N, "number of flushes"],
  ["flush.total_time", "ftt,flushTotalTime", "flush", "total_time_in_millis", T, "time spent in flush"],
  ["get.current", "gc,getCurrent", "get", "current", N, "number of current get ops"],
  ["get.time", "gti,getTime", "get", "time_in_millis", T, "time spent in get"],
  ["get.total", "gto,getTotal", "get", "total", N, "number of get ops"],
  ["get.exists_time", "geti,getExistsTime", "get", "exists_time_in_millis", T, "time spent in successful gets"],
  ["get.exists_total", "geto,getExistsTotal", "get", "exists_total", N, "number of successful gets"],
  ["get.missing_time", "gmti,getMissingTime", "get", "missing_time_in_millis", T, "time spent in failed gets"],
  ["get.missing_total", "gmto,getMissingTotal", "get", "missing_total", N, "number of failed gets"],
  ["indexing.delete_current", "idc,indexingDeleteCurrent", "indexing", "delete_current", N, "number of current deletions"],
  ["indexing.delete_time", "idti,indexingDeleteTime", "indexing", "delete_time_in_millis", T, "time spent in deletions"],
  ["indexing.delete_total", "idto,indexingDeleteTotal", "indexing", "delete_total", N, "number of delete ops"],
  ["indexing.index_current", "iic,indexingIndexCurrent", "indexing", "index_current", N, "number of current indexing ops"],
  ["indexing.index_time", "iiti,indexingIndexTime", "indexing", "index_time_in_millis", T, "time spent in indexing"],
  ["indexing.index_total", "iito,indexingIndexTotal", "indexing", "index_total", N, "number of indexing ops"],
  ["indexing.index_failed", "iif,indexingIndexFailed", "indexing", "index_failed", N, "number of failed indexing ops"],
  ["merges.current", "mc,mergesCurrent", "merge", "current", N, "number of current merges"],
  ["merges.current_docs", "mcd,mergesCurrentDocs", "merge", "current_docs", N, "number of current merging docs"],
  ["merges.current_size", "mcs,mergesCurrentSize", "merge", "current_size_in_bytes", B, "size of current merges"],
  ["merges.total", "mt,mergesTotal", "merge", "total", N, "number of completed merge ops"],
  ["merges.total_docs", "mtd,mergesTotalDocs", "merge", "total_docs", N, "docs merged"],
  ["merges.total_size", "mts,mergesTotalSize", "merge", "total_size_in_bytes", B, "size merged"],
  ["merges.total_time", "mtt,mergesTotalTime", "merge", "total_time_in_millis", T, "time spent in merges"],
  ["refresh.total", "rto,refreshTotal", "refresh", "total", N, "total refreshes"],
  ["refresh.time", "rti,refreshTime", "refresh", "total_time_in_millis", T, "time spent in refreshes"],
  ["refresh.external_total", "rto,refreshTotal", "refresh", "external_total", N, "total external refreshes"],
  ["refresh.external_time", "rti,refreshTime", "refresh", "external_total_time_in_millis", T, "time spent in external refreshes"],
  ["refresh.listeners", "rli,refreshListeners", "refresh", "listeners", N, "number of pending refresh listeners"],
  ["search.fetch_current", "sfc,searchFetchCurrent", "search", "fetch_current", N, "current fetch phase ops"],
  ["search.fetch_time", "sfti,searchFetchTime", "search", "fetch_time_in_millis", T, "time spent in fetch phase"],
  ["search.fetch_total", "sfto,searchFetchTotal", "search", "fetch_total", N, "total fetch ops"],
  ["search.fetch_failure_total", "sfto,searchFetchFailureTotal", "search", "fetch_failure_total", N, "total fetch ops"],
  ["search.open_contexts", "so,searchOpenContexts", "search", "open_contexts", N, "open search contexts"],
  ["search.query_current", "sqc,searchQueryCurrent", "search", "query_current", N, "current query phase ops"],
  ["search.query_time", "sqti,searchQueryTime", "search", "query_time_in_millis", T, "time spent in query phase"],
  ["search.query_total", "sqto,searchQueryTotal", "search", "query_total", N, "total query phase ops"],
  ["search.query_failure_total", "sqto,searchQueryFailureTotal", "search", "query_failure_total", N, "total query phase ops"],
  ["search.scroll_current", "scc,searchScrollCurrent", "search", "scroll_current", N, "open scroll contexts"],
  ["search.scroll_time", "scti,searchScrollTime", "search", "scroll_time_in_millis", T, "time scroll contexts held open"],
  ["search.scroll_total", "scto,searchScrollTotal", "search", "scroll_total", N, "completed scroll contexts"],
  ["segments.count", "sc,segmentsCount", "segments", "count", N, "number of segments"],
  ["segments.memory", "sm,segmentsMemory", "segments", "memory_in_bytes", B, "memory used by segments"],
  ["segments.index_writer_memory", "siwm,segmentsIndexWriterMemory", "segments", "index_writer_memory_in_bytes", B, "memory used by index writer"],
  ["segments.version_map_memory", "svmm,segmentsVersionMapMemory", "segments", "version_map_memory_in_bytes", B, "memory used by version map"],
  ["segments.fixed_bitset_memory", "sfbm,fixedBitsetMemory", "segments", "fixed_bit_set_memory_in_bytes", B, "memory used by fixed bit sets for nested object field types and type filters for types referred in _parent fields"],
  ["warmer.current", "wc,warmerCurrent", "warmer", "current", N, "current warmer ops"],
  ["warmer.total", "wto,warmerTotal", "warmer", "total", N, "total warmer ops"],
  ["warmer.total_time", "wtt,warmerTotalTime", "warmer", "total_time_in_millis", T, "time spent in warmers"],
  ["suggest.current", "suc,suggestCurrent", "search", "suggest_current", N, "number of current suggest ops"],
  ["suggest.time", "suti,suggestTime", "search", "suggest_time_in_millis", T, "time spend in suggest"],
  ["suggest.total", "suto,suggestTotal", "search", "suggest_total", N, "number of suggest ops"],
  ["memory.total", "tm,memoryTotal", "segments", "index_writer_memory_in_bytes", B, "total used memory"],
  ["bulk.total_operations", "bto,bulkTotalOperation", "bulk", "total_operations", N, "number of bulk shard ops"],
  ["bulk.total_time", "btti,bulkTotalTime", "bulk", "total_time_in_millis", T, "time spend in shard bulk"],
  ["bulk.total_size_in_bytes", "btsi,bulkTotalSizeInBytes", "bulk", "total_size_in_bytes", N, "total size in bytes of shard bulk"],
  ["bulk.avg_time", "bati,bulkAvgTime", "bulk", "avg_time_in_millis", T, "average time spend in shard bulk"],
  ["bulk.avg_size_in_bytes", "basi,bulkAvgSizeInBytes", "bulk", "avg_size_in_bytes", N, "average size in bytes of shard bulk"],
];

// deno-fmt-ignore
const VECTOR_COLUMNS: readonly StatsColumn[] = [
  ["dense_vector.value_count", "dvc,denseVectorCount", "dense_vector", "value_count", N, "number of indexed dense vectors in shard"],
  ["sparse_vector.value_count", "svc,sparseVectorCount", "sparse_vector", "value_count", N, "number of indexed sparse vectors in shard"],
];

/** Aliases and descriptions of the columns this file adds (merged into the `_cat` help). */
export const INDEX_STATS_COLUMN_INFO: Record<string, { aliases: string[]; desc: string }> = {
  "creation.date": { aliases: ["cd"], desc: "index creation date (millisecond value)" },
  "creation.date.string": { aliases: ["cds"], desc: "index creation date (as string)" },
  "search.throttled": { aliases: ["sth"], desc: "indicates if the index is search throttled" },
  ...Object.fromEntries(
    STATS_COLUMNS.flatMap(([name, aliases, , , , desc]) => [
      [name, { aliases: aliases.split(","), desc }],
      [`pri.${name}`, { aliases: [], desc }],
    ]),
  ),
  ...Object.fromEntries(
    VECTOR_COLUMNS.map((
      [name, aliases, , , , desc],
    ) => [name, { aliases: aliases.split(","), desc }]),
  ),
};

/** The extra columns, in order (each followed by its `pri.` sibling). */
export const INDEX_STATS_COLUMNS: readonly string[] = [
  "creation.date",
  "creation.date.string",
  ...STATS_COLUMNS.flatMap(([name]) => [name, `pri.${name}`]),
  "search.throttled",
];

const OPTIONS: SectionOptions = {
  human: false,
  groups: [],
  completionFields: [],
  fielddataFields: [],
  includeSegmentFileSizes: false,
  openContexts: new Map(),
};

/** The cells of stats columns `names` (all of the index table's by default) for one part. */
export function statsCells(
  part: Holding,
  units: { bytes: string | null; time: string | null },
  openContexts: SectionOptions["openContexts"],
  names?: ReadonlySet<string>,
): Record<string, string> {
  const row: Record<string, string> = {};
  const sections = new Map<string, Record<string, unknown>>();
  const read = (name: string): Record<string, unknown> => {
    let found = sections.get(name);
    if (found === undefined) {
      found = section(name, [part], { ...OPTIONS, openContexts });
      sections.set(name, found);
    }
    return found;
  };
  for (const [name, , metric, key, kind] of [...STATS_COLUMNS, ...VECTOR_COLUMNS]) {
    if (names ? !names.has(name) : VECTOR_COLUMNS.some(([v]) => v === name)) continue;
    const value = Number(read(metric)[key] ?? 0);
    row[name] = kind === "t"
      ? formatTime(value, units.time)
      : kind === "b"
      ? formatBytes(value, units.bytes)
      : String(value);
  }
  return row;
}

/**
 * The extra cells of one index's row: empty for a closed index (it has no stats), sizes in the
 * `bytes` unit and times in the `time` unit when given.
 */
export function indexStatsCells(
  index: IndexState,
  units: { bytes: string | null; time: string | null },
  openContexts: SectionOptions["openContexts"],
): Record<string, string> {
  const row: Record<string, string> = {
    "creation.date": String(index.creationDate),
    "creation.date.string": new Date(index.creationDate).toISOString(),
    "search.throttled": "false",
  };
  if (index.closed) return row;
  for (const [name, cell] of Object.entries(statsCells(holdingOf(index), units, openContexts))) {
    row[name] = cell;
    row[`pri.${name}`] = cell;
  }
  return row;
}
