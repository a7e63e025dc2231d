// The _cat APIs: indices, health, count, aliases and shards, as text tables (`v`, `h`, `s`) or `format=json`.

import { illegalArgument } from "../_errors.ts";
import { matchPattern } from "../_index/name_pattern.ts";
import { refreshDue } from "../_state/refresh.ts";
import { boolParam, ok, type Reply, type RequestContext } from "./context.ts";
import { healthHandler, statusOf } from "./cluster.ts";
import { resolveOptions, targets } from "./targets.ts";
import { catHelp, resolveColumn } from "./cat_columns.ts";
import { formatBytes, formatTime } from "./cat_units.ts";
import { holdingOf, luceneDocCount, openContextsByIndex, storeSize } from "./stats_mapped.ts";
import { INDEX_STATS_COLUMNS, indexStatsCells } from "./cat_index_columns.ts";
import { nodeName } from "./node_identity.ts";

type Row = Record<string, string>;

const RIGHT_ALIGNED = new Set([
  "shard",
  "docs",
  "store",
  "count",
  "pri",
  "rep",
  "docs.count",
  "docs.deleted",
  "store.size",
  "pri.store.size",
  "dataset.size",
  "epoch",
  "node.total",
  "node.data",
  "shards",
  "relo",
  "init",
  "unassign",
  "pending_tasks",
  "active_shards_percent",
]);

/** Numbers sit right in their column, as Elasticsearch's `text-align:right` cells do. */
function rightAligned(column: string): boolean {
  return RIGHT_ALIGNED.has(column) ||
    INDEX_STATS_COLUMNS.includes(column) && !column.startsWith("creation.") &&
      column !== "search.throttled";
}

function sortRows(rows: Row[], spec: string | null): Row[] {
  if (!spec) return rows;
  const keys = spec.split(",").map((k) => {
    const [column, order] = k.split(":");
    return { column, desc: order === "desc" };
  });
  const numeric = (v: string): number => (/^-?\d+(\.\d+)?$/.test(v) ? Number(v) : NaN);
  return [...rows].sort((a, b) => {
    for (const { column, desc } of keys) {
      const x = a[column!] ?? "";
      const y = b[column!] ?? "";
      // Cells without a value (an unassigned shard's docs) sort last either way.
      if ((x === "") !== (y === "")) return x === "" ? 1 : -1;
      const nx = numeric(x);
      const ny = numeric(y);
      const c = !Number.isNaN(nx) && !Number.isNaN(ny) ? nx - ny : x < y ? -1 : x > y ? 1 : 0;
      if (c !== 0) return desc ? -c : c;
    }
    return 0;
  });
}

/** Renders rows like Elasticsearch's cat APIs. */
export function catTable(
  ctx: RequestContext,
  allRows: Row[],
  defaults: string[],
  extra: readonly string[] = [],
): Reply {
  // `extra` holding every column gives their order (for `?help`); else defaults come first.
  const order = defaults.every((d) => extra.includes(d)) ? extra : [...defaults, ...extra];
  const known = [...new Set([...order, ...Object.keys(allRows[0] ?? {})])];
  if (ctx.params.has("help")) {
    return {
      status: 200,
      text: catHelp(known),
      headers: { "content-type": "text/plain; charset=UTF-8" },
    };
  }
  const h = ctx.params.get("h");
  const withTimestamps = boolParam(ctx, "ts", true);
  // A column asked for by an alias (`h=iito`) is headed by that alias, as Elasticsearch does.
  const labels = new Map<string, string>();
  const chosen = (h
    ? h.split(",").map((c) => {
      const column = resolveColumn(c.trim(), known);
      if (!labels.has(column)) labels.set(column, c.trim());
      return column;
    })
    : defaults)
    .filter((c) => withTimestamps || (c !== "epoch" && c !== "timestamp"));
  // `?pri` puts each column's primaries-only sibling (`pri.<column>`) right after it.
  const columns = boolParam(ctx, "pri")
    ? [...new Set(chosen.flatMap((c) => known.includes(`pri.${c}`) ? [c, `pri.${c}`] : [c]))]
    : chosen;
  const label = (c: string) =>
    c.startsWith("pri.") && labels.has(c.slice(4))
      ? `pri.${labels.get(c.slice(4))}`
      : labels.get(c) ?? c;
  const sortSpec = ctx.params.get("s")?.split(",").map((k) => {
    const [c, order] = k.split(":");
    return order === undefined ? resolveColumn(c!, known) : `${resolveColumn(c!, known)}:${order}`;
  }).join(",") ?? null;
  const rows = sortRows(allRows, sortSpec);
  // JSON when `format=json`, or with no format when the Accept header asks for JSON.
  const format = ctx.params.get("format");
  if (format === "json" || (format === null && /json/.test(ctx.accept ?? ""))) {
    return ok(rows.map((r) => Object.fromEntries(columns.map((c) => [label(c), r[c] ?? null]))));
  }
  const verbose = boolParam(ctx, "v");
  const widths = columns.map((c) =>
    Math.max(verbose ? label(c).length : 0, ...rows.map((r) => (r[c] ?? "").length))
  );
  // A header's labels are all left-aligned; a row's numbers stand right-aligned.
  const line = (cells: string[], kind: "header" | "row"): string =>
    cells.map((cell, i) =>
      kind === "row" && rightAligned(columns[i]!)
        ? cell.padStart(widths[i]!)
        : cell.padEnd(widths[i]!)
    ).join(" ").trimEnd();
  const lines = rows.map((r) => line(columns.map((c) => r[c] ?? ""), "row"));
  if (verbose) lines.unshift(line(columns.map(label), "header"));
  return {
    status: 200,
    text: lines.map((l) => l + "\n").join(""),
    headers: { "content-type": "text/plain; charset=UTF-8" },
  };
}

