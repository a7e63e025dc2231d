// The one node's shard-level read APIs: `_search_shards`, `_resolve/index`, `_recovery` and
// `_cat/recovery`, `_cat/thread_pool`, `_cat/allocation`, `_cat/circuit_breaker`, as the real
// engines answer them on a single node (every primary started there, replicas unassigned).

import { EngineError, esError, illegalArgument } from "../_errors.ts";
import { ok, type Reply, type RequestContext } from "./context.ts";
import { nameMatcher } from "../_index/name_pattern.ts";
import { catTable } from "./cat.ts";
import { targets } from "./targets.ts";
import { ELASTICSEARCH_ROLES } from "./nodes_stats.ts";
import { formatBytes } from "./cat_units.ts";
import { shardParts, storeSize } from "./stats_mapped.ts";
import type { IndexState } from "../_state/index_state.ts";

const HOST = "127.0.0.1";

/** The port of the node's transport address. */
function transportPort(ctx: RequestContext): string {
  const address = ctx.state.node.transportAddress;
  return address.slice(address.lastIndexOf(":") + 1);
}

/** The one node as `_search_shards` lists it. */
function nodeEntry(ctx: RequestContext): Record<string, unknown> {
  const attributes = ctx.state.flavour === "opensearch"
    ? { shard_indexing_pressure_enabled: "true" }
    : { "xpack.installed": "true" };
  const entry: Record<string, unknown> = {
    name: ctx.state.node.name,
    ephemeral_id: ctx.state.node.ephemeralId,
    transport_address: ctx.state.node.transportAddress,
  };
  if (ctx.state.flavour === "elasticsearch") {
    entry.external_id = ctx.state.node.name;
    entry.attributes = attributes;
    entry.roles = [...ELASTICSEARCH_ROLES];
    entry.version = "9.5.4";
    entry.min_index_version = 8000099;
    entry.max_index_version = 9111000;
  } else {
    entry.attributes = attributes;
  }
  return entry;
}

/** One started primary copy, as routing tables list it. */
function shardCopy(ctx: RequestContext, index: IndexState, shard: number): Record<string, unknown> {
  const copy: Record<string, unknown> = { state: "STARTED", primary: true };
  if (ctx.state.flavour === "opensearch") copy.searchOnly = false;
  copy.node = ctx.state.node.id;
  copy.relocating_node = null;
  copy.shard = shard;
  copy.index = index.name;
  copy.allocation_id = { id: `${index.uuid.slice(0, 18)}${shard.toString().padStart(4, "0")}` };
  if (ctx.state.flavour === "elasticsearch") copy.relocation_failure_info = { failed_attempts: 0 };
  return copy;
}

/**
 * `GET|POST /{index?}/_search_shards`: the shards a search would reach; with `routing` only the
 * shards its values land on.
 */
export function searchShardsHandler(ctx: RequestContext): Reply {
  const indices = targets(ctx).filter((i) => !i.closed);
  const routing = ctx.params.get("routing");
  const shards: unknown[] = [];
  const names: Record<string, unknown> = {};
  const named = (ctx.p.index ?? "").split(",").map((n) => n.trim());
  for (const index of indices) {
    const via = named.filter((n) => index.aliases.has(n)).sort();
    names[index.name] = via.length > 0 ? { aliases: via } : {};
    const wanted = routing === null
      ? [...Array(index.shardCount).keys()]
      : [...new Set(routing.split(",").map((r) => index.shardOf(r.trim())))].sort((a, b) => a - b);
    for (const shard of wanted) shards.push([shardCopy(ctx, index, shard)]);
  }
  const nodes = indices.length > 0 ? { [ctx.state.node.id]: nodeEntry(ctx) } : {};
  return ok({ nodes, indices: names, shards });
}

const SHARD_STATUSES = ["green", "yellow", "red"] as const;

