// `POST|GET /{index}/_reload_search_analyzers` (Elasticsearch): reloads the search analyzers
// built from updateable resources. The engine has none (synonym files are not read), so each
// index reports no analyzer reloaded, on the one node.

import { ok, type Reply, type RequestContext } from "./context.ts";
import { targets } from "./targets.ts";

/**
 * The answer Elasticsearch 9.5.4 gives: one entry per index, by name, and `_shards` counted as
 * its node-by-node broadcast counts them, one shard of each index on the node and, when the index
 * asks for replicas the one node cannot hold, one more (failed neither, merely not reached).
 */
export function reloadSearchAnalyzersHandler(ctx: RequestContext): Reply {
  const indices = targets(ctx).filter((i) => !i.closed).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0
  );
  const total = indices.reduce((n, i) => n + (i.replicas > 0 ? 2 : 1), 0);
  return ok({
    _shards: { total, successful: indices.length, failed: 0 },
    reload_details: ctx.params.has("resource") ? [] : indices.map((i) => ({
      index: i.name,
      reloaded_analyzers: [],
      reloaded_node_ids: [ctx.state.node.id],
    })),
  });
}
