// Query parameters each API accepts; anything else is refused like Elasticsearch does
// ("request [/x] contains unrecognized parameter: [y] -> did you mean [z]?").

import { illegalArgument } from "../_errors.ts";
import type { Reply, RequestContext } from "./context.ts";

/** The parameters of `_termvectors`; `_mtermvectors` takes them too, and `ids`. */
const TERM_VECTORS = [
  "fields",
  "field_statistics",
  "offsets",
  "payloads",
  "positions",
  "preference",
  "realtime",
  "routing",
  "term_statistics",
  "version",
  "version_type",
];

const COMMON = ["pretty", "human", "error_trace", "source", "source_content_type", "filter_path"];
const TIMEOUTS = ["timeout", "master_timeout", "cluster_manager_timeout"];
const EXPAND = ["ignore_unavailable", "allow_no_indices", "expand_wildcards", "ignore_throttled"];
const SOURCE = [
  "_source",
  "_source_includes",
  "_source_excludes",
  "_source_include",
  "_source_exclude",
];
const WRITE = [
  "wait_for_active_shards",
  "refresh",
  "routing",
  "timeout",
  "pipeline",
  "require_alias",
];
const WRITE_ES = ["require_data_stream", "list_executed_pipelines", "include_source_on_error"];
const CAS = ["if_seq_no", "if_primary_term", "version", "version_type"];
const GET = [
  "stored_fields",
  "preference",
  "realtime",
  "refresh",
  "routing",
  ...SOURCE,
  "version",
  "version_type",
];
const QUERY_STRING = ["q", "analyzer", "analyze_wildcard", "default_operator", "df", "lenient"];
const SEARCH = [
  ...EXPAND,
  ...QUERY_STRING,
  ...SOURCE,
  "ccs_minimize_roundtrips",
  "explain",
  "stored_fields",
  "docvalue_fields",
  "from",
  "preference",
  "routing",
  "scroll",
  "search_type",
  "size",
  "sort",
  "terminate_after",
  "stats",
  "suggest_field",
  "suggest_mode",
  "suggest_size",
  "suggest_text",
  "timeout",
  "track_scores",
  "track_total_hits",
  "allow_partial_search_results",
  "typed_keys",
  "version",
  "seq_no_primary_term",
  "request_cache",
  "batched_reduce_size",
  "max_concurrent_shard_requests",
  "pre_filter_shard_size",
  "rest_total_hits_as_int",
  "min_compatible_shard_node",
  "include_named_queries_score",
  "force_synthetic_source",
  "phase_took",
  "cancel_after_time_interval",
  "search_pipeline",
  "include_unloaded_segments",
  "verbose_pipeline",
];
const BY_QUERY = [
  ...SEARCH,
  "conflicts",
  "search_timeout",
  "max_docs",
  "refresh",
  "wait_for_active_shards",
  "scroll_size",
  "wait_for_completion",
  "requests_per_second",
  "slices",
  "pipeline",
  "version_type",
];
const CAT = [
  "format",
  "h",
  "help",
  "v",
  "s",
  "bytes",
  "time",
  "local",
  "pri",
  "health",
  "ts",
  "full_id",
  "fields",
  "include_unloaded_segments",
  ...TIMEOUTS,
  ...EXPAND,
];

/** The options of `_stats` and of the `indices` section of `_nodes/stats`. */
const STATS = [
  "level",
  "completion_fields",
  "fielddata_fields",
  "fields",
  "groups",
  "include_segment_file_sizes",
  "include_unloaded_segments",
];

