// Renders ordered candidates as Elasticsearch hit objects and the `hits` section.

import { RawJson, sourceOut } from "../_index/raw_source.ts";
import { KeptDoc } from "../_index/kept_doc.ts";
import { docValueFields, type FieldRequest, sourceFields } from "./fetch_fields.ts";
import { type FieldMap, fieldMapOf } from "../_index/field_map.ts";
import { fieldsWithOffsets, highlightHit, type HighlightRequest, queryTerms } from "./highlight.ts";
import type { QueryNode } from "../_query/query_nodes.ts";
import { applySourceFilter, type SourceFilter, withoutVectors } from "./source_filter.ts";
import { float32 } from "../_query/score.ts";
import { nestedIdentity } from "../_query/nested_objects.ts";
import type { ScoreScript } from "../_query/query_nodes.ts";
import { scriptFieldValue } from "../_query/script_score.ts";
import { execContextOf } from "../_query/exec_context.ts";
import type { SearchTarget } from "../_index/search_target.ts";
import type { SortValue } from "./sort.ts";
import { type InnerHitRenderer, type NestedInnerHits, renderInnerHits } from "./inner_hits.ts";

/** One ordered hit: target index, global doc ordinal, score and sort values. */
export interface Candidate {
  /** Index into the targets array. */
  readonly t: number;
  /** Global doc ordinal in that target's snapshot. */
  readonly doc: number;
  /** Score (0 when not scored). */
  readonly score: number;
  /** Sort values when sorting by keys. */
  readonly sort: SortValue[] | null;
  /** The collapse key, when collapsing. */
  readonly collapse?: SortValue;
}

/** How hits are rendered. */
export interface HitOptions {
  /** `_source` filter. */
  readonly source: SourceFilter;
  /** Show `_score` values (else null). */
  readonly scores: boolean;
  /** Show `sort` arrays. */
  readonly sort: boolean;
  /** Show `_version`. */
  readonly version: boolean;
  /** Show `_seq_no` and `_primary_term`. */
  readonly seqNoPrimaryTerm: boolean;
  /** Hide `_id` and `_source` (`stored_fields: _none_`). */
  readonly storedFieldsNone: boolean;
  /** `docvalue_fields`. */
  readonly docvalueFields: readonly FieldRequest[];
  /** `fields`. */
  readonly fields: readonly FieldRequest[];
  /** The collapse field, reported under `fields`. */
  readonly collapseField?: string;
  /** `highlight` with the query whose terms to mark. */
  readonly highlight?: { readonly request: HighlightRequest; readonly query: QueryNode };
  /** `inner_hits` of the query's `nested` clauses. */
  readonly innerHits?: readonly NestedInnerHits[];
  /** `script_fields`, by name, reported under `fields`. */
  readonly scriptFields?: ReadonlyArray<readonly [string, ScoreScript]>;
}

const termsCache = new WeakMap<QueryNode, Map<FieldMap, ReturnType<typeof queryTerms>>>();

function termsFor(query: QueryNode, fields: FieldMap): ReturnType<typeof queryTerms> {
  let perMap = termsCache.get(query);
  if (!perMap) termsCache.set(query, perMap = new Map());
  let terms = perMap.get(fields);
  if (!terms) perMap.set(fields, terms = queryTerms(query, fields));
  return terms;
}

