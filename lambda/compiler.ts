// The one compiler: condition trees and operation specs → driver command text with `?`/`{?}`
// placeholders plus the argument list. Values and index names are always arguments; field names
// are JSON-escaped keys. No I/O: the index mapping comes in as a resolver.

import { quoteJson } from "../driver/internal.ts";
import type { BoundTemplate } from "../template/mod.ts";
import type { ConditionNode } from "./nodes.ts";
import {
  compileVectorSearch,
  filterClause,
  openSearchFilter,
  type VectorSearch,
} from "./vectors.ts";

/**
 * Gives the field an exact condition (`term`, `terms`, `range`, `prefix`, `wildcard`, sort) must
 * use: the field itself, or its keyword sub-field. `method` names the builder call, for errors.
 * `openSearch` marks a command for OpenSearch (its own form of vector thresholds).
 */
export type ExactResolver = ((field: string, method: string) => string) & {
  readonly openSearch?: boolean;
};

/** Every field as written (what `toCommand()` shows without a mapping). */
export const AS_WRITTEN: ExactResolver = (field) => field;

/** One sort key. */
export interface SortKey {
  /** The document field. */
  readonly field: string;
  /** The direction. */
  readonly order: "asc" | "desc";
}

/** What a search asks for. */
export interface SearchSpec {
  /** The index name or pattern. */
  readonly index: string;
  /** The conditions, or null for all documents. */
  readonly where: ConditionNode | null;
  /** The `_source` fields to return; all when undefined. */
  readonly source?: readonly string[];
  /** The sort keys, in order. */
  readonly sort: readonly SortKey[];
  /** The first hit (`from`); left out when undefined. */
  readonly from?: number;
  /** The number of hits. */
  readonly size: number;
  /** An order by vector similarity (the primary key), with its k and dialect. */
  readonly vector?: VectorSearch;
  /** Count every match exactly (`track_total_hits`); default true. */
  readonly trackTotal?: boolean;
  /** Ask for each hit's version (an entity with a version field): `_seq_no` or `_version`. */
  readonly versions?: "seq_no" | "external";
}

/** A field name as a JSON string (JSON.stringify's text; short plain names quoted directly). */
const q = quoteJson;

class Emitter {
  readonly args: unknown[] = [];
  readonly exact: ExactResolver;

  constructor(exact: ExactResolver) {
    this.exact = exact;
  }

  arg(value: unknown): string {
    this.args.push(value);
    return "?";
  }

  condition(n: ConditionNode): string {
    switch (n.kind) {
      case "compare": {
        const f = q(this.exact(n.field, n.op));
        switch (n.op) {
          case "eq":
            return `{"term":{${f}:${this.arg(n.value)}}}`;
          case "ne":
            return mustNot(`{"term":{${f}:${this.arg(n.value)}}}`);
          default:
            return `{"range":{${f}:{"${RANGE[n.op]}":${this.arg(n.value)}}}}`;
        }
      }
      case "in": {
        const f = q(this.exact(n.field, n.negated ? "notIn" : "in"));
        const terms = `{"terms":{${f}:${this.arg(n.values)}}}`;
        return n.negated ? mustNot(terms) : terms;
      }
      case "between": {
        const f = q(this.exact(n.field, n.negated ? "notBetween" : "between"));
        const range = `{"range":{${f}:{"gte":${this.arg(n.low)},"lte":${this.arg(n.high)}}}}`;
        return n.negated ? mustNot(range) : range;
      }
      case "exists": {
        const exists = `{"exists":{"field":${q(n.field)}}}`;
        return n.negated ? mustNot(exists) : exists;
      }
      case "like": {
        const f = q(this.exact(n.field, n.negated ? "notLike" : "like"));
        const one = n.mode === "prefix"
          ? `{"prefix":{${f}:{"value":${this.arg(likeValue(n))}}}}`
          : `{"wildcard":{${f}:{"value":${this.arg(likeValue(n))}}}}`;
        return n.negated ? mustNot(one) : one;
      }
      case "vector":
        return (this.exact.openSearch ? openSearchFilter : filterClause)((v) => this.arg(v), n);
      case "match":
        return `{"${n.phrase ? "match_phrase" : "match"}":{${q(n.field)}:${this.arg(n.text)}}}`;
      case "not":
        return mustNot(this.condition(n.item));
      case "or":
        return `{"bool":{"should":[${
          n.items.map((i) => this.condition(i)).join(",")
        }],"minimum_should_match":1}}`;
      case "and": {
        // Full-text items score the hits (must); the others only filter.
        const must: string[] = [];
        const filter: string[] = [];
        for (const item of n.items) (scores(item) ? must : filter).push(this.condition(item));
        const parts: string[] = [];
        if (must.length > 0) parts.push(`"must":[${must.join(",")}]`);
        if (filter.length > 0) parts.push(`"filter":[${filter.join(",")}]`);
        return `{"bool":{${parts.join(",")}}}`;
      }
    }
  }