/** Accepted parameters per API family. */
export const API_PARAMS: Record<string, readonly string[]> = {
  info: [],
  index: [...WRITE, ...WRITE_ES, ...CAS, "op_type"],
  create: [...WRITE, ...WRITE_ES, "version", "version_type", "op_type"],
  get: GET,
  get_source: GET,
  delete: ["wait_for_active_shards", "refresh", "routing", "timeout", ...CAS],
  update: [
    ...WRITE.filter((name) => name !== "pipeline"),
    ...SOURCE,
    "lang",
    "retry_on_conflict",
    "if_seq_no",
    "if_primary_term",
    "include_source_on_error",
  ],
  mget: ["stored_fields", "preference", "realtime", "refresh", "routing", ...SOURCE],
  put_script: [...TIMEOUTS, "context"],
  get_script: [...TIMEOUTS],
  delete_script: [...TIMEOUTS],
  termvectors: [...TERM_VECTORS],
  mtermvectors: ["ids", ...TERM_VECTORS],
  bulk: [...WRITE, ...WRITE_ES, ...SOURCE, "type"],
  search: SEARCH,
  count: [...EXPAND, ...QUERY_STRING, "min_score", "preference", "routing", "terminate_after"],
  msearch: [
    ...EXPAND,
    "search_type",
    "max_concurrent_searches",
    "typed_keys",
    "pre_filter_shard_size",
    "max_concurrent_shard_requests",
    "rest_total_hits_as_int",
    "ccs_minimize_roundtrips",
    "routing",
    "include_named_queries_score",
  ],
  scroll: ["scroll", "scroll_id", "rest_total_hits_as_int"],
  clear_scroll: ["scroll_id"],
  open_pit: [
    ...EXPAND,
    "keep_alive",
    "preference",
    "routing",
    "allow_partial_search_results",
    "allow_partial_pit_creation",
    "max_concurrent_shard_requests",
  ],
  close_pit: [],
  by_query: BY_QUERY,
  tasks: ["wait_for_completion", "timeout"],
  tasks_list: [
    "actions",
    "detailed",
    "group_by",
    "nodes",
    "parent_task_id",
    "wait_for_completion",
    "timeout",
  ],
  rethrottle: ["requests_per_second"],
  esql: ["format", "delimiter", "drop_null_columns", "allow_partial_results"],
  explain: [
    ...QUERY_STRING,
    ...SOURCE,
    "preference",
    "routing",
    "stored_fields",
  ],
  validate_query: [...EXPAND, ...QUERY_STRING, "explain", "rewrite", "all_shards"],
  reindex: [
    "refresh",
    "timeout",
    "wait_for_active_shards",
    "wait_for_completion",
    "requests_per_second",
    "scroll",
    "slices",
    "max_docs",
    "require_alias",
  ],
  indices_create: ["wait_for_active_shards", ...TIMEOUTS],
  index_template: [
    ...TIMEOUTS,
    "create",
    "cause",
    "order",
    "flat_settings",
    "local",
    "include_defaults",
    "cluster_manager_timeout",
  ],
  indices_delete: [...TIMEOUTS, ...EXPAND],
  indices_get: [...EXPAND, ...TIMEOUTS, "local", "flat_settings", "include_defaults", "features"],
  refresh: EXPAND,
  flush: [...EXPAND, "force", "wait_if_ongoing"],
  forcemerge: [...EXPAND, "max_num_segments", "only_expunge_deletes", "flush"],
  open_close: [...TIMEOUTS, ...EXPAND, "wait_for_active_shards"],
  mapping: [...TIMEOUTS, ...EXPAND, "local", "write_index_only", "include_defaults"],

  settings: [
    ...TIMEOUTS,
    ...EXPAND,
    "local",
    "flat_settings",
    "include_defaults",
    "preserve_existing",
    "reopen",
  ],
  aliases: [...TIMEOUTS, ...EXPAND, "local"],
  cluster_health: [
    ...TIMEOUTS,
    "expand_wildcards",
    "level",
    "local",
    "wait_for_active_shards",
    "wait_for_nodes",
    "wait_for_events",
    "wait_for_no_relocating_shards",
    "wait_for_no_initializing_shards",
    "wait_for_status",
    "awareness_attribute",
    "ensure_node_commissioned",
  ],
  cluster_settings: [...TIMEOUTS, "flat_settings", "include_defaults"],
  cat: CAT,
  indices_analyze: ["index"],
  cluster_pending_tasks: [...TIMEOUTS, "local"],
  remote_info: [],
  cluster_reroute: [...TIMEOUTS, "dry_run", "explain", "retry_failed", "metric"],
  voting_config_exclusions: [...TIMEOUTS, "node_ids", "node_names", "wait_for_removal"],
  dangling: [],
  clear_cache: [...EXPAND, "fielddata", "fields", "query", "request", "index"],
  info_target: [],
  search_shards: [...EXPAND, "local", "preference", "routing", "master_timeout"],
  resolve_index: ["expand_wildcards", "ignore_unavailable", "allow_no_indices", "mode"],
  resolve_cluster: [...EXPAND, "timeout"],
  recovery: [...EXPAND, "active_only", "detailed"],
  shard_stores: [...EXPAND, "status"],
  segments: [...EXPAND],
  reload_search_analyzers: [...EXPAND, "resource"],
  allocation_explain: [
    "include_disk_info",
    "include_yes_decisions",
    "master_timeout",
    "index",
    "shard",
    "primary",
    "current_node",
  ],
  rollover: [...TIMEOUTS, "dry_run", "wait_for_active_shards", "lazy"],
  cluster_state: [
    ...EXPAND,
    ...TIMEOUTS,
    "local",
    "flat_settings",
    "wait_for_metadata_version",
    "wait_for_timeout",
  ],
  health_report: ["timeout", "verbose", "size"],
  terms_enum: [],
  cat_recovery: [...CAT, "active_only", "detailed", "index"],
  indices_resize: ["wait_for_active_shards", ...TIMEOUTS, "copy_settings"],
  indices_block: [...TIMEOUTS, ...EXPAND],
  indices_stats: [...EXPAND, ...STATS, "forbid_closed_indices"],
  nodes_stats: [...STATS, "types", "timeout"],
  field_caps: [...EXPAND, "fields", "include_unmapped", "filters", "types", "include_empty_fields"],
};

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}

