// GET|POST /_mget and /{index}/_mget.

import { EngineError, esError, illegalArgument, validationFailed } from "../_errors.ts";
import { errorBody } from "./error_body.ts";
import { bodyObject, boolParam, ok, type Reply, type RequestContext } from "./context.ts";
import { docBody, findDoc } from "./documents.ts";
import { nameList } from "../_index/name_pattern.ts";

/**
 * Refuses an unknown field of a `docs` element as both real engines do (Elasticsearch 9.5.4,
 * OpenSearch 3.8.0): `parse_exception` naming the field, or for an object the innermost first
 * field inside it (an empty object is "not an object"); a null is skipped.
 */
function unknownField(key: string, value: unknown): void {
  let name = key;
  let at = value;
  for (
    let depth = 0;
    depth < 100 && at !== null && typeof at === "object" && !Array.isArray(at);
    depth++
  ) {
    const first = Object.entries(at as Record<string, unknown>)[0];
    if (first === undefined) throw illegalArgument("docs array element should include an object");
    [name, at] = first;
  }
  if (value === null) return;
  throw esError("parse_exception", `failed to parse multi get request. unknown field [${name}]`);
}

/** Multi-get by `docs` or `ids`. */
export function mgetHandler(ctx: RequestContext): Reply {
  const body = bodyObject(ctx);
  if (!body) throw validationFailed("no documents to get");
  let specs: Array<Record<string, unknown>>;
  if (Array.isArray(body.docs)) specs = body.docs as Array<Record<string, unknown>>;
  else if (Array.isArray(body.ids)) {
    specs = (body.ids as unknown[]).map((id) => {
      if (id === null || typeof id === "object") {
        throw illegalArgument("ids array element should only contain ids");
      }
      return { _id: id };
    });
  } else throw validationFailed("no documents to get");
  if (specs.length === 0) throw validationFailed("no documents to get");
  const allowed = new Set([
    "_index",
    "_id",
    "routing",
    "_source",
    "stored_fields",
    "version",
    "version_type",
  ]);
  for (const spec of specs) {
    if (spec === null || typeof spec !== "object" || Array.isArray(spec)) {
      throw illegalArgument("docs array element should include an object");
    }
    for (const [key, value] of Object.entries(spec)) {
      if (!allowed.has(key)) unknownField(key, value);
    }
  }
  const problems: string[] = [];
  specs.forEach((s, i) => {
    if ((s._index ?? ctx.p.index) === undefined) problems.push(`index is missing for doc ${i}`);
    if (s._id === undefined || s._id === null) problems.push(`id is missing for doc ${i}`);
  });
  if (problems.length > 0) throw validationFailed(...problems);
  const realtime = boolParam(ctx, "realtime", true);
  const docs = specs.map((spec) => {
    const indexName = String(spec._index ?? ctx.p.index);
    const id = String(spec._id);
    const params = new URLSearchParams(ctx.params);
    const routing = spec.routing;
    if (routing !== undefined) params.set("routing", String(routing));
    if (spec.version !== undefined) params.set("version", String(spec.version));
    if (spec.version_type !== undefined) params.set("version_type", String(spec.version_type));
    if (spec._source !== undefined) {
      params.delete("_source_includes");
      params.delete("_source_excludes");
      const src = spec._source;
      if (typeof src === "boolean" || typeof src === "string") params.set("_source", String(src));
      else if (Array.isArray(src)) params.set("_source", src.join(","));
      else if (src && typeof src === "object") {
        params.delete("_source");
        const o = src as Record<string, unknown>;
        const list = (v: unknown): string => (Array.isArray(v) ? v.join(",") : String(v));
        if (o.includes ?? o.include) params.set("_source_includes", list(o.includes ?? o.include));
        if (o.excludes ?? o.exclude) params.set("_source_excludes", list(o.excludes ?? o.exclude));
      }
    }
    const sub = { ...ctx, params };
    try {
      const index = ctx.state.cluster.readIndex(indexName);
      const doc = findDoc(sub, index, id, { realtime, named: indexName });
      if (!doc) return { _index: index.name, _id: id, found: false };
      const storedRaw = spec.stored_fields ?? ctx.params.get("stored_fields") ?? undefined;
      const stored = storedRaw === undefined
        ? undefined
        : Array.isArray(storedRaw)
        ? storedRaw.map(String)
        : nameList(String(storedRaw));
      return docBody(sub, index, doc, stored);
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      return { _index: indexName, _id: id, error: errorBody(e).error };
    }
  });
  return ok({ docs });
}