/**
 * `GET /{index?}/_shard_stores`: the store copies of the shards whose status is asked (`status`,
 * a list of `green`, `yellow`, `red` or `all`; `yellow,red` by default). On one node a shard is
 * green when the index asks for no replica, else yellow; its one copy is the started primary.
 */
export function shardStoresHandler(ctx: RequestContext): Reply {
  const asked = (ctx.params.get("status") ?? "yellow,red").split(",").map((s) => s.trim());
  const wanted = new Set<string>();
  for (const s of asked) {
    if (s === "all") SHARD_STATUSES.forEach((x) => wanted.add(x));
    else if ((SHARD_STATUSES as readonly string[]).includes(s)) wanted.add(s);
    else throw illegalArgument(`unknown cluster health status [${s}]`);
  }
  const indices: Record<string, unknown> = {};
  for (const index of targets(ctx).filter((i) => !i.closed)) {
    if (!wanted.has(index.replicas > 0 ? "yellow" : "green")) continue;
    const shards: Record<string, unknown> = {};
    for (let n = 0; n < index.shardCount; n++) {
      const allocationId = (shardCopy(ctx, index, n).allocation_id as { id: string }).id;
      shards[String(n)] = {
        stores: [{
          [ctx.state.node.id]: nodeEntry(ctx),
          allocation_id: allocationId,
          allocation: "primary",
        }],
      };
    }
    indices[index.name] = { shards };
  }
  return ok({ indices });
}

/**
 * `GET /_resolve/index/{name}`: the indices, aliases and data streams an expression names, each
 * sorted by name (the engine has no data streams).
 */
export function resolveIndexHandler(ctx: RequestContext): Reply {
  const expression = ctx.p.name ?? "*";
  const es = ctx.state.flavour === "elasticsearch";
  if (es) refuseUnknownRemotes(expression.split(","));
  const cluster = ctx.state.cluster;
  const expand = resolveOptionsFor(ctx);
  const ignoreUnavailable = ctx.params.get("ignore_unavailable") === "true";
  // Each part names indices and aliases by their own names: an alias is listed, not its indices.
  const indices = new Set<IndexState>();
  const aliases = new Set<string>();
  const allAliases = new Map<string, string[]>();
  for (const index of cluster.indices.values()) {
    for (const alias of index.aliases.keys()) {
      allAliases.set(alias, [...(allAliases.get(alias) ?? []), index.name]);
    }
  }
  for (const raw of expression.split(",")) {
    if (raw === "" || raw.includes(":")) continue;
    // `_all` is every index on Elasticsearch; OpenSearch reads it as a name nothing has.
    const part = raw === "_all" && es ? "*" : raw;
    if (part.includes("*")) {
      const matches = nameMatcher(part);
      for (const index of cluster.indices.values()) {
        const hidden = index.settings["index.hidden"] === "true";
        const state = index.closed ? expand.expandClosed : expand.expandOpen;
        if (matches(index.name) && state && (!hidden || expand.expandHidden)) indices.add(index);
      }
      for (const alias of allAliases.keys()) if (matches(alias)) aliases.add(alias);
      continue;
    }
    const index = cluster.indices.get(part);
    if (index) indices.add(index);
    else if (allAliases.has(part)) aliases.add(part);
    else if (es && !ignoreUnavailable) {
      throw esError("index_not_found_exception", `no such index [${part}]`, {
        "resource.type": "index_or_alias",
        "resource.id": part,
        index_uuid: "_na_",
        index: part,
      });
    }
  }
  const rows = [...indices].sort((a, b) => (a.name < b.name ? -1 : 1)).map((index) => {
    const row: Record<string, unknown> = { name: index.name };
    const own = [...index.aliases.keys()].sort();
    if (own.length > 0) row.aliases = own;
    const attributes = [index.closed ? "closed" : "open"];
    if (index.settings["index.hidden"] === "true") attributes.unshift("hidden");
    row.attributes = attributes;
    if (es) row.mode = "standard";
    return row;
  });
  return ok({
    indices: rows,
    aliases: [...aliases].sort().map((name) => ({
      name,
      indices: [...allAliases.get(name)!].sort(),
    })),
    data_streams: [],
  });
}

