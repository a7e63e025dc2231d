// The search core's entry point for the REST layer: search (scroll and point in time in
// scroll_pit_api.ts, count and by-query matching in matches_api.ts).

import { MAX_REQUEST_STATES, withPatternBudget } from "../_index/automaton.ts";
import { checkClauseCount } from "../_index/limits.ts";
import { EngineError, illegalArgument, validationFailed } from "../_errors.ts";
import { aggregationSteps } from "../_aggs/aggregations.ts";
import { collect, type Collected } from "./collect.ts";
import { searchProfile } from "./profile.ts";
import { fieldMapOf } from "../_index/field_map.ts";
import { formatDateAt } from "../_index/dates.ts";
import {
  type Candidate,
  type HitOptions,
  renderHitsSteps,
  renderTotal,
} from "../_hits/hits_render.ts";
import type { QueryNode } from "../_query/query_nodes.ts";
import { checkInnerHits } from "../_hits/inner_hits.ts";
import { parseKeepAlive } from "./keep_alive.ts";
import { matchedQueries } from "../_query/named_queries.ts";
import { withQueryDialect } from "../_query/query_parse_util.ts";
import { SearchContexts } from "./search_contexts.ts";
import { parseSearchRequest, type SearchRequest } from "./search_request.ts";
import type { SortKey } from "../_hits/sort.ts";
import type { SearchTarget } from "../_index/search_target.ts";
import { writtenAsDoubles } from "../_index/raw_source.ts";
import { shardFailure, shards, skippedShards } from "./shard_failure.ts";
import { terminatesEarly } from "./count_shortcut.ts";
import { isHighlightLimitError } from "../_hits/highlight.ts";
import { explainHit, placeOf } from "./explain_hits.ts";
import { searchBegins } from "../_index/search_pressure.ts";
export { parseKeepAlive, SearchContexts };

/** Metadata fields a `docvalue_fields` entry names as mapped fields. */
const METADATA = new Set([
  "_id",
  "_index",
  "_routing",
  "_source",
  "_seq_no",
  "_version",
  "_primary_term",
  "_ignored",
  "_tier",
  "_field_names",
  "_doc_count",
]);

/**
 * What `index.max_docvalue_fields_search` counts on one index. Elasticsearch 9.5.4 counts the
 * distinct mapped fields the entries resolve to (an unmapped name counts nothing, a repeated one
 * once); OpenSearch 3.8.0 counts the entries.
 */
function docvalueFieldCount(req: SearchRequest, target: SearchTarget): number {
  if (target.flavour === "opensearch") return req.docvalueFields.length;
  const fields = fieldMapOf(target.mappings);
  const names = new Set<string>();
  for (const { field } of req.docvalueFields) {
    if (METADATA.has(field)) names.add(field);
    else for (const path of fields.expand(field)) names.add(path);
  }
  return names.size;
}

function checkLimits(req: SearchRequest, targets: SearchTarget[]): void {
  checkInnerHits(req.innerHits, Math.min(...targets.map((t) => t.maxInnerResultWindow ?? 100)));
  const limit = Math.min(...targets.map((t) => t.maxResultWindow));
  if (req.rescoreWindow > limit) {
    throw illegalArgument(
      `Rescore window [${req.rescoreWindow}] is too large. It must be less than [${limit}]. This prevents allocating massive heaps for storing the results to be rescored. This limit can be set by changing the [index.max_result_window] index level setting.`,
    );
  }
  for (const t of targets) {
    const maxDv = t.maxDocvalueFields ?? 100;
    const asked = docvalueFieldCount(req, t);
    if (asked > maxDv) {
      throw illegalArgument(
        `Trying to retrieve too many docvalue_fields. Must be less than or equal to: [${maxDv}] but was [${asked}]. This limit can be set by changing the [index.max_docvalue_fields_search] index level setting.`,
      );
    }
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

/** Refuses indices named beside a point in time (the one place Elasticsearch's message lives). */
export function refuseIndicesWithPit(indicesNamed: boolean): void {
  if (indicesNamed) {
    throw validationFailed(
      "[indices] cannot be used with point in time. Do not specify any index with point in time.",
    );
  }
}

/** A search request already parsed from `body` (by the REST layer, to report errors early). */
export interface ParsedSearch {
  readonly body: Record<string, unknown> | undefined;
  readonly req: SearchRequest;
}

/** A search as the REST layer hands it on: its body and URL parameters, perhaps parsed already. */
export interface SearchInput {
  readonly body: Record<string, unknown> | undefined;
  readonly params: URLSearchParams;
  /** Used when it was parsed from this very body with these params: a request is parsed once. */
  readonly parsed?: ParsedSearch;
}

/** Runs a search and returns the full Elasticsearch response body. */
export function searchApi(
  ctx: SearchContexts,
  targets: SearchTarget[],
  body: Record<string, unknown> | undefined,
  params: URLSearchParams,
): Record<string, unknown> {
  return searchInputApi(ctx, targets, { body, params });
}

/** {@link searchApi} of a search input, whose request the REST layer may have parsed already. */
export function searchInputApi(
  ctx: SearchContexts,
  targets: SearchTarget[],
  input: SearchInput,
): Record<string, unknown> {
  const budget = { max: MAX_REQUEST_STATES, used: 0 };
  const steps = search(ctx, targets, input);
  for (;;) {
    const step = withPatternBudget(budget, () => steps.next());
    if (step.done) return step.value;
  }
}

/** How long a search runs before it lets the event loop run other work (milliseconds). */
export const SEARCH_SLICE_MS = 2;

/**
 * {@link searchApi} in time slices: between its phases (the query on each target, the
 * aggregations, the hits), a search that has run for {@link SEARCH_SLICE_MS} or more gives the
 * event loop a turn (a macrotask), so short requests queued behind a long one are answered in
 * between (`sliceMs` 0: at every phase). The answer is the one `searchApi` gives; the targets
 * are snapshots, so writes made meanwhile are not seen, as in a search that had run at once.
 */
export async function searchApiSliced(
  ctx: SearchContexts,
  targets: SearchTarget[],
  input: SearchInput,
  sliceMs: number = SEARCH_SLICE_MS,
): Promise<Record<string, unknown>> {
  const budget = { max: MAX_REQUEST_STATES, used: 0 };
  const steps = search(ctx, targets, input);
  // Background merges work in short slices while this runs (see search_pressure.ts).
  const ended = searchBegins();
  try {
    let sliceStart = performance.now();
    for (;;) {
      const step = withPatternBudget(budget, () => steps.next());
      if (step.done) return step.value;
      if (performance.now() - sliceStart >= sliceMs) {
        await turn();
        sliceStart = performance.now();
      }
    }
  } finally {
    ended();
  }
}

/**
 * One turn of the event loop, taken by a message to itself: other callbacks (network, timers) run
 * first. A `setTimeout(…, 0)` costs a millisecond or more (2.3 ms measured on Deno 2.9), a fresh
 * channel 10–70 µs (Bun, Deno, Node 20); both ports are closed, so none keeps a process alive.
 */
function turn(): Promise<void> {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      port2.close();
      resolve();
    };
    port2.postMessage(null);
  });
}

