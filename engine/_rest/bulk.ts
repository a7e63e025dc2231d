// POST /_bulk and /{index}/_bulk: NDJSON actions executed in order, one item result each.

import { admit, bulkCost, linesCost } from "./indexing_pressure.ts";
import { sourceOut } from "../_index/raw_source.ts";
import {
  EngineError,
  esError,
  illegalArgument,
  inOpenSearchTerms,
  validationFailed,
  xContentParseError,
} from "../_errors.ts";
import type { IndexState } from "../_state/index_state.ts";
import { applyRefresh } from "../_state/refresh.ts";
import { applySourceFilter, documentSourceFilter } from "../_hits/source_filter.ts";
import { nameList } from "../_index/name_pattern.ts";
import { updateDocument } from "../_state/update.ts";
import { exactBody } from "../_state/exact_source.ts";
import {
  deleteDocument,
  indexDocument,
  type WriteOptions,
  writeResponse,
  type WriteResult,
} from "../_state/writes.ts";
import {
  boolParam,
  parseErrorType,
  parseJson,
  type Reply,
  type RequestContext,
  tooDeep,
} from "./context.ts";
import { validateBulk } from "./bulk_validation.ts";
import {
  aliasRouting,
  checkId,
  checkPipeline,
  checkRouting,
  checkUpdateRequest,
  checkWaitParams,
  writeOptions,
} from "./write_params.ts";

const ACTIONS = new Set(["index", "create", "update", "delete"]);
const META_KEYS = new Set([
  "_index",
  "_id",
  "routing",
  "if_seq_no",
  "if_primary_term",
  "version",
  "version_type",
  "pipeline",
  "require_alias",
  "retry_on_conflict",
  "_source",
  "dynamic_templates",
  "op_type",
  "list_executed_pipelines",
  "require_data_stream",
]);

interface Action {
  op: string;
  meta: Record<string, unknown>;
  source?: Record<string, unknown>;
  /** The source line: index/create sources are parsed when executed, so a bad one fails only
   * its item; an update body is read again with exact integers beyond 2^53. */
  sourceText?: string;
}

function malformed(line: number, detail: string): EngineError {
  return illegalArgument(`Malformed action/metadata line [${line}], ${detail}`);
}

/** Whether `s` is a JSON string's content with nothing to unescape (no quote, backslash, control). */
function plainString(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 32 || c === 34 || c === 92) return false;
  }
  return true;
}

const ID_PREFIX = '{"index":{"_id":"';

/**
 * The action of the common line shapes, `{"index":{}}` and `{"index":{"_id":"…"}}` exactly,
 * without a JSON parse; null for anything else (parsed and checked in full).
 */
function quickAction(raw: string): Action | null {
  if (raw === '{"index":{}}') return { op: "index", meta: {} };
  if (!raw.startsWith(ID_PREFIX) || !raw.endsWith('"}}')) return null;
  const id = raw.slice(ID_PREFIX.length, raw.length - 3);
  return plainString(id) ? { op: "index", meta: { _id: id } } : null;
}

/** Splits a bulk body into actions, validating structure like Elasticsearch. */
export function parseBulk(text: string): Action[] {
  return parseBulkLines(text.split("\n"));
}

/**
 * {@link parseBulk} of a body already split on `\n` (as `readLines` reads it while it arrives):
 * the last element is `""` exactly when the body ends with a newline.
 */
function parseBulkLines(lines: readonly string[]): Action[] {
  if (lines[lines.length - 1] !== "" && lines.some((line) => line.trim() !== "")) {
    throw illegalArgument("The bulk request must be terminated by a newline [\\n]");
  }
  const actions: Action[] = [];
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (raw === "") continue;
    const lineNo = i + 1;
    const action = quickAction(raw) ?? parseAction(raw, lineNo);
    if (action.op !== "delete") {
      i++;
      while (i < lines.length && lines[i]!.trim() === "" && i < lines.length - 1) i++;
      const sourceLine = lines[i]?.trim();
      if (!sourceLine) {
        throw validationFailed(`source is missing`);
      }
      if (action.op === "update") {
        const { version, version_type: versionType } = action.meta;
        if (
          (version !== undefined && version !== null) ||
          (versionType !== undefined && versionType !== null && versionType !== "internal")
        ) {
          throw illegalArgument(
            "Update requests do not support versioning. Please use `if_seq_no` and `if_primary_term` instead",
          );
        }
        const source = parseJson(sourceLine);
        if (source === null || typeof source !== "object" || Array.isArray(source)) {
          throw xContentParseError("[1:1] update request must be an object");
        }
        action.source = source as Record<string, unknown>;
      }
      action.sourceText = sourceLine;
    }
    actions.push(action);
  }
  return actions;
}