/**
 * Elasticsearch's wording for names a request may not hold ("request [/p] contains unrecognized
 * metrics: [a] -> did you mean [b]?, [c]"): each name with the candidates closer than half its
 * length in edits (Lucene's Levenshtein similarity above 0.5), best first.
 */
export function unrecognized(
  path: string,
  invalid: readonly string[],
  candidates: Iterable<string>,
  detail: string,
): string {
  const pool = [...candidates];
  const described = invalid.map((name) => {
    const scored = pool
      .map((c) => ({ c, score: 1 - distance(name, c) / Math.max(name.length, c.length) }))
      .filter((s) => s.score > 0.5)
      .sort((a, b) => b.score - a.score || (a.c < b.c ? -1 : a.c > b.c ? 1 : 0))
      .map((s) => s.c);
    if (scored.length === 0) return `[${name}]`;
    return `[${name}] -> did you mean ${
      scored.length === 1 ? `[${scored[0]}]` : `any of [${scored.join(", ")}]`
    }?`;
  });
  return `request [${path}] contains unrecognized ${detail}${invalid.length > 1 ? "s" : ""}: ${
    described.join(", ")
  }`;
}

// The allowed parameters per API, built once (every request checks its parameters).
const ALLOWED = new Map<string, ReadonlySet<string>>();

/** Throws 400 for query parameters the API does not know. */
export function checkParams(ctx: RequestContext, api: string): void {
  let allowed = ALLOWED.get(api);
  if (!allowed) {
    allowed = new Set([...COMMON, ...(API_PARAMS[api] ?? [])]);
    ALLOWED.set(api, allowed);
  }
  if (ctx.params.size === 0) return; // most requests: no iterator over nothing
  let known = true;
  for (const k of ctx.params.keys()) if (!allowed.has(k)) known = false;
  if (known) return;
  const unknown = [...new Set(ctx.params.keys())].filter((k) => !allowed.has(k)).sort();
  throw illegalArgument(unrecognized(ctx.path, unknown, API_PARAMS[api] ?? [], "parameter"));
}

/** Wraps a handler so that it first checks its query parameters. */
export function api<C extends RequestContext>(
  name: string,
  handler: (ctx: C) => Reply | Promise<Reply>,
): (ctx: C) => Reply | Promise<Reply> {
  return (ctx) => {
    checkParams(ctx, name);
    return handler(ctx);
  };
}
