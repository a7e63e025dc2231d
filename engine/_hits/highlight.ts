// A plain highlighter: wraps the query's terms found in `_source` text in `<em>` tags.

import { setOwn } from "../_index/own.ts";
import { EngineError, illegalArgument, parsingError } from "../_errors.ts";
import type { FieldMap } from "../_index/field_map.ts";
import { sourceValues } from "./fetch_fields.ts";
import type { QueryNode } from "../_query/query_nodes.ts";
import { nameMatcher } from "../_index/name_pattern.ts";
import type { JsonObject } from "../_json.ts";
import type { FieldMapping, Mappings } from "../_index/types.ts";

/** A parsed `highlight` request. */
export interface HighlightRequest {
  /** Field patterns with their options. */
  readonly fields: ReadonlyArray<{ pattern: string; fragmentSize: number; fragments: number }>;
  /** Opening tag. */
  readonly pre: string;
  /** Closing tag. */
  readonly post: string;
  /**
   * Characters of a value read for terms: `max_analyzed_offset` (Elasticsearch) or
   * `max_analyzer_offset` (OpenSearch) of the request; the index setting bounds it.
   */
  readonly maxAnalyzedOffset?: number;
}

/** The index's `index.highlight.max_analyzed_offset` and what its error names. */
export interface HighlightLimit {
  /** The index setting (1,000,000 by default). */
  readonly max: number;
  /** The index name. */
  readonly index: string;
  /** Whose wording the error takes. */
  readonly flavour: "elasticsearch" | "opensearch";
  /** The document number the error names. */
  readonly doc: number;
  /** {@link fieldsWithOffsets} of the index. */
  readonly offsets: ReadonlySet<string>;
}

const LIMIT_ERRORS = new WeakSet<EngineError>();

/** Whether `e` is a highlighted value past `index.highlight.max_analyzed_offset` (a shard failure). */
export function isHighlightLimitError(e: unknown): boolean {
  return e instanceof EngineError && LIMIT_ERRORS.has(e);
}

function limitError(reason: string): EngineError {
  const e = illegalArgument(reason);
  LIMIT_ERRORS.add(e);
  return e;
}

const OPENSEARCH_ADVICE =
  "maximum allowed to be analyzed for highlighting. This maximum can be set by changing the [index.highlight.max_analyzed_offset] index level setting. For large texts, indexing with offsets or term vectors is recommended!";

/**
 * How many characters of a value of `length` are read, or the real engines' refusal: a value
 * longer than the index setting is refused unless the request asks for fewer characters (then
 * the value is read up to them). Fields indexed with offsets are not re-analysed, so not bound.
 */
function analyzedChars(
  field: string,
  length: number,
  requested: number | undefined,
  limit: HighlightLimit,
): number {
  if (limit.flavour === "opensearch" && requested !== undefined && requested > limit.max) {
    throw limitError(`max_analyzer_offset has exceeded [${limit.max}] - ${OPENSEARCH_ADVICE}`);
  }
  if (requested !== undefined && requested >= 0 && requested <= limit.max) return requested;
  if (length <= limit.max) return Infinity;
  throw limitError(
    limit.flavour === "opensearch"
      ? `The length of [${field}] field of [${limit.doc}] doc of [${limit.index}] index has exceeded [${limit.max}] - ${OPENSEARCH_ADVICE}`
      : `The length [${length}] of field [${field}] in doc[${limit.doc}]/index[${limit.index}] exceeds the [index.highlight.max_analyzed_offset] limit [${limit.max}]. To avoid this error, set the query parameter [max_analyzed_offset] to a value less than index setting [${limit.max}] and this will tolerate long field values by truncating them.`,
  );
}

