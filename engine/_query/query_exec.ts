// Runs a QueryNode tree against a snapshot: a table from node kind to a small executor.

import {
  atLeast,
  boostHits,
  constantHits,
  disMax,
  type Hits,
  intersect,
  NO_HITS,
  type Scoring,
  subtract,
  union,
} from "./doc_set.ts";
import { allOrdinals, type ExecContext, liveOnly } from "./exec_context.ts";
import { resolveMsm, runMatch, runMultiMatch, runPhrase } from "./full_text.ts";
import { applyFunctions } from "./function_score.ts";
import { checkableRange, docsInRange, type NumericRange, rangeSizeAtMost } from "./range_filter.ts";
import { runSpan } from "./span_queries.ts";
import { knnFoundAhead, knnTopK } from "./knn.ts";
import { runNested } from "./nested_query.ts";
import { runScriptQuery, runScriptScore } from "./script_score.ts";
import type { QueryNode, QueryOf } from "./query_nodes.ts";
import { runExists, runIds, runTerm, runTerms } from "./term_queries.ts";
import { runRange } from "./range_query.ts";
import { runGeo } from "./geo_queries.ts";
import { runPrefix, runRegexp, runWildcard } from "./pattern_queries.ts";

type Runner<K extends QueryNode["kind"]> = (
  q: QueryOf<K>,
  ctx: ExecContext,
  scoring: Scoring,
) => Hits;

function allDocs(ctx: ExecContext, score: number, scoring: Scoring): Hits {
  return constantHits(
    allOrdinals(ctx.snapshot),
    score,
    scoring,
  );
}

/** Adds the scores of optional matches to the docs of `base`. */
function addOptional(base: Hits, optional: Hits): Hits {
  if (!base.scores || !optional.scores) return base;
  const scores = base.scores.slice();
  let j = 0;
  for (let i = 0; i < base.docs.length; i++) {
    const d = base.docs[i]!;
    while (j < optional.docs.length && optional.docs[j]! < d) j++;
    if (j < optional.docs.length && optional.docs[j] === d) scores[i]! += optional.scores[j]!;
  }
  return { docs: base.docs, scores };
}

/**
 * Whether the real engines rewrite `q` to `match_none` before building it (so its clauses are never
 * built and cannot fail): a bool with a `match_none` among its must or filter clauses, after its
 * own bools are rewritten; on Elasticsearch 9.5.4 also one with `match_all` among its must_not
 * (OpenSearch 3.8.0 builds that one).
 */
export function rewritesToNone(q: QueryNode, flavour?: "elasticsearch" | "opensearch"): boolean {
  if (q.kind === "match_none") return true;
  if (q.kind !== "bool") return false;
  if (q.must.some((c) => rewritesToNone(c, flavour))) return true;
  if (q.filter.some((c) => rewritesToNone(c, flavour))) return true;
  return flavour !== "opensearch" && q.mustNot.some((c) => c.kind === "match_all");
}

function runBool(q: QueryOf<"bool">, ctx: ExecContext, scoring: Scoring): Hits {
  if (rewritesToNone(q, ctx.flavour)) return NO_HITS;
  const required = requiredHits(q.must, q.filter, ctx, scoring);
  const hasRequired = required.length > 0;
  const msm = resolveMsm(q.minimumShouldMatch, q.should.length, hasRequired ? 0 : 1);
  let result: Hits;
  if (q.should.length) {
    const should = union(q.should.map((c) => execute(c, ctx, scoring)), ctx.snapshot.maxDoc);
    if (!hasRequired) {
      // Without must or filter clauses one should clause must match even when
      // minimum_should_match comes to 0 (`50%` of one clause, `0`), as in the real engines.
      result = atLeast(should, Math.max(msm, 1));
    } else {
      const matchedShould = atLeast(should, msm);
      result = required.reduce(intersect);
      if (scoring === "score" && !result.scores) result = constantHits(result.docs, 0, "score");
      result = msm > 0 ? intersect(result, matchedShould) : addOptional(result, should);
    }
  } else if (hasRequired) {
    result = required.reduce(intersect);
  } else {
    result = q.mustNot.length ? allDocs(ctx, 0, scoring) : allDocs(ctx, 1, scoring);
  }
  if (scoring === "score" && !result.scores) result = constantHits(result.docs, 0, "score");
  for (const c of q.mustNot) result = subtract(result, execute(c, ctx, "filter"));
  return boostHits(result, q.boost);
}

/**
 * A bool's must and filter clauses, run. A filter `range` on numbers or dates much wider than
 * the other required clauses together is checked on their docs by doc values instead of being
 * collected (`range_filter.ts`); the result is then one list, scores as the clauses sum them.
 */
function requiredHits(
  must: readonly QueryNode[],
  filter: readonly QueryNode[],
  ctx: ExecContext,
  scoring: Scoring,
): Hits[] {
  const out = must.map((c) => execute(c, ctx, scoring));
  const ranges: Array<{ node: QueryNode; range: NumericRange; size: number }> = [];
  for (const c of filter) {
    const range = checkableRange(c, ctx);
    if (range) ranges.push({ node: c, range, size: rangeSizeAtMost(range, ctx) });
    else out.push(execute(c, ctx, "filter"));
  }
  if (ranges.length === 0) return out;
  ranges.sort((x, y) => x.size - y.size);
  if (out.length === 0) out.push(execute(ranges.shift()!.node, ctx, "filter"));
  let base = out.reduce(intersect);
  for (const { node, range, size } of ranges) {
    base = base.docs.length * 4 > size
      ? intersect(base, execute(node, ctx, "filter"))
      : restrict(base, docsInRange(ctx, base.docs, range));
  }
  return [base];
}

