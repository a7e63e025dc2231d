// The data shapes shared between the REST layer and the search core.

import type { ShardSnapshot } from "./shard_snapshot.ts";

export type { ShardSnapshot };

/** One stored document as the REST layer keeps it. */
export interface StoredDoc {
  /** The `_id`. */
  id: string;
  /** The `_source` object. */
  source: Record<string, unknown>;
  /** The `_version`. */
  version: number;
  /** The `_seq_no`. */
  seqNo: number;
  /** The `_primary_term`. */
  primaryTerm: number;
  /** Custom routing, when given at index time. */
  routing?: string;
}

/** An index's complete `mappings` JSON (dynamic fields already added). */
export interface Mappings {
  /** Top-level field mappings. */
  properties?: Record<string, FieldMapping>;
  /** Dynamic mapping setting. */
  dynamic?: boolean | string;
  [k: string]: unknown;
}

/** The mapping of one field. */
export interface FieldMapping {
  /** Field type, `object` when absent and `properties` is present. */
  type?: string;
  /** Multi-fields, e.g. `keyword` under a text field. */
  fields?: Record<string, FieldMapping>;
  /** Sub-fields of an object or nested field. */
  properties?: Record<string, FieldMapping>;
  /** Analyzer name for text fields. */
  analyzer?: string;
  /** Date format. */
  format?: string;
  [k: string]: unknown;
}

/** One index to search: its name, a frozen view of its documents and its mappings. */
export interface SearchTarget {
  /** The concrete index name reported as `_index`. */
  index: string;
  /** The searchable state. */
  snapshot: ShardSnapshot;
  /** The index mappings. */
  mappings: Mappings;
  /** `index.max_result_window`. */
  maxResultWindow: number;
  /** `index.max_docvalue_fields_search` (default 100). */
  maxDocvalueFields?: number;
  /** `index.max_script_fields` (default 32). */
  maxScriptFields?: number;
  /** `index.max_regex_length` (default 1000). */
  maxRegexLength?: number;
  /** `index.max_terms_count` (default 65536). */
  maxTermsCount?: number;
}
