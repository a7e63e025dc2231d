// Document writes with Elasticsearch's versioning: index, create, delete, and the shared conflict checks.

import { mappingLimits } from "./mapping_limits.ts";
import { type EngineError, esError, illegalArgument, validationFailed } from "../_errors.ts";
import { KeptDoc } from "../_index/kept_doc.ts";
import { sourceText } from "../_index/raw_source.ts";
import type { StoredDoc } from "../_index/types.ts";
import type { ParseErrorType } from "./dynamic_mapping.ts";
import { mapDocument } from "./dynamic_mapping.ts";
import type { IndexState } from "./index_state.ts";

/** Concurrency-control and placement options of one write. */
export interface WriteOptions {
  opType?: "index" | "create";
  ifSeqNo?: number;
  ifPrimaryTerm?: number;
  version?: number;
  versionType?: string;
  routing?: string;
}

/** What a write did. */
export interface WriteResult {
  index: IndexState;
  id: string;
  version: number;
  seqNo: number;
  primaryTerm: number;
  result: "created" | "updated" | "deleted" | "not_found" | "noop";
  doc?: StoredDoc;
}

/** 409 `version_conflict_engine_exception` with Elasticsearch's reason. */
export function versionConflict(index: IndexState, id: string, detail: string): EngineError {
  // The shard is the document's: where its routing (or id) places it, as the real engines name it.
  const routing = index.docs.get(id)?.routing ?? id;
  return esError("version_conflict_engine_exception", `[${id}]: version conflict, ${detail}`, {
    index_uuid: index.uuid,
    shard: String(index.shardOf(routing)),
    index: index.name,
  });
}

/**
 * The detail of a {@link versionConflict} on a `seq_no` and primary term the document no longer
 * has (a write's `if_seq_no`, or the document a by-query search found), or on a document gone.
 */
export function seqNoConflictDetail(
  required: { readonly seqNo: unknown; readonly primaryTerm: unknown },
  current: { readonly seqNo: number; readonly primaryTerm: number } | undefined,
): string {
  const head = `required seqNo [${required.seqNo}], primary term [${required.primaryTerm}].`;
  return current
    ? `${head} current document has seqNo [${current.seqNo}] and primary term [${current.primaryTerm}]`
    : `${head} but no document was found`;
}

/**
 * A script's `ctx.op` other than the three an update, a by-query update or a reindex knows.
 */
export function unknownOp(op: unknown): EngineError {
  return illegalArgument(
    `Operation type [${op}] not allowed, only [noop, index, delete] are allowed`,
  );
}

/** Rejects option combinations Elasticsearch rejects before executing (see {@link writeOptionProblems}). */
export function validateWriteOptions(opts: WriteOptions, isDelete = false): void {
  const errors = writeOptionProblems(opts, isDelete);
  if (errors.length > 0) throw validationFailed(...errors);
}

/**
 * The option combinations Elasticsearch's write validation refuses, with its messages in its
 * order: a create takes no version type, version or sequence number; then the versioning checks.
 * An unknown version type is thrown at once (a parse error, not a validation problem).
 */
