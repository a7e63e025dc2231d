// Handlers of the single-document APIs: index, create, get, exists, _source, delete, update.

import { keepSourceText, sourceOut } from "../_index/raw_source.ts";
import { own, setOwn } from "../_index/own.ts";
import { esError, resourceNotFound, validationFailed } from "../_errors.ts";
import type { StoredDoc } from "../_index/types.ts";
import type { IndexState } from "../_state/index_state.ts";
import { applyRefresh } from "../_state/refresh.ts";
import { applySourceFilter, documentSourceFilter, withoutVectors } from "../_hits/source_filter.ts";
import { nameList } from "../_index/name_pattern.ts";
import { updateDocument } from "../_state/update.ts";
import { exactBody } from "../_state/exact_source.ts";
import { deleteDocument, indexDocument, versionConflict, writeResponse } from "../_state/writes.ts";
import {
  bodyObject,
  bodyTextOf,
  boolParam,
  ok,
  parseErrorType,
  type Reply,
  type RequestContext,
} from "./context.ts";
import {
  aliasRouting,
  checkId,
  checkPipeline,
  checkRouting,
  checkUpdateRequest,
  checkWaitParams,
  readVersion,
  sameShard,
  writeOptions,
} from "./write_params.ts";

function param(ctx: RequestContext): (name: string) => string | undefined {
  return (name) => ctx.params.get(name) ?? undefined;
}

/** PUT/POST /{index}/_doc[/{id}], PUT/POST /{index}/_create/{id}. */
export async function indexHandler(ctx: RequestContext, create = false): Promise<Reply> {
  const opts = writeOptions(param(ctx));
  opts.routing = aliasRouting(ctx.state.cluster, ctx.p.index!, opts.routing);
  if (create) opts.opType = "create";
  const id = ctx.p.id ?? ctx.state.newId();
  if (ctx.p.id === undefined) opts.opType ??= "create";
  checkId(id);
  checkWaitParams(ctx.params);
  const source = bodyObject(ctx, "document");
  if (!source) {
    throw esError(
      "action_request_validation_exception",
      "Validation Failed: 1: source is missing;2: content type is missing;",
    );
  }
  keepSourceText(source, ctx.bodyText);
  checkPipeline(ctx.params.get("pipeline") ?? undefined);
  const index = ctx.state.cluster.writeIndex(ctx.p.index!, boolParam(ctx, "require_alias"));
  checkRouting(index, id, opts.routing);
  const result = indexDocument(index, { id, source }, opts, parseErrorType(ctx.state));
  const shard = index.shardOf(opts.routing ?? id);
  const forced = await applyRefresh(ctx.params.get("refresh"), [index], ctx.state, shard);
  return ok(
    writeResponse(result, { forcedRefresh: forced }),
    result.result === "created" ? 201 : 200,
  );
}

/** The `_source` to return for a document, honouring the filtering parameters; undefined for none. */
export function pickSource(
  ctx: RequestContext,
  doc: StoredDoc,
  index?: IndexState,
): Record<string, unknown> | undefined {
  const asked = documentSourceFilter(
    ctx.params.get("_source") ?? undefined,
    nameList(ctx.params.get("_source_includes") ?? ctx.params.get("_source_include")),
    nameList(ctx.params.get("_source_excludes") ?? ctx.params.get("_source_exclude")),
  );
  const filter = index ? withoutVectors(asked, index.sourceVectors(ctx.state)) : asked;
  const whole = doc.source;
  const source = applySourceFilter(whole, filter);
  if (source === undefined) return undefined;
  return (source === whole ? sourceOut(source) : source) as Record<string, unknown>;
}

/** How a document is looked up: the `realtime` parameter and the name the request gave. */
export interface DocLookup {
  /** Read the latest write (`true`) or what the last refresh made visible (`realtime=false`). */
  realtime: boolean;
  /** The index or alias the request named (its routing applies); the path's index by default. */
  named?: string;
}

/**
 * Looks a document up (real-time unless `realtime=false`), honouring routing (an alias's index
 * routing when `named`, the index or alias the request gave, is one); counted in `get` stats.
 */
