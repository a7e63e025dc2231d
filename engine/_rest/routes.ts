// The route table: every REST endpoint the engine answers, method + path → handler.

import { aliasView } from "./aliases.ts";
import {
  deleteAliasHandler,
  getAliasHandler,
  putAliasHandler,
  updateAliasesHandler,
} from "./aliases.ts";
import { bulkHandler } from "./bulk.ts";
import { byQueryHandler } from "./by_query.ts";
import { getTaskHandler } from "./tasks.ts";
import { reindexHandler } from "./reindex.ts";
import {
  catAliasesHandler,
  catCountHandler,
  catHealthHandler,
  catIndicesHandler,
  catShardsHandler,
} from "./cat.ts";
import { clusterSettingsHandler, healthHandler, infoHandler } from "./cluster.ts";
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
  getIndexHandler,
  openCloseHandler,
  refreshHandler,
} from "./indices.ts";
import { fieldCapsHandler, fieldMappingHandler } from "./fields.ts";
import { mgetHandler } from "./mget.ts";
import { api } from "./params.ts";
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

const GP = ["GET", "POST"];
const PP = ["PUT", "POST"];

function aliasesOnly(ctx: RequestContext): Reply {
  const out: Record<string, unknown> = {};
  for (const index of ctx.state.cluster.resolve(ctx.p.index, { includeClosed: true })) {
    out[index.name] = { aliases: aliasView(index) };
  }
  return { status: 200, body: out };
}

/** A route only one product has: the other answers like an unknown URL. */
function only(flavour: "elasticsearch" | "opensearch", handler: Handler): Handler {
  return (ctx) => {
    if (ctx.state.flavour === flavour) return handler(ctx);
    const uri = ctx.path + (ctx.params.size > 0 ? `?${ctx.params}` : "");
    return {
      status: 400,
      body: { error: `no handler found for uri [${uri}] and method [${ctx.method}]`, status: 400 },
    };
  };
}

