// The sections of an `_stats` answer, in Elasticsearch's order and shapes, summed over indices or
// shards. With `human`, each size and time gets its readable sibling before the raw number
// (`"size": "1.2kb"` then `"size_in_bytes"`), as Elasticsearch's humanReadableField writes them.

import { matchPattern } from "../_index/name_pattern.ts";
import type { IndexState } from "../_state/index_state.ts";
import type { SearchCounters } from "../_state/index_stats.ts";
import { formatBytes, formatTime } from "./cat_units.ts";
import {
  denseVectorHoldings,
  fieldList,
  type Holding,
  type VectorFiles,
  vectorValues,
} from "./stats_mapped.ts";

/** Every metric `_stats` answers, in Elasticsearch's order (what no metric or `_all` selects). */
export const STATS_METRICS = [
  "docs",
  "shard_stats",
  "store",
  "indexing",
  "get",
  "search",
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
  "dense_vector",
  "sparse_vector",
] as const;

/** How a section is written: `human` siblings and the options of some metrics. */
export interface SectionOptions {
  human: boolean;
  /** `groups`: patterns of the search `stats` groups to list. */
  groups: string[];
  /** `completion_fields` / `fields`: completion fields to list. */
  completionFields: string[];
  /** `fielddata_fields` / `fields`: fielddata fields to list. */
  fielddataFields: string[];
  includeSegmentFileSizes: boolean;
  /** The open scroll and point-in-time contexts per index name. */
  openContexts: Map<string, { scrolls: number; pits: number }>;
  /** True for one index's own blocks (`indices.<name>.primaries`), where some list fields. */
  perIndex?: boolean;
  /** `_stats`' `level` (`cluster` leaves out some sizes). */
  level?: string;
}

type Out = Record<string, unknown>;

/** Writes a block's sizes and times: the raw number, and before it, with `human`, its reading. */
class Measures {
  readonly human: boolean;
  constructor(readonly out: Out, o: Pick<SectionOptions, "human">) {
    this.human = o.human;
  }

  bytes(name: string, value: number, raw = `${name}_in_bytes`): void {
    if (this.human) this.out[name] = formatBytes(value);
    this.out[raw] = value;
  }

  millis(name: string, raw: string, value: number): void {
    const ms = Math.floor(value);
    if (this.human) this.out[name] = formatTime(ms);
    this.out[raw] = ms;
  }
}

function sum(parts: readonly Holding[], read: (h: Holding) => number): number {
  let n = 0;
  for (const p of parts) n += read(p);
  return n;
}

function counted(parts: readonly Holding[], read: (h: Holding) => number): number {
  return sum(parts, (p) => p.counters ? read(p) : 0);
}

function searchBlock(
  w: Measures,
  c: (read: (s: SearchCounters) => number) => number,
  scrollCurrent: number,
): void {
  const out = w.out;
  out.query_total = c((s) => s.queryTotal);
  w.millis("query_time", "query_time_in_millis", c((s) => s.queryMillis));
  out.query_current = 0;
  out.query_failure_total = 0;
  out.fetch_total = c((s) => s.fetchTotal);
  w.millis("fetch_time", "fetch_time_in_millis", c((s) => s.fetchMillis));
  out.fetch_current = 0;
  out.fetch_failure_total = 0;
  out.scroll_total = c((s) => s.scrollTotal);
  w.millis("scroll_time", "scroll_time_in_millis", c((s) => s.scrollMillis));
  out.scroll_current = scrollCurrent;
  out.suggest_total = 0;
  w.millis("suggest_time", "suggest_time_in_millis", 0);
  out.suggest_current = 0;
}