/** One action line parsed and checked as Elasticsearch checks it. */
function parseAction(raw: string, lineNo: number): Action {
  let parsed: unknown;
  try {
    if (tooDeep(raw)) throw new Error("too deep");
    parsed = JSON.parse(raw);
  } catch {
    throw malformed(lineNo, "expected START_OBJECT or END_OBJECT but found [VALUE_STRING]");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw malformed(lineNo, "expected START_OBJECT or END_OBJECT but found [VALUE_STRING]");
  }
  const keys = Object.keys(parsed);
  if (keys.length === 0) throw malformed(lineNo, "expected FIELD_NAME but found [END_OBJECT]");
  if (keys.length !== 1 || !ACTIONS.has(keys[0]!)) {
    throw malformed(
      lineNo,
      `expected field [create], [delete], [index] or [update] but found [${keys[0]}]`,
    );
  }
  const op = keys[0]!;
  const meta = (parsed as Record<string, unknown>)[op];
  if (meta === null || typeof meta !== "object" || Array.isArray(meta)) {
    throw malformed(lineNo, "expected START_OBJECT but found [VALUE_STRING]");
  }
  for (const key of Object.keys(meta)) {
    const value = (meta as Record<string, unknown>)[key];
    if (
      key !== "_source" && key !== "dynamic_templates" && value !== null &&
      typeof value === "object"
    ) {
      throw malformed(
        lineNo,
        `expected a simple value for field [${key}] but found [START_${
          Array.isArray(value) ? "ARRAY" : "OBJECT"
        }]`,
      );
    }
    if (!META_KEYS.has(key)) {
      throw illegalArgument(
        `Action/metadata line [${lineNo}] contains an unknown parameter [${key}]`,
      );
    }
  }
  return { op, meta: meta as Record<string, unknown> };
}

/** Whether an action's metadata holds nothing but (perhaps) `_id`. */
function idOnly(meta: Record<string, unknown>): boolean {
  for (const key in meta) if (key !== "_id") return false;
  return true;
}

function itemResult(r: WriteResult, status: number): Record<string, unknown> {
  const item = writeResponse(r);
  // A bulk item reports a no-op update's shards as a write's (both real engines; the update API
  // itself answers zeros).
  if (r.result === "noop") item._shards = r.index.shardsHeader();
  item.status = status;
  return item;
}

/** What every item of one bulk request shares, read from the request once. */
interface BulkShared {
  /** The indices the request wrote to (for stats and `refresh`). */
  touched: Set<IndexState>;
  /** The `pipeline` parameter. */
  pipeline: string | undefined;
  /** The `routing` parameter. */
  routingParam: string | undefined;
  /** The write options of a line whose metadata holds nothing but `_id`. */
  plainOpts: WriteOptions;
}

function run(ctx: RequestContext, action: Action, shared: BulkShared): Record<string, unknown> {
  const { touched, pipeline, routingParam, plainOpts } = shared;
  const { meta, op } = action;
  const rawIndex = meta._index;
  const indexName = rawIndex === undefined || rawIndex === null
    ? (rawIndex === null ? undefined : ctx.p.index)
    : String(rawIndex);
  const id = meta._id === undefined || meta._id === null ? undefined : String(meta._id);
  try {
    if (id === "") {
      throw illegalArgument("if _id is specified it must not be empty");
    }
    if (!indexName) {
      throw validationFailed("index is missing");
    }
    // A line with no metadata but the id (the common bulk line) takes the request's options.
    const opts = idOnly(meta)
      ? { ...plainOpts }
      : writeOptions((name) => meta[name] ?? (name === "routing" ? routingParam : undefined));
    if (!ctx.state.cluster.indices.has(indexName)) {
      opts.routing = aliasRouting(ctx.state.cluster, indexName, opts.routing);
    }
    const requireAlias = meta.require_alias === true ||
      (meta.require_alias === undefined && boolParam(ctx, "require_alias"));
    const errorType = parseErrorType(ctx.state);
    if (op === "index" || op === "create") {
      const docId = id ?? ctx.state.newId();
      checkId(docId);
      if (meta.pipeline !== undefined || pipeline !== undefined) {
        checkPipeline(meta.pipeline ?? pipeline);
      }
      if (op === "create" || id === undefined) opts.opType = "create";
      const index = ctx.state.cluster.writeIndex(indexName, requireAlias);
      touched.add(index);
      checkRouting(index, docId, opts.routing);
      const source = parseJson(action.sourceText!, "document", errorType);
      if (source === null || typeof source !== "object" || Array.isArray(source)) {
        throw esError(errorType, "failed to parse, document is empty");
      }
      // The text goes with it (no side table): the stored document keeps it (see KeptDoc).
      const r = indexDocument(
        index,
        { id: docId, source: source as Record<string, unknown>, text: action.sourceText! },
        opts,
        errorType,
      );
      return itemResult(r, r.result === "created" ? 201 : 200);
    }
    if (id === undefined) {
      throw validationFailed("id is missing");
    }
    if (op === "delete") {
      const index = ctx.state.cluster.writeIndex(indexName, requireAlias);
      touched.add(index);
      checkRouting(index, id, opts.routing);
      const r = deleteDocument(index, id, opts);
      return itemResult(r, r.result === "not_found" ? 404 : 200);
    }
    checkUpdateRequest(action.source!, opts, meta.retry_on_conflict);
    const index = ctx.state.cluster.writeIndex(indexName, requireAlias);
    touched.add(index);
    checkRouting(index, id, opts.routing);
    const exact = exactBody(action.sourceText);
    const r = updateDocument(index, { id, body: action.source!, exact }, opts, errorType);
    const item = itemResult(r, r.result === "created" ? 201 : 200);
    const includes = nameList(ctx.params.get("_source_includes"));
    const excludes = nameList(ctx.params.get("_source_excludes"));
    const wanted = action.source!._source ?? meta._source ?? ctx.params.get("_source") ??
      (includes.length + excludes.length > 0 ? true : undefined);
    if (wanted !== undefined && r.doc) {
      const filter = documentSourceFilter(wanted, includes, excludes);
      if (filter.fetch) {
        item.get = {
          _seq_no: r.seqNo,
          _primary_term: 1,
          found: true,
          _source: sourceOut(applySourceFilter(r.doc.source, filter)),
        };
      }
    }
    return item;
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    const index = indexName ? ctx.state.cluster.indices.get(indexName) : undefined;
    // A block refuses the write before any shard sees it: its error names no shard.
    const extra = index && e.extra.index === undefined && e.type !== "cluster_block_exception"
      ? { index_uuid: index.uuid, shard: "0", index: index.name }
      : {};
    const told = ctx.state.flavour === "opensearch" ? inOpenSearchTerms(e) : e;
    return {
      _index: indexName,
      _id: id ?? null,
      status: e.status,
      error: { ...told.toCause(), ...extra },
    };
  }
}

