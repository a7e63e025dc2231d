// Handlers of the alias APIs: put, delete, get, exists and POST /_aliases actions.

import {
  type EngineError,
  esError,
  illegalArgument,
  validationFailed,
  xContentParseError,
} from "../_errors.ts";
import type { AliasMeta, IndexState } from "../_state/index_state.ts";
import { indexNotFound } from "../_state/cluster.ts";
import { changeAliases } from "../_state/alias_changes.ts";
import { resolveDateMathName } from "../_state/date_math_names.ts";
import { matchPattern } from "../_index/name_pattern.ts";
import { bodyObject, ok, type Reply, type RequestContext, requireBody } from "./context.ts";
import { targets } from "./targets.ts";

/** Reads alias options (`filter`, `routing`, `index_routing`, `search_routing`, `is_write_index`, `is_hidden`). */
export function readAliasMeta(raw: unknown): AliasMeta {
  const meta: AliasMeta = {};
  if (raw === null || typeof raw !== "object") return meta;
  const o = raw as Record<string, unknown>;
  if (o.filter !== undefined) meta.filter = o.filter as Record<string, unknown>;
  if (o.routing !== undefined) meta.index_routing = meta.search_routing = String(o.routing);
  if (o.index_routing !== undefined) meta.index_routing = String(o.index_routing);
  if (o.search_routing !== undefined) meta.search_routing = String(o.search_routing);
  if (o.is_write_index !== undefined) {
    meta.is_write_index = o.is_write_index === true || o.is_write_index === "true";
  }
  if (o.is_hidden !== undefined) meta.is_hidden = o.is_hidden === true || o.is_hidden === "true";
  return meta;
}

/** The `aliases` object of an index, as GET shows it. */
export function aliasView(index: IndexState, names?: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, meta] of [...index.aliases].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (names && !names.some((n) => n === "_all" || matchPattern(n, name))) continue;
    out[name] = { ...meta };
  }
  return out;
}

function aliasNames(raw: string | undefined): string[] | undefined {
  return raw === undefined
    ? undefined
    : raw.split(",").map((s) => s.trim()).filter((s) => s !== "");
}

const ALIAS_BODY_KEYS = new Set([
  "index",
  "indices",
  "alias",
  "aliases",
  "filter",
  "routing",
  "index_routing",
  "search_routing",
  "is_write_index",
  "is_hidden",
  "must_exist",
]);

/**
 * Refuses an unknown field of a put-alias body as the real engines do: OpenSearch 3.8.0 says
 * `unknown field [key]`, Elasticsearch 9.5.4 `Unsupported field [key]` (for an object, its first
 * field inside) and refuses `is_hidden` there too. Both as `illegal_argument_exception`.
 */
function checkAliasBody(ctx: RequestContext, body: Record<string, unknown>): void {
  const es = ctx.state.flavour === "elasticsearch";
  for (const [key, value] of Object.entries(body)) {
    if (ALIAS_BODY_KEYS.has(key) && !(es && key === "is_hidden")) continue;
    if (!es) throw illegalArgument(`unknown field [${key}]`);
    const inner = value !== null && typeof value === "object" && !Array.isArray(value)
      ? Object.keys(value)[0]
      : undefined;
    throw illegalArgument(`Unsupported field [${inner ?? key}]`);
  }
}

/** PUT /{index}/_alias/{name}, also with index and/or alias given in the body. */
export function putAliasHandler(ctx: RequestContext): Reply {
  const body = bodyObject(ctx) ?? {};
  checkAliasBody(ctx, body);
  const meta = readAliasMeta(body);
  if (body.alias !== undefined && typeof body.alias !== "string") {
    throw xContentParseError("[1:10] [alias] failed to parse field [alias]");
  }
  const given = (body.alias as string | undefined) ?? ctx.p.name;
  // An added alias's name may be date math (`<logs-{now/d}>`), resolved as the alias is made.
  const name = given === undefined ? undefined : resolveDateMathName(given, ctx.state.now());
  const indexExpr = body.index ?? body.indices ?? ctx.p.index;
  // Both real engines check the indices first, then the name.
  if (!indexExpr) throw illegalArgument("[indices] can't be empty");
  if (!name) throw illegalArgument("[alias] can't be empty string");
  const expression = Array.isArray(indexExpr) ? indexExpr.join(",") : String(indexExpr);
  const found = ctx.state.cluster.resolve(expression, { includeClosed: true });
  if (found.length === 0) throw indexNotFound(expression);
  const cluster = ctx.state.cluster;
  changeAliases(cluster, () => {
    for (const index of found) cluster.putAlias(index, name, meta);
  });
  return aliasesChanged(ctx);
}

/** What an alias change answers: Elasticsearch 8.14+ adds `errors: false` (OpenSearch does not). */
function aliasesChanged(ctx: RequestContext): Reply {
  return ok(
    ctx.state.flavour === "elasticsearch"
      ? { acknowledged: true, errors: false }
      : { acknowledged: true },
  );
}

/** DELETE /{index}/_alias/{name}. */
export function deleteAliasHandler(ctx: RequestContext): Reply {
  const names = aliasNames(ctx.p.name) ?? [];
  let removed = 0;
  for (const index of targets(ctx)) {
    for (const alias of [...index.aliases.keys()]) {
      if (names.some((n) => n === "_all" || n === "*" || matchPattern(n, alias))) {
        index.aliases.delete(alias);
        removed++;
      }
    }
  }
  if (removed === 0) {
    throw esError("aliases_not_found_exception", `aliases [${names.join(",")}] missing`, {
      "resource.type": "aliases",
      "resource.id": names.join(","),
    });
  }
  return aliasesChanged(ctx);
}