/**
 * Elasticsearch's 404 for the first remote expression (`cluster:index`) naming a cluster, without
 * a wildcard, that is not configured: the one node has no remote clusters. A wildcard naming
 * clusters matches none and is left out.
 */
function refuseUnknownRemotes(parts: readonly string[]): void {
  for (const part of parts) {
    const colon = part.indexOf(":");
    if (colon < 0) continue;
    const cluster = part.slice(0, colon);
    if (!cluster.includes("*")) {
      throw esError("no_such_remote_cluster_exception", `no such remote cluster: [${cluster}]`);
    }
  }
}

/**
 * `GET /_resolve/cluster/{name}` (Elasticsearch): the local cluster's entry when a local expression
 * is named (whether it matches an index, or the error of a missing one), none for remote clusters.
 */
export function resolveClusterHandler(ctx: RequestContext): Reply {
  const parts = (ctx.p.name ?? "").split(",").filter((part) => part !== "");
  refuseUnknownRemotes(parts);
  const local = parts.filter((part) => !part.includes(":"));
  if (local.length === 0) return ok({});
  const entry = { connected: true, skip_unavailable: false };
  let matching: boolean;
  try {
    const indices = ctx.state.cluster.resolve(local.join(","), {
      ...resolveOptionsFor(ctx),
      ignoreUnavailable: ctx.params.get("ignore_unavailable") === "true",
      allowNoIndices: ctx.params.get("allow_no_indices") !== "false",
      includeClosed: true,
    });
    matching = indices.length > 0;
  } catch (e) {
    if (!(e instanceof EngineError) || e.status !== 404) throw e;
    return ok({ "(local)": { ...entry, error: e.message } });
  }
  const version = {
    number: ctx.state.version,
    build_flavor: "default",
    minimum_wire_compatibility_version: "8.19.0",
    minimum_index_compatibility_version: "8.0.0",
  };
  return ok({ "(local)": { ...entry, matching_indices: matching, version } });
}

function resolveOptionsFor(ctx: RequestContext) {
  const expand = ctx.params.get("expand_wildcards") ?? "open";
  const states = expand.split(",");
  const all = states.includes("all");
  return {
    expandOpen: all || states.includes("open"),
    expandClosed: all || states.includes("closed"),
    expandHidden: all || states.includes("hidden"),
  };
}

/** Every shard of the target indices as a recovery from an empty store, done. */
function recoveries(ctx: RequestContext): Array<{ index: IndexState; shard: number }> {
  const out: Array<{ index: IndexState; shard: number }> = [];
  for (const index of targets(ctx, { expandHidden: true })) {
    if (index.closed) continue;
    for (let shard = 0; shard < index.shardCount; shard++) out.push({ index, shard });
  }
  return out;
}

const RECOVERY_COLUMNS = [
  "index",
  "shard",
  "time",
  "type",
  "stage",
  "source_host",
  "source_node",
  "target_host",
  "target_node",
  "repository",
  "snapshot",
  "files",
  "files_recovered",
  "files_percent",
  "files_total",
  "bytes",
  "bytes_recovered",
  "bytes_percent",
  "bytes_total",
  "translog_ops",
  "translog_ops_recovered",
  "translog_ops_percent",
];

/** `GET /_cat/recovery/{index?}`. */
export function catRecoveryHandler(ctx: RequestContext): Reply {
  const zero = formatBytes(0, ctx.params.get("bytes"));
  const rows = recoveries(ctx).map(({ index, shard }) => ({
    index: index.name,
    shard: String(shard),
    start_time: new Date(index.creationDate).toISOString(),
    start_time_millis: String(index.creationDate),
    stop_time: new Date(index.creationDate).toISOString(),
    stop_time_millis: String(index.creationDate),
    time: "0s",
    type: "empty_store",
    stage: "done",
    source_host: "n/a",
    source_node: "n/a",
    target_host: HOST,
    target_node: ctx.state.node.name,
    repository: "n/a",
    snapshot: "n/a",
    files: "0",
    files_recovered: "0",
    files_percent: "0.0%",
    files_total: "0",
    bytes: zero,
    bytes_recovered: zero,
    bytes_percent: "0.0%",
    bytes_total: zero,
    translog_ops: "0",
    translog_ops_recovered: "0",
    translog_ops_percent: "100.0%",
  }));
  return catTable(ctx, rows, RECOVERY_COLUMNS);
}

