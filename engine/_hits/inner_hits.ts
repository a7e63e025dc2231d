// `inner_hits` of `nested` queries: for each hit, its objects under the path that match the nested
// query, scored, sorted and paged on their own, each rendered like a hit (`_source`, `highlight`,
// `docvalue_fields`, `fields`, `_version`, `_seq_no`) with `_nested` telling where it sits. The
// objects are the nested query's own (one implementation, in `_query/nested_query.ts`), so inner
// hits match and score exactly as the query did. A nested query inside another one's query gives
// inner hits inside each of the outer inner hits when the outer asks for them too.

import { illegalArgument, parsingError } from "../_errors.ts";
import type { SearchTarget } from "../_index/search_target.ts";
import type { ShardSnapshot } from "../_index/shard_snapshot.ts";
import { type ExecContext, execContextOf } from "../_query/exec_context.ts";
import type { Hits } from "../_query/doc_set.ts";
import { nestedIdentity, nestedScope, type NestedStep } from "../_query/nested_objects.ts";
import { checkNestedPath, matchObjects } from "../_query/nested_query.ts";
import { execute } from "../_query/query_exec.ts";
import { matchedQueries } from "../_query/named_queries.ts";
import type { QueryNode } from "../_query/query_nodes.ts";
import { parseQuery } from "../_query/query_parser.ts";
import { float32 } from "../_query/score.ts";
import { mergeShardHits } from "../_query/shard_hits.ts";
import { shardLayoutOf, shardSnapshots } from "../_index/shard_stats.ts";
import { type FieldRequest, parseFieldRequests } from "./fetch_fields.ts";
import { type HighlightRequest, parseHighlight } from "./highlight.ts";
import { compareValues, parseSort, type SortKey, sortReader, type SortValue } from "./sort.ts";
import { parseSourceFilter, type SourceFilter } from "./source_filter.ts";

/** One `inner_hits` section of a `nested` query. */
export interface NestedInnerHits {
  /** The key under `inner_hits` (`name`, else the path). */
  readonly name: string;
  /** The nested path. */
  readonly path: string;
  /** The nested query's own query, run per object. */
  readonly query: QueryNode;
  /** The nested query's `ignore_unmapped`: an unmapped path gives no section. */
  readonly ignoreUnmapped: boolean;
  /** First inner hit shown. */
  readonly from: number;
  /** Inner hits shown (3 unless set). */
  readonly size: number;
  /** `_source` filtering of the objects (full paths, as `comments.stars`). */
  readonly source: SourceFilter;
  /** `sort` (by score when empty). */
  readonly sort: readonly SortKey[];
  /** `track_scores`: scores shown even when sorting by fields. */
  readonly trackScores: boolean;
  /** `version`. */
  readonly version: boolean;
  /** `seq_no_primary_term`. */
  readonly seqNoPrimaryTerm: boolean;
  /** `docvalue_fields`. */
  readonly docvalueFields: readonly FieldRequest[];
  /** `fields`. */
  readonly fields: readonly FieldRequest[];
  /** `highlight`. */
  readonly highlight: HighlightRequest | null;
  /** Inner hits of nested queries inside this one's query, shown per inner hit. */
  readonly children: readonly NestedInnerHits[];
}

const NO_PARAMS = new URLSearchParams();
const KEYS = new Set([
  "name",
  "from",
  "size",
  "_source",
  "sort",
  "track_scores",
  "version",
  "seq_no_primary_term",
  "docvalue_fields",
  "fields",
  "highlight",
  "explain",
  "stored_fields",
  "ignore_unmapped",
]);

function count(raw: unknown, name: string, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) {
    throw parsingError(`[inner_hits] [${name}] must be a non-negative integer, got [${raw}]`);
  }
  return n;
}

