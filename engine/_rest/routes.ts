// The route table: every REST endpoint the engine answers, method + path → handler.

import { aliasView } from "./aliases.ts";
import {
  deleteAliasHandler,
  getAliasHandler,
  putAliasHandler,
  updateAliasesHandler,
} from "./aliases.ts";
import { bulkHandler } from "./bulk.ts";
import { byQueryHandler, getTaskHandler } from "./by_query.ts";
import { catHealthHandler, catIndicesHandler } from "./cat.ts";
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
import { mgetHandler } from "./mget.ts";
import { Router } from "./router.ts";
import {
  clearScrollHandler,
  closePitHandler,
  countHandler,
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

/** Builds the engine's router. */
export function buildRouter(): Router<Handler> {
  const r = new Router<Handler>();
  r.add(["GET", "HEAD"], "/", infoHandler);
  // documents
  r.add(PP, "/{index}/_doc/{id}", (c) => indexHandler(c));
  r.add("POST", "/{index}/_doc", (c) => indexHandler(c));
  r.add(PP, "/{index}/_create/{id}", (c) => indexHandler(c, true));
  r.add(["GET", "HEAD"], "/{index}/_doc/{id}", getHandler);
  r.add("DELETE", "/{index}/_doc/{id}", deleteHandler);
  r.add(["GET", "HEAD"], "/{index}/_source/{id}", getSourceHandler);
  r.add("POST", "/{index}/_update/{id}", updateHandler);
  r.add(GP, "/_mget", mgetHandler);
  r.add(GP, "/{index}/_mget", mgetHandler);
  r.add(PP, "/_bulk", bulkHandler);
  r.add(PP, "/{index}/_bulk", bulkHandler);
  // search
  r.add(GP, "/_search", searchHandler);
  r.add(GP, "/{index}/_search", searchHandler);
  r.add(GP, "/_count", countHandler);
  r.add(GP, "/{index}/_count", countHandler);
  r.add(GP, "/_msearch", msearchHandler);
  r.add(GP, "/{index}/_msearch", msearchHandler);
  r.add(GP, "/_search/scroll", scrollHandler);
  r.add(GP, "/_search/scroll/{scroll_id}", scrollHandler);
  r.add("DELETE", "/_search/scroll", clearScrollHandler);
  r.add("DELETE", "/_search/scroll/{scroll_id}", clearScrollHandler);
  r.add("POST", "/{index}/_pit", (c) => openPitHandler(c, "elasticsearch"));
  r.add("DELETE", "/_pit", (c) => closePitHandler(c, "elasticsearch"));
  r.add("POST", "/{index}/_search/point_in_time", (c) => openPitHandler(c, "opensearch"));
  r.add("DELETE", "/_search/point_in_time", (c) => closePitHandler(c, "opensearch"));
  r.add("DELETE", "/_search/point_in_time/_all", (c) => closePitHandler(c, "opensearch"));
  r.add("POST", "/{index}/_delete_by_query", (c) => byQueryHandler(c, false));
  r.add("POST", "/{index}/_update_by_query", (c) => byQueryHandler(c, true));
  r.add("GET", "/_tasks/{task_id}", getTaskHandler);
  // indices
  r.add("PUT", "/{index}", createIndexHandler);
  r.add("DELETE", "/{index}", deleteIndexHandler);
  r.add("HEAD", "/{index}", existsIndexHandler);
  r.add("GET", "/{index}", getIndexHandler);
  r.add(GP, "/_refresh", refreshHandler);
  r.add(GP, "/{index}/_refresh", refreshHandler);
  r.add("POST", "/{index}/_open", (c) => openCloseHandler(c, false));
  r.add("POST", "/{index}/_close", (c) => openCloseHandler(c, true));
  r.add("GET", "/_mapping", getMappingHandler);
  r.add("GET", "/{index}/_mapping", getMappingHandler);
  r.add(PP, "/{index}/_mapping", putMappingHandler);
  r.add(PP, "/_mapping", putMappingHandler);
  r.add("GET", "/_settings", getSettingsHandler);
  r.add("GET", "/{index}/_settings", getSettingsHandler);
  r.add("GET", "/_settings/{name}", getSettingsHandler);
  r.add("GET", "/{index}/_settings/{name}", getSettingsHandler);
  r.add("PUT", "/_settings", putSettingsHandler);
  r.add("PUT", "/{index}/_settings", putSettingsHandler);
  // aliases
  r.add(PP, "/{index}/_alias/{name}", putAliasHandler);
  r.add(PP, "/{index}/_aliases/{name}", putAliasHandler);
  r.add(PP, "/{index}/_alias", putAliasHandler);
  r.add(PP, "/{index}/_aliases", putAliasHandler);
  r.add(PP, "/_alias/{name}", putAliasHandler);
  r.add(PP, "/_alias", putAliasHandler);
  r.add("DELETE", "/{index}/_alias/{name}", deleteAliasHandler);
  r.add("DELETE", "/{index}/_aliases/{name}", deleteAliasHandler);
  r.add(["GET", "HEAD"], "/_alias", getAliasHandler);
  r.add(["GET", "HEAD"], "/_alias/{name}", getAliasHandler);
  r.add(["GET", "HEAD"], "/{index}/_alias", getAliasHandler);
  r.add(["GET", "HEAD"], "/{index}/_alias/{name}", getAliasHandler);
  r.add("GET", "/_aliases", aliasesOnly);
  r.add("GET", "/{index}/_aliases", aliasesOnly);
  r.add("POST", "/_aliases", updateAliasesHandler);
  // cluster
  r.add("GET", "/_cluster/health", healthHandler);
  r.add("GET", "/_cluster/health/{index}", healthHandler);
  r.add(["GET", "PUT"], "/_cluster/settings", clusterSettingsHandler);
  r.add("GET", "/_cat/indices", catIndicesHandler);
  r.add("GET", "/_cat/indices/{index}", catIndicesHandler);
  r.add("GET", "/_cat/health", catHealthHandler);
  return r;
}
