// The data shapes of stored documents and mappings, shared by the whole engine.

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