function search(parts: readonly Holding[], o: SectionOptions): Out {
  const open = (p: Holding, kind: "scrolls" | "pits"): number =>
    (o.openContexts.get(p.index.name)?.[kind] ?? 0) * p.shards;
  const out: Out = { open_contexts: sum(parts, (p) => open(p, "scrolls") + open(p, "pits")) };
  const scrolls = sum(parts, (p) => open(p, "scrolls"));
  searchBlock(
    new Measures(out, o),
    (read) => counted(parts, (p) => read(p.index.stats.search)),
    scrolls,
  );
  if (o.groups.length > 0) {
    const groups: Out = {};
    const names = new Set<string>();
    for (const p of parts) for (const g of p.index.stats.groups.keys()) names.add(g);
    for (const name of [...names].sort()) {
      if (!o.groups.some((g) => g === "_all" || matchPattern(g, name))) continue;
      const block: Out = {};
      const read = (r: (s: SearchCounters) => number): number =>
        counted(parts, (p) => {
          const g = p.index.stats.groups.get(name);
          return g === undefined ? 0 : r(g);
        });
      searchBlock(new Measures(block, o), read, 0);
      groups[name] = block;
    }
    if (Object.keys(groups).length > 0) out.groups = groups;
  }
  return out;
}

/** What one section's filler reads: the holdings, the options, a measures writer, a counter summer. */
interface SectionInput {
  readonly parts: readonly Holding[];
  readonly o: SectionOptions;
  /** Writes sizes and times into `out`, with their readings when `human`. */
  readonly w: Measures;
  readonly c: (read: (s: IndexState["stats"]) => number) => number;
  /** A fresh object to fill (key order is the order of Elasticsearch's reply). */
  readonly out: Out;
}

/**
 * The sections by metric name, each filling its block the way Elasticsearch writes it; a metric
 * not in the table is a vector field's value count (`dense_vector`, `sparse_vector`).
 */
const SECTIONS: ReadonlyMap<string, (input: SectionInput) => Out> = new Map<
  string,
  (input: SectionInput) => Out