/** One hit object. */
export function renderHit(
  c: Candidate,
  target: SearchTarget,
  o: HitOptions,
): Record<string, unknown> {
  const doc = target.snapshot.doc(c.doc);
  const hit: Record<string, unknown> = { _index: target.index };
  if (!o.storedFieldsNone) hit._id = doc.id;
  if (o.version) hit._version = doc.version;
  if (o.seqNoPrimaryTerm) {
    hit._seq_no = doc.seqNo;
    hit._primary_term = doc.primaryTerm;
  }
  hit._score = o.scores ? float32(c.score) : null;
  if (doc.routing !== undefined) hit._routing = doc.routing;
  // Read once: a kept document parses its source text on each read.
  let whole: Record<string, unknown> | undefined;
  const docSource = (): Record<string, unknown> => (whole ??= doc.source);
  if (!o.storedFieldsNone) {
    const filter = target.sourceVectors ? withoutVectors(o.source, target.sourceVectors) : o.source;
    if (
      filter.fetch && !filter.includes.length && !filter.excludes.length && doc instanceof KeptDoc
    ) {
      // The whole source of a kept document goes out as its text (what `sourceOut` gives for
      // its parsed object): never parsed only to be thrown away.
      hit._source = new RawJson(doc.text.trim());
    } else {
      const source = applySourceFilter(docSource(), filter);
      if (source !== undefined) hit._source = sourceOut(source);
    }
  }
  if (o.docvalueFields.length || o.fields.length) {
    const fields = {
      ...sourceFields(
        target,
        docSource(),
        o.fields,
        nestedIdentity(target.snapshot, c.doc)?.path ?? "",
      ),
      ...docValueFields(target, c.doc, o.docvalueFields),
    };
    if (Object.keys(fields).length) hit.fields = fields;
  }
  if (o.scriptFields?.length) {
    const ctx = execContextOf(target, Date.now());
    const fields = { ...(hit.fields as Record<string, unknown> | undefined) };
    for (const [name, script] of o.scriptFields) {
      fields[name] = scriptFieldValue(ctx, script, c.doc);
    }
    hit.fields = fields;
  }
  if (c.collapse !== undefined && o.collapseField) {
    hit.fields = {
      ...(hit.fields as Record<string, unknown> | undefined),
      [o.collapseField]: [c.collapse],
    };
  }
  if (o.highlight) {
    const fields = fieldMapOf(target.mappings);
    const marked = highlightHit(
      docSource(),
      fields,
      { request: o.highlight.request, terms: termsFor(o.highlight.query, fields) },
      {
        max: target.maxAnalyzedOffset ?? 1_000_000,
        index: target.index,
        flavour: target.flavour ?? "elasticsearch",
        doc: c.doc,
        offsets: fieldsWithOffsets(target.mappings),
      },
    );
    if (marked) hit.highlight = marked;
  }
  if (o.innerHits?.length) {
    hit.inner_hits = renderInnerHits(o.innerHits, target, c.doc, renderInner);
  }
  // Infinite sort values (a missing float or double) are written as Jackson writes them.
  if (o.sort && c.sort) {
    hit.sort = c.sort.map((v) =>
      typeof v === "number" && !Number.isFinite(v) ? (v > 0 ? "Infinity" : "-Infinity") : v
    );
  }
  return hit;
}

/** An inner hit rendered as a hit of the nested objects, with the options its spec asks for. */
const renderInner: InnerHitRenderer = (h, target, spec) =>
  renderHit({ t: 0, doc: h.doc, score: h.score, sort: h.sort }, target, {
    source: spec.source,
    scores: spec.sort.length === 0 || spec.trackScores ||
      spec.sort.some((k) => k.field === "_score"),
    sort: spec.sort.length > 0,
    version: spec.version,
    seqNoPrimaryTerm: spec.seqNoPrimaryTerm,
    storedFieldsNone: false,
    docvalueFields: spec.docvalueFields,
    fields: spec.fields,
    highlight: spec.highlight ? { request: spec.highlight, query: spec.query } : undefined,
    innerHits: spec.children,
  });

/**
 * The `hits.total` value, or undefined when not tracked; a bare number (-1 when not tracked)
 * with `rest_total_hits_as_int`.
 */
export function renderTotal(
  total: number,
  track: number | boolean,
  opts: { restTotalHitsAsInt: boolean },
): unknown {
  const asInt = opts.restTotalHitsAsInt;
  if (track === false) return asInt ? -1 : undefined;
  if (asInt) return total;
  if (track === true || total <= track) return { value: total, relation: "eq" };
  return { value: track, relation: "gte" };
}

/** What a `hits` section says besides its hits: the total and the best score. */
export interface HitsHeader {
  /** The rendered `total` (see {@link renderTotal}); left out when undefined. */
  readonly total: unknown;
  /** The best score, or null when not scored. */
  readonly maxScore: number | null;
}

/** The `hits` section for a page of candidates. */
export function renderHits(
  page: Candidate[],
  targets: SearchTarget[],
  header: HitsHeader,
  o: HitOptions,
): Record<string, unknown> {
  const out = hitsHeader(header);
  out.hits = page.map((c) => renderHit(c, targets[c.t]!, o));
  return out;
}

/** Hits rendered between two pause points of {@link renderHitsSteps}. */
export const RENDER_BLOCK = 8;

/**
 * {@link renderHits} in steps: it yields between blocks of {@link RENDER_BLOCK} hits (a long page,
 * or hits with highlights and fields), where a time-sliced search may pause; the section is the
 * one {@link renderHits} returns.
 */
export function* renderHitsSteps(
  page: Candidate[],
  targets: SearchTarget[],
  header: HitsHeader,
  o: HitOptions,
): Generator<void, Record<string, unknown>, void> {
  const out = hitsHeader(header);
  const hits: Record<string, unknown>[] = [];
  for (let i = 0; i < page.length; i++) {
    if (i > 0 && i % RENDER_BLOCK === 0) yield;
    const c = page[i]!;
    hits.push(renderHit(c, targets[c.t]!, o));
  }
  out.hits = hits;
  return out;
}

function hitsHeader({ total, maxScore }: HitsHeader): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (total !== undefined) out.total = total;
  out.max_score = maxScore === null ? null : float32(maxScore);
  return out;
}
