// The search core's entry points for the REST layer: search, scroll, PIT, count, by-query matching.

import { MAX_REQUEST_STATES, withPatternBudget } from "../_index/automaton.ts";
import { checkClauseCount, withBucketBudget } from "../_index/limits.ts";
import { EngineError, illegalArgument, parsingError, validationFailed } from "../_errors.ts";
import { runAggregations } from "../_aggs/aggregations.ts";
import { collect, type Collected } from "./collect.ts";
import { searchProfile } from "./profile.ts";
import { fieldMapOf } from "../_index/field_map.ts";
import { formatDateAt } from "../_index/dates.ts";
import { type HitOptions, renderHits, renderTotal } from "../_hits/hits_render.ts";
import { checkInnerHits } from "../_hits/inner_hits.ts";
import { parseKeepAlive } from "./keep_alive.ts";
import { matchLive } from "../_query/query_exec.ts";
import { execContextOf } from "../_query/exec_context.ts";
import { matchedQueries } from "../_query/named_queries.ts";
import { parseQuery } from "../_query/query_parser.ts";
import { SearchContexts } from "./search_contexts.ts";
import { parseSearchRequest, type SearchRequest } from "./search_request.ts";
import type { SortKey } from "../_hits/sort.ts";
import type { StoredDoc } from "../_index/types.ts";
import type { SearchTarget } from "../_index/search_target.ts";
import { writtenAsDoubles } from "../_index/raw_source.ts";

export { parseKeepAlive, SearchContexts };

function shards(n: number): Record<string, number> {
  return { total: n, successful: n, skipped: 0, failed: 0 };
}

