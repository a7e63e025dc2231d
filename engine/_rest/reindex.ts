// POST /_reindex: copies the (refreshed) documents matching a query from source indices into dest.

import {
  EngineError,
  esError,
  illegalArgument,
  validationFailed,
  xContentParseError,
} from "../_errors.ts";
import { applySourceFilter, parseSourceFilter, type SourceFilter } from "../_hits/source_filter.ts";
import { findMatches } from "../_search/matches_api.ts";
import type { IndexState } from "../_state/index_state.ts";
import { runScript, type Script } from "../_query/script.ts";
import { deleteDocument, indexDocument, unknownOp, type WriteOptions } from "../_state/writes.ts";
import { exactStored, restoreExact } from "../_state/exact_source.ts";
import {
  bodyWithExactQuery,
  boolParam,
  parseErrorType,
  type Reply,
  type RequestContext,
} from "./context.ts";
import { checkWaitParams } from "./write_params.ts";
import { type Limits, readLimits, refreshTouched, requestScript } from "./by_query.ts";
import { searchTargets } from "./search.ts";
import { runAsTask } from "./tasks.ts";
import { parseReindexSource, sourceDisabled, sourceProblems } from "./reindex_source.ts";
import type { JsonObject } from "../_json.ts";

const BODY_FIELDS = ["source", "dest", "script", "size", "max_docs", "conflicts"];
const DEST_FIELDS = ["index", "op_type", "version_type", "routing", "pipeline", "type"];

/** Refuses a field the reindex request parser does not know, as Elasticsearch's parser does. */
function checkFields(obj: JsonObject, allowed: readonly string[], where: string): void {
  for (const k of Object.keys(obj)) {
    if (!allowed.includes(k)) throw xContentParseError(`[${where}] unknown field [${k}]`);
  }
}

function listOf(value: unknown): string {
  return Array.isArray(value) ? value.join(",") : String(value ?? "");
}

/**
 * How `dest.routing` sets each copy's routing: `keep` (the default) copies the source document's,
 * `discard` drops it, `=value` sets `value`; anything else fails as Elasticsearch does.
 */
function destRouting(spec: unknown): (source: string | undefined) => string | undefined {
  if (spec === undefined || spec === null || spec === "keep") return (source) => source;
  const text = String(spec);
  if (text === "discard") return () => undefined;
  if (text.startsWith("=")) return () => text.slice(1);
  return () => {
    throw illegalArgument("Unsupported routing command");
  };
}

/** A reindex request read and checked: what is copied, where to, and how. */
interface ReindexPlan {
  readonly limits: Limits;
  readonly opType: "index" | "create";
  readonly sourceFilter: SourceFilter;
  readonly versionType: string;
  readonly script: Script | undefined;
  readonly params: unknown;
  readonly targets: ReturnType<typeof searchTargets>;
  readonly query: unknown;
  readonly destName: string;
  readonly requireAlias: boolean;
  readonly routingOf: (source: string | undefined) => string | undefined;
}

/** What a reindex has done so far: its counts, its failures and the indices it wrote to. */
interface ReindexProgress {
  readonly counts: {
    total: number;
    created: number;
    updated: number;
    deleted: number;
    noops: number;
    version_conflicts: number;
  };
  readonly failures: unknown[];
  readonly touched: Set<IndexState>;
}

async function reindex(ctx: RequestContext): Promise<Reply> {
  const started = Date.now();
  const plan = readReindex(ctx);
  const matches = findMatches(plan.targets, plan.query);
  const progress: ReindexProgress = {
    counts: { total: 0, created: 0, updated: 0, deleted: 0, noops: 0, version_conflicts: 0 },
    failures: [],
    touched: new Set(),
  };
  const { counts, failures } = progress;
  for (const match of matches) {
    if (counts.total - counts.version_conflicts >= plan.limits.maxDocs) break;
    if (!copyDoc(ctx, plan, { match, progress })) break;
  }
  await refreshTouched(ctx, progress.touched);
  return {
    status: 200,
    body: {
      took: Date.now() - started,
      timed_out: false,
      total: counts.total,
      updated: counts.updated,
      created: counts.created,
      deleted: counts.deleted,
      batches: counts.total === 0 ? 0 : Math.ceil(counts.total / 1000),
      version_conflicts: counts.version_conflicts,
      noops: counts.noops,
      retries: { bulk: 0, search: 0 },
      throttled_millis: 0,
      requests_per_second: -1,
      throttled_until_millis: 0,
      failures,
    },
  };
}

/**
 * Reads and checks a reindex request as Elasticsearch does before copying anything: the body's
 * fields, the source and destination, and the destination index's existence.
 */
