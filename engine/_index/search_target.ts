// One index as a search sees it: a frozen view of its documents, its mappings and its limits.

import type { ShardSnapshot } from "./shard_snapshot.ts";
import type { Mappings } from "./types.ts";

/** One index to search: its name, a frozen view of its documents and its mappings. */
export interface SearchTarget {
  /** The concrete index name reported as `_index`. */
  index: string;
  /** The searchable state. */
  snapshot: ShardSnapshot;
  /** The index mappings. */
  mappings: Mappings;
  /** `index.number_of_shards` (1 when absent): what `_shards.total` counts. */
  shards?: number;
  /** Scores with LegacyBM25Similarity, Elasticsearch's default (every boost times 1 + k1). */
  legacyBm25?: boolean;
  /** Vector fields left out of `_source` unless asked for (Elasticsearch 9's default). */
  sourceVectors?: readonly string[];
  /** `index.max_result_window`. */
  maxResultWindow: number;
  /** `index.max_inner_result_window` (default 100). */
  maxInnerResultWindow?: number;
  /** `index.max_docvalue_fields_search` (default 100). */
  maxDocvalueFields?: number;
  /** `index.max_script_fields` (default 32). */
  maxScriptFields?: number;
  /** `index.max_regex_length` (default 1000). */
  maxRegexLength?: number;
  /** `index.max_terms_count` (default 65536). */
  maxTermsCount?: number;
  /** `index.highlight.max_analyzed_offset` (default 1,000,000). */
  maxAnalyzedOffset?: number;
  /** Whose wording errors take (Elasticsearch when absent). */
  flavour?: "elasticsearch" | "opensearch";
  /** The routing shards its documents were placed over (see `routingShardsOf`). */
  routingShards?: number;
}