/** Counts one bulk request into the `bulk` stats of each index it wrote to, with its items' bytes. */
function countBulk(
  touched: Set<IndexState>,
  actions: readonly Action[],
  results: ReadonlyArray<Record<string, unknown>>,
  millis: number,
): void {
  const bytes = new Map<unknown, number>();
  results.forEach((r, i) => {
    bytes.set(r._index, (bytes.get(r._index) ?? 0) + (actions[i]!.sourceText?.length ?? 0));
  });
  for (const index of touched) index.stats.bulked(millis, bytes.get(index.name) ?? 0);
}

/** POST /_bulk, POST /{index}/_bulk. */
export async function bulkHandler(ctx: RequestContext): Promise<Reply> {
  const started = Date.now();
  checkWaitParams(ctx.params);
  const release = admit(
    ctx.state.indexingPressure,
    ctx.state.flavour,
    ctx.bodyLines ? linesCost(ctx.bodyLines) : bulkCost(ctx.bodyText),
  );
  try {
    return await runBulk(ctx, started);
  } finally {
    release();
  }
}

async function runBulk(ctx: RequestContext, started: number): Promise<Reply> {
  const actions = ctx.bodyLines ? parseBulkLines(ctx.bodyLines) : parseBulk(ctx.bodyText);
  if (actions.length === 0) {
    throw validationFailed("no requests added");
  }
  validateBulk(actions, ctx.p.index);
  const touched = new Set<IndexState>();
  const timer = performance.now();
  const pipeline = ctx.params.get("pipeline") ?? undefined;
  const routing = ctx.params.get("routing") ?? undefined;
  const plainOpts = writeOptions((name) => name === "routing" ? routing : undefined);
  const shared: BulkShared = { touched, pipeline, routingParam: routing, plainOpts };
  const results = actions.map((action) => run(ctx, action, shared));
  countBulk(touched, actions, results, performance.now() - timer);
  const forced = await applyRefresh(ctx.params.get("refresh"), touched, ctx.state);
  if (forced) {
    // OpenSearch 3.8.0 leaves `forced_refresh` out of a no-op update; Elasticsearch 9.5.4 keeps it.
    const os = ctx.state.flavour === "opensearch";
    for (const r of results) {
      if (!r.error && !(os && r.result === "noop")) r.forced_refresh = true;
    }
  }
  const items = results.map((r, i) => {
    const { op, meta } = actions[i]!;
    // Literal shapes, not a computed key: 5,000 items share one hidden class per action.
    if (op === "index") return meta.op_type === "create" ? { create: r } : { index: r };
    return op === "create" ? { create: r } : op === "delete" ? { delete: r } : { update: r };
  });
  const errors = results.some((r) => r.error !== undefined);
  return { status: 200, body: { errors, took: Date.now() - started, items } };
}
