// `GET /_cluster/state[/{metric}[/{index}]]`: the one node's cluster state, its sections chosen
// by metric (`version`, `master_node`, `blocks`, `nodes`, `metadata`, `routing_table`,
// `routing_nodes`, `_all`) and the index sections narrowed by the index expression.

import type { IndexState } from "../_state/index_state.ts";
import { splitRoutingShards } from "../_index/routing.ts";
import { mappingView } from "../_state/mapping_view.ts";
import { aliasView } from "./aliases.ts";
import { boolParam, ok, type Reply, type RequestContext } from "./context.ts";
import { settingsView } from "./settings.ts";
import { targets } from "./targets.ts";
import { nodeName, transportAddress } from "./node_identity.ts";

function nodes(ctx: RequestContext): Record<string, unknown> {
  const node: Record<string, unknown> = {
    name: nodeName(ctx),
    ephemeral_id: ctx.state.clusterUuid,
    transport_address: transportAddress(ctx),
  };
  if (ctx.state.flavour === "opensearch") {
    node.attributes = { shard_indexing_pressure_enabled: "true" };
  } else {
    node.external_id = nodeName(ctx);
    node.attributes = { "xpack.installed": "true" };
  }
  return { [ctx.state.clusterUuid]: node };
}

function copies(ctx: RequestContext, index: IndexState, shard: number): unknown[] {
  const out: unknown[] = [{
    state: "STARTED",
    primary: true,
    ...(ctx.state.flavour === "opensearch" ? { searchOnly: false } : {}),
    node: ctx.state.clusterUuid,
    relocating_node: null,
    shard,
    index: index.name,
    allocation_id: { id: allocationId(index, shard) },
    ...(ctx.state.flavour === "elasticsearch"
      ? { relocation_failure_info: { failed_attempts: 0 } }
      : {}),
  }];
  for (let r = 0; r < index.replicas; r++) {
    out.push({
      state: "UNASSIGNED",
      primary: false,
      ...(ctx.state.flavour === "opensearch" ? { searchOnly: false } : {}),
      node: null,
      relocating_node: null,
      shard,
      index: index.name,
      recovery_source: { type: "PEER" },
      unassigned_info: {
        reason: "INDEX_CREATED",
        at: new Date(index.creationDate).toISOString(),
        delayed: false,
        allocation_status: "no_attempt",
      },
      ...(ctx.state.flavour === "elasticsearch"
        ? { relocation_failure_info: { failed_attempts: 0 } }
        : {}),
    });
  }
  return out;
}

function allocationId(index: IndexState, shard: number): string {
  return `${index.uuid.slice(0, 18)}${shard.toString().padStart(4, "0")}`;
}

function indexMetadata(ctx: RequestContext, index: IndexState): Record<string, unknown> {
  const shards = [...Array(index.shardCount).keys()];
  const entry: Record<string, unknown> = {
    version: 1,
    mapping_version: 1,
    settings_version: 1,
    aliases_version: 1,
    // What both products show, whichever way they place documents (see _index/routing.ts).
    routing_num_shards: Number(
      index.settings["index.number_of_routing_shards"] ?? splitRoutingShards(index.shardCount),
    ),
    state: index.closed ? "close" : "open",
    settings: settingsView(index, { flat: boolParam(ctx, "flat_settings") }),
    mappings: { _doc: mappingView(index.mappings) },
    aliases: Object.keys(aliasView(index)),
    primary_terms: Object.fromEntries(shards.map((s) => [String(s), 1])),
    in_sync_allocations: Object.fromEntries(
      shards.map((s) => [String(s), [allocationId(index, s)]]),
    ),
    rollover_info: {},
    system: false,
  };
  if (ctx.state.flavour === "elasticsearch") {
    entry.timestamp_range = { unknown: true };
    entry.event_ingested_range = { unknown: true };
  }
  return entry;
}

/** `GET /_cluster/state/{metric?}/{index?}`. */
export function clusterStateHandler(ctx: RequestContext): Reply {
  const raw = ctx.p.metric ?? "_all";
  const asked = raw.split(",").map((m) => m.trim());
  // A metric neither product knows selects nothing (both answer 200 with the cluster's name).
  const all = asked.includes("_all");
  const want = (m: string) => all || asked.includes(m);
  const indices = ctx.p.index === undefined
    ? ctx.state.cluster.resolve(undefined, { expandHidden: true, includeClosed: true })
    : targets(ctx, { includeClosed: true });
  const nodeId = ctx.state.clusterUuid;
  const out: Record<string, unknown> = { cluster_name: "searchvisitor" };
  out.cluster_uuid = nodeId;
  if (want("version")) {
    out.version = 1;
    out.state_uuid = nodeId;
  }
  if (want("master_node")) {
    out.master_node = nodeId;
    if (ctx.state.flavour === "opensearch") out.cluster_manager_node = nodeId;
  }
  if (want("blocks")) out.blocks = {};
  if (want("nodes")) out.nodes = nodes(ctx);
  if (want("metadata")) {
    out.metadata = {
      cluster_uuid: nodeId,
      cluster_uuid_committed: ctx.state.flavour === "opensearch",
      cluster_coordination: {
        term: 1,
        last_committed_config: [nodeId],
        last_accepted_config: [nodeId],
        voting_config_exclusions: [],
      },
      templates: {},
      indices: Object.fromEntries(indices.map((i) => [i.name, indexMetadata(ctx, i)])),
      "index-graveyard": { tombstones: [] },
      ...(ctx.state.flavour === "elasticsearch" ? { reserved_state: {} } : {}),
    };
  }
  const open = indices.filter((i) => !i.closed);
  if (want("routing_table")) {
    out.routing_table = {
      indices: Object.fromEntries(open.map((index) => [index.name, {
        shards: Object.fromEntries(
          [...Array(index.shardCount).keys()].map((s) => [String(s), copies(ctx, index, s)]),
        ),
      }])),
    };
  }
  if (want("routing_nodes")) {
    const all = open.flatMap((index) =>
      [...Array(index.shardCount).keys()].map((s) => copies(ctx, index, s))
    );
    out.routing_nodes = {
      unassigned: all.flatMap((c) => c.slice(1)),
      nodes: { [nodeId]: all.map((c) => c[0]) },
    };
  }
  return ok(out);
}
