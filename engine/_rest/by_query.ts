// _delete_by_query and _update_by_query: search the refreshed view, then write with seq_no checks.

import { type EngineError, esError, illegalArgument, validationFailed } from "../_errors.ts";
import { findMatches } from "../_search/matches_api.ts";
import type { IndexState } from "../_state/index_state.ts";
import type { StoredDoc } from "../_index/types.ts";
import { applyRefresh } from "../_state/refresh.ts";
import { readScript, runScript, type Script } from "../_query/script.ts";
import { deleteDocument, indexDocument, seqNoConflictDetail, unknownOp } from "../_state/writes.ts";
import { exactBody, exactStored, restoreExact } from "../_state/exact_source.ts";
import { isJsonObject } from "../_json.ts";
import {
  bodyObject,
  bodyTextOf,
  bodyWithExactQuery,
  intParam,
  parseErrorType,
  type Reply,
  type RequestContext,
} from "./context.ts";
import { parseSearchRequest } from "../_search/search_request.ts";
import { searchTargets, withAliasFilter } from "./search.ts";
import { runAsTask, type Throttle, throttleBatch } from "./tasks.ts";

/** How many documents a by-query run may touch and whether conflicts abort it. */
export interface Limits {
  maxDocs: number;
  proceed: boolean;
}

/** Reads `conflicts`, `max_docs`/`size`, `slices`, `scroll_size` and `requests_per_second` like ES. */
export function readLimits(ctx: RequestContext, body: Record<string, unknown>): Limits {
  const conflicts = ctx.params.get("conflicts") ?? (body.conflicts as string | undefined) ??
    "abort";
  if (conflicts !== "proceed" && conflicts !== "abort") {
    throw illegalArgument(`conflicts may only be "proceed" or "abort" but was [${conflicts}]`);
  }
  const size = intParam(ctx, "size");
  const maxParam = intParam(ctx, "max_docs");
  const maxBody = body.max_docs === undefined ? undefined : Number(body.max_docs);
  for (const v of [size, maxParam, maxBody]) {
    if (v !== undefined && v < 0) {
      throw illegalArgument(`[max_docs] parameter cannot be negative, found [${v}]`);
    }
  }
  const given = [maxBody, size, maxParam].filter((v) => v !== undefined) as number[];
  if (given.length > 1 && given[0] !== given[1]) {
    throw illegalArgument(`[max_docs] set to two different values [${given[0]}] and [${given[1]}]`);
  }
  const slices = ctx.params.get("slices");
  if (slices !== null && slices !== "auto" && !(/^\d+$/.test(slices) && Number(slices) > 0)) {
    throw illegalArgument(
      `[slices] must be a positive integer or the string "auto", but was [${slices}]`,
    );
  }
  if (given.length > 0 && slices !== null && slices !== "auto" && given[0]! < Number(slices)) {
    throw illegalArgument("[max_docs] should be >= [slices]");
  }
  intParam(ctx, "scroll_size");
  const rps = ctx.params.get("requests_per_second");
  // An illegal_argument_exception, empty, negative, zero or not a number alike (as the real
  // engines answer; the conformance suite's pattern matches either type).
  if (rps !== null && rps !== "-1" && (!/^-?[\d.]+$/.test(rps) || !(Number(rps) > 0))) {
    throw illegalArgument(
      "[requests_per_second] must be a float greater than 0. Use -1 to disable throttling.",
    );
  }
  return { maxDocs: given[0] ?? Infinity, proceed: conflicts === "proceed" };
}

/**
 * The script of a by-query or reindex request, with its params as the body wrote them (long
 * values exact, for the documents they are written into).
 */
export function requestScript(
  ctx: RequestContext,
  raw: unknown,
): { script: Script | undefined; params: unknown } {
  const script = raw === undefined ? undefined : readScript(raw);
  const exactScript = script ? exactBody(bodyTextOf(ctx))?.script : undefined;
  return { script, params: isJsonObject(exactScript) ? exactScript.params : undefined };
}