/** `GET /{index?}/_recovery`: each index's shards, recovered from an empty store. */
export function recoveryHandler(ctx: RequestContext): Reply {
  const human = ctx.params.get("human") === "true" || ctx.params.get("human") === "";
  const out: Record<string, { shards: unknown[] }> = {};
  const timed = (name: string, millis: number, text: string) =>
    human ? { [name]: text, [`${name}_in_millis`]: millis } : { [`${name}_in_millis`]: millis };
  for (const { index, shard } of recoveries(ctx)) {
    const bytes = (name: string) =>
      human ? { [name]: "0b", [`${name}_in_bytes`]: 0 } : { [`${name}_in_bytes`]: 0 };
    const entry = {
      id: shard,
      type: "EMPTY_STORE",
      stage: "DONE",
      primary: true,
      ...(human ? { start_time: new Date(index.creationDate).toISOString() } : {}),
      start_time_in_millis: index.creationDate,
      ...(human ? { stop_time: new Date(index.creationDate).toISOString() } : {}),
      stop_time_in_millis: index.creationDate,
      ...timed("total_time", 0, "0s"),
      source: {},
      target: {
        id: ctx.state.node.id,
        host: HOST,
        transport_address: ctx.state.node.transportAddress,
        ip: HOST,
        name: ctx.state.node.name,
      },
      index: {
        size: {
          ...bytes("total"),
          ...bytes("reused"),
          ...bytes("recovered"),
          ...(ctx.state.flavour === "elasticsearch" ? bytes("recovered_from_snapshot") : {}),
          percent: "0.0%",
        },
        files: { total: 0, reused: 0, recovered: 0, percent: "0.0%" },
        ...timed("total_time", 0, "0s"),
        ...timed("source_throttle_time", 0, "-1"),
        ...timed("target_throttle_time", 0, "-1"),
      },
      translog: {
        recovered: 0,
        total: 0,
        percent: "100.0%",
        total_on_start: 0,
        ...timed("total_time", 0, "0s"),
      },
      verify_index: {
        ...timed("check_index_time", 0, "0s"),
        ...timed("total_time", 0, "0s"),
      },
    };
    (out[index.name] ??= { shards: [] }).shards.push(entry);
  }
  return ok(out);
}

const ES_POOLS = [
  "analyze",
  "auto_complete",
  "cluster_coordination",
  "fetch_shard_started",
  "fetch_shard_store",
  "flush",
  "force_merge",
  "generic",
  "get",
  "management",
  "merge",
  "refresh",
  "search",
  "search_coordination",
  "snapshot",
  "snapshot_meta",
  "system_critical_read",
  "system_critical_write",
  "system_read",
  "system_write",
  "system_write_coordination",
  "warmer",
  "write",
  "write_coordination",
];

const OS_POOLS = [
  "analyze",
  "fetch_shard_started",
  "fetch_shard_store",
  "flush",
  "force_merge",
  "generic",
  "get",
  "index_searcher",
  "listener",
  "management",
  "merge",
  "refresh",
  "remote_download",
  "remote_purge",
  "remote_recovery",
  "remote_refresh_retry",
  "remote_state_checksum",
  "remote_state_read",
  "search",
  "search_throttled",
  "snapshot",
  "snapshot_deletion",
  "stream_search",
  "system_read",
  "system_write",
  "translog_recovery",
  "translog_sync",
  "translog_transfer",
  "warmer",
  "write",
];

