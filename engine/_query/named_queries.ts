// Named queries (`_name`): which named clauses matched each returned hit (`matched_queries`).

import { setOwn } from "../_index/own.ts";
import { hashMapOrder } from "../_index/java_order.ts";
import { indexOfSorted } from "../_index/sorted_search.ts";
import type { Hits, Scoring } from "./doc_set.ts";
import type { ExecContext } from "./exec_context.ts";
import { float32 } from "./score.ts";
import type { QueryNode } from "./query_nodes.ts";
import { execute } from "./query_exec.ts";

const names = new WeakMap<QueryNode, string>();

/** Records the `_name` of a parsed clause, found at its top level or beside its field's parameters. */
export function registerName(node: QueryNode, body: unknown): void {
  if (typeof body !== "object" || body === null) return;
  const o = body as Record<string, unknown>;
  let name = o._name;
  if (name === undefined) {
    for (const v of Object.values(o)) {
      if (typeof v === "object" && v !== null && !Array.isArray(v) && "_name" in v) {
        name = (v as Record<string, unknown>)._name;
      }
    }
  }
  if (typeof name === "string") names.set(node, name);
}

function children(node: QueryNode): readonly QueryNode[] {
  switch (node.kind) {
    case "bool":
      return [...node.must, ...node.should, ...node.mustNot, ...node.filter];
    case "constant_score":
      return [node.filter];
    case "dis_max":
      return node.queries;
    case "boosting":
      return [node.positive, node.negative];
    case "function_score":
    case "script_score":
      return [node.query];
    default:
      return [];
  }
}

/** All named clauses of a query tree, in tree order. */
export function namedClauses(root: QueryNode): Array<[string, QueryNode]> {
  const out: Array<[string, QueryNode]> = [];
  const walk = (n: QueryNode) => {
    const name = names.get(n);
    if (name !== undefined) out.push([name, n]);
    children(n).forEach(walk);
  };
  walk(root);
  return out;
}

function scoreOf(hits: Hits, doc: number): number | undefined {
  const at = indexOfSorted(hits.docs, doc);
  if (at < 0) return undefined;
  return hits.scores ? hits.scores[at] : 0;
}

/** A hit of the page: the index of its target and its global doc ordinal there. */
export interface PageHit {
  /** Index into the targets (and the contexts). */
  readonly t: number;
  /** Global doc ordinal in that target's snapshot. */
  readonly doc: number;
}

/**
 * `matched_queries` per page hit: names, or `{name: score}` with `scoring` `"score"` (the request's
 * `include_named_queries_score`).
 */
export function matchedQueries(
  root: QueryNode,
  page: readonly PageHit[],
  contexts: ExecContext[],
  scoring: Scoring,
): Array<string[] | Record<string, number> | undefined> {
  const named = namedClauses(root);
  if (named.length === 0) return page.map(() => undefined);
  const cache = new Map<string, Hits>();
  return page.map((c) => {
    const list: string[] = [];
    const scored: Record<string, number> = {};
    named.forEach(([name, node], i) => {
      const key = `${c.t}:${i}`;
      let hits = cache.get(key);
      if (!hits) cache.set(key, hits = execute(node, contexts[c.t]!, scoring));
      const s = scoreOf(hits, c.doc);
      if (s === undefined) return;
      list.push(name);
      setOwn(scored, name, float32(s));
    });
    if (list.length === 0) return undefined;
    // The real engines collect a hit's matched names in a Java HashMap (OpenSearch 3.8.0 and
    // Elasticsearch 9.5.4 answer `["foo2_query","foo_query"]` for `foo_query` then `foo2_query`).
    const ordered = hashMapOrder(list);
    if (scoring !== "score") return ordered;
    const out: Record<string, number> = {};
    for (const name of ordered) setOwn(out, name, scored[name]!);
    return out;
  });
}