function parseSpec(o: Record<string, unknown>, path: string): NestedInnerHits {
  const ih = o.inner_hits as Record<string, unknown>;
  for (const key of Object.keys(ih)) {
    if (!KEYS.has(key)) throw parsingError(`[inner_hits] unknown field [${key}]`);
  }
  return {
    name: typeof ih.name === "string" ? ih.name : path,
    path,
    query: parseQuery(o.query),
    ignoreUnmapped: o.ignore_unmapped === true || o.ignore_unmapped === "true",
    from: count(ih.from, "from", 0),
    size: count(ih.size, "size", 3),
    source: parseSourceFilter(ih._source, NO_PARAMS),
    sort: parseSort(ih.sort, null),
    trackScores: ih.track_scores === true,
    version: ih.version === true,
    seqNoPrimaryTerm: ih.seq_no_primary_term === true,
    docvalueFields: parseFieldRequests(ih.docvalue_fields, null),
    fields: parseFieldRequests(ih.fields, null),
    highlight: parseHighlight(ih.highlight),
    children: findNestedInnerHits(o.query),
  };
}

/**
 * Every `nested` query with `inner_hits` in a raw query body, in document order; those inside a
 * nested query that has `inner_hits` itself become its children.
 */
export function findNestedInnerHits(json: unknown, out: NestedInnerHits[] = []): NestedInnerHits[] {
  if (Array.isArray(json)) {
    for (const v of json) findNestedInnerHits(v, out);
    return out;
  }
  if (json === null || typeof json !== "object") return out;
  // Own keys in order, as Object.entries lists them, without an array of pairs per object
  // (every search walks its query here).
  const record = json as Record<string, unknown>;
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    const value = record[key];
    const o = value as Record<string, unknown> | null;
    if (
      key === "nested" && o !== null && typeof o === "object" && typeof o.path === "string" &&
      o.inner_hits !== null && typeof o.inner_hits === "object"
    ) {
      out.push(parseSpec(o, o.path));
      continue;
    }
    findNestedInnerHits(value, out);
  }
  return out;
}

/** Refuses what Elasticsearch refuses on the shard: a name used twice, a window past the limit. */
export function checkInnerHits(specs: readonly NestedInnerHits[], maxWindow: number): void {
  const names = new Set<string>();
  for (const spec of specs) {
    if (names.has(spec.name)) {
      throw illegalArgument(`[inner_hits] already contains an entry for key [${spec.name}]`);
    }
    names.add(spec.name);
    const window = spec.from + spec.size;
    if (window > maxWindow) {
      throw illegalArgument(
        `Inner result window is too large, the inner hit definition's [${spec.name}]'s from + size must be less than or equal to: [${maxWindow}] but was [${window}]. This limit can be set by changing the [index.max_inner_result_window] index level setting.`,
      );
    }
    checkInnerHits(spec.children, maxWindow);
  }
}

/** Renders one inner hit like a hit of `target` (the objects). */
export type InnerHitRenderer = (
  hit: { doc: number; score: number; sort: SortValue[] | null },
  target: SearchTarget,
  spec: NestedInnerHits,
) => Record<string, unknown>;

const matchCache = new WeakMap<NestedInnerHits, WeakMap<ShardSnapshot, Matched>>();

interface Matched {
  readonly hits: Hits;
  readonly parent: Int32Array;
  readonly ctx: ExecContext;
}

/** The objects matching a spec's query in a target (once per search and snapshot). */
function matched(spec: NestedInnerHits, target: SearchTarget, now: number): Matched | null {
  let bySnapshot = matchCache.get(spec);
  if (!bySnapshot) matchCache.set(spec, bySnapshot = new WeakMap());
  let m = bySnapshot.get(target.snapshot);
  if (!m) {
    const ctx = execContextOf(target, now);
    if (!checkNestedPath(ctx, spec)) return null;
    if ((target.shards ?? 1) > 1) {
      // Each shard scores its own objects with its own statistics, as the query did.
      const parts = shardSnapshots(target.snapshot, shardLayoutOf(target)).map((snapshot) =>
        matchObjects({ ...ctx, snapshot }, spec, "score", execute)
      );
      m = { ...parts[0]!, hits: mergeShardHits(parts.map((p) => p.hits)) };
    } else m = matchObjects(ctx, spec, "score", execute);
    bySnapshot.set(target.snapshot, m);
  }
  return m;
}

