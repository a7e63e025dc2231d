// The `_update` API: partial documents (deep merge, noop detection), upserts and scripts.

import { own, setOwn } from "../_index/own.ts";
import {
  esError,
  illegalArgument,
  parsingError,
  validationFailed,
  xContentParseError,
} from "../_errors.ts";
import type { ParseErrorType } from "./dynamic_mapping.ts";
import type { IndexState } from "./index_state.ts";
import type { StoredDoc } from "../_index/types.ts";
import { readScript, runScript } from "../_query/script.ts";
import {
  deleteDocument,
  indexDocument,
  seqNoConflictDetail,
  unknownOp,
  versionConflict,
  type WriteOptions,
  type WriteResult,
} from "./writes.ts";
import { isJsonObject, type JsonObject } from "../_json.ts";
import { exactStored, restoreExact, settleExact } from "./exact_source.ts";

// Bigints (exact integers beyond 2^53) compare by their digits, never equal to a string.
const exactKey = (value: unknown): string | undefined =>
  JSON.stringify(value, (_k, v) => typeof v === "bigint" ? { "\u0000bigint": String(v) } : v);

/** Deep-merges `patch` into `target` (in place); returns whether anything changed. */
export function deepMerge(target: JsonObject, patch: JsonObject): boolean {
  let changed = false;
  for (const [key, value] of Object.entries(patch)) {
    const old = own(target, key);
    if (isJsonObject(old) && isJsonObject(value)) {
      if (deepMerge(old, value)) changed = true;
    } else if (exactKey(old) !== exactKey(value) || !Object.hasOwn(target, key)) {
      setOwn(target, key, structuredClone(value));
      changed = true;
    }
  }
  return changed;
}

const UPDATE_FIELDS = [
  "doc",
  "upsert",
  "doc_as_upsert",
  "script",
  "scripted_upsert",
  "detect_noop",
  "_source",
  "lang",
  "params",
];

/** True when two names differ by at most one edit (for "did you mean"). */
function similar(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return a.slice(i + 1) === b.slice(i + 1) || a.slice(i) === b.slice(i + 1) ||
    a.slice(i + 1) === b.slice(i);
}

/**
 * Checks an `_update` body before running it. `leading` are problems the caller found in the
 * request's parameters, reported first in one validation failure with the body's.
 */
export function validateUpdateBody(body: JsonObject, leading: readonly string[] = []): void {
  parseUpdateBody(body);
  const errors = [...leading, ...updateBodyProblems(body)];
  if (errors.length > 0) throw validationFailed(...errors);
}

/** Throws the parse errors Elasticsearch reports for an `_update` body: unknown fields, non-object `doc`/`upsert`. */
export function parseUpdateBody(body: JsonObject): void {
  for (const key of Object.keys(body)) {
    if (!UPDATE_FIELDS.includes(key)) {
      const guess = UPDATE_FIELDS.find((f) => similar(f, key));
      throw xContentParseError(
        `[1:2] [UpdateRequest] unknown field [${key}]${guess ? ` did you mean [${guess}]?` : ""}`,
      );
    }
  }
  for (const key of ["doc", "upsert"]) {
    if (body[key] !== undefined && !isJsonObject(body[key])) {
      throw esError(
        "x_content_parse_exception",
        `[1:2] [UpdateRequest] failed to parse field [${key}]`,
        {},
        esError("parse_exception", `[${key}] must be an object`),
      );
    }
  }
}

/** An `_update` request: the document's id and the body, in its two readings. */
export interface UpdateRequest {
  id: string;
  body: JsonObject;
  /**
   * The same body parsed with integers beyond 2^53 as bigints (when its text has any): the
   * stored source and the body's `doc`, `upsert` and script `params` then keep them exact.
   */
  exact?: JsonObject;
}

/**
 * Applies an `_update` body to its document; `errorType` names a document the mapping cannot
 * take (it differs by flavour).
 */
export function updateDocument(
  index: IndexState,
  update: UpdateRequest,
  opts: WriteOptions,
  errorType: ParseErrorType,
): WriteResult {
  const { id, body } = update;
  validateUpdateBody(body);
  const current = index.docs.get(id);
  const how: UpdateWrite = { index, update, opts, errorType };
  if (!current) return upsert(how);
  if (
    opts.ifSeqNo !== undefined &&
    (current.seqNo !== opts.ifSeqNo || current.primaryTerm !== opts.ifPrimaryTerm)
  ) {
    const required = { seqNo: opts.ifSeqNo, primaryTerm: opts.ifPrimaryTerm };
    throw versionConflict(index, id, seqNoConflictDetail(required, current));
  }
  if ((index.mappings._source as { enabled?: boolean } | undefined)?.enabled === false) {
    throw esError(
      "document_source_missing_exception",
      `[${index.name}][${id}]: document source missing`,
      {
        index_uuid: index.uuid,
        shard: "0",
        index: index.name,
      },
    );
  }
  return body.doc !== undefined ? mergeDoc(how, current) : scriptedUpdate(how, current);
}

