// Search glue: _search, _count, scroll, point in time (ES and OpenSearch forms) and _msearch.

import { EngineError, illegalArgument, parsingError, validationFailed } from "../_errors.ts";
import { errorBody } from "./error_body.ts";
import {
  clearScrollApi,
  closePitApi,
  foreignPitError,
  openPitApi,
  scrollApi,
} from "../_search/scroll_pit_api.ts";
import { countApi } from "../_search/matches_api.ts";
import {
  type ParsedSearch,
  refuseIndicesWithPit,
  searchApiSliced,
  searchInputApi,
} from "../_search/search_api.ts";
import { parseSearchRequest, type SearchRequest } from "../_search/search_request.ts";
import { parseQuery } from "../_query/query_parser.ts";
import { withQueryDialect } from "../_query/query_parse_util.ts";
import type { QueryNode } from "../_query/query_nodes.ts";
import type { SearchTarget } from "../_index/search_target.ts";
import type { IndexState } from "../_state/index_state.ts";
import { refreshDue } from "../_state/refresh.ts";
import {
  bodyObject,
  bodyTextOf,
  boolParam,
  ok,
  parseJson,
  type Reply,
  type RequestContext,
} from "./context.ts";
import { resolveOptions } from "./targets.ts";
import { resolveTermsLookups } from "./terms_lookup.ts";
import { resolveIndicesBoost } from "./indices_boost.ts";
import { countedSearch } from "./search_stats.ts";

/** Resolves search targets and applies any due scheduled refresh. */
export function searchTargets(
  ctx: RequestContext,
  expression: string | undefined,
  params = ctx.params,
): SearchTarget[] {
  const opts = resolveOptions({ ...ctx, params });
  // The real engines search shards ordered by index name (equal hits come in that order), not
  // in the order the expression named or the cluster created them.
  const indices: IndexState[] = ctx.state.cluster.resolve(expression, opts)
    .sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  refreshDue(indices, ctx.state.now());
  const legacyBm25 = legacyBm25Of(ctx.state);
  return indices.map((i) => ({
    ...i.searchTarget(),
    legacyBm25,
    sourceVectors: i.sourceVectors(ctx.state),
    flavour: ctx.state.flavour,
  }));
}

/**
 * Whether the flavour scores with LegacyBM25Similarity (every boost times 1 + k1): Elasticsearch
 * does, OpenSearch did before 3.0 and uses Lucene's BM25Similarity since.
 */
export function legacyBm25Of(state: { flavour: string; version: string }): boolean {
  return state.flavour === "elasticsearch" || Number(state.version.split(".")[0]) < 3;
}

/**
 * The alias `filter` that applies when the expression is exactly one filtered alias (every index
 * under it carrying the same filter), or undefined.
 */
function aliasFilterOf(ctx: RequestContext, expression: string | undefined): unknown {
  const cluster = ctx.state.cluster;
  if (
    !expression || /[,*]/.test(expression) || cluster.indices.has(expression) || ctx.params.has("q")
  ) {
    return undefined;
  }
  const filters = cluster.aliasIndices(expression).map((i) => i.aliases.get(expression)?.filter);
  if (filters.length === 0 || filters.some((f) => f === undefined)) return undefined;
  const first = JSON.stringify(filters[0]);
  return filters.every((f) => JSON.stringify(f) === first) ? filters[0] : undefined;
}

/**
 * Applies an alias `filter` when the expression is exactly one filtered alias (every index under it
 * carrying the same filter): the query becomes `bool {must: query, filter: aliasFilter}`.
 */
export function withAliasFilter(
  ctx: RequestContext,
  expression: string | undefined,
  body: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  const filter = aliasFilterOf(ctx, expression);
  if (filter === undefined) return body;
  const query = body?.query ?? { match_all: {} };
  return { ...body, query: { bool: { must: [query], filter: [filter] } } };
}

/**
 * The request as parsed from the body, with what the REST layer resolves applied to it instead of
 * to the body (so it is not parsed again): an alias filter (the `bool` of
 * {@linkcode withAliasFilter}) and the concrete indices of `indices_boost`.
 */
function resolvedRequest(
  req: SearchRequest,
  body: Record<string, unknown> | undefined,
  filter: unknown,
  boosts: Array<[string, number]> | undefined,
): SearchRequest {
  let out = req;
  if (filter !== undefined) {
    const bool = parseQuery({ bool: { must: [{ match_all: {} }], filter: [filter] } });
    out = {
      ...out,
      query: body?.query === undefined ? bool : { ...bool, must: [req.query] } as QueryNode,
    };
  }
  return boosts === undefined ? out : { ...out, indicesBoost: boosts };
}

/**
 * Parses the search once, before the search runs (so a bad body is reported before the indices
 * are resolved where that is Elasticsearch's order), and applies the alias filter and the
 * resolved boosts to it. A query only the shards fail to build (`query_shard_exception`) leaves
 * it undefined: the search then parses the body itself and fails on each shard.
 */