/** The run of matches (indexes into `hits`) whose parent is `doc`. */
function matchesOf(m: Matched, doc: number): number[] {
  const docs = m.hits.docs;
  let lo = 0;
  let hi = docs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (m.parent[docs[mid]!]! < doc) lo = mid + 1;
    else hi = mid;
  }
  const out: number[] = [];
  for (let i = lo; i < docs.length && m.parent[docs[i]!] === doc; i++) out.push(i);
  return out;
}

/** The value at a dotted path of a rendered `_source` (the object itself, unwrapped). */
function unwrap(source: unknown, path: string): unknown {
  let v = source;
  for (const part of path.split(".")) {
    if (v === null || typeof v !== "object" || !Object.hasOwn(v, part)) return {};
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

/** The `inner_hits` section of one hit (`doc` in `target`), for each spec, as of now. */
export function renderInnerHits(
  specs: readonly NestedInnerHits[],
  target: SearchTarget,
  doc: number,
  render: InnerHitRenderer,
): Record<string, unknown> {
  const now = Date.now();
  const out: Record<string, unknown> = {};
  for (const spec of specs) {
    const m = matched(spec, target, now);
    if (!m) continue;
    const scope = nestedScope(execContextOf(target, now), spec.path);
    const objects: SearchTarget = { ...target, snapshot: scope.snapshot };
    const mine = matchesOf(m, doc).map((i) => ({
      doc: m.hits.docs[i]!,
      score: m.hits.scores?.[i] ?? 1,
      sort: null as SortValue[] | null,
    }));
    if (spec.sort.length) {
      const readers = spec.sort.map((k) =>
        sortReader(k, { snapshot: scope.snapshot, fields: m.ctx.fields, index: target.index }, 0)
      );
      for (const h of mine) h.sort = readers.map((r) => r(h.doc, h.score));
      mine.sort((a, b) => {
        for (let k = 0; k < spec.sort.length; k++) {
          const c = compareValues(a.sort![k]!, b.sort![k]!, spec.sort[k]!);
          if (c !== 0) return c;
        }
        return a.doc - b.doc;
      });
    } else {
      mine.sort((a, b) => b.score - a.score || a.doc - b.doc);
    }
    const scored = spec.sort.length === 0 || spec.trackScores ||
      spec.sort.some((k) => k.field === "_score");
    const page = mine.slice(spec.from, spec.from + spec.size);
    // Named queries inside the nested query are reported per inner hit (the objects match them).
    const named = matchedQueries(
      spec.query,
      page.map((h) => ({ t: 0, doc: h.doc })),
      [m.ctx],
      "filter",
    );
    const hits = page.map((h, i) => {
      const hit = asNestedHit(render(h, objects, spec), scope.snapshot, h.doc);
      if (named[i] !== undefined) hit.matched_queries = named[i];
      return hit;
    });
    out[spec.name] = {
      hits: {
        total: { value: mine.length, relation: "eq" },
        max_score: mine.length && scored ? float32(Math.max(...mine.map((h) => h.score))) : null,
        hits,
      },
    };
  }
  return out;
}

/**
 * A hit rendered from a nested object, as Elasticsearch shows one: `_nested` (where the object
 * sits) after `_id`, the object alone as `_source`, no `_routing`. Other hits pass unchanged.
 */
export function asNestedHit(
  rendered: Record<string, unknown>,
  snapshot: ShardSnapshot,
  doc: number,
): Record<string, unknown> {
  const identity = nestedIdentity(snapshot, doc);
  if (!identity) return rendered;
  const { _index, _id, _routing: _, ...rest } = rendered;
  const hit: Record<string, unknown> = { _index, _id, _nested: nestedOf(identity.steps) };
  for (const [k, v] of Object.entries(rest)) {
    hit[k] = k === "_source" ? unwrap(v, identity.path) : v;
  }
  return hit;
}

/** `_nested` as Elasticsearch writes it: `{field, offset, _nested: {…}}`, outermost first. */
function nestedOf(steps: readonly NestedStep[]): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (let i = steps.length - 1; i >= 0; i--) {
    const s = steps[i]!;
    out = { field: s.field, offset: s.offset, ...(out ? { _nested: out } : {}) };
  }
  return out ?? {};
}