export function writeOptionProblems(opts: WriteOptions, isDelete = false): string[] {
  const errors: string[] = [];
  const type = opts.versionType ?? "internal";
  if (!["internal", "external", "external_gte"].includes(type)) {
    throw illegalArgument(`No version type match [${type}]`);
  }
  if (opts.opType === "create" && !isDelete) {
    const problem = type !== "internal"
      ? "create operations only support internal versioning. use index instead"
      : opts.version !== undefined
      ? "create operations do not support explicit versions. use index instead"
      : opts.ifSeqNo !== undefined || opts.ifPrimaryTerm !== undefined
      ? "create operations do not support compare and set. use index instead"
      : undefined;
    if (problem !== undefined) return [problem];
  }
  const v = opts.version;
  if (v !== undefined && v < 0 && (type !== "internal" || (v !== -3 && v !== -4))) {
    errors.push(`illegal version value [${v}] for version type [${type.toUpperCase()}]`);
  }
  if (type === "internal" && v !== undefined && v !== -3 && v !== -4) {
    errors.push(
      "internal versioning can not be used for optimistic concurrency control. Please use `if_seq_no` and `if_primary_term` instead",
    );
  }
  if (type !== "internal" && opts.version === undefined && !isDelete) {
    errors.push(`version type [${type}] requires a version`);
  }
  if (opts.ifSeqNo !== undefined && (type !== "internal" || opts.version !== undefined)) {
    errors.push("compare and write operations can not use versioning");
  }
  if (opts.ifSeqNo !== undefined && opts.ifPrimaryTerm === undefined) {
    errors.push("ifSeqNo is set, but primary term is [0]");
  }
  if (opts.ifSeqNo === undefined && opts.ifPrimaryTerm !== undefined) {
    errors.push(`ifSeqNo is unassigned, but primary term is [${opts.ifPrimaryTerm}]`);
  }
  return errors;
}

/** Checks if_seq_no / external versions against the current document; returns the next version. */
function nextVersion(
  index: IndexState,
  id: string,
  opts: WriteOptions,
  current: StoredDoc | undefined,
): number {
  const tomb = index.tombstone(id);
  if (opts.ifSeqNo !== undefined) {
    const required = { seqNo: opts.ifSeqNo, primaryTerm: opts.ifPrimaryTerm };
    if (
      !current || current.seqNo !== opts.ifSeqNo || current.primaryTerm !== opts.ifPrimaryTerm
    ) {
      throw versionConflict(index, id, seqNoConflictDetail(required, current));
    }
  }
  const type = opts.versionType ?? "internal";
  const known = current?.version ?? tomb?.version;
  if (type === "external" || type === "external_gte") {
    const wanted = opts.version ?? 0;
    if (known !== undefined) {
      if (type === "external" && known >= wanted) {
        throw versionConflict(
          index,
          id,
          `current version [${known}] is higher or equal to the one provided [${wanted}]`,
        );
      }
      if (type === "external_gte" && known > wanted) {
        throw versionConflict(
          index,
          id,
          `current version [${known}] is higher than the one provided [${wanted}]`,
        );
      }
    }
    return wanted;
  }
  return current ? current.version + 1 : (tomb?.version ?? 0) + 1;
}

/**
 * Refuses a write to an index that blocks writes (`index.blocks.write`, `read_only`,
 * `read_only_allow_delete` for all but deletes), as `_block` or the settings set them.
 */
export function checkWriteBlock(index: IndexState, isDelete = false): void {
  const s = index.settings;
  const block = s["index.blocks.read_only"] === "true"
    ? "FORBIDDEN/5/index read-only (api)"
    : s["index.blocks.write"] === "true"
    ? "FORBIDDEN/8/index write (api)"
    : !isDelete && s["index.blocks.read_only_allow_delete"] === "true"
    ? "TOO_MANY_REQUESTS/12/disk usage exceeded flood-stage watermark, index has read-only-allow-delete block"
    : undefined;
  if (block) {
    throw esError("cluster_block_exception", `index [${index.name}] blocked by: [${block}];`);
  }
}

/** A document to index: its id and source, and the JSON text the source was parsed from. */
export interface DocToWrite {
  id: string;
  source: Record<string, unknown>;
  /** The source's JSON text, when the caller has it (else the source's kept text is used). */
  text?: string;
}

/**
 * Indexes (creates or replaces) a document; counted in the index's `indexing` stats.
 * `errorType` names a document the mapping cannot take (it differs by flavour).
 */
