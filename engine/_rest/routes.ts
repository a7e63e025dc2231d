// The route table: every REST endpoint the engine answers, method + path → handler.

import { aliasView } from "./aliases.ts";
import {
  deleteAliasHandler,
  getAliasHandler,
  putAliasHandler,
  updateAliasesHandler,
} from "./aliases.ts";
import { analyzeHandler } from "./analyze.ts";
import { addBlockHandler, removeBlockHandler, resizeHandler } from "./resize.ts";
import { bulkHandler } from "./bulk.ts";
import { byQueryHandler } from "./by_query.ts";
import { getTaskHandler, listTasksHandler, rethrottleHandler } from "./tasks.ts";
import { explainHandler, validateQueryHandler } from "./explain.ts";
import { reindexHandler } from "./reindex.ts";
import { indicesStatsHandler } from "./stats.ts";
import { nodesStatsHandler } from "./nodes_stats.ts";
import {
  catAliasesHandler,
  catCountHandler,
  catHealthHandler,
  catIndicesHandler,
  catListHandler,
  catNodesHandler,
} from "./cat.ts";
import { catShardsHandler } from "./cat_shards.ts";
import { clusterStateHandler } from "./cluster_state.ts";
import { rolloverHandler } from "./rollover.ts";
import { reloadSearchAnalyzersHandler } from "./reload_analyzers.ts";
import {
  allocationExplainHandler,
  healthReportHandler,
  termsEnumHandler,
} from "./cluster_explain.ts";
import {
  catAllocationHandler,
  catCircuitBreakerHandler,
  catRecoveryHandler,
  catSegmentsHandler,
  catThreadPoolHandler,
  recoveryHandler,
  resolveClusterHandler,
  resolveIndexHandler,
  searchShardsHandler,
  segmentsHandler,
  shardStoresHandler,
} from "./shard_apis.ts";
import {
  catComponentTemplatesHandler,
  catTemplatesHandler,
  deleteTemplateHandler,
  existsTemplateHandler,
  getComponentTemplateHandler,
  getIndexTemplateHandler,
  getLegacyTemplateHandler,
  putComponentTemplateHandler,
  putIndexTemplateHandler,
  putLegacyTemplateHandler,
  simulateIndexHandler,
  simulateTemplateHandler,
} from "./templates.ts";
import {
  catFielddataHandler,
  catMasterHandler,
  catNodeattrsHandler,
  catPendingTasksHandler,
  catPluginsHandler,
  catRepositoriesHandler,
  catSnapshotsHandler,
  clearCacheHandler,
  danglingHandler,
  infoIngestHandler,
  pendingTasksHandler,
  remoteInfoHandler,
  rerouteHandler,
  votingExclusionsHandler,
} from "./cluster_info.ts";
import { clusterSettingsHandler, healthHandler, infoHandler } from "./cluster.ts";
import { scriptContextHandler, scriptLanguageHandler } from "./script_contexts.ts";
import { deleteScriptHandler, getScriptHandler, putScriptHandler } from "./stored_scripts.ts";
import { multiTermVectorsHandler, termVectorsHandler } from "./term_vectors.ts";
import type { Reply, RequestContext } from "./context.ts";
import {
  deleteHandler,
  getHandler,
  getSourceHandler,
  indexHandler,
  updateHandler,
} from "./documents.ts";
import {
  createIndexHandler,
  deleteIndexHandler,
  existsIndexHandler,
  flushHandler,
  getIndexHandler,
  openCloseHandler,
  refreshHandler,
} from "./indices.ts";
import { fieldMappingHandler } from "./fields.ts";
import { fieldCapsHandler } from "./field_caps.ts";
import { mgetHandler } from "./mget.ts";
import { api, API_PARAMS } from "./params.ts";
import { illegalArgument } from "../_errors.ts";
import { forceMergeHandler } from "./forcemerge.ts";
import { Router } from "./router.ts";
import {
  clearScrollHandler,
  closePitHandler,
  countHandler,
  listPitsHandler,
  msearchHandler,
  openPitHandler,
  scrollHandler,
  searchHandler,
} from "./search.ts";
import {
  getMappingHandler,
  getSettingsHandler,
  putMappingHandler,
  putSettingsHandler,
} from "./settings.ts";

/** A REST handler. */
export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;

const PP = ["PUT", "POST"];