const INDEX_COLUMNS = [
  "health",
  "status",
  "index",
  "uuid",
  "pri",
  "rep",
  "docs.count",
  "docs.deleted",
  "store.size",
  "pri.store.size",
  "dataset.size",
];

/** The `health` filter of `_cat/indices`: green, yellow or red (any case), else a 400. */
function healthFilter(raw: string | null): string | undefined {
  if (raw === null) return undefined;
  const status = raw.toLowerCase();
  if (status === "green" || status === "yellow" || status === "red") return status;
  throw illegalArgument(`unknown cluster health status [${raw}]`);
}

/** GET /_cat/indices[/{index}]. */
export function catIndicesHandler(ctx: RequestContext): Reply {
  const wanted = healthFilter(ctx.params.get("health"));
  const all = targets(ctx, { expandClosed: true, includeClosed: true });
  // Closed indices keep their (replicated) shards, so they have a health too.
  const indices = wanted ? all.filter((i) => statusOf(i) === wanted) : all;
  refreshDue(indices, ctx.state.now());
  const units = { bytes: ctx.params.get("bytes"), time: ctx.params.get("time") };
  const contexts = openContextsByIndex(ctx);
  const rows = indices.map((i) => {
    const size = i.closed ? "" : formatBytes(storeSize(i), ctx.params.get("bytes"));
    return {
      ...indexStatsCells(i, units, contexts),
      health: statusOf(i),
      status: i.closed ? "close" : "open",
      index: i.name,
      uuid: i.uuid,
      pri: String(i.shardCount),
      rep: String(i.replicas),
      "docs.count": i.closed ? "" : String(luceneDocCount(i)),
      "docs.deleted": i.closed ? "" : String(holdingOf(i).deleted),
      "store.size": size,
      "pri.store.size": size,
      "dataset.size": size,
    };
  });
  return catTable(ctx, rows, INDEX_COLUMNS, INDEX_STATS_COLUMNS);
}

/** GET /_cat/health. */
export function catHealthHandler(ctx: RequestContext): Reply {
  const health = healthHandler({ ...ctx, p: {}, params: new URLSearchParams() }).body as Record<
    string,
    unknown
  >;
  const now = ctx.state.now();
  const row = {
    epoch: String(Math.floor(now / 1000)),
    timestamp: new Date(now).toISOString().slice(11, 19),
    cluster: "searchvisitor",
    status: String(health.status),
    "node.total": "1",
    "node.data": "1",
    shards: String(health.active_shards),
    pri: String(health.active_primary_shards),
    relo: "0",
    init: "0",
    unassign: String(health.unassigned_shards),
    pending_tasks: "0",
    max_task_wait_time: "-",
    active_shards_percent: `${Number(health.active_shards_percent_as_number).toFixed(1)}%`,
  };
  return catTable(ctx, [row], Object.keys(row));
}

/** GET /_cat/count[/{index}]: searchable documents. */
export function catCountHandler(ctx: RequestContext): Reply {
  const indices = targets(ctx);
  refreshDue(indices, ctx.state.now());
  const now = ctx.state.now();
  const count = indices.reduce((sum, i) => sum + i.searchableCount, 0);
  const row = {
    epoch: String(Math.floor(now / 1000)),
    timestamp: new Date(now).toISOString().slice(11, 19),
    count: String(count),
  };
  return catTable(ctx, [row], Object.keys(row));
}