export function indexDocument(
  index: IndexState,
  doc: DocToWrite,
  opts: WriteOptions,
  errorType: ParseErrorType,
): WriteResult {
  validateWriteOptions(opts);
  checkWriteBlock(index);
  // Past the first writes, one in eight reads the clock (see IndexStats.indexTimeWeight).
  const weight = index.stats.indexTimeWeight();
  const started = weight > 0 ? performance.now() : 0;
  try {
    const result = indexValidated(index, doc, opts, errorType);
    index.stats.indexed(weight > 0 ? (performance.now() - started) * weight : 0);
    return result;
  } catch (e) {
    index.stats.indexFailed++;
    throw e;
  }
}

function indexValidated(
  index: IndexState,
  write: DocToWrite,
  opts: WriteOptions,
  errorType: ParseErrorType,
): WriteResult {
  const { id, source, text: given } = write;
  if (source === null || typeof source !== "object" || Array.isArray(source)) {
    throw esError(errorType, "failed to parse, document is empty");
  }
  const current = index.docs.get(id);
  if (opts.opType === "create" && current) {
    throw versionConflict(
      index,
      id,
      `document already exists (current version [${current.version}])`,
    );
  }
  const version = nextVersion(index, id, opts, current);
  const limit = Number(index.settings["index.mapping.total_fields.limit"] ?? 1000);
  index.mappings = mapDocument(index.mappings, source, id, {
    errorType,
    fieldLimit: limit,
    limits: () => mappingLimits(index.settings),
  });
  // A source that came with its text is kept as that text once indexed (see KeptDoc).
  const text = given ?? sourceText(source);
  const seqNo = index.takeSeqNo(opts.routing ?? id);
  const doc: StoredDoc = text === undefined
    ? { id, source, version, seqNo, primaryTerm: 1 }
    : new KeptDoc({ id, source, text, version, seqNo });
  if (opts.routing !== undefined) doc.routing = opts.routing;
  index.put(id, doc, opts.routing, current !== undefined);
  return {
    index,
    id,
    version,
    seqNo: doc.seqNo,
    primaryTerm: 1,
    result: current ? "updated" : "created",
    doc,
  };
}

/** Deletes a document; a missing one gives `result: not_found`. */
export function deleteDocument(index: IndexState, id: string, opts: WriteOptions): WriteResult {
  validateWriteOptions(opts, true);
  checkWriteBlock(index, true);
  const current = index.docs.get(id);
  if (!current && opts.ifSeqNo === undefined && (opts.versionType ?? "internal") === "internal") {
    const version = (index.tombstone(id)?.version ?? 0) + 1;
    const seqNo = index.takeSeqNo(opts.routing ?? id);
    // As in Elasticsearch, deleting a missing document leaves a tombstone at the version it
    // answered: the next write of that id continues from it.
    index.leaveTombstone(id, { version, seqNo });
    index.stats.deleted(0);
    return { index, id, version, seqNo, primaryTerm: 1, result: "not_found" };
  }
  const started = performance.now();
  const version = nextVersion(index, id, opts, current);
  const seqNo = index.takeSeqNo(opts.routing ?? current?.routing ?? id);
  index.remove(id, { version, seqNo }, opts.routing ?? current?.routing, current !== undefined);
  index.stats.deleted(performance.now() - started);
  return { index, id, version, seqNo, primaryTerm: 1, result: current ? "deleted" : "not_found" };
}

/** The JSON body Elasticsearch answers a write with; `forcedRefresh` when the write refreshed. */
export function writeResponse(
  r: WriteResult,
  opts?: { forcedRefresh?: boolean },
): Record<string, unknown> {
  const forcedRefresh = opts?.forcedRefresh === true;
  const body: Record<string, unknown> = {
    _index: r.index.name,
    _id: r.id,
    _version: r.version,
    result: r.result,
  };
  if (forcedRefresh) body.forced_refresh = true;
  body._shards = r.result === "noop"
    ? { total: 0, successful: 0, failed: 0 }
    : r.index.shardsHeader();
  body._seq_no = r.seqNo;
  body._primary_term = r.primaryTerm;
  return body;
}