function aliasesOnly(ctx: RequestContext): Reply {
  const out: Record<string, unknown> = {};
  for (const index of ctx.state.cluster.resolve(ctx.p.index, { includeClosed: true })) {
    out[index.name] = { aliases: aliasView(index) };
  }
  return { status: 200, body: out };
}

/**
 * The answer to a URL no route takes: a 400 whose body holds only `error` (both products leave
 * out the `status` field their other errors carry).
 */
export function noHandler(uri: string, method: string): Reply {
  return {
    status: 400,
    body: { error: `no handler found for uri [${uri}] and method [${method}]` },
  };
}

/** The 405 of a method a product does not route for this path. */
function methodNotAllowed(ctx: RequestContext, allowed: string[]): Reply {
  const uri = ctx.path + (ctx.params.size > 0 ? `?${ctx.params}` : "");
  return {
    status: 405,
    body: {
      error: `Incorrect HTTP method for uri [${uri}] and method [${ctx.method}], allowed: [${
        allowed.join(", ")
      }]`,
      status: 405,
    },
    headers: { allow: allowed.join(",") },
  };
}

/** A route only one product has: the other answers like an unknown URL. */
export function only(flavour: "elasticsearch" | "opensearch", handler: Handler): Handler {
  return (ctx) => {
    if (ctx.state.flavour === flavour) return handler(ctx);
    // OpenSearch names the path alone, Elasticsearch the path and its query.
    const query = ctx.state.flavour === "elasticsearch" && ctx.params.size > 0
      ? `?${ctx.params}`
      : "";
    return noHandler(ctx.path + query, ctx.method);
  };
}

/**
 * ES|QL (`POST /_query`, `/_query/async`): not supported. Without this route the path reads as an
 * index named `_query` and the answer would be a 405 that says nothing about ES|QL.
 */
function esqlHandler(): Reply {
  throw illegalArgument(
    "ES|QL is not supported by the embedded engine: send the query as Query DSL to " +
      "[/{index}/_search] (and aggregations for what STATS computes)",
  );
}

/** One REST endpoint family: its API name (which names its query parameters), methods and paths. */
export interface RouteSpec {
  /** API name, as in Elasticsearch's REST specification where there is one. */
  readonly api: string;
  /** HTTP methods. */
  readonly methods: readonly string[];
  /** Path patterns; `{name}` is a path part, `{name?}` an optional one (both forms are routed). */
  readonly path: string;
  /** Query parameters the API accepts (besides the common `pretty`, `filter_path`, ...). */
  readonly params: readonly string[];
  /** The handler. */
  readonly handler: Handler;
}

const GET = ["GET"];
const GH = ["GET", "HEAD"];
const GPD = ["GET", "POST"];

function route(
  api: string,
  methods: readonly string[] | string,
  path: string,
  handler: Handler,
): RouteSpec {
  return {
    api,
    methods: typeof methods === "string" ? [methods] : methods,
    path,
    params: API_PARAMS[api] ?? [],
    handler,
  };
}