export function findDoc(
  ctx: RequestContext,
  index: IndexState,
  id: string,
  lookup: DocLookup,
): StoredDoc | undefined {
  const { realtime, named = ctx.p.index ?? index.name } = lookup;
  const routing = aliasRouting(ctx.state.cluster, named, ctx.params.get("routing") || undefined);
  checkRouting(index, id, routing);
  if (boolParam(ctx, "refresh")) index.refresh(ctx.state.now());
  else if (!realtime) index.refreshIfDue(ctx.state.now());
  const started = performance.now();
  const stored = (realtime ? index.docs : index.visible).get(id);
  const doc = stored && sameShard(index, id, stored.routing, routing) ? stored : undefined;
  index.stats.got(doc !== undefined ? "exists" : "missing", performance.now() - started);
  if (!doc) return undefined;
  const wanted = readVersion(ctx.params.get("version"), ctx.params.get("version_type"));
  if (wanted !== undefined && wanted !== doc.version) {
    throw versionConflict(
      index,
      id,
      `current version [${doc.version}] is different than the one provided [${wanted}]`,
    );
  }
  return doc;
}

/** Stored-field values for a document (`fields` of GET). */
export function storedFields(
  index: IndexState,
  doc: StoredDoc,
  names: string[],
): Record<string, unknown[]> {
  const fields: Record<string, unknown[]> = {};
  for (const name of names) {
    if (name.startsWith("_")) continue;
    let mapping: Record<string, unknown> | undefined = { properties: index.mappings.properties };
    let value: unknown = doc.source;
    for (const part of name.split(".")) {
      mapping = own(
        mapping?.properties as Record<string, Record<string, unknown>> | undefined,
        part,
      );
      value = value !== null && typeof value === "object"
        ? own(value as Record<string, unknown>, part)
        : undefined;
    }
    if (mapping?.store === true && value !== undefined && value !== null) {
      setOwn(fields, name, Array.isArray(value) ? value : [value]);
    }
  }
  return fields;
}

/** The GET body of a found document. */
export function docBody(
  ctx: RequestContext,
  index: IndexState,
  doc: StoredDoc,
  storedParam: string[] | undefined,
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    _index: index.name,
    _id: doc.id,
    _version: doc.version,
    _seq_no: doc.seqNo,
    _primary_term: doc.primaryTerm,
  };
  if (doc.routing !== undefined) body._routing = doc.routing;
  body.found = true;
  const sourceStored =
    (index.mappings._source as { enabled?: boolean } | undefined)?.enabled !== false;
  const wantSource = sourceStored &&
    (storedParam === undefined || storedParam.includes("_source") || ctx.params.has("_source"));
  if (wantSource) {
    const source = pickSource(ctx, doc, index);
    if (source !== undefined) body._source = source;
  }
  if (storedParam) {
    const fields = storedFields(index, doc, storedParam);
    if (Object.keys(fields).length > 0) body.fields = fields;
  }
  return body;
}

/** GET /{index}/_doc/{id} (and HEAD for exists). */
export function getHandler(ctx: RequestContext): Reply {
  readVersion(ctx.params.get("version"), ctx.params.get("version_type"));
  const index = ctx.state.cluster.readIndex(ctx.p.index!);
  const doc = findDoc(ctx, index, ctx.p.id!, { realtime: boolParam(ctx, "realtime", true) });
  if (ctx.method === "HEAD") return { status: doc ? 200 : 404 };
  if (!doc) return { status: 404, body: { _index: index.name, _id: ctx.p.id, found: false } };
  const stored = ctx.params.has("stored_fields")
    ? nameList(ctx.params.get("stored_fields"))
    : undefined;
  return ok(docBody(ctx, index, doc, stored));
}

