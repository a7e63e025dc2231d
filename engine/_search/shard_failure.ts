// How a response reports its shards: the all-successful `_shards` header and the shard-level
// failure Elasticsearch wraps as `search_phase_execution_exception`.

import { EngineError } from "../_errors.ts";
import type { SearchTarget } from "../_index/search_target.ts";

/**
 * The `_shards` header of a response over some indices, all successful: every primary shard of
 * every index counts (`index.number_of_shards`), as in Elasticsearch.
 */
export function shards(targets: readonly SearchTarget[]): Record<string, number> {
  const n = targets.reduce((sum, t) => sum + (t.shards ?? 1), 0);
  return { total: n, successful: n, skipped: 0, failed: 0 };
}

/** Wraps a shard-level failure the way Elasticsearch reports it: `search_phase_execution_exception`. */
export function shardFailure(err: unknown, targets: SearchTarget[]): never {
  if (
    !(err instanceof EngineError) || err.type === "parsing_exception" ||
    err.type === "search_context_missing_exception" ||
    err.type === "action_request_validation_exception" ||
    err.type === "x_content_parse_exception"
  ) throw err;
  const index = (err.extra.index as string | undefined) ?? targets[0]?.index;
  throw new EngineError(
    err.status,
    "search_phase_execution_exception",
    "all shards failed",
    {
      phase: "query",
      grouped: true,
      failed_shards: [{ shard: 0, index, node: "searchvisitor", reason: err.toCause() }],
    },
    err,
  );
}