/** The docs matching every one of `filter` (live or not), as a bool's filters match them. */
export function filterHits(filter: readonly QueryNode[], ctx: ExecContext): Hits {
  return requiredHits([], filter, ctx, "filter").reduce(intersect);
}

/** The hits of `hits` at `docs` (a subset of its docs, ascending), scores kept. */
function restrict(hits: Hits, docs: Int32Array): Hits {
  if (!hits.scores) return { docs, scores: null };
  const scores = new Float64Array(docs.length);
  let j = 0;
  for (let i = 0; i < docs.length; i++) {
    while (hits.docs[j] !== docs[i]) j++;
    scores[i] = hits.scores[j]!;
  }
  return { docs, scores };
}

/** Expands a field pattern (`title*`) into a dis_max over the matching fields. */
function expandField<
  K extends "term" | "match" | "match_phrase" | "prefix" | "wildcard" | "regexp" | "range",
>(
  run: Runner<K>,
): Runner<K> {
  return (q, ctx, scoring) => {
    const pattern = (q as { field: string }).field;
    if (!pattern.includes("*")) return run(q, ctx, scoring);
    const parts = ctx.fields.expand(pattern).map((field) =>
      run({ ...q, field, lenient: true }, ctx, scoring)
    );
    // simple_query_string adds the fields up (Lucene's dis_max with tie_breaker 1).
    const tie = (q as { sumExpanded?: boolean }).sumExpanded ? 1 : 0;
    return parts.length ? disMax(parts, ctx.snapshot.maxDoc, tie) : NO_HITS;
  };
}

function runBoosting(q: QueryOf<"boosting">, ctx: ExecContext, scoring: Scoring): Hits {
  const positive = execute(q.positive, ctx, scoring);
  if (scoring === "filter" || !positive.scores) return positive;
  const negative = execute(q.negative, ctx, "filter");
  const scores = positive.scores.slice();
  let j = 0;
  for (let i = 0; i < positive.docs.length; i++) {
    const d = positive.docs[i]!;
    while (j < negative.docs.length && negative.docs[j]! < d) j++;
    if (j < negative.docs.length && negative.docs[j] === d) scores[i]! *= q.negativeBoost;
  }
  return boostHits({ docs: positive.docs, scores }, q.boost);
}

function runFunctionScore(q: QueryOf<"function_score">, ctx: ExecContext, scoring: Scoring): Hits {
  const hits = execute(q.query, ctx, "score");
  const filters = q.functions.map((
    fn,
  ) => (fn.filter ? new Set(execute(fn.filter, ctx, "filter").docs) : null));
  const scored = applyFunctions(hits, ctx, q, filters);
  return scoring === "score" ? scored : { docs: scored.docs, scores: null };
}

const RUNNERS: { [K in QueryNode["kind"]]: Runner<K> } = {
  knn: (q, ctx, scoring) => {
    const hits = knnFoundAhead(q, ctx) ??
      knnTopK(q, ctx, q.filter ? execute(q.filter, ctx, "filter") : null);
    return scoring === "score" ? hits : { docs: hits.docs, scores: null };
  },
  script_score: (q, ctx, scoring) =>
    runScriptScore(q, ctx, execute(q.query, ctx, "score"), scoring),
  script: (q, ctx, scoring) => runScriptQuery(q, ctx, allDocs(ctx, q.boost, scoring)),
  function_score: runFunctionScore,
  boosting: runBoosting,
  nested: (q, ctx, scoring) => runNested(q, ctx, scoring, execute),
  match_all: (q, ctx, scoring) => allDocs(ctx, q.boost, scoring),
  match_none: () => NO_HITS,
  span: (q, ctx, scoring) => runSpan(q.span, q.boost, ctx, scoring),
  term: expandField(runTerm),
  terms: runTerms,
  match: expandField(runMatch),
  match_phrase: expandField(runPhrase),
  multi_match: runMultiMatch,
  bool: runBool,
  range: expandField(runRange),
  prefix: expandField(runPrefix),
  wildcard: expandField(runWildcard),
  regexp: expandField(runRegexp),
  exists: runExists,
  geo: runGeo,
  ids: runIds,
  constant_score: (q, ctx, scoring) =>
    constantHits(execute(q.filter, ctx, "filter").docs, q.boost, scoring),
  dis_max: (q, ctx, scoring) =>
    boostHits(
      disMax(
        q.queries.map((c) => execute(c, ctx, scoring)),
        ctx.snapshot.maxDoc,
        q.tieBreaker,
      ),
      q.boost,
    ),
};

/** Runs a query node; deleted docs may still be present (see `matchLive`). */
export function execute(q: QueryNode, ctx: ExecContext, scoring: Scoring): Hits {
  return (RUNNERS[q.kind] as Runner<QueryNode["kind"]>)(q, ctx, scoring);
}

/** Runs a query and returns only live documents. */
export function matchLive(q: QueryNode, ctx: ExecContext, scoring: Scoring): Hits {
  return liveOnly(ctx.snapshot, execute(q, ctx, scoring));
}