  query(where: ConditionNode | null): string {
    if (where === null) return `{"match_all":{}}`;
    if (where.kind === "and" || where.kind === "or") return this.condition(where);
    // A single leaf: in a bool so that exact conditions do not score.
    return scores(where) ? this.condition(where) : `{"bool":{"filter":[${this.condition(where)}]}}`;
  }
}

const RANGE = { gt: "gt", ge: "gte", lt: "lt", le: "lte" } as const;

function mustNot(clause: string): string {
  return `{"bool":{"must_not":[${clause}]}}`;
}

/** The value a `like` condition binds: the prefix itself, or a literal `wildcard` pattern. */
export function likeValue(n: Extract<ConditionNode, { kind: "like" }>): string {
  if (n.mode === "prefix") return n.text;
  return n.mode === "contains" ? `*${escapeWildcard(n.text)}*` : `*${escapeWildcard(n.text)}`;
}

function scores(n: ConditionNode): boolean {
  switch (n.kind) {
    case "match":
      return true;
    case "and":
    case "or":
      return n.items.some(scores);
    default:
      return false;
  }
}

/**
 * A `wildcard` pattern that matches `text` literally: `\`, `*` and `?` are escaped.
 *
 * @param text The literal text.
 * @returns The escaped pattern part.
 */
export function escapeWildcard(text: string): string {
  return text.replace(/[\\*?]/g, "\\$&");
}

/** `POST /{index}/_search {query, _source, sort, from, size}`. */
export function compileSearch(spec: SearchSpec, exact: ExactResolver = AS_WRITTEN): BoundTemplate {
  const e = new Emitter(exact);
  const index = e.arg(spec.index);
  if (spec.vector !== undefined) {
    return compileVectorSearch(spec, spec.vector, {
      index,
      arg: (v) => e.arg(v),
      where: () => spec.where === null ? null : e.query(spec.where),
      sortKey: (s) => `{${q(exact(s.field, "orderBy"))}:{"order":"${s.order}"}}`,
      args: e.args,
    });
  }
  let body = `{"query":${e.query(spec.where)}`;
  if (spec.source !== undefined) body += `,"_source":[${spec.source.map((f) => q(f)).join(",")}]`;
  if (spec.sort.length > 0) {
    body += `,"sort":[${
      spec.sort.map((s) => `{${q(exact(s.field, "orderBy"))}:{"order":"${s.order}"}}`).join(",")
    }]`;
  }
  if (spec.versions === "seq_no") body += `,"seq_no_primary_term":true`;
  else if (spec.versions === "external") body += `,"version":true`;
  if (spec.from !== undefined && spec.from > 0) body += `,"from":${e.arg(spec.from)}`;
  body += `,"size":${e.arg(spec.size)}`;
  body += spec.trackTotal === false ? "}" : `,"track_total_hits":true}`;
  return { text: `POST /{${index}}/_search ${body}`, args: e.args };
}