/** Refreshes the indices written to as `?refresh` asks (`wait_for` refreshes at once). */
export async function refreshTouched(
  ctx: RequestContext,
  touched: ReadonlySet<IndexState>,
): Promise<void> {
  const refresh = ctx.params.get("refresh");
  await applyRefresh(refresh === "wait_for" ? "true" : refresh, touched, ctx.state);
}

/** Which of the two by-query APIs runs: they share everything but the body's rules and the write. */
type ByQueryKind = "delete" | "update";

function readBody(ctx: RequestContext, kind: ByQueryKind): Record<string, unknown> {
  const updating = kind === "update";
  // An update's script params stay doubles; the query itself is exact either way.
  const body = updating ? bodyWithExactQuery(ctx, ["query"]) : bodyObject(ctx, "query");
  if (!body && !updating) {
    throw validationFailed("query is missing");
  }
  const b = body ?? {};
  const problems: string[] = [];
  if (b.from !== undefined && b.from !== -1) problems.push("from is not supported in this context");
  if (b.stored_fields !== undefined) {
    problems.push("stored_fields is not supported in this context");
  }
  if (!updating && b.query === undefined) problems.push("query is missing");
  const remote = (ctx.p.index ?? "").split(",").filter((i) => /^[^<]*:/.test(i));
  if (remote.length > 0) {
    problems.push(
      `Cross-cluster calls are not supported in this context but remote indices were requested: [${
        remote.join(", ")
      }]`,
    );
  }
  if (problems.length > 0) throw validationFailed(...problems);
  // The rest of the body is a search source: unknown keys and bad queries are refused as a
  // search refuses them, before any document is touched.
  const { max_docs: _m, size: _s, conflicts: _c, script: _sc, from: _f, ...search } = b;
  parseSearchRequest(search, new URLSearchParams());
  return b;
}

/** POST /{index}/_delete_by_query and /{index}/_update_by_query (`wait_for_completion=false` → a task). */
export function byQueryHandler(ctx: RequestContext, kind: ByQueryKind): Promise<Reply> {
  const action = `indices:data/write/${kind}/byquery`;
  return runAsTask(ctx, action, (throttle) => runByQuery(ctx, kind, throttle));
}

/** What a by-query run has done so far: its counts, its failures and the indices it wrote to. */
interface ByQueryProgress {
  readonly counts: {
    total: number;
    deleted: number;
    updated: number;
    noops: number;
    version_conflicts: number;
  };
  readonly failures: unknown[];
  readonly touched: Set<IndexState>;
}

/** How a by-query run writes: which API, its script and the script's exact params. */
interface ByQueryWrite {
  readonly kind: ByQueryKind;
  readonly script: Script | undefined;
  readonly params: unknown;
  readonly limits: Limits;
}