/** An update being applied: where, what, with which write options and mapping error. */
interface UpdateWrite {
  readonly index: IndexState;
  readonly update: UpdateRequest;
  readonly opts: WriteOptions;
  readonly errorType: ParseErrorType;
}

/** The `script` params as the body wrote them (long values exact). */
function exactParams(update: UpdateRequest): unknown {
  const exactScript = own(update.exact, "script");
  return isJsonObject(exactScript) ? own(exactScript, "params") : undefined;
}

/** The write options an update of an existing document writes with (its routing kept). */
function writeOf(opts: WriteOptions, current?: StoredDoc): WriteOptions {
  return {
    routing: current ? opts.routing ?? current.routing : opts.routing,
    ifSeqNo: opts.ifSeqNo,
    ifPrimaryTerm: opts.ifPrimaryTerm,
  };
}

/** A missing document: created from `upsert` (through a scripted upsert) or the `doc`, or missing. */
function upsert(how: UpdateWrite): WriteResult {
  const { index, opts, errorType } = how;
  const { id, body, exact } = how.update;
  if (body.upsert === undefined && body.doc_as_upsert !== true) {
    throw esError("document_missing_exception", `[${id}]: document missing`, {
      index_uuid: index.uuid,
      shard: String(index.shardOf(opts.routing ?? id)),
      index: index.name,
    });
  }
  const field = body.doc_as_upsert === true ? "doc" : "upsert";
  const exactDoc = own(exact, field);
  let source = structuredClone((body[field] ?? {}) as JsonObject);
  if (body.scripted_upsert === true && body.script !== undefined) {
    const ctx: JsonObject = { _source: source, op: "create", _index: index.name, _id: id };
    runScript(readScript(body.script), ctx);
    if (ctx.op === "none" || ctx.op === "noop") {
      return { index, id, version: 1, seqNo: -2, primaryTerm: 0, result: "noop" };
    }
    source = restoreExact(ctx._source as JsonObject, exactDoc, exactParams(how.update));
  } else if (isJsonObject(exactDoc)) source = settleExact(structuredClone(exactDoc));
  return indexDocument(index, { id, source }, { routing: opts.routing }, errorType);
}

/** An update that changes nothing: counted, and answered with the document as it is. */
function noopUpdate(how: UpdateWrite, current: StoredDoc): WriteResult {
  const { index } = how;
  index.stats.noopUpdateTotal++;
  return {
    index,
    id: how.update.id,
    version: current.version,
    seqNo: current.seqNo,
    primaryTerm: current.primaryTerm,
    result: "noop",
    doc: current,
  };
}

/** A partial `doc` merged into the document (a noop when it changes nothing, unless asked not to). */
function mergeDoc(how: UpdateWrite, current: StoredDoc): WriteResult {
  const { index, errorType } = how;
  const { id, body, exact } = how.update;
  if (!isJsonObject(body.doc)) {
    throw parsingError("[doc] must be an object");
  }
  const source = structuredClone(current.source);
  const exactDoc = own(exact, "doc");
  const before = exactStored(current.source);
  const exactMerge = before !== undefined || isJsonObject(exactDoc);
  const merged = exactMerge ? before ?? source : source;
  const changed = deepMerge(merged, isJsonObject(exactDoc) ? exactDoc : body.doc);
  if (!changed && body.detect_noop !== false) return noopUpdate(how, current);
  return indexDocument(
    index,
    { id, source: exactMerge ? settleExact(merged) : source },
    writeOf(how.opts, current),
    errorType,
  );
}

/** The `script` run on the document's source: it writes, deletes or leaves the document. */
function scriptedUpdate(how: UpdateWrite, current: StoredDoc): WriteResult {
  const { index, errorType } = how;
  const { id, body } = how.update;
  const ctx: JsonObject = {
    _source: structuredClone(current.source),
    op: "index",
    _index: index.name,
    _id: id,
    _version: current.version,
    _routing: current.routing ?? null,
    _seq_no: current.seqNo,
    _primary_term: current.primaryTerm,
    _now: Date.now(),
  };
  runScript(readScript(body.script), ctx);
  if (ctx.op === "none" || ctx.op === "noop") return noopUpdate(how, current);
  if (ctx.op === "delete") return deleteDocument(index, id, writeOf(how.opts));
  if (ctx.op !== "index") throw unknownOp(ctx.op);
  if (!isJsonObject(ctx._source)) {
    throw illegalArgument("ctx._source must be a map");
  }
  const after = restoreExact(ctx._source, exactStored(current.source), exactParams(how.update));
  return indexDocument(index, { id, source: after }, writeOf(how.opts, current), errorType);
}

/** The validation problems of an `_update` body (script and doc, `doc_as_upsert`), in Elasticsearch's order. */
export function updateBodyProblems(body: JsonObject): string[] {
  const errors: string[] = [];
  if (body.script !== undefined && body.doc !== undefined) {
    errors.push("can't provide both script and doc");
  }
  if (body.script === undefined && body.doc === undefined) errors.push("script or doc is missing");
  if (body.doc_as_upsert === true && body.doc === undefined) {
    errors.push("doc must be specified if doc_as_upsert is enabled");
  }
  return errors;
}