/** `POST /{index}/_count {query}` — only the query, whatever paging, order or projection is set. */
export function compileCount(
  index: string,
  where: ConditionNode | null,
  exact: ExactResolver = AS_WRITTEN,
): BoundTemplate {
  const e = new Emitter(exact);
  const i = e.arg(index);
  return { text: `POST /{${i}}/_count {"query":${e.query(where)}}`, args: e.args };
}

/** `?refresh=true` when writes must be visible to reads before they resolve. */
function refreshed(refresh: boolean): string {
  return refresh ? "?refresh=true" : "";
}

/** How a by-query write is compiled. */
export interface ByQueryOptions {
  /** Which fields need an exact sub-field for terms (default: every field as written). */
  readonly exact?: ExactResolver;
  /** Whether the write waits for a refresh (`?refresh=true`, the default). */
  readonly refresh?: boolean;
}

/** `POST /{index}/_update_by_query` setting the top-level fields of `data`. */
export function compileUpdateByQuery(
  index: string,
  where: ConditionNode | null,
  data: Record<string, unknown>,
  options: ByQueryOptions = {},
): BoundTemplate {
  const { exact = AS_WRITTEN, refresh = true } = options;
  const e = new Emitter(exact);
  const i = e.arg(index);
  const query = e.query(where);
  return {
    text:
      `POST /{${i}}/_update_by_query${refreshed(refresh)} {"query":${query},"script":{"source":` +
      `"ctx._source.putAll(params.data)","lang":"painless","params":{"data":${e.arg(data)}}}}`,
    args: e.args,
  };
}

/** `POST /{index}/_delete_by_query`. */
export function compileDeleteByQuery(
  index: string,
  where: ConditionNode | null,
  options: ByQueryOptions = {},
): BoundTemplate {
  const { exact = AS_WRITTEN, refresh = true } = options;
  const e = new Emitter(exact);
  const i = e.arg(index);
  return {
    text: `POST /{${i}}/_delete_by_query${refreshed(refresh)} {"query":${e.query(where)}}`,
    args: e.args,
  };
}

/** `POST /{index}/_update/{id} {"doc": …}` — a partial update of one document by its `_id`. */
export function compileUpdateById(
  index: string,
  id: string,
  doc: object,
  refresh = true,
): BoundTemplate {
  return { text: `POST /{?}/_update/{?}${refreshed(refresh)} {"doc":?}`, args: [index, id, doc] };
}

/** `DELETE /{index}/_doc/{id}`. */
export function compileDeleteById(index: string, id: string, refresh = true): BoundTemplate {
  return { text: `DELETE /{?}/_doc/{?}${refreshed(refresh)}`, args: [index, id] };
}

/** `POST /{index}/_refresh`: makes acknowledged writes visible to by-query operations. */
export function compileRefresh(index: string): BoundTemplate {
  return { text: `POST /{?}/_refresh`, args: [index] };
}

/** One document to insert: its `_id` (or undefined for a generated one) and its source. */
export interface InsertDoc {
  /** The document `_id`; generated when undefined. */
  readonly id?: string;
  /** The document. */
  readonly source: object;
}

/**
 * One document: `PUT /{index}/_create/{id}` (an existing `_id` is an error, not an overwrite) or
 * `POST /{index}/_doc` (generated `_id`). Several: one `POST /{index}/_bulk` (`create` items, or
 * `index` items for generated `_id`s).
 */
export function compileInsert(
  index: string,
  docs: readonly InsertDoc[],
  refresh = true,
): BoundTemplate {
  const r = refreshed(refresh);
  if (docs.length === 1) {
    const d = docs[0]!;
    return d.id === undefined
      ? { text: `POST /{?}/_doc${r} ?`, args: [index, d.source] }
      : { text: `PUT /{?}/_create/{?}${r} ?`, args: [index, d.id, d.source] };
  }
  const args: unknown[] = [index];
  let text = `POST /{?}/_bulk${r}\n`;
  for (const d of docs) {
    args.push(d.id === undefined ? { index: {} } : { create: { _id: d.id } }, d.source);
    text += "?\n?\n";
  }
  return { text, args };
}
