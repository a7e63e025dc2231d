// A plain highlighter: wraps the query's terms found in `_source` text in `<em>` tags.

import { setOwn } from "../_index/own.ts";
import { parsingError } from "../_errors.ts";
import type { FieldMap } from "../_index/field_map.ts";
import { sourceValues } from "./fetch_fields.ts";
import type { QueryNode } from "../_query/query_nodes.ts";
import { nameMatcher } from "../_index/name_pattern.ts";
import type { JsonObject } from "../_json.ts";

/** A parsed `highlight` request. */
export interface HighlightRequest {
  /** Field patterns with their options. */
  readonly fields: ReadonlyArray<{ pattern: string; fragmentSize: number; fragments: number }>;
  /** Opening tag. */
  readonly pre: string;
  /** Closing tag. */
  readonly post: string;
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
  return { fields, pre: tag(o.pre_tags, "<em>"), post: tag(o.post_tags, "</em>") };
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

function highlightText(
  text: string,
  terms: Set<string>,
  pre: string,
  post: string,
  size: number,
  count: number,
): string[] {
  const hits: Array<[number, number]> = [];
  if (terms.has(text.toLowerCase())) hits.push([0, text.length]); // whole keyword value
  else {
    for (const m of text.matchAll(WORD)) {
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

/** The `highlight` object of one hit, or undefined when nothing matched. */
export function highlightHit(
  source: Record<string, unknown>,
  fields: FieldMap,
  req: HighlightRequest,
  terms: Array<{ pattern: string; terms: Set<string> }>,
): Record<string, string[]> | undefined {
  const out: Record<string, string[]> = {};
  for (const f of req.fields) {
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
      const fragments = values.flatMap((v) =>
        highlightText(String(v), wanted, req.pre, req.post, f.fragmentSize, f.fragments)
      );
      if (fragments.length) {
        setOwn(out, path, f.fragments > 0 ? fragments.slice(0, f.fragments) : fragments);
      }
    }
  }
  return Object.keys(out).length ? out : undefined;
}