/** Every route the engine answers, in one table: the router, parameter checks and tools read it. */
export const ROUTES: readonly RouteSpec[] = [
  route("info", GH, "/", infoHandler),
  // documents
  route("index", PP, "/{index}/_doc/{id}", (c) => indexHandler(c)),
  route("index", "POST", "/{index}/_doc", (c) => indexHandler(c)),
  route("create", PP, "/{index}/_create/{id}", (c) => indexHandler(c, true)),
  route("get", GH, "/{index}/_doc/{id}", getHandler),
  route("delete", "DELETE", "/{index}/_doc/{id}", deleteHandler),
  route("get_source", GH, "/{index}/_source/{id}", getSourceHandler),
  route("update", "POST", "/{index}/_update/{id}", updateHandler),
  route("mget", GPD, "/{index?}/_mget", mgetHandler),
  route("termvectors", GPD, "/{index}/_termvectors/{id?}", termVectorsHandler),
  route("mtermvectors", GPD, "/{index?}/_mtermvectors", multiTermVectorsHandler),
  route("bulk", PP, "/{index?}/_bulk", bulkHandler),
  // search
  route("search", GPD, "/{index?}/_search", searchHandler),
  route("count", GPD, "/{index?}/_count", countHandler),
  route("msearch", GPD, "/{index?}/_msearch", msearchHandler),
  route("scroll", GPD, "/_search/scroll/{scroll_id?}", scrollHandler),
  route("clear_scroll", "DELETE", "/_search/scroll/{scroll_id?}", clearScrollHandler),
  route("explain", GPD, "/{index}/_explain/{id}", explainHandler),
  route("validate_query", GPD, "/{index?}/_validate/query", validateQueryHandler),
  route(
    "open_pit",
    "POST",
    "/{index}/_pit",
    only("elasticsearch", (c) => openPitHandler(c, "elasticsearch")),
  ),
  route(
    "close_pit",
    "DELETE",
    "/_pit",
    only("elasticsearch", (c) => closePitHandler(c, "elasticsearch")),
  ),
  route(
    "open_pit",
    "POST",
    "/{index}/_search/point_in_time",
    only("opensearch", (c) => openPitHandler(c, "opensearch")),
  ),
  route(
    "close_pit",
    "DELETE",
    "/_search/point_in_time",
    only("opensearch", (c) => closePitHandler(c, "opensearch")),
  ),
  route(
    "close_pit",
    "DELETE",
    "/_search/point_in_time/_all",
    only("opensearch", (c) => closePitHandler(c, "opensearch")),
  ),
  route("close_pit", GET, "/_search/point_in_time/_all", only("opensearch", listPitsHandler)),
  route("by_query", "POST", "/{index}/_delete_by_query", (c) => byQueryHandler(c, "delete")),
  route("by_query", "POST", "/{index}/_update_by_query", (c) => byQueryHandler(c, "update")),
  route("reindex", "POST", "/_reindex", reindexHandler),
  route("rethrottle", "POST", "/_delete_by_query/{task_id}/_rethrottle", rethrottleHandler),
  route("rethrottle", "POST", "/_update_by_query/{task_id}/_rethrottle", rethrottleHandler),
  route("rethrottle", "POST", "/_reindex/{task_id}/_rethrottle", rethrottleHandler),
  route("tasks", GET, "/_tasks/{task_id}", getTaskHandler),
  route("tasks_list", GET, "/_tasks", listTasksHandler),
  route("esql", "POST", "/_query", esqlHandler),
  route("esql", "POST", "/_query/async", esqlHandler),
  // indices
  route("indices_create", "PUT", "/{index}", createIndexHandler),
  route("indices_delete", "DELETE", "/{index}", deleteIndexHandler),
  route("indices_get", "HEAD", "/{index}", existsIndexHandler),
  route("indices_get", GET, "/{index}", getIndexHandler),
  route("refresh", GPD, "/{index?}/_refresh", refreshHandler),
  route("flush", GPD, "/{index?}/_flush", flushHandler),
  route("forcemerge", "POST", "/{index?}/_forcemerge", forceMergeHandler),
  route("open_close", "POST", "/{index}/_open", (c) => openCloseHandler(c, "open")),
  route("open_close", "POST", "/{index}/_close", (c) => openCloseHandler(c, "close")),
  route("mapping", GET, "/{index?}/_mapping", getMappingHandler),
  route("mapping", PP, "/{index}/_mapping", putMappingHandler),
  route("mapping", PP, "/{index}/_mappings", putMappingHandler),
  route("mapping", PP, "/_mapping", putMappingHandler),
  route("mapping", GET, "/{index?}/_mapping/field/{fields}", fieldMappingHandler),
  route("indices_resize", PP, "/{index}/_clone/{target}", (c) => resizeHandler(c, "clone")),
  route("indices_resize", PP, "/{index}/_split/{target}", (c) => resizeHandler(c, "split")),
  route("indices_resize", PP, "/{index}/_shrink/{target}", (c) => resizeHandler(c, "shrink")),
  route("indices_block", "PUT", "/{index}/_block/{block}", addBlockHandler),
  route(
    "indices_block",
    "DELETE",
    "/{index}/_block/{block}",
    (c) =>
      c.state.flavour === "elasticsearch" ? removeBlockHandler(c) : methodNotAllowed(c, ["PUT"]),
  ),
  route("indices_analyze", GPD, "/{index?}/_analyze", analyzeHandler),
  route("field_caps", GPD, "/{index?}/_field_caps", fieldCapsHandler),
  route("settings", GET, "/{index?}/_settings/{name?}", getSettingsHandler),
  route("settings", "PUT", "/{index?}/_settings", putSettingsHandler),
  // templates
  route("index_template", PP, "/_index_template/{name}", putIndexTemplateHandler),
  route("index_template", GET, "/_index_template/{name?}", getIndexTemplateHandler),
  route("index_template", "HEAD", "/_index_template/{name}", existsTemplateHandler("composable")),
  route("index_template", "DELETE", "/_index_template/{name}", deleteTemplateHandler("composable")),
  route("index_template", "POST", "/_index_template/_simulate_index/{name}", simulateIndexHandler),
  route("index_template", "POST", "/_index_template/_simulate/{name?}", simulateTemplateHandler),
  route("index_template", PP, "/_component_template/{name}", putComponentTemplateHandler),
  route("index_template", GET, "/_component_template/{name?}", getComponentTemplateHandler),
  route(
    "index_template",
    "HEAD",
    "/_component_template/{name}",
    existsTemplateHandler("component"),
  ),
  route(
    "index_template",
    "DELETE",
    "/_component_template/{name}",
    deleteTemplateHandler("component"),
  ),
  route("index_template", PP, "/_template/{name}", putLegacyTemplateHandler),
  route("index_template", GET, "/_template/{name?}", getLegacyTemplateHandler),
  route("index_template", "HEAD", "/_template/{name}", existsTemplateHandler("legacy")),
  route("index_template", "DELETE", "/_template/{name}", deleteTemplateHandler("legacy")),
  // aliases
  route("aliases", PP, "/{index}/_alias/{name?}", putAliasHandler),
  route("aliases", PP, "/{index}/_aliases/{name?}", putAliasHandler),
  route("aliases", PP, "/_alias/{name}", putAliasHandler),
  route("aliases", PP, "/_aliases/{name}", putAliasHandler),
  route("aliases", "PUT", "/_alias", putAliasHandler),
  route("aliases", "DELETE", "/{index}/_alias/{name}", deleteAliasHandler),
  route("aliases", "DELETE", "/{index}/_aliases/{name}", deleteAliasHandler),
  route("aliases", GH, "/{index?}/_alias/{name?}", getAliasHandler),
  route("aliases", GET, "/{index?}/_aliases", aliasesOnly),
  route("aliases", "POST", "/_aliases", updateAliasesHandler),
  // cluster
  route("cluster_health", GET, "/_cluster/health/{index?}", healthHandler),
  route("cluster_settings", ["GET", "PUT"], "/_cluster/settings", clusterSettingsHandler),
  route("cat", GET, "/_cat", catListHandler),
  route("cat", GET, "/_cat/indices/{index?}", catIndicesHandler),
  route("cat", GET, "/_cat/health", catHealthHandler),
  route("indices_stats", GET, "/{index?}/_stats/{metric?}", indicesStatsHandler),
  route("nodes_stats", GET, "/_nodes/stats/{metric?}", nodesStatsHandler),
  route("nodes_stats", GET, "/_nodes/stats/{metric}/{index_metric}", nodesStatsHandler),
  route("nodes_stats", GET, "/_nodes/{node_id}/stats/{metric?}", nodesStatsHandler),
  route("nodes_stats", GET, "/_nodes/{node_id}/stats/{metric}/{index_metric}", nodesStatsHandler),
  route("cat", GET, "/_cat/count/{index?}", catCountHandler),
  route("cat", GET, "/_cat/aliases/{name?}", catAliasesHandler),
  route("cat", GET, "/_cat/shards/{index?}", catShardsHandler),
  route("cat", GET, "/_cat/nodes", catNodesHandler),
  route("cat", GET, "/_cat/master", catMasterHandler),
  route("cat", GET, "/_cat/nodeattrs", catNodeattrsHandler),
  route("cat", GET, "/_cat/pending_tasks", catPendingTasksHandler),
  route("cat", GET, "/_cat/plugins", catPluginsHandler),
  route("cat", GET, "/_cat/repositories", catRepositoriesHandler),
  route("cat", GET, "/_cat/fielddata/{fields?}", catFielddataHandler),
  route("cat", GET, "/_cat/templates/{name?}", catTemplatesHandler),
  route(
    "cat",
    GET,
    "/_cat/component_templates/{name?}",
    only("elasticsearch", catComponentTemplatesHandler),
  ),
  route("cat", GET, "/_cat/snapshots/{repository?}", catSnapshotsHandler),
  route("cat_recovery", GET, "/_cat/recovery/{index?}", catRecoveryHandler),
  route("cat", GET, "/_cat/segments/{index?}", catSegmentsHandler),
  route("cat", GET, "/_cat/thread_pool/{thread_pool_patterns?}", catThreadPoolHandler),
  route("cat", GET, "/_cat/allocation/{node_id?}", catAllocationHandler),
  route(
    "cat",
    GET,
    "/_cat/circuit_breaker/{circuit_breaker_patterns?}",
    only("elasticsearch", catCircuitBreakerHandler),
  ),
  route("search_shards", GPD, "/{index?}/_search_shards", searchShardsHandler),
  route("resolve_index", GET, "/_resolve/index/{name}", resolveIndexHandler),
  route(
    "resolve_cluster",
    GET,
    "/_resolve/cluster/{name?}",
    only("elasticsearch", resolveClusterHandler),
  ),
  route("recovery", GET, "/{index?}/_recovery", recoveryHandler),
  route("shard_stores", GET, "/{index?}/_shard_stores", shardStoresHandler),
  route("segments", GET, "/{index?}/_segments", only("elasticsearch", segmentsHandler)),
  route(
    "reload_search_analyzers",
    GPD,
    "/{index}/_reload_search_analyzers",
    only("elasticsearch", reloadSearchAnalyzersHandler),
  ),
  route("cluster_state", GET, "/_cluster/state/{metric?}", clusterStateHandler),
  route("rollover", "POST", "/{alias}/_rollover/{new_index?}", rolloverHandler),
  route("cluster_state", GET, "/_cluster/state/{metric}/{index}", clusterStateHandler),
  route("allocation_explain", GPD, "/_cluster/allocation/explain", allocationExplainHandler),
  route(
    "health_report",
    GET,
    "/_health_report/{feature?}",
    only("elasticsearch", healthReportHandler),
  ),
  route("terms_enum", GPD, "/{index}/_terms_enum", only("elasticsearch", termsEnumHandler)),
  route("cluster_pending_tasks", GET, "/_cluster/pending_tasks", pendingTasksHandler),
  route("remote_info", GET, "/_remote/info", remoteInfoHandler),
  route("get_script_context", GET, "/_script_context", scriptContextHandler),
  route("put_script", PP, "/_scripts/{id}", putScriptHandler),
  route(
    "put_script",
    PP,
    "/_scripts/{id}/{context}",
    // OpenSearch's painless module answers `_scripts/painless/_execute`; the engine has no
    // such API. Elasticsearch's distribution, without the module, stores a script there.
    (c) =>
      c.state.flavour === "opensearch" && c.p.context === "_execute"
        ? noHandler(c.path, c.method)
        : putScriptHandler(c),
  ),
  route("get_script", GET, "/_scripts/{id}", getScriptHandler),
  route("delete_script", "DELETE", "/_scripts/{id}", deleteScriptHandler),
  route("get_script_languages", GET, "/_script_language", scriptLanguageHandler),
  route("cluster_reroute", "POST", "/_cluster/reroute", rerouteHandler),
  route(
    "voting_config_exclusions",
    ["POST", "DELETE"],
    "/_cluster/voting_config_exclusions",
    votingExclusionsHandler,
  ),
  route("dangling", GET, "/_dangling", danglingHandler),
  route("clear_cache", "POST", "/{index?}/_cache/clear", clearCacheHandler),
  route("info_target", GET, "/_info/ingest", only("elasticsearch", infoIngestHandler)),
];

/** The concrete paths of a pattern: each optional part `{x?}` present and absent. */
export function expandPath(pattern: string): string[] {
  let out = [""];
  for (const segment of pattern.split("/").filter((s) => s !== "")) {
    const optional = /^\{(\w+)\?\}$/.exec(segment);
    out = optional
      ? out.flatMap((p) => [p, `${p}/{${optional[1]}}`])
      : out.map((p) => `${p}/${segment}`);
  }
  return out.map((p) => p || "/");
}

/** Builds the engine's router from {@link ROUTES}; each handler first checks its parameters. */
export function buildRouter(): Router<Handler> {
  const r = new Router<Handler>();
  for (const spec of ROUTES) {
    const checked = api(spec.api, spec.handler);
    for (const path of expandPath(spec.path)) r.add([...spec.methods], path, checked);
  }
  return r;
}
