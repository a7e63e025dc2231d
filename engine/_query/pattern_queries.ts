// Pattern queries on terms and ids: `prefix`, `wildcard` and `regexp`, through the field's
// normalizer (constant score).

import { EngineError, illegalArgument } from "../_errors.ts";
import { constantHits, type Hits, type Scoring } from "./doc_set.ts";
import { type ExecContext, perSegment, queryShardError, sortedUnique } from "./exec_context.ts";
import { type Automaton, wildcardAutomaton, wildcardPrefix } from "../_index/automaton.ts";
import { compileRegexp } from "./regexp_syntax.ts";
import type { QueryOf } from "./query_nodes.ts";

import { scanTerms } from "./term_queries.ts";
import { lowerBound } from "../_index/sorted_search.ts";

/** `prefix` query (constant score). */
export function runPrefix(query: QueryOf<"prefix">, ctx: ExecContext, scoring: Scoring): Hits {
  const q = { ...query, value: normalized(ctx, query.field, query.value) };
  if (q.field === "_id") return idsByPattern(ctx, (id) => id.startsWith(q.value), q.boost, scoring);
  if (q.caseInsensitive) {
    const want = q.value.toLowerCase();
    return scanTerms(ctx, q, scoring, (ts) => ts.filter((t) => t.toLowerCase().startsWith(want)));
  }
  return scanTerms(ctx, q, scoring, (ts) => {
    const out: string[] = [];
    for (let i = lowerBound(ts, q.value); i < ts.length && ts[i]!.startsWith(q.value); i++) {
      out.push(ts[i]!);
    }
    return out;
  });
}

function idsByPattern(
  ctx: ExecContext,
  test: (id: string) => boolean,
  boost: number,
  scoring: Scoring,
): Hits {
  return perSegment(ctx, (v) => {
    const docs: number[] = [];
    for (const [id, d] of v.segment.ids) if (test(id)) docs.push(d);
    return constantHits(sortedUnique(docs), boost, scoring);
  });
}

/** A keyword pattern through the field's normalizer. */
function normalized(ctx: ExecContext, field: string, value: string): string {
  const info = ctx.fields.byPath.get(field);
  if (info?.kind === "keyword") return info.normalize(value);
  // Text fields normalise patterns the way their analyzer does (lower-casing for standard).
  if (info?.kind === "text" && info.searchAnalyzer("A")[0]?.term === "a") {
    return value.toLowerCase();
  }
  return value;
}

/** `wildcard` query on terms (constant score). */
export function runWildcard(query: QueryOf<"wildcard">, ctx: ExecContext, scoring: Scoring): Hits {
  const q = { ...query, value: normalized(ctx, query.field, query.value) };
  const re = wildcardAutomaton(q.value, q.caseInsensitive);
  if (q.field === "_id") return idsByPattern(ctx, (id) => re.test(id), q.boost, scoring);
  const literal = q.caseInsensitive ? "" : wildcardPrefix(q.value);
  return scanTerms(ctx, q, scoring, (ts) => {
    const out: string[] = [];
    for (let i = lowerBound(ts, literal); i < ts.length && ts[i]!.startsWith(literal); i++) {
      if (re.test(ts[i]!)) out.push(ts[i]!);
    }
    return out;
  });
}

/** `regexp` query on terms (constant score). */
export function runRegexp(q: QueryOf<"regexp">, ctx: ExecContext, scoring: Scoring): Hits {
  const max = ctx.maxRegexLength ?? 1000;
  if (q.value.length > max) {
    throw illegalArgument(
      `The length of regex [${q.value.length}] used in the Regexp Query request has exceeded the allowed maximum of [${max}]. This maximum can be set by changing the [index.max_regex_length] index level setting.`,
    );
  }
  let re: Automaton;
  try {
    re = compileRegexp(q.value, {
      flags: q.flags,
      caseInsensitive: q.caseInsensitive,
      maxDeterminizedStates: q.maxDeterminizedStates,
    });
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    throw queryShardError(ctx, `failed to create query: ${e.message}`, e);
  }
  const test = (t: string): boolean => {
    try {
      return re.test(t);
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      throw queryShardError(ctx, `failed to create query: ${e.message}`, e);
    }
  };
  if (q.field === "_id") return idsByPattern(ctx, test, q.boost, scoring);
  return scanTerms(ctx, q, scoring, (ts) => ts.filter(test));
}
