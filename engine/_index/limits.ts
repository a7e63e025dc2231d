// Elasticsearch's request-level search limits and the errors it gives when they are exceeded:
// `search.max_buckets`, `indices.query.bool.max_clause_count`, `index.max_terms_count` and
// `search.max_open_scroll_context`.

import { EngineError, esError, illegalArgument } from "../_errors.ts";

/** Default `search.max_buckets`. */
export const MAX_BUCKETS = 65536;
/** Default `search.max_buckets` of OpenSearch, one less than Elasticsearch's. */
export const MAX_BUCKETS_OPENSEARCH = 65535;
/** Default `indices.query.bool.max_clause_count` (the lowest value Elasticsearch derives from the heap). */
export const MAX_CLAUSE_COUNT = 4096;
/** Default `index.max_terms_count`. */
export const MAX_TERMS_COUNT = 65536;
/** Default `search.max_open_pit_context` (OpenSearch). */
export const MAX_OPEN_PIT_CONTEXT = 300;

/** Default `search.max_open_scroll_context`. */
export const MAX_OPEN_SCROLL_CONTEXT = 500;

/** A request's bucket limit: `search.max_buckets` and how the product counts empty buckets. */
export interface BucketLimit {
  /** `search.max_buckets`. */
  max: number;
  /**
   * Elasticsearch 9.5.4 counts a histogram's empty buckets in reports of 10,000 and each report
   * twice: filling gaps, N buckets in all cost N plus 10,000 per full report (measured: 35,536
   * pass under 65,536, 35,537 fail; 50,000 pass under 100,000, 50,001 fail). OpenSearch 3.8.0
   * counts each once.
   */
  emptyReportsTwice: boolean;
}

/** A budget of buckets and how many are spent. */
export interface BucketBudget extends BucketLimit {
  used: number;
}

let budget: BucketBudget | null = null;

/**
 * Runs `fn` with a bucket budget of `limit`: every bucket an aggregation makes is counted. Given a
 * {@link BucketBudget} instead, `fn` spends from it, so aggregations run in steps have one budget.
 */
export function withBucketBudget<T>(limit: BucketLimit | BucketBudget, fn: () => T): T {
  const outer = budget;
  budget = "used" in limit ? limit : { ...limit, used: 0 };
  try {
    return fn();
  } finally {
    budget = outer;
  }
}

const reduceFailures = new WeakSet<EngineError>();

/**
 * Counts `n` new buckets; throws Elasticsearch's 400 `too_many_buckets_exception` past the limit.
 * The real engines count buckets while the coordinating node reduces the shards' answers, so the
 * error is one of that reduction ({@link isReduceFailure}) unless `atShard` (a check a shard makes
 * before collecting, like composite's `size`).
 */
export function consumeBuckets(n: number, atShard = false): void {
  if (!budget) return;
  budget.used += n;
  if (budget.used > budget.max) {
    const err = esError(
      "too_many_buckets_exception",
      `Trying to create too many buckets. Must be less than or equal to: [${budget.max}] but this number of buckets was exceeded. This limit can be set by changing the [search.max_buckets] cluster level setting.`,
      { max_buckets: budget.max },
    );
    if (!atShard) reduceFailures.add(err);
    throw err;
  }
}

/** Whether `err` is one the coordinating node raises while reducing (too many buckets). */
export function isReduceFailure(err: unknown): boolean {
  return err instanceof EngineError && reduceFailures.has(err);
}

/**
 * What filling a histogram's gaps up to `total` buckets (present ones included) costs beyond one
 * count a bucket: see {@link BucketLimit.emptyReportsTwice}.
 */
export function emptyBucketSurcharge(total: number): number {
  return budget?.emptyReportsTwice ? 10_000 * Math.floor(total / 10_000) : 0;
}

/** Buckets still allowed in the current budget (Infinity outside one). */
export function bucketsLeft(): number {
  return budget ? budget.max - budget.used : Infinity;
}

interface ClauseShape {
  kind: string;
  query?: unknown;
  fuzziness?: unknown;
  fields?: readonly unknown[];
}

/**
 * Clauses one query node becomes, as Lucene counts them after rewriting: a full-text query makes a
 * clause per word (per field for `multi_match`), and a fuzzy one up to 50 expansions per word.
 */
function clausesOf(node: ClauseShape): number {
  if (node.kind !== "match" && node.kind !== "multi_match" || typeof node.query !== "string") {
    return 1;
  }
  const words = node.query.split(/\s+/).filter((w) => w !== "").length;
  const fuzzy = node.fuzziness !== undefined && node.fuzziness !== "0" ? 50 : 1;
  const fields = node.kind === "multi_match" ? Math.max(1, node.fields?.length ?? 1) : 1;
  return Math.max(1, words * fuzzy * fields);
}

/** Number of query clauses in a parsed query, nested ones included, as Lucene counts them. */
export function countClauses(node: unknown, limit: number): number {
  let n = 0;
  const stack: unknown[] = [node];
  while (stack.length > 0 && n <= limit) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (const item of v) if (item !== null && typeof item === "object") stack.push(item);
      continue;
    }
    if (v === null || typeof v !== "object") continue;
    if (typeof (v as { kind?: unknown }).kind === "string") n += clausesOf(v as ClauseShape);
    for (const child of Object.values(v)) {
      if (child !== null && typeof child === "object") stack.push(child);
    }
  }
  return n;
}

/** Throws Elasticsearch's 400 when a query has more clauses than `limit`. */
export function checkClauseCount(query: unknown, limit: number): void {
  if (!query) return;
  if (countClauses(query, limit) <= limit) return;
  throw esError(
    "illegal_argument_exception",
    "Query rewrite failed: too many clauses",
    {},
    esError(
      "too_many_nested_clauses",
      `Query contains too many nested clauses; maxClauseCount is set to ${limit}`,
    ),
  );
}

/** Throws Elasticsearch's 400 for a `terms` query with more values than `index.max_terms_count`. */
export function checkTermsCount(count: number, limit: number): void {
  if (count <= limit) return;
  throw illegalArgument(
    `The number of terms [${count}] used in the Terms Query request has exceeded the allowed maximum of [${limit}]. This maximum can be set by changing the [index.max_terms_count] index level setting.`,
  );
}

/** Throws OpenSearch's 429 when one more point in time would pass `search.max_open_pit_context`. */
export function checkOpenPits(open: number, limit: number): void {
  if (open < limit) return;
  throw new EngineError(
    429,
    "rejected_execution_exception",
    `Trying to create too many Point In Time contexts. Must be less than or equal to: [${limit}]. This limit can be set by changing the [search.max_open_pit_context] setting.`,
  );
}

/** Throws Elasticsearch's 429 when one more scroll would pass `search.max_open_scroll_context`. */
export function checkOpenScrolls(open: number, limit: number): void {
  if (open < limit) return;
  throw esError(
    "too_many_scroll_contexts_exception",
    `Trying to create too many scroll contexts. Must be less than or equal to: [${limit}]. This limit can be set by changing the [search.max_open_scroll_context] setting.`,
  );
}