/** Builds the engine's router: each route names the API whose query parameters it accepts. */
export function buildRouter(): Router<Handler> {
  const r = new Router<Handler>();
  const add = (
    methods: string | string[],
    pattern: string,
    name: string,
    handler: Handler,
  ): void => {
    r.add(methods, pattern, api(name, handler));
  };
  add(["GET", "HEAD"], "/", "info", infoHandler);
  // documents
  add(PP, "/{index}/_doc/{id}", "index", (c) => indexHandler(c));
  add("POST", "/{index}/_doc", "index", (c) => indexHandler(c));
  add(PP, "/{index}/_create/{id}", "create", (c) => indexHandler(c, true));
  add(["GET", "HEAD"], "/{index}/_doc/{id}", "get", getHandler);
  add("DELETE", "/{index}/_doc/{id}", "delete", deleteHandler);
  add(["GET", "HEAD"], "/{index}/_source/{id}", "get_source", getSourceHandler);
  add("POST", "/{index}/_update/{id}", "update", updateHandler);
  add(GP, "/_mget", "mget", mgetHandler);
  add(GP, "/{index}/_mget", "mget", mgetHandler);
  add(PP, "/_bulk", "bulk", bulkHandler);
  add(PP, "/{index}/_bulk", "bulk", bulkHandler);
  // search
  add(GP, "/_search", "search", searchHandler);
  add(GP, "/{index}/_search", "search", searchHandler);
  add(GP, "/_count", "count", countHandler);
  add(GP, "/{index}/_count", "count", countHandler);
  add(GP, "/_msearch", "msearch", msearchHandler);
  add(GP, "/{index}/_msearch", "msearch", msearchHandler);
  add(GP, "/_search/scroll", "scroll", scrollHandler);
  add(GP, "/_search/scroll/{scroll_id}", "scroll", scrollHandler);
  add("DELETE", "/_search/scroll", "clear_scroll", clearScrollHandler);
  add("DELETE", "/_search/scroll/{scroll_id}", "clear_scroll", clearScrollHandler);
  add(
    "POST",
    "/{index}/_pit",
    "open_pit",
    only("elasticsearch", (c) => openPitHandler(c, "elasticsearch")),
  );
  add(
    "DELETE",
    "/_pit",
    "close_pit",
    only("elasticsearch", (c) => closePitHandler(c, "elasticsearch")),
  );
  add(
    "POST",
    "/{index}/_search/point_in_time",
    "open_pit",
    only("opensearch", (c) => openPitHandler(c, "opensearch")),
  );
  add(
    "DELETE",
    "/_search/point_in_time",
    "close_pit",
    only("opensearch", (c) => closePitHandler(c, "opensearch")),
  );
  add(
    "DELETE",
    "/_search/point_in_time/_all",
    "close_pit",
    only("opensearch", (c) => closePitHandler(c, "opensearch")),
  );
  add("GET", "/_search/point_in_time/_all", "close_pit", only("opensearch", listPitsHandler));
  add("POST", "/{index}/_delete_by_query", "by_query", (c) => byQueryHandler(c, false));
  add("POST", "/{index}/_update_by_query", "by_query", (c) => byQueryHandler(c, true));
  add("POST", "/_reindex", "reindex", reindexHandler);
  add("GET", "/_tasks/{task_id}", "tasks", getTaskHandler);
  // indices
  add("PUT", "/{index}", "indices_create", createIndexHandler);
  add("DELETE", "/{index}", "indices_delete", deleteIndexHandler);
  add("HEAD", "/{index}", "indices_get", existsIndexHandler);
  add("GET", "/{index}", "indices_get", getIndexHandler);
  add(GP, "/_refresh", "refresh", refreshHandler);
  add(GP, "/{index}/_refresh", "refresh", refreshHandler);
  add("POST", "/{index}/_open", "open_close", (c) => openCloseHandler(c, false));
  add("POST", "/{index}/_close", "open_close", (c) => openCloseHandler(c, true));
  add("GET", "/_mapping", "mapping", getMappingHandler);
  add("GET", "/{index}/_mapping", "mapping", getMappingHandler);
  add(PP, "/{index}/_mapping", "mapping", putMappingHandler);
  add(PP, "/{index}/_mappings", "mapping", putMappingHandler);
  add(PP, "/_mapping", "mapping", putMappingHandler);
  add("GET", "/_mapping/field/{fields}", "mapping", fieldMappingHandler);
  add("GET", "/{index}/_mapping/field/{fields}", "mapping", fieldMappingHandler);
  add(GP, "/_field_caps", "field_caps", fieldCapsHandler);
  add(GP, "/{index}/_field_caps", "field_caps", fieldCapsHandler);
  add("GET", "/_settings", "settings", getSettingsHandler);
  add("GET", "/{index}/_settings", "settings", getSettingsHandler);
  add("GET", "/_settings/{name}", "settings", getSettingsHandler);
  add("GET", "/{index}/_settings/{name}", "settings", getSettingsHandler);
  add("PUT", "/_settings", "settings", putSettingsHandler);
  add("PUT", "/{index}/_settings", "settings", putSettingsHandler);
  // aliases
  add(PP, "/{index}/_alias/{name}", "aliases", putAliasHandler);
  add(PP, "/{index}/_aliases/{name}", "aliases", putAliasHandler);
  add(PP, "/{index}/_alias", "aliases", putAliasHandler);
  add(PP, "/{index}/_aliases", "aliases", putAliasHandler);
  add(PP, "/_alias/{name}", "aliases", putAliasHandler);
  add(PP, "/_aliases/{name}", "aliases", putAliasHandler);
  add("PUT", "/_alias", "aliases", putAliasHandler);
  add("DELETE", "/{index}/_alias/{name}", "aliases", deleteAliasHandler);
  add("DELETE", "/{index}/_aliases/{name}", "aliases", deleteAliasHandler);
  add(["GET", "HEAD"], "/_alias", "aliases", getAliasHandler);
  add(["GET", "HEAD"], "/_alias/{name}", "aliases", getAliasHandler);
  add(["GET", "HEAD"], "/{index}/_alias", "aliases", getAliasHandler);
  add(["GET", "HEAD"], "/{index}/_alias/{name}", "aliases", getAliasHandler);
  add("GET", "/_aliases", "aliases", aliasesOnly);
  add("GET", "/{index}/_aliases", "aliases", aliasesOnly);
  add("POST", "/_aliases", "aliases", updateAliasesHandler);
  // cluster
  add("GET", "/_cluster/health", "cluster_health", healthHandler);
  add("GET", "/_cluster/health/{index}", "cluster_health", healthHandler);
  add(["GET", "PUT"], "/_cluster/settings", "cluster_settings", clusterSettingsHandler);
  add("GET", "/_cat/indices", "cat", catIndicesHandler);
  add("GET", "/_cat/indices/{index}", "cat", catIndicesHandler);
  add("GET", "/_cat/health", "cat", catHealthHandler);
  add("GET", "/_cat/count", "cat", catCountHandler);
  add("GET", "/_cat/count/{index}", "cat", catCountHandler);
  add("GET", "/_cat/aliases", "cat", catAliasesHandler);
  add("GET", "/_cat/aliases/{name}", "cat", catAliasesHandler);
  add("GET", "/_cat/shards", "cat", catShardsHandler);
  add("GET", "/_cat/shards/{index}", "cat", catShardsHandler);
  return r;
}
