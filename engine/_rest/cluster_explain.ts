// `_cluster/allocation/explain`, `_health_report` (Elasticsearch) and `_terms_enum`
// (Elasticsearch) on the one node: every primary started there, every replica unassigned (a copy
// may not share a node with its primary).

import { esError, illegalArgument } from "../_errors.ts";
import { indexNotFound } from "../_state/cluster.ts";
import type { IndexState } from "../_state/index_state.ts";
import { fieldMapOf } from "../_index/field_map.ts";
import { ok, type Reply, type RequestContext } from "./context.ts";
import { targets } from "./targets.ts";
import { ELASTICSEARCH_ROLES } from "./nodes_stats.ts";
import { valuesAt } from "./terms_lookup.ts";

function product(ctx: RequestContext): string {
  return ctx.state.flavour === "opensearch" ? "OpenSearch" : "Elasticsearch";
}

function attributes(ctx: RequestContext): Record<string, string> {
  return ctx.state.flavour === "opensearch"
    ? { shard_indexing_pressure_enabled: "true" }
    : { "xpack.installed": "true" };
}

function bodyOf(ctx: RequestContext): Record<string, unknown> {
  const text = ctx.bodyText.trim();
  const body = text === "" ? {} : JSON.parse(text);
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw illegalArgument("request body must be an object");
  }
  return body as Record<string, unknown>;
}

/**
 * Whether a started primary could move, as the deciders of each product answer on one node: its
 * replicas unassigned keep it (`rebalance_only_when_active`); on OpenSearch any unassigned shard
 * in the cluster does too (`cluster_rebalance`, `allow_rebalance: indices_all_active`), which
 * Elasticsearch 9.5.4 does not check by default.
 */
function rebalanceOf(ctx: RequestContext, index: IndexState): Record<string, unknown> {
  const opensearch = ctx.state.flavour === "opensearch";
  const decisions: Record<string, string>[] = [];
  if (index.replicas > 0) {
    decisions.push({
      decider: "rebalance_only_when_active",
      decision: "NO",
      explanation: opensearch
        ? "rebalancing is not allowed until all replicas in the cluster are active"
        : "rebalancing is not allowed until all copies of this shard are active",
    });
  }
  if (opensearch && [...ctx.state.cluster.indices.values()].some((i) => i.replicas > 0)) {
    decisions.push({
      decider: "cluster_rebalance",
      decision: "NO",
      explanation: "the cluster has unassigned shards and cluster setting " +
        "[cluster.routing.allocation.allow_rebalance] is set to [indices_all_active]",
    });
  }
  if (decisions.length > 0) {
    return {
      can_rebalance_cluster: "no",
      can_rebalance_cluster_decisions: decisions,
      can_rebalance_to_other_node: "no",
      rebalance_explanation: opensearch
        ? "rebalancing is not allowed"
        : `Elasticsearch is not allowed to allocate or rebalance this shard to another node. If ` +
          `you expect this shard to be rebalanced to another node, find this node in the ` +
          `node-by-node explanation and address the reasons which prevent Elasticsearch from ` +
          `rebalancing this shard there.`,
    };
  }
  return {
    can_rebalance_cluster: "yes",
    can_rebalance_to_other_node: "no",
    rebalance_explanation: opensearch
      ? "cannot rebalance as no target node exists that can both allocate this shard and " +
        "improve the cluster balance"
      : `This shard is in a well-balanced location and satisfies all allocation rules so it ` +
        `will remain on this node. Elasticsearch cannot improve the cluster balance by moving ` +
        `it to another node. If you expect this shard to be rebalanced to another node, find ` +
        `the other node in the node-by-node explanation and address the reasons which prevent ` +
        `Elasticsearch from rebalancing this shard there.`,
  };
}

/**
 * `GET|POST /_cluster/allocation/explain`: the shard the body (or the query string) names, or the
 * first unassigned one. A primary is started on the node; a replica is unassigned, refused by
 * the `same_shard` decider.
 */
