// The index settings the engine knows: their defaults (for `include_defaults`) and the families
// of keys Elasticsearch registers, so an update naming anything else is refused as it refuses it.

import { illegalArgument } from "../_errors.ts";
import type { FlatSettings } from "./settings.ts";

/** Defaults of the index settings the engine honours or reports, flat. */
export const INDEX_DEFAULTS: Readonly<FlatSettings> = {
  "index.auto_expand_replicas": "false",
  "index.blocks.metadata": "false",
  "index.blocks.read": "false",
  "index.blocks.read_only": "false",
  "index.blocks.read_only_allow_delete": "false",
  "index.blocks.write": "false",
  "index.codec": "default",
  "index.hidden": "false",
  "index.mapping.depth.limit": "20",
  "index.mapping.field_name_length.limit": "9223372036854775807",
  "index.mapping.nested_fields.limit": "50",
  "index.mapping.nested_objects.limit": "10000",
  "index.mapping.total_fields.limit": "1000",
  "index.max_docvalue_fields_search": "100",
  "index.max_inner_result_window": "100",
  "index.max_regex_length": "1000",
  "index.max_rescore_window": "10000",
  "index.max_result_window": "10000",
  "index.max_script_fields": "32",
  "index.max_terms_count": "65536",
  "index.number_of_routing_shards": "1",
  "index.priority": "1",
  "index.query.default_field": "*",
  "index.refresh_interval": "1s",
  "index.routing_partition_size": "1",
};

/** Exact keys and prefixes of registered index settings beyond {@link INDEX_DEFAULTS}. */
const KNOWN = new Set([
  "index.number_of_shards",
  "index.number_of_replicas",
  "index.uuid",
  "index.creation_date",
  "index.provided_name",
  "index.version.created",
  "index.default_pipeline",
  "index.final_pipeline",
  "index.gc_deletes",
  "index.max_ngram_diff",
  "index.max_shingle_diff",
  "index.max_slices_per_scroll",
  "index.max_refresh_listeners",
  "index.load_fixed_bitset_filters_eagerly",
  "index.shard.check_on_startup",
  "index.soft_deletes.enabled",
  "index.mode",
  "index.format",
]);
const KNOWN_PREFIXES = [
  "index.analysis.",
  "index.blocks.",
  "index.highlight.",
  "index.indexing.",
  "index.lifecycle.",
  "index.mapping.",
  "index.merge.",
  "index.query.",
  "index.routing.",
  "index.search.",
  "index.similarity.",
  "index.soft_deletes.",
  "index.sort.",
  "index.store.",
  "index.translog.",
  "index.unassigned.",
  "index.write.",
  "index.version.",
  "index.frozen",
  "index.verified_before_close",
  "index.requests.",
  "index.knn",
];

/** OpenSearch's own index settings under a known prefix: Elasticsearch 9.5.4 refuses them. */
const OPENSEARCH_ONLY_PREFIXES = ["index.search.concurrent_segment_search."];

/**
 * Refuses a setting Elasticsearch does not register, with its message (for `flavour`
 * `"elasticsearch"` also OpenSearch's own, which OpenSearch accepts).
 */
export function checkKnownSettings(flat: FlatSettings, flavour = "opensearch"): void {
  for (const key of Object.keys(flat)) {
    if (Object.hasOwn(INDEX_DEFAULTS, key) || KNOWN.has(key)) continue;
    const foreign = flavour === "elasticsearch" &&
      OPENSEARCH_ONLY_PREFIXES.some((p) => key.startsWith(p));
    if (!foreign && KNOWN_PREFIXES.some((p) => key.startsWith(p))) continue;
    throw illegalArgument(
      `unknown setting [${key}] please check that any required plugins are installed, or check the breaking changes documentation for removed settings`,
    );
  }
}

/** The defaults of the settings `set` does not give (the `defaults` of `include_defaults`). */
export function defaultsBeside(set: FlatSettings): FlatSettings {
  const out: FlatSettings = {};
  for (const [k, v] of Object.entries(INDEX_DEFAULTS)) if (!Object.hasOwn(set, k)) out[k] = v;
  return out;
}