/** Wraps a shard-level failure the way Elasticsearch reports it: `search_phase_execution_exception`. */
function shardFailure(err: unknown, targets: SearchTarget[]): never {
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

function checkLimits(req: SearchRequest, targets: SearchTarget[]): void {
  checkInnerHits(req.innerHits, Math.min(...targets.map((t) => t.maxInnerResultWindow ?? 100)));
  const limit = Math.min(...targets.map((t) => t.maxResultWindow));
  if (req.rescoreWindow > limit) {
    throw illegalArgument(
      `Rescore window [${req.rescoreWindow}] is too large. It must be less than [${limit}]. This prevents allocating massive heaps for storing the results to be rescored. This limit can be set by changing the [index.max_result_window] index level setting.`,
    );
  }
  const maxDv = Math.min(...targets.map((t) => t.maxDocvalueFields ?? 100));
  if (req.docvalueFields.length > maxDv) {
    throw illegalArgument(
      `Trying to retrieve too many docvalue_fields. Must be less than or equal to: [${maxDv}] but was [${req.docvalueFields.length}]. This limit can be set by changing the [index.max_docvalue_fields_search] index level setting.`,
    );
  }
  const maxSf = Math.min(...targets.map((t) => t.maxScriptFields ?? 32));
  if (req.scriptFieldCount > maxSf) {
    throw illegalArgument(
      `Trying to retrieve too many script_fields. Must be less than or equal to: [${maxSf}] but was [${req.scriptFieldCount}]. This limit can be set by changing the [index.max_script_fields] index level setting.`,
    );
  }
  if (req.scroll !== null) {
    if (req.size > limit) {
      throw illegalArgument(
        `Batch size is too large, size must be less than or equal to: [${limit}] but was [${req.size}]. Scroll batch sizes cost as much memory as result windows so they are controlled by the [index.max_result_window] index level setting.`,
      );
    }
  } else if (req.from + req.size > limit) {
    throw illegalArgument(
      `Result window is too large, from + size must be less than or equal to: [${limit}] but was [${
        req.from + req.size
      }]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.`,
    );
  }
}

/** Runs a search and returns the full Elasticsearch response body. */
export function searchApi(
  ctx: SearchContexts,
  targets: SearchTarget[],
  body: Record<string, unknown> | undefined,
  params: URLSearchParams,
): Record<string, unknown> {
  return withPatternBudget(MAX_REQUEST_STATES, () => search(ctx, targets, body, params));
}

function search(
  ctx: SearchContexts,
  targets: SearchTarget[],
  body: Record<string, unknown> | undefined,
  params: URLSearchParams,
): Record<string, unknown> {
  const started = performance.now();
  const req = parseSearchRequest(body, params);
  let sort: SortKey[] = req.sort;
  let pitId: string | undefined;
  if (req.pit) {
    if (targets.length) {
      throw validationFailed(
        "[indices] cannot be used with point in time. Do not specify any index with point in time.",
      );
    }
    const pit = ctx.pit(req.pit.id);
    if (req.pit.keepAlive !== undefined) {
      pit.keepAlive = parseKeepAlive(req.pit.keepAlive);
      ctx.checkKeepAlive(pit.keepAlive, req.pit.keepAlive);
    }
    pit.expiresAt = ctx.now() + pit.keepAlive;
    targets = pit.targets;
    pitId = req.pit.id;
    if (!sort.some((k) => k.field === "_shard_doc")) {
      const base = sort.length ? sort : [{ field: "_score", order: -1 as const, missing: "_last" }];
      sort = [...base, { field: "_shard_doc", order: 1, missing: "_last" }];
    }
  }
  if (!req.pit && sort.some((k) => k.field === "_shard_doc")) {
    throw illegalArgument("[_shard_doc] sort field cannot be used without [point in time]");
  }
  let keepAlive = 0;
  if (req.scroll !== null) {
    keepAlive = parseKeepAlive(req.scroll, "scroll");
    ctx.checkKeepAlive(keepAlive, req.scroll);
  }
  let collected: Collected;
  let queryNanos = 0;
  let terminatedEarly: boolean | undefined;
  let aggregations: Record<string, unknown> | undefined;
  try {
    checkLimits(req, targets);
    checkClauseCount(req.query, ctx.maxClauseCount);
    if (req.scroll !== null) ctx.checkScrollRoom();
    const queryStart = performance.now();
    collected = collect(
      targets,
      req,
      sort,
      ctx.now(),
      req.scroll !== null || req.terminateAfter > 0,
    );
    if (req.terminateAfter > 0) {
      const cut = terminateEarly(collected, req.terminateAfter);
      collected = cut.collected;
      terminatedEarly = cut.terminated;
    }
    queryNanos = (performance.now() - queryStart) * 1e6;
    const aggs = req.aggs;
    const inputs = collected.aggInputs;
    if (aggs) {
      aggregations = withBucketBudget(ctx.maxBuckets, () => runAggregations(aggs, inputs));
    }
  } catch (err) {
    shardFailure(err, targets);
  }
  const render: HitOptions = {
    source: req.source,
    scores: collected.scoresReported,
    sort: sort.length > 0,
    version: req.version,
    seqNoPrimaryTerm: req.seqNoPrimaryTerm,
    storedFieldsNone: req.storedFieldsNone,
    docvalueFields: req.docvalueFields,
    fields: req.fields,
    highlight: req.highlight ? { request: req.highlight, query: req.query } : undefined,
    collapseField: req.collapse ?? undefined,
    innerHits: req.innerHits,
  };
  const total = renderTotal(collected.total, req.trackTotalHits, req.restTotalHitsAsInt);
  const from = req.scroll !== null ? 0 : req.from;
  const page = collected.ordered.slice(from, from + req.size);
  const out: Record<string, unknown> = {};
  if (req.scroll !== null) {
    out._scroll_id = ctx.addScroll({
      targets,
      ordered: collected.ordered,
      position: req.size,
      size: req.size,
      total: collected.total,
      maxScore: collected.maxScore,
      render,
      keepAlive,
      expiresAt: ctx.now() + keepAlive,
    });
  }
  if (pitId) out.pit_id = pitId;
  out.took = Math.round(performance.now() - started);
  out.timed_out = false;
  if (terminatedEarly !== undefined) out.terminated_early = terminatedEarly;
  out._shards = shards(targets.length);
  out.hits = renderHits(page, targets, total, req.size === 0 ? null : collected.maxScore, render);
  const matched = matchedQueries(
    req.query,
    page,
    collected.aggInputs.map((i) => i.ctx),
    req.includeNamedQueriesScore,
  );
  (out.hits as { hits: Record<string, unknown>[] }).hits.forEach((h, i) => {
    if (matched[i] !== undefined) h.matched_queries = matched[i];
  });
  formatSortValues(out.hits as { hits: Record<string, unknown>[] }, sort, targets);
  if (aggregations) out.aggregations = writtenAsDoubles(aggregations);
  if (req.profile) {
    out.profile = searchProfile(
      req.query,
      targets.map((t) => t.index),
      queryNanos,
      Object.keys(req.aggs ?? {}),
    );
  }
  return out;
}

/**
 * `terminate_after`: each target (a shard) stops collecting after its first `n` matching docs in
 * index order; the hits, total and aggregations cover only those.
 */
function terminateEarly(c: Collected, n: number): { collected: Collected; terminated: boolean } {
  const kept = new Map<number, Set<number>>();
  const byTarget = new Map<number, number[]>();
  for (const h of c.ordered) {
    let list = byTarget.get(h.t);
    if (!list) byTarget.set(h.t, list = []);
    list.push(h.doc);
  }
  let terminated = false;
  for (const [t, docs] of byTarget) {
    docs.sort((a, b) => a - b);
    if (docs.length > n) terminated = true;
    kept.set(t, new Set(docs.slice(0, n)));
  }
  const ordered = c.ordered.filter((h) => kept.get(h.t)!.has(h.doc));
  return {
    collected: {
      ...c,
      total: ordered.length,
      ordered,
      aggInputs: c.aggInputs.map((i) => ({ ...i, docs: i.docs.subarray(0, n) })),
    },
    terminated,
  };
}

/** The sort values a doc without the field gets (Long.MIN_VALUE / Long.MAX_VALUE). */
const LONG_SENTINELS = new Set<unknown>([-(2n ** 63n), 2n ** 63n - 1n]);

/**
 * Writes date sort values in the sort key's `format` (`{"d": {"format": "yyyy-MM-dd"}}`); a doc
 * without the field has no date to write, so its sentinel becomes `null` as in Elasticsearch.
 */
function formatSortValues(
  hits: { hits: Record<string, unknown>[] },
  sort: SortKey[],
  targets: SearchTarget[],
): void {
  sort.forEach((k, j) => {
    if (k.format === undefined) return;
    const info = targets.map((t) => fieldMapOf(t.mappings).byPath.get(k.field)).find((f) => f);
    if (info?.kind !== "date") return;
    for (const h of hits.hits) {
      const values = h.sort as unknown[] | undefined;
      const v = values?.[j];
      if (LONG_SENTINELS.has(v) || (typeof v === "number" && Math.abs(v) >= 2 ** 63)) {
        values![j] = null;
      } else if (typeof v === "number" || typeof v === "bigint") {
        values![j] = formatDateAt(v, info.nanos, k.format);
      }
    }
  });
}

/** Returns the next page of a scroll; 404 `search_context_missing_exception` when unknown or expired. */
export function scrollApi(
  ctx: SearchContexts,
  scrollId: string,
  keepAlive: string | undefined,
  restTotalHitsAsInt: boolean,
): Record<string, unknown> {
  const started = performance.now();
  const s = ctx.scroll(scrollId);
  if (keepAlive !== undefined) {
    s.keepAlive = parseKeepAlive(keepAlive, "scroll");
    ctx.checkKeepAlive(s.keepAlive, keepAlive);
  }
  s.expiresAt = ctx.now() + s.keepAlive;
  const page = s.ordered.slice(s.position, s.position + s.size);
  s.position += page.length;
  return {
    _scroll_id: scrollId,
    took: Math.round(performance.now() - started),
    timed_out: false,
    _shards: shards(s.targets.length),
    hits: renderHits(
      page,
      s.targets,
      renderTotal(s.total, true, restTotalHitsAsInt),
      s.maxScore,
      s.render,
    ),
  };
}

/** Frees scrolls: `{succeeded, num_freed}`. */
export function clearScrollApi(
  ctx: SearchContexts,
  scrollIds: string[] | "_all",
): Record<string, unknown> {
  const freed = ctx.clearScrolls(scrollIds);
  return { succeeded: true, num_freed: freed };
}

/** Opens a point in time over the targets' current snapshots. */
export function openPitApi(
  ctx: SearchContexts,
  targets: SearchTarget[],
  keepAlive: string,
  flavour: "elasticsearch" | "opensearch",
): Record<string, unknown> {
  const ms = parseKeepAlive(keepAlive);
  ctx.checkKeepAlive(ms, keepAlive);
  const now = ctx.now();
  const id = ctx.addPit({
    targets: targets.map((t) => ({ ...t })),
    keepAlive: ms,
    expiresAt: now + ms,
    createdAt: now,
  });
  if (flavour === "elasticsearch") return { id, _shards: shards(targets.length) };
  return { pit_id: id, _shards: shards(targets.length), creation_time: now };
}

/**
 * Closes points in time (ES `{succeeded, num_freed}`, OpenSearch `{pits:[{pit_id, successful}]}`).
 * Elasticsearch answers 404 when `num_freed` is 0 for explicit ids; the REST layer sets the status.
 */
export function closePitApi(
  ctx: SearchContexts,
  ids: string[] | "_all",
  flavour: "elasticsearch" | "opensearch",
): Record<string, unknown> {
  const closed = ctx.closePits(ids);
  if (flavour === "elasticsearch") {
    return { succeeded: true, num_freed: closed.length };
  }
  const list = ids === "_all" ? closed : ids;
  return { pits: list.map((id) => ({ pit_id: id, successful: closed.includes(id) })) };
}

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
    if (k !== "query") throw parsingError(`request does not support [${k}]`);
  }
  const searchParams = new URLSearchParams(params);
  searchParams.delete("from");
  searchParams.delete("size");
  const req = parseSearchRequest(
    body?.query === undefined ? undefined : { query: body.query },
    searchParams,
  );
  let count = 0;
  try {
    for (const t of targets) {
      count += matchLive(req.query, execContextOf(t, Date.now()), false).docs.length;
    }
  } catch (err) {
    shardFailure(err, targets);
  }
  return { count, _shards: shards(targets.length) };
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
      const hits = matchLive(node, execContextOf(t, Date.now()), false);
      for (const d of hits.docs) out.push({ index: t.index, doc: t.snapshot.doc(d) });
    }
  } catch (err) {
    shardFailure(err, targets);
  }
  return out;
}
