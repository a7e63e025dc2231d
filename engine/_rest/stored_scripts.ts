// Stored scripts: `PUT|POST /_scripts/{id}[/{context}]`, `GET` and `DELETE /_scripts/{id}`, kept
// with the cluster as the real engines keep them in its state.

import { illegalArgument, resourceNotFound, xContentParseError } from "../_errors.ts";
import { isJsonObject } from "../_json.ts";
import type { Cluster } from "../_state/cluster.ts";
import { bodyObject, ok, type Reply, type RequestContext } from "./context.ts";

/** One stored script as `GET /_scripts/{id}` shows it. */
interface StoredScript {
  lang: string;
  source: string;
  options?: Record<string, string>;
}

/** The languages a script may be stored in. */
const LANGS = new Set(["painless", "mustache", "expression"]);

const STORES = new WeakMap<Cluster, Map<string, StoredScript>>();

function store(ctx: RequestContext): Map<string, StoredScript> {
  let scripts = STORES.get(ctx.state.cluster);
  if (!scripts) STORES.set(ctx.state.cluster, scripts = new Map());
  return scripts;
}

/** `PUT|POST /_scripts/{id}[/{context}]`: `{"script":{"lang","source","options"?}}`. */
export function putScriptHandler(ctx: RequestContext): Reply {
  const body = bodyObject(ctx) ?? {};
  const script = body.script;
  if (!isJsonObject(script)) throw illegalArgument("must specify lang for stored script");
  const lang = script.lang;
  if (typeof lang !== "string" || lang === "") {
    throw illegalArgument("must specify lang for stored script");
  }
  if (!LANGS.has(lang)) {
    throw illegalArgument(`unable to put stored script with unsupported lang [${lang}]`);
  }
  const source = script.source ?? script.code;
  if (source === undefined || source === null) {
    throw illegalArgument("must specify source for stored script");
  }
  // A template's source may be an object: stored as its JSON text, with its content type.
  const stored: StoredScript = typeof source === "string"
    ? { lang, source }
    : isJsonObject(source)
    ? {
      lang,
      source: JSON.stringify(source),
      options: { content_type: "application/json; charset=UTF-8" },
    }
    : (() => {
      throw xContentParseError("[script] failed to parse field [source]");
    })();
  store(ctx).set(ctx.p.id!, stored);
  return ok({ acknowledged: true });
}

/** `GET /_scripts/{id}`: the script, or `found: false` with a 404. */
export function getScriptHandler(ctx: RequestContext): Reply {
  const id = ctx.p.id!;
  const script = store(ctx).get(id);
  if (!script) return { status: 404, body: { _id: id, found: false } };
  return ok({ _id: id, found: true, script });
}

/** `DELETE /_scripts/{id}`. */
export function deleteScriptHandler(ctx: RequestContext): Reply {
  const id = ctx.p.id!;
  if (!store(ctx).delete(id)) {
    throw resourceNotFound(`stored script [${id}] does not exist and cannot be deleted`);
  }
  return ok({ acknowledged: true });
}
