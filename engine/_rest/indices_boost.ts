// `indices_boost` names resolved as Elasticsearch resolves them before the search runs: an alias
// or a pattern boosts every index it names, and a name that matches nothing is `no such index`
// (unless `ignore_unavailable`). The search then sees only concrete index names.

import type { Cluster, ResolveOptions } from "../_state/cluster.ts";
import type { JsonObject } from "../_json.ts";

/**
 * Each `indices_boost` entry of the body as one `[index, boost]` pair per concrete index it names,
 * for the parsed request's `indicesBoost`; undefined when the body has none to resolve (the
 * request keeps what it parsed).
 */
export function resolveIndicesBoost(
  body: JsonObject | undefined,
  cluster: Cluster,
  options: ResolveOptions,
): Array<[string, number]> | undefined {
  const boosts = body?.indices_boost;
  if (!Array.isArray(boosts)) return undefined;
  const out: Array<[string, number]> = [];
  const lenient = { ...options, allowNoIndices: true };
  for (const entry of boosts) {
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) return undefined;
    for (const [name, boost] of Object.entries(entry as JsonObject)) {
      for (const index of cluster.resolve(name, lenient)) out.push([index.name, Number(boost)]);
    }
  }
  return out;
}