function parsedSearch(
  body: Record<string, unknown> | undefined,
  params: URLSearchParams,
  flavour: "elasticsearch" | "opensearch",
): SearchRequest | undefined {
  try {
    return withQueryDialect(flavour, () => parseSearchRequest(body, params));
  } catch (e) {
    if (!(e instanceof EngineError && e.type === "query_shard_exception")) throw e;
    return undefined;
  }
}

/**
 * The search body: the real engines read its first token before the rest, so a body that opens
 * an array is refused as not an object (at that token) even when the rest would not parse.
 */
function searchBody(ctx: RequestContext): Record<string, unknown> | undefined {
  const text = bodyTextOf(ctx);
  const at = text.search(/\S/);
  if (at >= 0 && text[at] === "[") {
    const before = text.slice(0, at).split("\n");
    throw parsingError("Expected [START_OBJECT] but found [START_ARRAY]", {
      line: before.length,
      col: before[before.length - 1]!.length + 1,
    });
  }
  return bodyObject(ctx, "query");
}

/** GET|POST /_search, /{index}/_search (time-sliced: see `searchApiSliced`). */
export async function searchHandler(ctx: RequestContext): Promise<Reply> {
  const raw = searchBody(ctx);
  const body = raw && resolveTermsLookups(raw, ctx.state.cluster);
  const usesPit = body !== undefined && body.pit !== undefined;
  if (usesPit) refuseIndicesWithPit(ctx.p.index !== undefined);
  if (usesPit) refuseForeignPits(ctx, [(body.pit as { id?: unknown } | null)?.id]);
  // Elasticsearch reads the whole request before it resolves the indices: a bad parameter or
  // body is reported even when the index does not exist; a query that only its shards fail to
  // build (query_string nested too deeply) fails later, on each shard of the targets. The
  // parsed request is handed on with the alias filter and the boosts applied: parsed once.
  const req = parsedSearch(body, ctx.params, ctx.state.flavour);
  const targets = usesPit ? [] : searchTargets(ctx, ctx.p.index);
  const filter = usesPit ? undefined : aliasFilterOf(ctx, ctx.p.index);
  const boosts = resolveIndicesBoost(body, ctx.state.cluster, resolveOptions(ctx));
  const parsed: ParsedSearch | undefined = req && {
    body,
    req: resolvedRequest(req, body, filter, boosts),
  };
  return ok(
    await countedSearch(
      ctx,
      usesPit ? pitTargets(ctx, body) : targets,
      body,
      () =>
        ctx.state.timeSliced
          ? searchApiSliced(ctx.state.search, targets, { body, params: ctx.params, parsed })
          : searchInputApi(ctx.state.search, targets, { body, params: ctx.params, parsed }),
    ),
  );
}

/** Refuses, as the real engines do, the first point-in-time id that is not open and none of ours. */
function refuseForeignPits(ctx: RequestContext, ids: readonly unknown[]): void {
  const open = new Set(ctx.state.search.pits().map(([id]) => id));
  for (const id of ids) {
    if (typeof id !== "string" || open.has(id)) continue;
    const foreign = foreignPitError(id, ctx.state.flavour);
    if (foreign) throw foreign;
  }
}

/** The indices a search over a point in time reads (none when the id is unknown). */
function pitTargets(
  ctx: RequestContext,
  body: Record<string, unknown> | undefined,
): SearchTarget[] {
  const id = (body?.pit as { id?: unknown } | undefined)?.id;
  if (typeof id !== "string") return [];
  try {
    return ctx.state.search.pit(id).targets;
  } catch {
    return [];
  }
}

/** GET|POST /_count, /{index}/_count. */
export function countHandler(ctx: RequestContext): Reply {
  const raw = bodyObject(ctx, "query");
  const body = raw && resolveTermsLookups(raw, ctx.state.cluster);
  const targets = searchTargets(ctx, ctx.p.index);
  return ok(
    countedSearch(
      ctx,
      targets,
      body,
      () => countApi(targets, withAliasFilter(ctx, ctx.p.index, body), ctx.params),
    ),
  );
}

/** GET|POST /_search/scroll[/{scroll_id}]. */
export function scrollHandler(ctx: RequestContext): Reply {
  const body = bodyObject(ctx) ?? {};
  const id = (body.scroll_id as string | undefined) ?? ctx.p.scroll_id ??
    ctx.params.get("scroll_id") ?? undefined;
  if (!id) {
    throw validationFailed("scrollId is missing");
  }
  const keepAlive = (body.scroll as string | undefined) ?? ctx.params.get("scroll") ?? undefined;
  const asInt = boolParam(ctx, "rest_total_hits_as_int");
  const scroll = ctx.state.search.scroll(id);
  return ok(
    countedSearch(
      ctx,
      scroll.targets,
      undefined,
      () => scrollApi(ctx.state.search, id, { keepAlive, restTotalHitsAsInt: asInt }),
    ),
  );
}

