// `cluster.max_shards_per_node`: an index whose shards (primaries and replicas) would take the
// open shards of the cluster (one node here) past the limit is refused, with Elasticsearch's
// `validation_exception` (OpenSearch words it a little differently).

import { esError } from "../_errors.ts";
import type { FlatSettings } from "./settings.ts";

/** What the check needs to know. */
export interface ShardLimit {
  /** `cluster.max_shards_per_node` (1000 by default). */
  perNode: number;
  flavour: "elasticsearch" | "opensearch";
  /** The version the engine reports (for Elasticsearch's link). */
  version: string;
}

/** The default `cluster.max_shards_per_node`. */
export const MAX_SHARDS_PER_NODE = 1000;

/** Shards (primaries and their replicas) an index with these settings opens. */
export function shardsOf(settings: FlatSettings): number {
  const primaries = Number(settings["index.number_of_shards"] ?? 1);
  const replicas = Number(settings["index.number_of_replicas"] ?? 1);
  return primaries * (1 + replicas);
}

/** Throws when `adding` shards to the `open` ones passes the limit. */
export function checkShardLimit(limit: ShardLimit, open: number, adding: number): void {
  if (open + adding <= limit.perNode) return;
  const minor = limit.version.split(".").slice(0, 2).join(".");
  const problem = limit.flavour === "opensearch"
    ? `this action would add [${adding}] total shards, but this cluster currently has [${open}]/[${limit.perNode}] maximum shards open`
    : `this action would add [${adding}] shards, but this cluster currently has [${open}]/[${limit.perNode}] maximum normal shards open; for more information, see https://www.elastic.co/docs/deploy-manage/production-guidance/optimize-performance/size-shards?version=${minor}#troubleshooting-max-shards-open`;
  throw esError("validation_exception", `Validation Failed: 1: ${problem};`);
}
