// The entry points that match without rendering hits: `_count`, and the docs a
// `_delete_by_query` / `_update_by_query` touches.

import { MAX_REQUEST_STATES, withPatternBudget } from "../_index/automaton.ts";
import { parsingErrorAt } from "../_errors.ts";
import { matchLive } from "../_query/query_exec.ts";
import { execContextOf } from "../_query/exec_context.ts";
import { parseQuery } from "../_query/query_parser.ts";
import { withQueryDialect } from "../_query/query_parse_util.ts";
import { parseSearchRequest } from "./search_request.ts";
import type { StoredDoc } from "../_index/types.ts";
import type { SearchTarget } from "../_index/search_target.ts";
import { shardFailure, shards } from "./shard_failure.ts";

/** Counts matching docs: `{count, _shards}`; the body may only hold `query`. */
export function countApi(
  targets: SearchTarget[],
  body: Record<string, unknown> | undefined,
  params: URLSearchParams,
): Record<string, unknown> {
  return withPatternBudget(MAX_REQUEST_STATES, () => count(targets, body, params));
}

function count(
  targets: SearchTarget[],
  body: Record<string, unknown> | undefined,
  params: URLSearchParams,
): Record<string, unknown> {
  for (const k of Object.keys(body ?? {})) {
    if (k !== "query") throw parsingErrorAt(`request does not support [${k}]`, k, "name");
  }
  const searchParams = new URLSearchParams(params);
  searchParams.delete("from");
  searchParams.delete("size");
  const req = withQueryDialect(targets[0]?.flavour, () =>
    parseSearchRequest(
      body?.query === undefined ? undefined : { query: body.query },
      searchParams,
    ));
  let count = 0;
  try {
    for (const t of targets) {
      count += matchLive(req.query, execContextOf(t, Date.now()), "filter").docs.length;
    }
  } catch (err) {
    shardFailure(err, targets);
  }
  return { count, _shards: shards(targets) };
}

/** All live docs matching `query` (for `_delete_by_query` / `_update_by_query`). */
export function findMatches(
  targets: SearchTarget[],
  query: unknown,
): Array<{ index: string; doc: StoredDoc }> {
  const node = parseQuery(query ?? { match_all: {} });
  const out: Array<{ index: string; doc: StoredDoc }> = [];
  try {
    for (const t of targets) {
      const hits = matchLive(node, execContextOf(t, Date.now()), "filter");
      for (const d of hits.docs) out.push({ index: t.index, doc: t.snapshot.doc(d) });
    }
  } catch (err) {
    shardFailure(err, targets);
  }
  return out;
}
