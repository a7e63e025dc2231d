// `explain: true` on a search and the `_explain` API: the explanation of a hit, with the shard
// and Lucene doc id the real engines would give it.

import type { ExecContext } from "../_query/exec_context.ts";
import { explainDoc, type ExplainScope, type Explanation } from "../_query/explain.ts";
import type { QueryNode } from "../_query/query_nodes.ts";
import { nestedDocCount, shardDocValues } from "../_hits/shard_doc.ts";
import { fieldMapOf } from "../_index/field_map.ts";
import { shardContexts } from "./shard_scoring.ts";
import type { SearchTarget } from "../_index/search_target.ts";

const SPAN = 2 ** 32;

/** Where a document of a target sits: its shard and its Lucene doc id within that shard. */
export function placeOf(target: SearchTarget, doc: number): { shard: number; id: number } {
  const v = shardDocValues(target, 0)[doc]!;
  return { shard: Math.floor(v / SPAN), id: v % SPAN };
}

/**
 * The explanation of `doc` of `target` under `q`, as the real engine of the context's flavour
 * writes it (`score`: the score reported for the hit).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Engine } from "../mod.ts";
 * const engine = new Engine({ log: () => {} });
 * const json = { "content-type": "application/json" };
 * await engine.fetch("http://e/e/_doc/1?refresh=true", {
 *   method: "PUT",
 *   headers: json,
 *   body: JSON.stringify({ t: "quick fox" }),
 * });
 * const r = await engine.fetch("http://e/e/_explain/1", {
 *   method: "POST",
 *   headers: json,
 *   body: JSON.stringify({ query: { match: { t: "fox" } } }),
 * });
 * const body = await r.json();
 * assert.equal(body.explanation.description.startsWith("weight(t:fox in 0)"), true);
 * engine.close();
 * ```
 */
export function explainHit(hit: {
  /** The search's query. */
  readonly query: QueryNode;
  /** The target's context (index-wide statistics). */
  readonly ctx: ExecContext;
  readonly target: SearchTarget;
  /** The document's global ordinal in the target's snapshot. */
  readonly doc: number;
  /** The score reported for the hit, when it matched. */
  readonly score?: number;
  /** `dfs_query_then_fetch`: explained with the index's statistics, not the shard's. */
  readonly dfs?: boolean;
}): Explanation {
  const { target, doc } = hit;
  const fields = fieldMapOf(target.mappings);
  const shards = hit.dfs ? null : shardContexts(target, hit.ctx);
  const scope: ExplainScope = {
    ctx: shards ? shards[placeOf(target, doc).shard]! : hit.ctx,
    luceneId: (d) => placeOf(target, d).id,
    firstChildId: (d) =>
      placeOf(target, d).id - nestedDocCount(target.snapshot.doc(d).source, fields),
  };
  return explainDoc(hit.query, scope, doc, hit.score);
}