>([
  ["docs", ({ parts, w, out }) => {
    out.count = sum(parts, (p) => p.docs);
    out.deleted = sum(parts, (p) => p.deleted);
    w.bytes("total_size", sum(parts, (p) => p.bytes));
    return out;
  }],
  ["shard_stats", ({ parts }) => {
    return { total_count: sum(parts, (p) => p.shards) };
  }],
  ["store", ({ parts, w, out }) => {
    const size = sum(parts, (p) => p.bytes);
    w.bytes("size", size);
    w.bytes("total_data_set_size", size);
    w.bytes("reserved", 0);
    return out;
  }],
  ["indexing", ({ w, c, out }) => {
    out.index_total = c((s) => s.indexTotal);
    w.millis("index_time", "index_time_in_millis", c((s) => s.indexMillis));
    out.index_current = 0;
    out.index_failed = c((s) => s.indexFailed);
    out.delete_total = c((s) => s.deleteTotal);
    w.millis("delete_time", "delete_time_in_millis", c((s) => s.deleteMillis));
    out.delete_current = 0;
    out.noop_update_total = c((s) => s.noopUpdateTotal);
    out.is_throttled = false;
    w.millis("throttle_time", "throttle_time_in_millis", 0);
    out.write_load = 0;
    return out;
  }],
  ["get", ({ w, c, out }) => {
    out.total = c((s) => s.getTotal);
    w.millis("getTime", "time_in_millis", c((s) => s.getMillis));
    out.exists_total = c((s) => s.existsTotal);
    w.millis("exists_time", "exists_time_in_millis", c((s) => s.existsMillis));
    out.missing_total = c((s) => s.missingTotal);
    w.millis("missing_time", "missing_time_in_millis", c((s) => s.missingMillis));
    out.current = 0;
    return out;
  }],
  ["search", ({ parts, o }) => {
    return search(parts, o);
  }],
  ["merge", ({ parts, w, out }) => {
    const m = (read: (m: IndexState["merges"]) => number): number =>
      sum(parts, (p) => p.counters ? read(p.index.merges) : 0);
    out.current = m((x) => x.current);
    out.current_docs = m((x) => x.currentDocs);
    w.bytes("current_size", 0);
    out.total = m((x) => x.total);
    w.millis("total_time", "total_time_in_millis", Math.round(m((x) => x.totalMillis)));
    out.total_docs = m((x) => x.totalDocs);
    w.bytes("total_size", 0);
    w.millis("total_stopped_time", "total_stopped_time_in_millis", 0);
    w.millis("total_throttled_time", "total_throttled_time_in_millis", 0);
    const throttled = sum(parts, (p) => p.shards);
    w.bytes("total_auto_throttle", 20 * 1024 * 1024 * throttled);
    return out;
  }],
  ["refresh", ({ w, c, out }) => {
    out.total = c((s) => s.refreshTotal);
    w.millis("total_time", "total_time_in_millis", c((s) => s.refreshMillis));
    out.external_total = c((s) => s.externalRefreshTotal);
    w.millis(
      "external_total_time",
      "external_total_time_in_millis",
      c((s) => s.externalRefreshMillis),
    );
    out.listeners = 0;
    return out;
  }],
  ["flush", ({ w, c, out }) => {
    out.total = c((s) => s.flushTotal);
    out.periodic = 0;
    w.millis("total_time", "total_time_in_millis", c((s) => s.flushMillis));
    w.millis(
      "total_time_excluding_waiting_on_lock",
      "total_time_excluding_waiting_on_lock_in_millis",
      c((s) => s.flushMillis),
    );
    return out;
  }],
  ["warmer", ({ w, c, out }) => {
    out.current = 0;
    out.total = c((s) => s.refreshTotal);
    w.millis("total_time", "total_time_in_millis", 0);
    return out;
  }],
  ["query_cache", ({ w, out }) => {
    w.bytes("memory_size", 0);
    return {
      ...out,
      total_count: 0,
      hit_count: 0,
      miss_count: 0,
      cache_size: 0,
      cache_count: 0,
      evictions: 0,
    };
  }],
  ["fielddata", ({ parts, o, w, out }) => {
    w.bytes("memory_size", 0);
    out.evictions = 0;
    // Fields asked for are listed, none when no field matches (`"fields":{}`).
    const fields = fieldList(parts.map((p) => p.index), o.fielddataFields, ["text", "keyword"]);
    if (o.fielddataFields.length > 0) {
      out.fields = Object.fromEntries(fields.map((f) => [f, { memory_size_in_bytes: 0 }]));
    }
    const ordinals: Out = {};
    new Measures(ordinals, o).millis("build_time", "build_time_in_millis", 0);
    out.global_ordinals = ordinals;
    return out;
  }],
  ["completion", ({ parts, o, w, out }) => {
    w.bytes("size", 0);
    const fields = fieldList(parts.map((p) => p.index), o.completionFields, ["completion"]);
    if (fields.length > 0) {
      out.fields = Object.fromEntries(fields.map((f) => [f, { size_in_bytes: 0 }]));
    }
    return out;
  }],
  ["segments", ({ parts, o, w, out }) => {
    out.count = sum(parts, (p) => p.segments);
    w.bytes("memory", 0);
    for (
      const name of [
        "terms_memory",
        "stored_fields_memory",
        "term_vectors_memory",
        "norms_memory",
        "points_memory",
        "doc_values_memory",
        "index_writer_memory",
        "version_map_memory",
      ]
    ) w.bytes(name, 0);
    w.bytes("fixed_bit_set", 0, "fixed_bit_set_memory_in_bytes");
    out.max_unsafe_auto_id_timestamp = -1;
    out.file_sizes = o.includeSegmentFileSizes ? fileSizes(parts, o) : {};
    return out;
  }],
  ["translog", ({ w, c, out }) => {
    const ops = c((s) => s.translogOps);
    out.operations = ops;
    w.bytes("size", 55 + ops * 64);
    out.uncommitted_operations = ops;
    w.bytes("uncommitted_size", 55 + ops * 64);
    out.earliest_last_modified_age = 0;
    return out;
  }],
  ["request_cache", ({ w, out }) => {
    w.bytes("memory_size", 0);
    return { ...out, evictions: 0, hit_count: 0, miss_count: 0 };
  }],
  ["recovery", ({ w, out }) => {
    out.current_as_source = 0;
    out.current_as_target = 0;
    w.millis("throttle_time", "throttle_time_in_millis", 0);
    return out;
  }],
  ["bulk", ({ w, c, out }) => {
    const total = c((s) => s.bulkTotal);
    const time = c((s) => s.bulkMillis);
    const size = c((s) => s.bulkBytes);
    out.total_operations = total;
    w.millis("total_time", "total_time_in_millis", time);
    w.bytes("total_size", size);
    w.millis("avg_time", "avg_time_in_millis", total === 0 ? 0 : time / total);
    w.bytes("avg_size", total === 0 ? 0 : Math.floor(size / total));
    return out;
  }],
]);

