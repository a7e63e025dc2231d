// `indices_boost` names resolved as Elasticsearch resolves them before the search runs: an alias
// or a pattern boosts every index it names, and a name that matches nothing is `no such index`
// (unless `ignore_unavailable`). The search then sees only concrete index names.

import type { Cluster, ResolveOptions } from "../_state/cluster.ts";
import type { JsonObject } from "../_json.ts";

/** The body with each `indices_boost` entry replaced by one entry per concrete index it names. */
export function resolveIndicesBoost(
  body: JsonObject | undefined,
  cluster: Cluster,
  options: ResolveOptions,
): JsonObject | undefined {
  const boosts = body?.indices_boost;
  if (!Array.isArray(boosts)) return body;
  const out: JsonObject[] = [];
  for (const entry of boosts) {
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) return body;
    for (const [name, boost] of Object.entries(entry as JsonObject)) {
      const lenient = { ...options, allowNoIndices: true };
      for (const index of cluster.resolve(name, lenient)) out.push({ [index.name]: boost });
    }
  }
  return { ...body, indices_boost: out };
}