/** GET /{index}/_source/{id} (and HEAD). */
export function getSourceHandler(ctx: RequestContext): Reply {
  readVersion(ctx.params.get("version"), ctx.params.get("version_type"));
  if (!documentSourceFilter(ctx.params.get("_source") ?? undefined, [], []).fetch) {
    throw validationFailed("fetching source can not be disabled");
  }
  const index = ctx.state.cluster.readIndex(ctx.p.index!);
  const doc = findDoc(ctx, index, ctx.p.id!, { realtime: boolParam(ctx, "realtime", true) });
  const enabled = (index.mappings._source as { enabled?: boolean } | undefined)?.enabled !== false;
  if (ctx.method === "HEAD") return { status: doc && enabled ? 200 : 404 };
  if (!doc) {
    throw resourceNotFound(`Document not found [${index.name}]/[${ctx.p.id}]`);
  }
  if (!enabled) {
    throw resourceNotFound(`Source not found [${index.name}]/[${ctx.p.id}]`);
  }
  return ok(pickSource(ctx, doc, index) ?? {});
}

/** DELETE /{index}/_doc/{id}. */
export async function deleteHandler(ctx: RequestContext): Promise<Reply> {
  const opts = writeOptions(param(ctx));
  opts.routing = aliasRouting(ctx.state.cluster, ctx.p.index!, opts.routing);
  checkWaitParams(ctx.params);
  const index = ctx.state.cluster.readIndex(ctx.p.index!);
  checkRouting(index, ctx.p.id!, opts.routing);
  const current = index.docs.get(ctx.p.id!);
  if (current && !sameShard(index, ctx.p.id!, current.routing, opts.routing)) {
    const result = {
      index,
      id: ctx.p.id!,
      version: 1,
      seqNo: index.takeSeqNo(opts.routing ?? ctx.p.id!),
      primaryTerm: 1,
      result: "not_found" as const,
    };
    return { status: 404, body: writeResponse(result) };
  }
  const result = deleteDocument(index, ctx.p.id!, opts);
  const shard = index.shardOf(opts.routing ?? current?.routing ?? ctx.p.id!);
  const forced = await applyRefresh(ctx.params.get("refresh"), [index], ctx.state, shard);
  return {
    status: result.result === "not_found" ? 404 : 200,
    body: writeResponse(result, { forcedRefresh: forced }),
  };
}

/** POST /{index}/_update/{id}. */
export async function updateHandler(ctx: RequestContext): Promise<Reply> {
  const opts = writeOptions(param(ctx));
  opts.routing = aliasRouting(ctx.state.cluster, ctx.p.index!, opts.routing);
  checkWaitParams(ctx.params);
  const body = bodyObject(ctx);
  if (!body) {
    throw validationFailed("script or doc is missing");
  }
  checkUpdateRequest(body, opts, ctx.params.get("retry_on_conflict") ?? undefined);
  const index = ctx.state.cluster.writeIndex(ctx.p.index!, boolParam(ctx, "require_alias"));
  checkRouting(index, ctx.p.id!, opts.routing);
  const current = index.docs.get(ctx.p.id!);
  if (current && !sameShard(index, ctx.p.id!, current.routing, opts.routing)) {
    // The shard the request's routing leads to, where the document is not.
    throw esError("document_missing_exception", `[${ctx.p.id}]: document missing`, {
      index_uuid: index.uuid,
      shard: String(index.shardOf(opts.routing ?? ctx.p.id!)),
      index: index.name,
    });
  }
  const result = updateDocument(
    index,
    { id: ctx.p.id!, body, exact: exactBody(bodyTextOf(ctx)) },
    opts,
    parseErrorType(ctx.state),
  );
  const shard = index.shardOf(opts.routing ?? current?.routing ?? ctx.p.id!);
  const forced = result.result === "noop"
    ? false
    : await applyRefresh(ctx.params.get("refresh"), [index], ctx.state, shard);
  const response = writeResponse(result, { forcedRefresh: forced });
  const sourceWanted = body._source ?? ctx.params.get("_source") ?? undefined;
  const includes = nameList(ctx.params.get("_source_includes"));
  const excludes = nameList(ctx.params.get("_source_excludes"));
  if ((sourceWanted !== undefined || includes.length > 0 || excludes.length > 0) && result.doc) {
    const filter = documentSourceFilter(sourceWanted ?? true, includes, excludes);
    if (filter.fetch) {
      response.get = {
        _seq_no: result.seqNo,
        _primary_term: result.primaryTerm,
        found: true,
        _source: sourceOut(applySourceFilter(result.doc.source, filter)),
      };
    }
  }
  return { status: result.result === "created" ? 201 : 200, body: response };
}
