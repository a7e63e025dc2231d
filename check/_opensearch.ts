// What OpenSearch has beyond the Elasticsearch specification, so `flavor: "opensearch"` does not
// flag it: our own small table (OpenSearch publishes no specification in the same form).

import type { Endpoint, TypeDef } from "./_spec.ts";

/** Path prefixes of OpenSearch plugins: everything under them is taken as it is. */
export const OPENSEARCH_PREFIXES: readonly string[] = ["_plugins", "_opendistro"];

function endpoint(name: string, methods: string, paths: string[], params = ""): Endpoint {
  const pathParams = new Set<string>();
  const urls = paths.map((path) => {
    const segments = path.split("/").filter((s) => s !== "");
    for (const s of segments) if (s.startsWith("{")) pathParams.add(s.slice(1, -1));
    return { methods: methods.split(","), segments };
  });
  const p: Record<string, string> = {};
  for (const name of params.split(",").filter(Boolean)) p[name] = "s";
  return { name, urls, params: p, body: 0, bodyRequired: false, pathParams };
}

/** OpenSearch's own endpoints. */
export const OPENSEARCH_ENDPOINTS: readonly Endpoint[] = [
  endpoint(
    "create_pit",
    "POST",
    ["/{index}/_search/point_in_time"],
    "keep_alive,preference,routing,expand_wildcards,allow_partial_pit_creation",
  ),
  endpoint("delete_pit", "DELETE", ["/_search/point_in_time", "/_search/point_in_time/_all"]),
  endpoint("get_all_pits", "GET", ["/_search/point_in_time/_all"]),
  endpoint("cat.pit_segments", "GET", ["/_cat/pit_segments", "/_cat/pit_segments/_all"]),
  endpoint("cat.cluster_manager", "GET", ["/_cat/cluster_manager"]),
  endpoint("search_pipeline", "GET,PUT,DELETE", ["/_search/pipeline", "/_search/pipeline/{id}"]),
  // OpenSearch takes the alias name (and index) from the body as well as from the path.
  endpoint("indices.put_alias", "PUT,POST", [
    "/{index}/_alias",
    "/{index}/_aliases",
    "/_alias/{name}",
    "/_aliases/{name}",
    "/_alias",
    "/_aliases",
  ]),
];

/** URL parameters OpenSearch accepts beyond Elasticsearch's, on any endpoint. */
export const OPENSEARCH_PARAMS: ReadonlySet<string> = new Set([
  "cluster_manager_timeout",
  "cancel_after_time_interval",
  "phase_took",
  "search_pipeline",
  "include_named_queries_score",
  "verbose_pipeline",
  "ignore_unavailable",
  "allow_no_indices",
  "expand_wildcards",
  "master_timeout",
  "include_type_name",
  "copy_settings",
  "require_alias",
  "include_defaults",
  "local",
  "wait_for_active_shards",
  "size",
]);

/** Query types OpenSearch adds (or writes differently, as `knn` keyed by field). */
export const OPENSEARCH_QUERIES: Readonly<Record<string, TypeDef | "any">> = {
  neural: "any",
  neural_sparse: "any",
  hybrid: {
    p: {
      queries: [["[]", "@QueryContainer"], 1],
      pagination_depth: ["number"],
      filter: ["@QueryContainer"],
    },
  },
  knn: "any",
  script_score: "any",
  template: "any",
};

/** Members OpenSearch accepts beyond Elasticsearch's, by type name. */
export const OPENSEARCH_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  "search.Body": [
    "search_pipeline",
    "verbose_pipeline",
    "include_named_queries_score",
    "phase_took",
  ],
  "indices.put_alias.Body": ["index", "alias", "is_hidden", "indices", "aliases"],
};

/** Enumeration values OpenSearch accepts beyond Elasticsearch's (lower case), by enum type. */
export const OPENSEARCH_ENUMS: Readonly<Record<string, readonly string[]>> = {
  SearchType: ["query_and_fetch", "dfs_query_and_fetch"],
  DynamicMapping: ["strict_allow_templates"],
};