export function allocationExplainHandler(ctx: RequestContext): Reply {
  const body = bodyOf(ctx);
  const param = (name: string) => body[name] ?? ctx.params.get(name) ?? undefined;
  let name = param("index") as string | undefined;
  let shard = param("shard") === undefined ? undefined : Number(param("shard"));
  let primary = param("primary") === undefined
    ? undefined
    : param("primary") === true || param("primary") === "true";
  const current = param("current_node");
  if (
    current !== undefined &&
    ![ctx.state.node.name, ctx.state.node.id, "_local", "_master"].includes(String(current))
  ) {
    throw illegalArgument(`failed to resolve [${current}], no matching nodes`);
  }
  let index: IndexState | undefined;
  if (name === undefined) {
    index = [...ctx.state.cluster.indices.values()]
      .filter((i) => !i.closed && i.replicas > 0)
      .sort((a, b) => (a.name < b.name ? -1 : 1))[0];
    if (index === undefined) {
      throw illegalArgument(
        `There are no unassigned shards in this cluster. Specify an assigned shard in the request body to explain its allocation. See https://www.elastic.co/docs/api/doc/elasticsearch/v9/operation/operation-cluster-allocation-explain?version=9.5 for more information.`,
      );
    }
    name = index.name;
    shard = 0;
    primary = false;
  } else {
    index = ctx.state.cluster.indices.get(name);
    if (index === undefined) throw indexNotFound(name);
  }
  if (shard === undefined || !Number.isInteger(shard) || shard < 0 || shard >= index.shardCount) {
    throw esError("shard_not_found_exception", "no such shard", {
      index_uuid: index.uuid,
      shard: String(shard),
      index: index.name,
    });
  }
  const nodeId = ctx.state.node.id;
  const out: Record<string, unknown> = { index: index.name, shard, primary: primary === true };
  if (primary === true) {
    out.current_state = "started";
    out.current_node = {
      id: nodeId,
      name: ctx.state.node.name,
      transport_address: ctx.state.node.transportAddress,
      attributes: attributes(ctx),
      ...(ctx.state.flavour === "elasticsearch" ? { roles: [...ELASTICSEARCH_ROLES] } : {}),
      weight_ranking: 1,
    };
    out.can_remain_on_current_node = "yes";
    Object.assign(out, rebalanceOf(ctx, index));
    return ok(out);
  }
  out.current_state = "unassigned";
  out.unassigned_info = {
    reason: "INDEX_CREATED",
    at: new Date(index.creationDate).toISOString(),
    last_allocation_status: "no_attempt",
  };
  out.can_allocate = "no";
  out.allocate_explanation = `${product(ctx)} isn't allowed to allocate this shard to any of ` +
    `the nodes in the cluster. Choose a node to which you expect this shard to be allocated, ` +
    `find this node in the node-by-node explanation, and address the reasons which prevent ` +
    `${product(ctx)} from allocating this shard there.`;
  out.node_allocation_decisions = [{
    node_id: nodeId,
    node_name: ctx.state.node.name,
    transport_address: ctx.state.node.transportAddress,
    node_attributes: attributes(ctx),
    ...(ctx.state.flavour === "elasticsearch" ? { roles: [...ELASTICSEARCH_ROLES] } : {}),
    node_decision: "no",
    weight_ranking: 1,
    deciders: [{
      decider: "same_shard",
      decision: "NO",
      explanation:
        `a copy of this shard is already allocated to this node [[${index.name}][${shard}], node[${nodeId}], [P], s[STARTED], a[id=${
          index.uuid.slice(0, 22)
        }], failed_attempts[0]]`,
    }],
  }];
  return ok(out);
}

/** `GET /_health_report` (Elasticsearch): the indicators of the distribution without x-pack. */
export function healthReportHandler(ctx: RequestContext): Reply {
  const nodeId = ctx.state.node.id;
  const readOnly =
    [...ctx.state.cluster.indices.values()].filter((i) =>
      i.settings["index.blocks.read_only_allow_delete"] === "true"
    ).length;
  return ok({
    status: "green",
    cluster_name: ctx.state.node.name,
    indicators: {
      master_is_stable: {
        status: "green",
        symptom: "The cluster has a stable master node",
        details: {
          current_master: { node_id: nodeId, name: ctx.state.node.name },
          recent_masters: [{ node_id: nodeId, name: ctx.state.node.name }],
        },
      },
      repository_integrity: { status: "green", symptom: "No snapshot repositories configured." },
      disk: {
        status: "green",
        symptom: "The cluster has enough available disk space.",
        details: {
          indices_with_readonly_block: readOnly,
          nodes_with_enough_disk_space: 1,
          nodes_with_unknown_disk_status: 0,
          nodes_over_high_watermark: 0,
          nodes_over_flood_stage_watermark: 0,
        },
      },
      shards_capacity: {
        status: "green",
        symptom: "The cluster has enough room to add new shards.",
        details: {
          data: { max_shards_in_cluster: ctx.state.cluster.shardLimit.perNode },
          frozen: { max_shards_in_cluster: 3000 },
        },
      },
      file_settings: { status: "green", symptom: "No file-based setting changes have occurred" },
    },
  });
}

const TERMS_ENUM_KEYS = new Set([
  "field",
  "string",
  "size",
  "timeout",
  "case_insensitive",
  "index_filter",
  "search_after",
]);

/**
 * `POST /{index}/_terms_enum` (Elasticsearch): the distinct keyword terms of a field that start
 * with `string`, in term order, at most `size` (10) of them, after `search_after`.
 */
export function termsEnumHandler(ctx: RequestContext): Reply {
  const body = bodyOf(ctx);
  for (const key of Object.keys(body)) {
    if (!TERMS_ENUM_KEYS.has(key)) {
      throw esError("x_content_parse_exception", `[1:2] [terms_enum] unknown field [${key}]`);
    }
  }
  const field = body.field ?? ctx.params.get("field");
  if (typeof field !== "string") {
    throw esError(
      "action_request_validation_exception",
      "Validation Failed: 1: field cannot be null;",
    );
  }
  const prefix = String(body.string ?? "");
  const size = body.size === undefined ? 10 : Number(body.size);
  const insensitive = body.case_insensitive === true;
  const after = body.search_after === undefined ? undefined : String(body.search_after);
  const indices = targets(ctx).filter((i) => !i.closed);
  const terms = new Set<string>();
  for (const index of indices) {
    const map = fieldMapOf(index.mappings);
    let sourcePath: string | undefined;
    let normalize = (s: string) => s;
    let ignoreAbove = Infinity;
    for (const root of map.roots.values()) {
      const info = root.path === field ? root : root.subFields.find((s) => s.path === field);
      if (info && info.type === "keyword") {
        sourcePath = root.path;
        normalize = info.normalize;
        ignoreAbove = info.ignoreAbove;
      }
    }
    if (sourcePath === undefined) continue;
    for (const doc of index.visible.values()) {
      for (const value of valuesAt(doc.source, sourcePath)) {
        const term = normalize(String(value));
        if (term.length > ignoreAbove) continue;
        const matches = insensitive
          ? term.toLowerCase().startsWith(prefix.toLowerCase())
          : term.startsWith(prefix);
        if (matches && (after === undefined || term > after)) terms.add(term);
      }
    }
  }
  const sorted = [...terms].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).slice(0, size);
  const shards = indices.reduce((n, i) => n + i.shardCount, 0);
  return ok({
    _shards: { total: shards, successful: shards, failed: 0 },
    terms: sorted,
    complete: true,
  });
}
