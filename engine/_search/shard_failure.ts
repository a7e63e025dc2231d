// How a response reports its shards: the all-successful `_shards` header and the shard-level
// failure Elasticsearch wraps as `search_phase_execution_exception`.

import { EngineError } from "../_errors.ts";
import type { SearchTarget } from "../_index/search_target.ts";
import { isReduceFailure } from "../_index/limits.ts";
import type { QueryNode } from "../_query/query_nodes.ts";
import { rewritesToNone } from "../_query/query_exec.ts";

/**
 * The `_shards` header of a response over some indices, all successful: every primary shard of
 * every index counts (`index.number_of_shards`), as in Elasticsearch.
 */
export function shards(targets: readonly SearchTarget[]): Record<string, number> {
  const n = targets.reduce((sum, t) => sum + (t.shards ?? 1), 0);
  return { total: n, successful: n, skipped: 0, failed: 0 };
}

/**
 * How many shards a search skips before its query phase. With a primary sort other than `_score`
 * the real engines run a `can_match` round first, where `match_none` rules a shard out: real
 * OpenSearch 3.8.0 skips all but one of the shards (one answers for the empty result), real
 * Elasticsearch 9.5.4 all of them (also for a query that rewrites to `match_none`). Without that
 * sort nothing is skipped.
 */
export function skippedShards(
  query: QueryNode,
  primarySort: string | undefined,
  targets: readonly SearchTarget[],
): number {
  const n = targets.reduce((sum, t) => sum + (t.shards ?? 1), 0);
  if (n <= 1 || primarySort === undefined) return 0;
  if (!rewritesToNone(query, targets[0]?.flavour)) return 0;
  if (primarySort === "_score") return 0;
  return targets[0]?.flavour === "opensearch" ? n - 1 : n;
}

const sortFailures = new WeakSet<EngineError>();

/**
 * Java exceptions the real engines report twice in a failed search's top `caused_by`: real
 * OpenSearch 3.8.0 and Elasticsearch 9.5.4 answer `terms` with `missing: "x"` on an integer field
 * with `caused_by: {number_format_exception, caused_by: {number_format_exception}}`, and a `terms`
 * aggregation on a text field with an `illegal_argument_exception` caused by itself.
 */
const JAVA_EXCEPTIONS = new Set([
  "illegal_argument_exception",
  "illegal_state_exception",
  "number_format_exception",
  "unsupported_operation_exception",
]);

/**
 * Marks an error as raised while building the primary field sort. OpenSearch builds that sort of a
 * search over more than one shard in its `can_match` phase (to skip shards by their min/max), so
 * that is the phase it names when the sort cannot be built.
 */
export function sortFailure(err: unknown): unknown {
  if (err instanceof EngineError) sortFailures.add(err);
  return err;
}

/**
 * Wraps a shard-level failure the way the real engines report it: `search_phase_execution_exception`
 * naming the phase. Too many buckets is found while the coordinating node reduces the shards'
 * answers, after every shard succeeded: no root causes, no failed shards, phase `fetch` (and 503
 * in OpenSearch).
 */
export function shardFailure(err: unknown, targets: SearchTarget[]): never {
  if (
    !(err instanceof EngineError) || err.type === "parsing_exception" ||
    err.type === "search_context_missing_exception" ||
    err.type === "action_request_validation_exception" ||
    err.type === "x_content_parse_exception"
  ) throw err;
  const opensearch = targets[0]?.flavour === "opensearch";
  if (isReduceFailure(err)) {
    throw new EngineError(
      opensearch ? 503 : err.status,
      "search_phase_execution_exception",
      "",
      {
        extra: { root_cause: [], phase: "fetch", grouped: true, failed_shards: [] },
        causedBy: err,
      },
    );
  }
  const index = (err.extra.index as string | undefined) ?? targets[0]?.index;
  // A plain Java exception thrown on the shards is the wrapper's cause twice over (its shard
  // failure once), as Elasticsearch 9.5.4 and OpenSearch 3.8.0 print it.
  const cause = JAVA_EXCEPTIONS.has(err.type) && !err.causedBy
    ? new EngineError(err.status, err.type, err.message, { extra: err.extra, causedBy: err })
    : err;
  const many = targets.reduce((sum, t) => sum + (t.shards ?? 1), 0) > 1;
  throw new EngineError(
    err.status,
    "search_phase_execution_exception",
    "all shards failed",
    {
      extra: {
        phase: opensearch && many && sortFailures.has(err) ? "can_match" : "query",
        grouped: true,
        failed_shards: [{ shard: 0, index, node: "searchvisitor", reason: err.toCause() }],
      },
      causedBy: cause,
    },
  );
}