async function runByQuery(
  ctx: RequestContext,
  kind: ByQueryKind,
  throttle: Throttle,
): Promise<Reply> {
  const updating = kind === "update";
  const started = Date.now();
  const body = readBody(ctx, kind);
  const limits = readLimits(ctx, body);
  const { script, params } = requestScript(ctx, updating ? body.script : undefined);
  const write: ByQueryWrite = { kind, script, params, limits };
  const targets = searchTargets(ctx, ctx.p.index);
  const query = withAliasFilter(ctx, ctx.p.index, body)?.query ?? { match_all: {} };
  const matches = findMatches(targets, query);
  const progress: ByQueryProgress = {
    counts: { total: 0, deleted: 0, updated: 0, noops: 0, version_conflicts: 0 },
    failures: [],
    touched: new Set(),
  };
  const { counts, failures } = progress;
  const batch = intParam(ctx, "scroll_size") ?? 1000;
  throttle.status.requests_per_second = throttle.rps;
  let batchStarted = Date.now();
  let inBatch = 0;
  for (const match of matches) {
    if (counts.total - counts.version_conflicts >= limits.maxDocs) break;
    if (inBatch === batch) {
      // Between batches, as Elasticsearch's scroll pages: writes meanwhile are conflicts.
      Object.assign(throttle.status, counts, { batches: Math.ceil(counts.total / batch) });
      await throttleBatch(ctx.state, throttle, inBatch, batchStarted);
      batchStarted = Date.now();
      inBatch = 0;
    }
    inBatch++;
    if (!writeMatch(ctx, write, { match, progress })) break;
  }
  await refreshTouched(ctx, progress.touched);
  const result: Record<string, unknown> = {
    took: Date.now() - started,
    timed_out: false,
    total: counts.total,
  };
  if (updating) result.updated = counts.updated;
  result.deleted = counts.deleted;
  result.batches = counts.total === 0
    ? 0
    : Math.ceil(counts.total / (intParam(ctx, "scroll_size") ?? 1000));
  result.version_conflicts = counts.version_conflicts;
  result.noops = counts.noops;
  result.retries = { bulk: 0, search: 0 };
  result.throttled_millis = throttle.throttledMs;
  result.requests_per_second = throttle.rps;
  result.throttled_until_millis = 0;
  result.failures = failures;
  return { status: failures.length > 0 ? 409 : 200, body: result };
}

/**
 * Deletes or updates (through the script) one matching document, unless it changed since the
 * search found it (a version conflict); false when a conflict stops the run (`conflicts: abort`).
 */
function writeMatch(
  ctx: RequestContext,
  write: ByQueryWrite,
  at: { match: ReturnType<typeof findMatches>[number]; progress: ByQueryProgress },
): boolean {
  const { index: name, doc } = at.match;
  const { counts, failures, touched } = at.progress;
  const updating = write.kind === "update";
  const index = ctx.state.cluster.get(name);
  counts.total++;
  const live = index.docs.get(doc.id);
  if (!live || live.seqNo !== doc.seqNo) {
    counts.version_conflicts++;
    if (!write.limits.proceed) {
      const cause = versionConflict(index, doc, live);
      failures.push({ index: index.name, id: doc.id, cause: cause.toCause(), status: 409 });
      return false;
    }
    return true;
  }
  if (
    updating && (index.mappings._source as { enabled?: boolean } | undefined)?.enabled === false
  ) {
    throw illegalArgument(`[${index.name}][${doc.id}] didn't store _source`);
  }
  touched.add(index);
  const checks = { ifSeqNo: live.seqNo, ifPrimaryTerm: live.primaryTerm, routing: live.routing };
  if (!updating) {
    deleteDocument(index, doc.id, checks);
    counts.deleted++;
    return true;
  }
  const ctxVars: Record<string, unknown> = {
    _source: structuredClone(live.source),
    op: "index",
    _index: index.name,
    _id: doc.id,
    _version: live.version,
    _routing: live.routing ?? null,
    _now: ctx.state.now(),
  };
  if (write.script) runScript(write.script, ctxVars);
  if (ctxVars.op === "noop" || ctxVars.op === "none") counts.noops++;
  else if (ctxVars.op === "delete") {
    deleteDocument(index, doc.id, checks);
    counts.deleted++;
  } else if (ctxVars.op === "index") {
    indexDocument(
      index,
      {
        id: doc.id,
        source: restoreExact(
          ctxVars._source as Record<string, unknown>,
          exactStored(live.source),
          write.params,
        ),
      },
      checks,
      parseErrorType(ctx.state),
    );
    counts.updated++;
  } else throw unknownOp(ctxVars.op);
  return true;
}

/** The conflict of a document written (or deleted) since the search found it. */
function versionConflict(
  index: IndexState,
  doc: StoredDoc,
  live: StoredDoc | undefined,
): EngineError {
  return esError(
    "version_conflict_engine_exception",
    `[${doc.id}]: version conflict, ${seqNoConflictDetail(doc, live)}`,
    { index_uuid: index.uuid, shard: "0", index: index.name },
  );
}