/** Reads the `highlight` section of a search body. */
export function parseHighlight(body: unknown): HighlightRequest | null {
  if (body === undefined || body === null) return null;
  if (typeof body !== "object") throw parsingError(`[highlight] must be an object`);
  const o = body as JsonObject;
  const size = Number(o.fragment_size ?? 100);
  const count = Number(o.number_of_fragments ?? 5);
  const list = Array.isArray(o.fields)
    ? (o.fields as JsonObject[]).flatMap((f) => Object.entries(f))
    : Object.entries((o.fields ?? {}) as JsonObject);
  const fields = list.map(([pattern, opts]) => {
    const p = (opts ?? {}) as JsonObject;
    return {
      pattern,
      fragmentSize: Number(p.fragment_size ?? size),
      fragments: Number(p.number_of_fragments ?? count),
    };
  });
  const tag = (
    v: unknown,
    d: string,
  ) => (Array.isArray(v) ? String(v[0]) : v === undefined ? d : String(v));
  const requested = o.max_analyzed_offset ?? o.max_analyzer_offset;
  return {
    fields,
    pre: tag(o.pre_tags, "<em>"),
    post: tag(o.post_tags, "</em>"),
    ...(requested === undefined || requested === null
      ? {}
      : { maxAnalyzedOffset: Number(requested) }),
  };
}

/** Terms the query looks for, by field pattern (analysed the way the field's search analyzer does). */
export function queryTerms(
  root: QueryNode,
  fields: FieldMap,
): Array<{ pattern: string; terms: Set<string> }> {
  const out: Array<{ pattern: string; terms: Set<string> }> = [];
  const analyse = (pattern: string, text: unknown) => {
    const terms = new Set<string>();
    const paths = fields.expand(pattern);
    for (const p of paths.length ? paths : [pattern]) {
      const info = fields.byPath.get(p);
      if (!info) continue;
      for (const t of info.searchAnalyzer(String(text))) terms.add(t.term.toLowerCase());
    }
    out.push({ pattern, terms });
  };
  const walk = (n: QueryNode): void => {
    switch (n.kind) {
      case "term":
        out.push({ pattern: n.field, terms: new Set([String(n.value).toLowerCase()]) });
        break;
      case "terms":
        out.push({
          pattern: n.field,
          terms: new Set(n.values.map((v) => String(v).toLowerCase())),
        });
        break;
      case "match":
      case "match_phrase":
        analyse(n.field, n.query);
        break;
      case "multi_match":
        for (const f of n.fields) analyse(f.field, n.query);
        break;
      case "bool":
        [...n.must, ...n.should, ...n.filter].forEach(walk);
        break;
      case "constant_score":
        walk(n.filter);
        break;
      case "dis_max":
        n.queries.forEach(walk);
        break;
      case "boosting":
        walk(n.positive);
        break;
      case "function_score":
      case "nested":
        walk(n.query);
        break;
    }
  };
  walk(root);
  return out;
}