/** GET /_cat/aliases[/{name}]. */
export function catAliasesHandler(ctx: RequestContext): Reply {
  const names = ctx.p.name?.split(",");
  const rows: Row[] = [];
  // `expand_wildcards` defaults to `all` here; without `hidden`, hidden indices and aliases go.
  const states = resolveOptions(ctx, { expandClosed: true, expandHidden: true });
  for (const index of ctx.state.cluster.indices.values()) {
    if (index.closed ? !states.expandClosed : states.expandOpen === false) continue;
    if (index.settings["index.hidden"] === "true" && !states.expandHidden) continue;
    // An index's aliases come sorted by name (real OpenSearch 3.8.0 and Elasticsearch 9.5.4).
    const sorted = [...index.aliases].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
    for (const [alias, meta] of sorted) {
      if (names && !names.some((n) => matchPattern(n, alias))) continue;
      if (meta.is_hidden === true && !states.expandHidden) continue;
      rows.push({
        alias,
        index: index.name,
        filter: meta.filter ? "*" : "-",
        "routing.index": meta.index_routing ?? "-",
        "routing.search": meta.search_routing ?? "-",
        is_write_index: meta.is_write_index === undefined ? "-" : String(meta.is_write_index),
      });
    }
  }
  return catTable(ctx, rows, [
    "alias",
    "index",
    "filter",
    "routing.index",
    "routing.search",
    "is_write_index",
  ]);
}

/** GET /_cat/nodes: the one node. */
export function catNodesHandler(ctx: RequestContext): Reply {
  const row = {
    ip: "127.0.0.1",
    "heap.percent": "10",
    "ram.percent": "50",
    cpu: "1",
    load_1m: "0.00",
    load_5m: "0.00",
    load_15m: "0.00",
    "node.role": ctx.state.flavour === "opensearch" ? "dimr" : "cdfhilmrstw",
    master: "*",
    name: nodeName(ctx),
  };
  const uptime = formatTime(ctx.state.now() - ctx.state.cluster.startedAt, ctx.params.get("time"));
  return catTable(ctx, [{ ...row, uptime }], Object.keys(row));
}

/** The `_cat` APIs each product lists at `GET /_cat`, in its order (copied from its answer). */
const CAT_APIS = {
  elasticsearch: [
    "/_cat/allocation",
    "/_cat/shards",
    "/_cat/shards/{index}",
    "/_cat/master",
    "/_cat/nodes",
    "/_cat/tasks",
    "/_cat/indices",
    "/_cat/indices/{index}",
    "/_cat/segments",
    "/_cat/segments/{index}",
    "/_cat/count",
    "/_cat/count/{index}",
    "/_cat/recovery",
    "/_cat/recovery/{index}",
    "/_cat/health",
    "/_cat/pending_tasks",
    "/_cat/aliases",
    "/_cat/aliases/{alias}",
    "/_cat/thread_pool",
    "/_cat/thread_pool/{thread_pools}",
    "/_cat/circuit_breaker",
    "/_cat/circuit_breaker/{circuit_breaker_patterns}",
    "/_cat/plugins",
    "/_cat/fielddata",
    "/_cat/fielddata/{fields}",
    "/_cat/nodeattrs",
    "/_cat/repositories",
    "/_cat/snapshots/{repository}",
    "/_cat/templates",
    "/_cat/component_templates",
  ],
  opensearch: [
    "/_cat/allocation",
    "/_cat/segment_replication",
    "/_cat/segment_replication/{index}",
    "/_cat/shards",
    "/_cat/shards/{index}",
    "/_cat/cluster_manager",
    "/_cat/nodes",
    "/_cat/tasks",
    "/_cat/indices",
    "/_cat/indices/{index}",
    "/_cat/segments",
    "/_cat/segments/{index}",
    "/_cat/count",
    "/_cat/count/{index}",
    "/_cat/recovery",
    "/_cat/recovery/{index}",
    "/_cat/health",
    "/_cat/pending_tasks",
    "/_cat/aliases",
    "/_cat/aliases/{alias}",
    "/_cat/thread_pool",
    "/_cat/thread_pool/{thread_pools}",
    "/_cat/plugins",
    "/_cat/fielddata",
    "/_cat/fielddata/{fields}",
    "/_cat/nodeattrs",
    "/_cat/repositories",
    "/_cat/snapshots/{repository}",
    "/_cat/templates",
    "/_cat/pit_segments",
    "/_cat/pit_segments/{pit_id}",
  ],
} as const;

/** `GET /_cat`: the cat's face and every `_cat` API, one a line, as plain text. */
export function catListHandler(ctx: RequestContext): Reply {
  const apis = ctx.state.flavour === "opensearch" ? CAT_APIS.opensearch : CAT_APIS.elasticsearch;
  return {
    status: 200,
    text: ["=^.^=", ...apis].map((l) => l + "\n").join(""),
    headers: { "content-type": "text/plain; charset=UTF-8" },
  };
}