function idList(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.map(String);
  return String(value).split(",").filter((s) => s !== "");
}

/** DELETE /_search/scroll[/{scroll_id}]. */
export function clearScrollHandler(ctx: RequestContext): Reply {
  const body = bodyObject(ctx) ?? {};
  const ids = [
    ...idList(body.scroll_id),
    ...idList(ctx.p.scroll_id),
    ...idList(ctx.params.get("scroll_id")),
  ];
  const result = clearScrollApi(ctx.state.search, ids.includes("_all") ? "_all" : ids);
  // Elasticsearch's ClearScrollResponse: 404 when nothing was freed (unknown or expired ids).
  return { status: result.num_freed === 0 ? 404 : 200, body: result };
}

/** POST /{index}/_pit (Elasticsearch) and POST /{index}/_search/point_in_time (OpenSearch). */
export function openPitHandler(
  ctx: RequestContext,
  flavour: "elasticsearch" | "opensearch",
): Reply {
  const keepAlive = ctx.params.get("keep_alive");
  if (!keepAlive) {
    throw validationFailed("[keep_alive] is not specified");
  }
  return ok(openPitApi(ctx.state.search, searchTargets(ctx, ctx.p.index), keepAlive, flavour));
}

/** DELETE /_pit (Elasticsearch) and DELETE /_search/point_in_time[/_all] (OpenSearch). */
export function closePitHandler(
  ctx: RequestContext,
  flavour: "elasticsearch" | "opensearch",
): Reply {
  if (ctx.path.endsWith("/_all")) return ok(closePitApi(ctx.state.search, "_all", flavour));
  const body = bodyObject(ctx) ?? {};
  const ids = flavour === "elasticsearch" ? idList(body.id) : idList(body.pit_id);
  refuseForeignPits(ctx, ids);
  const result = closePitApi(ctx.state.search, ids, flavour);
  const notFound = flavour === "elasticsearch" && Number(result.num_freed ?? 1) === 0 &&
    ids.length > 0;
  return { status: notFound ? 404 : 200, body: result };
}

/** GET /_search/point_in_time/_all (OpenSearch): the open points in time. */
export function listPitsHandler(ctx: RequestContext): Reply {
  const pits = ctx.state.search.pits().map(([id, pit]) => ({
    pit_id: id,
    creation_time: pit.createdAt,
    keep_alive: pit.keepAlive,
  }));
  return ok({ pits });
}

/** GET|POST /_msearch, /{index}/_msearch (each search time-sliced, as `_search`). */
export async function msearchHandler(ctx: RequestContext): Promise<Reply> {
  const started = Date.now();
  // As the real engines read it: whatever follows the last newline, even blanks, is refused.
  if (ctx.bodyText !== "" && !ctx.bodyText.endsWith("\n")) {
    throw illegalArgument("The msearch request must be terminated by a newline [\n]");
  }
  const lines = ctx.bodyText.split("\n").filter((l) => l.trim() !== "");
  if (lines.length === 0) {
    throw validationFailed("no requests added");
  }
  const responses: unknown[] = [];
  for (let i = 0; i < lines.length; i += 2) {
    const header = parseJson(lines[i]!) as Record<string, unknown>;
    const body = lines[i + 1] === undefined
      ? {}
      : parseJson(lines[i + 1]!, "query") as Record<string, unknown>;
    try {
      const params = new URLSearchParams(ctx.params);
      for (
        const key of [
          "ignore_unavailable",
          "allow_no_indices",
          "expand_wildcards",
          "search_type",
          "routing",
          "preference",
        ]
      ) {
        if (header[key] !== undefined) params.set(key, String(header[key]));
      }
      const index = header.index === undefined
        ? ctx.p.index
        : Array.isArray(header.index)
        ? header.index.join(",")
        : String(header.index);
      const targets = body.pit !== undefined ? [] : searchTargets(ctx, index, params);
      const boosts = resolveIndicesBoost(
        body,
        ctx.state.cluster,
        resolveOptions({ ...ctx, params }),
      );
      // Parsed after the targets (an unknown index is reported first), and only once.
      let parsed: ParsedSearch | undefined;
      try {
        parsed = {
          body,
          req: resolvedRequest(
            withQueryDialect(ctx.state.flavour, () => parseSearchRequest(body, params)),
            body,
            undefined,
            boosts,
          ),
        };
      } catch {
        // the search parses the body again and reports the error where Elasticsearch does
      }
      const counted = body.pit !== undefined ? pitTargets(ctx, body) : targets;
      const response = await countedSearch(
        ctx,
        counted,
        body,
        () =>
          ctx.state.timeSliced
            ? searchApiSliced(ctx.state.search, targets, { body, params, parsed })
            : searchInputApi(ctx.state.search, targets, { body, params, parsed }),
      );
      responses.push({ ...response, status: 200 });
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      responses.push(errorBody(e, ctx.state.flavour));
    }
  }
  return ok({ took: Date.now() - started, responses });
}