/** Whether a thread-pool name matches one of `_cat/thread_pool/{patterns}` (`*` wildcards). */
function poolMatches(name: string, patterns: string[]): boolean {
  return patterns.some((p) =>
    new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`).test(name)
  );
}

/**
 * `GET /_cat/thread_pool/{thread_pool_patterns?}`: each product's pools on the one node, none
 * busy (the engine runs requests on the event loop, not in pools) but Elasticsearch's
 * `management` pool, where the request itself holds two threads (9.5.4 shows 2 active each time;
 * OpenSearch 3.8.0 shows 1 or 2).
 */
export function catThreadPoolHandler(ctx: RequestContext): Reply {
  const pools = ctx.state.flavour === "opensearch" ? OS_POOLS : ES_POOLS;
  const patterns = ctx.p.thread_pool_patterns?.split(",").map((p) => p.trim());
  const rows = pools
    .filter((name) => patterns === undefined || poolMatches(name, patterns))
    .map((name) => ({
      node_name: ctx.state.node.name,
      node_id: ctx.state.node.id,
      ephemeral_node_id: ctx.state.node.ephemeralId,
      host: HOST,
      ip: HOST,
      port: transportPort(ctx),
      name,
      active: name === "management" && ctx.state.flavour === "elasticsearch" ? "2" : "0",
      queue: "0",
      rejected: "0",
      completed: "0",
      largest: "0",
    }));
  return catTable(ctx, rows, ["node_name", "name", "active", "queue", "rejected"]);
}

/**
 * `GET /_cat/allocation/{node_id?}`: the one node holds every started primary; the replicas it
 * cannot hold make an `UNASSIGNED` row of their count alone, as Elasticsearch 9.5.4 and
 * OpenSearch 3.8.0 print it (every other column null in JSON, blank in text).
 */
export function catAllocationHandler(ctx: RequestContext): Reply {
  const indices = ctx.state.cluster.resolve(undefined, { expandHidden: true });
  let shards = 0;
  let unassigned = 0;
  let bytes = 0;
  for (const index of indices) {
    if (index.closed) continue;
    shards += shardParts(index).length;
    unassigned += index.shardCount * index.replicas;
    bytes += storeSize(index);
  }
  const unit = ctx.params.get("bytes");
  const row: Record<string, string> = { shards: String(shards) };
  if (ctx.state.flavour === "elasticsearch") {
    row["shards.undesired"] = "0";
    row["write_load.forecast"] = "0.0";
    row["disk.indices.forecast"] = formatBytes(bytes, unit);
  }
  Object.assign(row, {
    "disk.indices": formatBytes(bytes, unit),
    "disk.used": formatBytes(0, unit),
    "disk.avail": formatBytes(0, unit),
    "disk.total": formatBytes(0, unit),
    "disk.percent": "0",
    host: HOST,
    ip: HOST,
    node: ctx.state.node.name,
  });
  if (ctx.state.flavour === "elasticsearch") row["node.role"] = "cdfhilmrstw";
  const rows = unassigned > 0 ? [row, { shards: String(unassigned), node: "UNASSIGNED" }] : [row];
  return catTable(ctx, rows, Object.keys(row));
}

/**
 * The breakers Elasticsearch reports and their default share of the heap; the engine reports them
 * against a 1 GB heap (the size the differential tester's real engines run with). Elasticsearch
 * lists them in an order that changes from one start of the node to the next (three starts of
 * 9.5.4 gave three orders), so this one is one of them.
 */
const BREAKERS: Array<[string, number]> = [
  ["fielddata", 0.4],
  ["inflight_requests", 1],
  ["request", 0.6],
  ["parent", 0.95],
];
const HEAP = 1024 * 1024 * 1024;

/** `GET /_cat/circuit_breaker/{circuit_breaker_patterns?}` (Elasticsearch): nothing tripped. */
export function catCircuitBreakerHandler(ctx: RequestContext): Reply {
  const patterns = ctx.p.circuit_breaker_patterns?.split(",").map((p) => p.trim());
  const unit = ctx.params.get("bytes");
  const rows = BREAKERS
    .filter(([name]) => patterns === undefined || poolMatches(name, patterns))
    .map(([name, share]) => ({
      node_id: ctx.state.node.id,
      node_name: ctx.state.node.name,
      breaker: name,
      limit: formatBytes(Math.floor(HEAP * share), unit),
      limit_bytes: String(Math.floor(HEAP * share)),
      estimated: formatBytes(0, unit),
      estimated_bytes: "0",
      tripped: "0",
      overhead: name === "fielddata"
        ? "1.03"
        : name === "request" || name === "parent"
        ? "1.0"
        : "2.0",
    }));
  return catTable(ctx, rows, ["node_id", "breaker", "limit", "estimated", "tripped"]);
}

/**
 * `GET /{index?}/_segments` (Elasticsearch): each shard's segments as `_cat/segments` counts them
 * (one per primary holding documents, none on an empty one), every primary listed; the replicas
 * the one node cannot hold count in `_shards.total` only.
 */
export function segmentsHandler(ctx: RequestContext): Reply {
  const indices: Record<string, unknown> = {};
  let total = 0;
  let successful = 0;
  for (const index of targets(ctx)) {
    if (index.closed) continue;
    total += index.shardCount * (1 + index.replicas);
    successful += index.shardCount;
    const shards: Record<string, unknown> = {};
    shardParts(index).forEach((part, shard) => {
      const segments: Record<string, unknown> = {};
      if (part.docs + part.deleted > 0) {
        segments._0 = {
          generation: 0,
          num_docs: part.docs,
          deleted_docs: part.deleted,
          size_in_bytes: part.bytes,
          committed: false,
          search: true,
          version: "10.5.1",
          compound: true,
          attributes: { "Lucene90StoredFieldsFormat.mode": "BEST_SPEED" },
        };
      }
      shards[String(shard)] = [{
        routing: { state: "STARTED", primary: true, node: ctx.state.node.id },
        num_committed_segments: 0,
        num_search_segments: Object.keys(segments).length,
        segments,
      }];
    });
    indices[index.name] = { shards };
  }
  return ok({ _shards: { total, successful, failed: 0 }, indices });
}

const SEGMENT_COLUMNS = [
  "index",
  "shard",
  "prirep",
  "ip",
  "segment",
  "generation",
  "docs.count",
  "docs.deleted",
  "size",
  "size.memory",
  "committed",
  "searchable",
  "version",
  "compound",
];

/**
 * `GET /_cat/segments/{index?}`: one row for each shard holding searchable documents (the engine
 * keeps an index's segments together, not per shard, so each shard shows its documents as one
 * segment).
 */
export function catSegmentsHandler(ctx: RequestContext): Reply {
  const unit = ctx.params.get("bytes");
  const rows: Array<Record<string, string>> = [];
  for (const index of targets(ctx, { expandHidden: true })) {
    if (index.closed) continue;
    shardParts(index).forEach((part, shard) => {
      if (part.docs + part.deleted === 0) return;
      rows.push({
        index: index.name,
        shard: String(shard),
        prirep: "p",
        ip: HOST,
        id: ctx.state.node.id.slice(0, 4),
        segment: "_0",
        generation: "0",
        "docs.count": String(part.docs),
        "docs.deleted": String(part.deleted),
        size: formatBytes(part.bytes, unit),
        "size.memory": "0",
        committed: "false",
        searchable: "true",
        // The Lucene version that wrote the segment: Elasticsearch 9.5.4 runs Lucene 10.5.1.
        version: ctx.state.flavour === "opensearch" ? "10.5.0" : "10.5.1",
        compound: "true",
      });
    });
  }
  return catTable(ctx, rows, SEGMENT_COLUMNS.filter((c) => c !== "id"), SEGMENT_COLUMNS);
}