/**
 * `dense_vector`: the values the segments hold (deleted documents' too) and, between the shard
 * and the cluster level, the bytes of the vector files (raw, quantised, BBQ; graphs and IVF files count 0), per
 * field too in an index's own block.
 */
function denseVectors(parts: readonly Holding[], o: SectionOptions): Out {
  const fields = new Map<string, VectorFiles>();
  for (const p of parts) {
    if (!p.counters) continue;
    for (const [path, f] of denseVectorHoldings(p.index)) {
      const into = fields.get(path);
      if (!into) fields.set(path, { ...f });
      else {
        into.count += f.count;
        into.veb += f.veb;
        into.vec += f.vec;
        into.veq += f.veq;
        into.vex ||= f.vex;
      }
    }
  }
  const all = [...fields.values()];
  const total = (k: "count" | "veb" | "vec" | "veq") => all.reduce((n, f) => n + f[k], 0);
  const out: Out = { value_count: total("count") };
  if (o.level === "cluster" || parts.some((p) => p.perShard)) return out;
  const offHeap: Out = {};
  const w = new Measures(offHeap, o);
  const size = (name: string, value: number) => w.bytes(name, value, `${name}_bytes`);
  size("total_size", total("veb") + total("vec") + total("veq"));
  size("total_veb_size", total("veb"));
  size("total_vec_size", total("vec"));
  size("total_veq_size", total("veq"));
  size("total_vex_size", 0);
  size("total_cenivf_size", 0);
  size("total_clivf_size", 0);
  if (o.perIndex && fields.size > 0) {
    const byField: Out = {};
    for (const path of [...fields.keys()].sort()) {
      const f = fields.get(path)!;
      const files: Out = {};
      const fw = new Measures(files, o);
      const file = (name: string, value: number) => fw.bytes(name, value, `${name}_bytes`);
      if (f.veb > 0) file("veb_size", f.veb);
      file("vec_size", f.vec);
      if (f.veq > 0) file("veq_size", f.veq);
      if (f.vex) file("vex_size", 0);
      byField[path] = files;
    }
    offHeap.fielddata = byField;
  }
  out.off_heap = offHeap;
  return out;
}

/** One section of a stats block; `metric` is one of {@link STATS_METRICS}. */
export function section(metric: string, parts: readonly Holding[], o: SectionOptions): Out {
  const fill = SECTIONS.get(metric);
  if (metric === "dense_vector") return denseVectors(parts, o);
  if (fill === undefined) {
    return { value_count: sum(parts, (p) => p.counters ? vectorValues(p.index, metric) : 0) };
  }
  const c = (read: (s: IndexState["stats"]) => number): number =>
    counted(parts, (p) => read(p.index.stats));
  const out: Out = {};
  return fill({ parts, o, w: new Measures(out, o), c, out });
}

/** `include_segment_file_sizes`: segment infos and stored fields (the sources), per extension. */
function fileSizes(parts: readonly Holding[], o: SectionOptions): Out {
  const segments = sum(parts, (p) => p.segments);
  if (segments === 0) return {};
  // One segment-info file per segment; the stored fields (the sources) spread over the segments.
  const file = (description: string, total: number): Out => {
    const out: Out = { description };
    const w = new Measures(out, o);
    w.bytes("size", total);
    w.bytes("min_size", Math.floor(total / segments));
    w.bytes("max_size", Math.ceil(total / segments));
    w.bytes("average_size", Math.round(total / segments));
    out.count = segments;
    return out;
  };
  return {
    si: file("Segment Info", segments * 360),
    fdt: file("Field Data", sum(parts, (p) => p.bytes)),
  };
}