/** GET /_alias, /_alias/{name}, /{index}/_alias[/{name}] (and HEAD for exists). */
export function getAliasHandler(ctx: RequestContext): Reply {
  const names = aliasNames(ctx.p.name);
  const out: Record<string, unknown> = {};
  const seen = new Set<string>();
  // Elasticsearch's get-aliases options expand wildcards to open, closed and hidden indices.
  const defaults = { includeClosed: true, expandClosed: true, expandHidden: true };
  for (const index of targets(ctx, defaults)) {
    const view = aliasView(index, names);
    for (const name of Object.keys(view)) seen.add(name);
    if (names === undefined || Object.keys(view).length > 0) out[index.name] = { aliases: view };
  }
  const missing = (names ?? []).filter((n) => n !== "_all" && !n.includes("*") && !seen.has(n))
    .sort();
  if (ctx.method === "HEAD") {
    return { status: missing.length === 0 && (names === undefined || seen.size > 0) ? 200 : 404 };
  }
  if (missing.length > 0) {
    const what = missing.length === 1
      ? `alias [${missing[0]}] missing`
      : `aliases [${missing.join(",")}] missing`;
    return { status: 404, body: { error: what, status: 404, ...out } };
  }
  return ok(out);
}

function asList(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v.map(String) : [String(v)];
}

/** POST /_aliases with `actions`. */
export function updateAliasesHandler(ctx: RequestContext): Reply {
  const body = requireBody(ctx);
  const actions = body.actions;
  if (!Array.isArray(actions)) {
    throw validationFailed("no actions specified");
  }
  const cluster = ctx.state.cluster;
  const plan: Array<() => void> = [];
  for (const action of actions as Array<Record<string, unknown>>) {
    if (action === null || typeof action !== "object" || Array.isArray(action)) {
      throw xContentParseError(
        "[aliases] failed to parse field [actions]: each action must be an object",
      );
    }
    const [kind] = Object.keys(action);
    const spec = (action[kind!] ?? {}) as Record<string, unknown>;
    const indexExpr = [...asList(spec.index), ...asList(spec.indices)].join(",");
    const aliases = [...asList(spec.alias), ...asList(spec.aliases)];
    if (Array.isArray(spec.aliases) && spec.aliases.length === 0) {
      // The action parser's refusal, wrapped by each parser above it (both real engines).
      const wrap = (reason: string, cause: EngineError) =>
        esError("x_content_parse_exception", reason, {}, cause);
      throw wrap(
        "[1:2] [aliases] failed to parse field [actions]",
        wrap(
          `[1:2] [alias_action] failed to parse field [${kind}]`,
          wrap(
            `[1:2] [${kind}] failed to parse field [aliases]`,
            illegalArgument("[aliases] can't be empty"),
          ),
        ),
      );
    }
    if (!indexExpr) {
      throw validationFailed("One of [index] or [indices] is required");
    }
    const indices = cluster.resolve(indexExpr, { includeClosed: true });
    if (kind === "add") {
      if (aliases.length === 0) {
        throw validationFailed("One of [alias] or [aliases] is required");
      }
      const meta = readAliasMeta(spec);
      const now = ctx.state.now();
      for (const index of indices) {
        for (const a of aliases) {
          plan.push(() => cluster.putAlias(index, resolveDateMathName(a, now), meta));
        }
      }
    } else if (kind === "remove") {
      // Java's list of the names (`[a, b]`); one name is a string in `resource.id`, more a list
      const missing = (names: string[]): EngineError =>
        esError("aliases_not_found_exception", `aliases [${names.join(", ")}] missing`, {
          "resource.type": "aliases",
          "resource.id": names.length === 1 ? names[0] : names,
        });
      const holdersOf = (a: string): IndexState[] =>
        indices.filter((i) => [...i.aliases.keys()].some((k) => matchPattern(a, k)));
      const absent = aliases.filter((a) => holdersOf(a).length === 0);
      const mustExist = spec.must_exist;
      const es = ctx.state.flavour === "elasticsearch";
      // `must_exist: true` fails on an absent alias (Elasticsearch names the first, OpenSearch
      // all); else none found fails, but OpenSearch 2.12+ lets `must_exist: false` pass silently.
      if (absent.length > 0 && mustExist === true) throw missing(es ? absent.slice(0, 1) : absent);
      if (absent.length === aliases.length && (es || mustExist === undefined)) {
        throw missing(aliases);
      }
      for (const a of aliases) {
        for (const index of holdersOf(a)) {
          plan.push(() => {
            for (const k of [...index.aliases.keys()]) {
              if (matchPattern(a, k)) index.aliases.delete(k);
            }
          });
        }
      }
    } else if (kind === "remove_index") {
      for (const index of indices) {
        plan.push(() => {
          index.release();
          cluster.indices.delete(index.name);
        });
      }
    } else {
      throw xContentParseError(`[1:2] [alias_action] unknown field [${kind}]`);
    }
  }
  changeAliases(cluster, () => {
    for (const step of plan) step();
  });
  return aliasesChanged(ctx);
}
