// `_explain` (does one document match, and with which score) and `_validate/query`.

import { EngineError, illegalArgument, parsingError, validationFailed } from "../_errors.ts";
import { countApi } from "../_search/matches_api.ts";
import { searchApi } from "../_search/search_api.ts";
import { bodyObject, boolParam, ok, type Reply, type RequestContext } from "./context.ts";
import { searchTargets, withAliasFilter } from "./search.ts";
import { docBody } from "./documents.ts";
import { documentSourceFilter } from "../_hits/source_filter.ts";
import { nameList } from "../_index/name_pattern.ts";
import { parseSearchRequest } from "../_search/search_request.ts";
import { execContextOf } from "../_query/exec_context.ts";
import { explainHit } from "../_search/explain_hits.ts";
import type { SearchTarget } from "../_index/search_target.ts";

/**
 * The `get` section of an explanation: the document as GET embeds it (sequence number, routing,
 * `found`, `_source`, `fields`), when `stored_fields` or a fetching `_source` parameter asks.
 */
function explainGet(ctx: RequestContext, indexName: string, id: string): object | undefined {
  const stored = ctx.params.get("stored_fields");
  const wantsSource =
    ["_source", "_source_includes", "_source_excludes"].some((k) => ctx.params.has(k)) &&
    documentSourceFilter(ctx.params.get("_source") ?? undefined, [], []).fetch;
  if (stored === null && !wantsSource) return undefined;
  const index = ctx.state.cluster.indices.get(indexName);
  const doc = index?.visible.get(id);
  if (!index || !doc) return undefined;
  const { _index: _i, _id: _d, _version: _v, ...embedded } = docBody(
    ctx,
    index,
    doc,
    stored === null ? undefined : nameList(stored),
  );
  return embedded;
}

function withGet(get: object | undefined): object {
  return get === undefined ? {} : { get };
}

/** GET|POST /{index}/_explain/{id}. */
export function explainHandler(ctx: RequestContext): Reply {
  const body = bodyObject(ctx, "query") ?? {};
  for (const key of Object.keys(body)) {
    if (key !== "query") {
      throw parsingError(`request does not support [${key}]`);
    }
  }
  const targets = searchTargets(ctx, ctx.p.index);
  if (targets.length !== 1) {
    throw illegalArgument(
      "explain requires a single index, or an alias pointing to exactly one index",
    );
  }
  const target = targets[0]!;
  const query = body.query;
  if (query === undefined && !ctx.params.has("q")) {
    throw validationFailed("query is missing");
  }
  const params = new URLSearchParams();
  for (const k of ["q", "df", "analyzer", "analyze_wildcard", "default_operator", "lenient"]) {
    const v = ctx.params.get(k);
    if (v !== null) params.set(k, v);
  }
  const id = ctx.p.id!;
  // The document is picked by a post filter: a `q` parameter replaces the query, never the id.
  const filtered = withAliasFilter(ctx, ctx.p.index, {
    ...(query === undefined ? {} : { query }),
    post_filter: { ids: { values: [id] } },
    size: 1,
    track_total_hits: true,
  });
  let found: { hits: { hits: Array<{ _score: number | null }> } };
  try {
    found = searchApi(ctx.state.search, [target], filtered, params) as typeof found;
  } catch (e) {
    throw shardError(ctx, target.index, e);
  }
  const doc = liveOrdinal(target, id);
  const hit = found.hits.hits[0];
  const head = { _index: target.index, _id: id, matched: hit !== undefined };
  if (doc === undefined) return { status: 404, body: head };
  const { query: node } = parseSearchRequest(
    { ...(filtered?.query === undefined ? {} : { query: filtered.query }) },
    params,
  );
  const explanation = explainHit({
    query: node,
    ctx: execContextOf(target, ctx.state.search.now()),
    target,
    doc,
    score: hit ? hit._score ?? 1 : undefined,
  });
  return ok({ ...head, explanation, ...withGet(explainGet(ctx, target.index, id)) });
}

/**
 * What a failed `_explain` answers: the one shard's own failure, not the search's wrapper. As in
 * Elasticsearch 9.5.4, a failure building the query other than `query_shard_exception` is one,
 * `failed to create query: …`, naming the index.
 */
function shardError(ctx: RequestContext, index: string, e: unknown): unknown {
  if (!(e instanceof EngineError) || e.type !== "search_phase_execution_exception") return e;
  let cause = e.causedBy;
  if (cause === undefined) return e;
  // a plain Java exception is its wrapper's cause twice over
  if (cause.causedBy?.type === cause.type && cause.causedBy.message === cause.message) {
    cause = cause.causedBy;
  }
  if (cause.type === "query_shard_exception") return cause;
  const uuid = ctx.state.cluster.indices.get(index)?.uuid ?? "_na_";
  return new EngineError(400, "query_shard_exception", `failed to create query: ${cause.message}`, {
    extra: { index_uuid: uuid, index },
    causedBy: cause,
  });
}

/** The global ordinal of a live document of the target, by id. */
function liveOrdinal(target: SearchTarget, id: string): number | undefined {
  for (const v of target.snapshot.views) {
    const local = v.segment.ids.get(id);
    if (local !== undefined && !v.deleted?.[local]) return v.base + local;
  }
  return undefined;
}

/** GET|POST /_validate/query and /{index}/_validate/query. */
export function validateQueryHandler(ctx: RequestContext): Reply {
  const body = bodyObject(ctx);
  const explain = boolParam(ctx, "explain");
  const targets = searchTargets(ctx, ctx.p.index);
  const shards = { total: 1, successful: 1, failed: 0 };
  try {
    countApi(targets, body, ctx.params);
  } catch (e) {
    if (!(e instanceof EngineError) || e.status >= 500) throw e;
    const root = e.causedBy ?? e;
    return ok({
      _shards: shards,
      valid: false,
      ...(explain ? { error: `${root.type}: ${root.message}` } : {}),
    });
  }
  return ok({
    _shards: shards,
    valid: true,
    ...(explain
      ? {
        explanations: targets.map((t) => ({
          index: t.index,
          valid: true,
          explanation: JSON.stringify(body?.query ?? { match_all: {} }),
        })),
      }
      : {}),
  });
}