function readReindex(ctx: RequestContext): ReindexPlan {
  const body = bodyWithExactQuery(ctx, ["source", "query"]);
  if (!body) throw esError("parse_exception", "request body is required");
  checkFields(body, BODY_FIELDS, "reindex");
  const source = (body.source ?? {}) as JsonObject;
  const dest = (body.dest ?? {}) as JsonObject;
  parseReindexSource(source);
  checkFields(dest, DEST_FIELDS, "dest");
  if (body.size !== undefined && body.max_docs !== undefined && body.size !== body.max_docs) {
    throw illegalArgument(
      `[max_docs] set to two different values [${body.size}] and [${body.max_docs}]`,
    );
  }
  const limits = readLimits(ctx, {
    // `size` at the top is the old name of `max_docs`; `source.size` is the batch size.
    max_docs: body.max_docs ?? body.size,
    conflicts: body.conflicts,
  });
  checkWaitParams(ctx.params);
  const problems = sourceProblems(source);
  if (!source.index) problems.push("use _all if you really want to copy from all existing indexes");
  if (sourceDisabled(source)) problems.push("_source:false is not supported in this context");
  if (!dest.index) problems.push("index must be specified");
  if (problems.length > 0) {
    throw validationFailed(...problems);
  }
  const opTypeText = String(dest.op_type ?? "index").toLowerCase();
  if (opTypeText !== "index" && opTypeText !== "create") {
    throw illegalArgument(`opType must be 'create' or 'index', found: [${dest.op_type}]`);
  }
  const opType = opTypeText as "index" | "create";
  const sourceFilter = parseSourceFilter(source._source, new URLSearchParams());
  const versionType = dest.version_type === undefined ? "internal" : String(dest.version_type);
  const { script, params } = requestScript(ctx, body.script);
  const targets = searchTargets(ctx, listOf(source.index));
  const destName = String(dest.index);
  const requireAlias = boolParam(ctx, "require_alias");
  const routingOf = destRouting(dest.routing);
  // The checks Elasticsearch makes on the destination before reading anything: `require_alias`
  // needs an alias, and unless `action.auto_create_index` is `true` the index must exist or be
  // allowed by it.
  if (requireAlias || ctx.state.cluster.autoCreateIndex !== true) {
    ctx.state.cluster.writeIndex(destName, requireAlias);
  }
  if (targets.some((t) => t.index === destName)) {
    throw validationFailed(`reindex cannot write into an index its reading from [${destName}]`);
  }
  return {
    limits,
    opType,
    sourceFilter,
    versionType,
    script,
    params,
    targets,
    query: source.query ?? { match_all: {} },
    destName,
    requireAlias,
    routingOf,
  };
}

/**
 * Copies one matching document (through the script, when there is one) into its destination;
 * false when a version conflict stops the reindex (`conflicts: abort`).
 */
function copyDoc(
  ctx: RequestContext,
  plan: ReindexPlan,
  at: { match: ReturnType<typeof findMatches>[number]; progress: ReindexProgress },
): boolean {
  const { index: from, doc } = at.match;
  const { counts, failures, touched } = at.progress;
  const sourceMapping = ctx.state.cluster.indices.get(from)?.mappings._source;
  if ((sourceMapping as { enabled?: unknown } | undefined)?.enabled === false) {
    throw illegalArgument(`[${from}][_doc][${doc.id}] didn't store _source`);
  }
  counts.total++;
  const ctxVars: JsonObject = {
    _source: structuredClone(applySourceFilter(doc.source, plan.sourceFilter) ?? {}),
    op: "index",
    _id: doc.id,
    _index: plan.destName,
    _routing: plan.routingOf(doc.routing) ?? null,
  };
  if (plan.script) runScript(plan.script, ctxVars);
  if (ctxVars.op === "noop" || ctxVars.op === "none") {
    counts.noops++;
    return true;
  }
  const target = ctx.state.cluster.writeIndex(
    String(ctxVars._index ?? plan.destName),
    plan.requireAlias,
  );
  touched.add(target);
  const id = String(ctxVars._id ?? doc.id);
  if (ctxVars.op === "delete") {
    if (deleteDocument(target, id, {}).result === "deleted") counts.deleted++;
    return true;
  }
  if (ctxVars.op !== "index") throw unknownOp(ctxVars.op);
  const routing = ctxVars._routing ?? undefined;
  const opts: WriteOptions = {
    opType: plan.opType,
    routing: routing === undefined ? undefined : String(routing),
  };
  if (plan.versionType !== "internal") {
    opts.versionType = plan.versionType;
    opts.version = doc.version;
  }
  try {
    const r = indexDocument(
      target,
      {
        id,
        source: restoreExact(ctxVars._source as JsonObject, exactStored(doc.source), plan.params),
      },
      opts,
      parseErrorType(ctx.state),
    );
    if (r.result === "created") counts.created++;
    else counts.updated++;
  } catch (e) {
    if (!(e instanceof EngineError) || e.status !== 409) throw e;
    counts.version_conflicts++;
    if (!plan.limits.proceed) {
      failures.push({ index: target.name, id, cause: e.toCause(), status: 409 });
      return false;
    }
  }
  return true;
}

/** POST /_reindex. */
export function reindexHandler(ctx: RequestContext): Promise<Reply> {
  return runAsTask(ctx, "indices:data/write/reindex", () => reindex(ctx));
}