const WORD = /[\p{L}\p{N}_]+(?:['.:][\p{L}\p{N}_]+)*/gu;

/** How a field's matches are marked and cut into fragments. */
interface Marking {
  /** The tags around each match. */
  readonly pre: string;
  readonly post: string;
  /** `fragment_size`: the characters of one fragment. */
  readonly size: number;
  /** `number_of_fragments`: at most this many (0: the whole text, marked). */
  readonly count: number;
}

function highlightText(
  text: string,
  terms: Set<string>,
  marking: Marking,
  analyzed = Infinity,
): string[] {
  const { pre, post, size, count } = marking;
  const hits: Array<[number, number]> = [];
  // Only the first `analyzed` characters are read for terms (`max_analyzed_offset`).
  if (text.length <= analyzed && terms.has(text.toLowerCase())) hits.push([0, text.length]);
  else {
    for (const m of text.matchAll(WORD)) {
      if (m.index! + m[0].length > analyzed) break;
      if (terms.has(m[0].toLowerCase())) hits.push([m.index!, m.index! + m[0].length]);
    }
  }
  if (hits.length === 0) return [];
  // Marks the hits inside [from, to), starting at hit `first`: each fragment costs its own
  // length and hits, never a pass over all of them (fragments × matches).
  const mark = (from: number, to: number, first: number) => {
    let s = "";
    let at = from;
    for (let h = first; h < hits.length && hits[h]![0] < to; h++) {
      const [a, b] = hits[h]!;
      if (a < from || b > to) continue;
      s += text.slice(at, a) + pre + text.slice(a, b) + post;
      at = b;
    }
    return s + text.slice(at, to);
  };
  if (count === 0 || text.length <= size) return [mark(0, text.length, 0)];
  const fragments: string[] = [];
  let end = 0;
  // The first hit that may lie in a fragment starting at `pos`, looking back from hit `h`.
  const firstFrom = (pos: number, h: number) => {
    while (h > 0 && hits[h - 1]![0] >= pos) h--;
    return h;
  };
  for (let h = 0; h < hits.length && fragments.length < count; h++) {
    const a = hits[h]![0];
    if (a < end) continue;
    let start = Math.max(0, a - Math.floor(size / 4));
    while (start > 0 && /\S/.test(text[start - 1]!)) start--;
    end = Math.min(text.length, start + size);
    while (end < text.length && /\S/.test(text[end]!)) end++;
    fragments.push(mark(start, end, firstFrom(start, h)).trim());
  }
  return fragments;
}

/**
 * Paths of the fields whose offsets are in the index (`index_options: offsets` or term vectors
 * with offsets): the highlighter reads those without analysing the text again.
 */
export function fieldsWithOffsets(mappings: Mappings): Set<string> {
  const out = new Set<string>();
  const walk = (props: Record<string, FieldMapping> | undefined, prefix: string) => {
    for (const [name, m] of Object.entries(props ?? {})) {
      const path = prefix + name;
      if (m.index_options === "offsets" || String(m.term_vector ?? "").includes("offsets")) {
        out.add(path);
      }
      walk(m.properties, path + ".");
      walk(m.fields, path + ".");
    }
  };
  walk(mappings.properties, "");
  return out;
}

/** A highlight to make: the request's `highlight` and the query terms it marks, per pattern. */
export interface HighlightAsk {
  readonly request: HighlightRequest;
  readonly terms: Array<{ pattern: string; terms: Set<string> }>;
}

/** The `highlight` object of one hit, or undefined when nothing matched. */
export function highlightHit(
  source: Record<string, unknown>,
  fields: FieldMap,
  ask: HighlightAsk,
  limit?: HighlightLimit,
): Record<string, string[]> | undefined {
  const { request: req, terms } = ask;
  const out: Record<string, string[]> = {};
  for (const f of req.fields) {
    const marking = { pre: req.pre, post: req.post, size: f.fragmentSize, count: f.fragments };
    for (const path of fields.expand(f.pattern)) {
      const info = fields.byPath.get(path)!;
      if (info.kind !== "text" && info.kind !== "keyword") continue;
      const wanted = new Set<string>();
      for (const t of terms) {
        if (
          t.pattern === path || (t.pattern.includes("*") && nameMatcher(t.pattern)(path))
        ) {
          for (const term of t.terms) wanted.add(term);
        }
      }
      if (wanted.size === 0) continue;
      const root = fields.roots.has(path) ? path : path.slice(0, path.lastIndexOf("."));
      const values: unknown[] = [];
      sourceValues(source, root.split("."), values);
      const texts = values.map(String);
      // The values are read as one text, a character apart.
      const length = texts.reduce((n, t) => n + t.length, 0) + Math.max(0, texts.length - 1);
      let analyzed = limit && !limit.offsets.has(path)
        ? analyzedChars(path, length, req.maxAnalyzedOffset, limit)
        : Infinity;
      const fragments = texts.flatMap((text) => {
        const out = highlightText(text, wanted, marking, analyzed);
        analyzed -= text.length + 1;
        return out;
      });
      if (fragments.length) {
        setOwn(out, path, f.fragments > 0 ? fragments.slice(0, f.fragments) : fragments);
      }
    }
  }
  return Object.keys(out).length ? out : undefined;
}