/** The search, in steps: it yields where a sliced run may let other work in (see above). */
function* search(
  ctx: SearchContexts,
  targets: SearchTarget[],
  input: SearchInput,
): Generator<void, Record<string, unknown>, void> {
  const started = performance.now();
  const req = requestOf(input, targets);
  const scope = pitScope(ctx, req, targets);
  targets = scope.targets;
  const { sort, pitId } = scope;
  const keepAlive = scrollKeepAlive(ctx, req, targets);
  let collected: Collected;
  let queryNanos = 0;
  let terminatedEarly: boolean | undefined;
  let aggregations: Record<string, unknown> | undefined;
  try {
    checkLimits(req, targets);
    checkClauseCount(req.query, ctx.maxClauseCount);
    if (req.scroll !== null) ctx.checkScrollRoom();
    const queryStart = performance.now();
    collected = yield* collect(targets, req, sort, ctx.now());
    if (req.terminateAfter > 0) {
      const cut = terminateEarly(collected, req.terminateAfter);
      collected = cut.collected;
      terminatedEarly = cut.terminated;
    } else if (
      targets[0]?.flavour === "opensearch" &&
      terminatesEarly(req, targets, collected.aggInputs.map((i) => i.docs))
    ) terminatedEarly = true;
    queryNanos = (performance.now() - queryStart) * 1e6;
    const aggs = req.aggs;
    const inputs = collected.aggInputs;
    if (aggs) {
      yield;
      const limit = {
        max: ctx.maxBuckets,
        emptyReportsTwice: targets[0]?.flavour !== "opensearch",
      };
      aggregations = yield* aggregationSteps(aggs, inputs, limit);
    }
  } catch (err) {
    shardFailure(err, targets);
  }
  yield;
  const render = hitOptions(req, collected, sort);
  const total = renderTotal(collected.total, req.trackTotalHits, {
    restTotalHitsAsInt: req.restTotalHitsAsInt,
  });
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
  const skipped = skippedShards(req.query, req.sort[0]?.field, targets);
  const all = shards(targets);
  out._shards = { ...all, skipped };
  // Every shard skipped (Elasticsearch): no shard scored, and the empty result's max_score is 0.
  const noneRan = skipped > 0 && skipped === all.total;
  try {
    out.hits = yield* renderHitsSteps(page, targets, {
      total,
      maxScore: noneRan ? 0 : req.size === 0 ? null : collected.maxScore,
    }, render);
  } catch (err) {
    // A highlighted value past `index.highlight.max_analyzed_offset` fails its shard.
    if (isHighlightLimitError(err)) shardFailure(err, targets);
    throw err;
  }
  decorateHits(ctx, out.hits as { hits: Record<string, unknown>[] }, {
    input,
    req,
    targets,
    sort,
    collected,
    page,
  });
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

/** The request, parsed here unless the REST layer parsed it from this very body already. */
function requestOf(input: SearchInput, targets: SearchTarget[]): SearchRequest {
  const { body, params, parsed } = input;
  try {
    return parsed !== undefined && parsed.body === body
      ? parsed.req
      : withQueryDialect(targets[0]?.flavour, () => parseSearchRequest(body, params));
  } catch (err) {
    // A query that no shard can build (a query_string nested too deeply) fails on every shard.
    if (err instanceof EngineError && err.type === "query_shard_exception") {
      shardFailure(err, targets);
    }
    throw err;
  }
}

/**
 * What a point in time makes of a search: its own targets (kept alive longer), its id, and its
 * sort with Elasticsearch's `_shard_doc` tiebreaker. Without one, the search's targets and sort,
 * which may not name `_shard_doc`.
 */
function pitScope(
  ctx: SearchContexts,
  req: SearchRequest,
  targets: SearchTarget[],
): { targets: SearchTarget[]; sort: SortKey[]; pitId: string | undefined } {
  let sort: SortKey[] = req.sort;
  if (!req.pit) {
    if (sort.some((k) => k.field === "_shard_doc")) {
      throw illegalArgument("[_shard_doc] sort field cannot be used without [point in time]");
    }
    return { targets, sort, pitId: undefined };
  }
  refuseIndicesWithPit(targets.length > 0);
  const pit = ctx.pit(req.pit.id);
  if (req.pit.keepAlive !== undefined) {
    pit.keepAlive = parseKeepAlive(req.pit.keepAlive);
    ctx.checkKeepAlive(pit.keepAlive, req.pit.keepAlive);
  }
  pit.expiresAt = ctx.now() + pit.keepAlive;
  // Elasticsearch adds a `_shard_doc` tiebreaker to a point-in-time sort, unless a
  // `search_after` as long as the sort leaves it out; OpenSearch adds none.
  if (pit.tiebreaker && !sort.some((k) => k.field === "_shard_doc")) {
    const base = sort.length ? sort : [{ field: "_score", order: -1 as const, missing: "_last" }];
    if (req.searchAfter?.length !== base.length) {
      sort = [...base, { field: "_shard_doc", order: 1, missing: "_last" }];
    }
  }
  return { targets: pit.targets, sort, pitId: req.pit.id };
}

/** A scroll's keep-alive in milliseconds (0 without a scroll), checked against the limit. */
function scrollKeepAlive(
  ctx: SearchContexts,
  req: SearchRequest,
  targets: SearchTarget[],
): number {
  if (req.scroll === null) return 0;
  const keepAlive = parseKeepAlive(req.scroll, "scroll");
  try {
    ctx.checkKeepAlive(keepAlive, req.scroll);
  } catch (err) {
    // Each shard refuses a scroll kept too long (Elasticsearch 9.5.4, OpenSearch 3.8.0).
    if (targets.length > 0) shardFailure(err, targets);
    throw err;
  }
  return keepAlive;
}

/** How the hits are written, for this page and for a scroll's later ones. */
function hitOptions(req: SearchRequest, collected: Collected, sort: SortKey[]): HitOptions {
  return {
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
    scriptFields: req.scriptFields,
  };
}

/** The scope of a page's hits, for what they gain once rendered. */
interface RenderedPage {
  readonly input: SearchInput;
  readonly req: SearchRequest;
  readonly targets: SearchTarget[];
  readonly sort: SortKey[];
  readonly collected: Collected;
  readonly page: Candidate[];
}

/** What the rendered hits gain: their matched queries, explanations and formatted sort values. */
function decorateHits(
  ctx: SearchContexts,
  hits: { hits: Record<string, unknown>[] },
  p: RenderedPage,
): void {
  const { req, targets, collected, page } = p;
  const matched = matchedQueries(
    req.query,
    page,
    collected.aggInputs.map((i) => i.ctx),
    req.includeNamedQueriesScore ? "score" : "filter",
  );
  hits.hits.forEach((h, i) => {
    if (matched[i] !== undefined) h.matched_queries = matched[i];
  });
  if (p.input.body?.explain === true || p.input.params.get("explain") === "true") {
    withExplanations(hits, page, {
      query: req.query,
      targets,
      collected,
      nodeId: ctx.nodeId,
      dfs: req.dfs,
    });
  }
  formatSortValues(hits, p.sort, targets);
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

/** `explain: true`: each hit names its shard and node first and ends with its explanation. */
function withExplanations(
  hits: { hits: Record<string, unknown>[] },
  page: readonly Candidate[],
  how: {
    query: QueryNode;
    targets: SearchTarget[];
    collected: Collected;
    nodeId: string;
    dfs: boolean;
  },
): void {
  hits.hits = hits.hits.map((h, i) => {
    const c = page[i]!;
    const target = how.targets[c.t]!;
    const ctx = how.collected.aggInputs[c.t]!.ctx;
    const shard = placeOf(target, c.doc).shard;
    return {
      _shard: `[${target.index}][${shard}]`,
      _node: how.nodeId,
      ...h,
      _explanation: explainHit({
        query: how.query,
        ctx,
        target,
        doc: c.doc,
        score: c.score,
        dfs: how.dfs,
      }),
    };
  });
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
        values![j] = formatDateAt(v, { nanos: info.nanos, format: k.format });
      }
    }
  });
}
