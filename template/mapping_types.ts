// The index mapping an entity declares: each field's Elasticsearch type and options (on `@Column`
// and in `defineEntity`), and the index's settings and `dynamic` (on `@Table`). A leaf: entity.ts
// checks declarations with it, index_mapping.ts turns them into the JSON Elasticsearch takes.

/**
 * A JSON value inside a mapping or settings.
 *
 * @example
 * ```ts
 * import type { MappingValue } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const value: MappingValue = { type: "keyword", fields: [1, "a", null] };
 * assert.equal(typeof value, "object");
 * ```
 */
export type MappingValue =
  | string
  | number
  | boolean
  | null
  | readonly MappingValue[]
  | { readonly [key: string]: MappingValue };

/**
 * `dynamic` of a mapping or an object: what happens to fields no mapping names.
 *
 * @example
 * ```ts
 * import { Table, mappingOf, type Dynamic } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const dynamic: Dynamic = "strict";
 * @Table({ index: "logs", dynamic })
 * class Log {}
 * assert.equal(mappingOf(Log).mappings.dynamic, "strict");
 * ```
 */
export type Dynamic = boolean | "true" | "false" | "strict" | "runtime";

/**
 * Options of every field type: `copy_to`, `meta`, and `raw`, the escape hatch for options this
 * library does not model (written into the field's mapping as given).
 *
 * @example
 * ```ts
 * import { Column, mappingOf, type CommonMapping } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const common: CommonMapping = { copy_to: "all", raw: { time_series_dimension: true } };
 * class Doc { @Column({ mapping: { type: "keyword", ...common } }) tag = ""; }
 * assert.deepEqual(mappingOf(Doc).mappings.properties.tag, {
 *   type: "keyword", copy_to: ["all"], time_series_dimension: true,
 * });
 * ```
 */
export interface CommonMapping {
  /** Copy this field's values into these fields too (written as a list, as servers return it). */
  copy_to?: string | readonly string[];
  /** Metadata about the field (`meta`). */
  meta?: Readonly<Record<string, string>>;
  /** Options not modelled here, written as given; one that names a typed option is refused. */
  raw?: Readonly<Record<string, MappingValue>>;
}

/**
 * Whether a field is indexed, keeps doc values, is stored.
 *
 * @example
 * ```ts
 * import { Column, mappingOf, type IndexedMapping } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const off: IndexedMapping = { index: false, doc_values: false };
 * class Doc { @Column({ mapping: { type: "long", ...off } }) n = 0; }
 * assert.deepEqual(mappingOf(Doc).mappings.properties.n, { type: "long", index: false, doc_values: false });
 * ```
 */
export interface IndexedMapping {
  /** `false`: not searchable. */
  index?: boolean;
  /** `false`: not sortable nor aggregatable (saves disk). */
  doc_values?: boolean;
  /** Store the value apart from `_source`. */
  store?: boolean;
}

/**
 * A field's other forms (`fields`): `name.raw` as a keyword beside the text `name`.
 *
 * @example
 * ```ts
 * import { Column, mappingOf, type MultiFields } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const fields: MultiFields = { raw: { type: "keyword", ignore_above: 256 } };
 * class City { @Column({ mapping: { type: "text", fields } }) name = ""; }
 * assert.deepEqual(mappingOf(City).mappings.properties.name, {
 *   type: "text", fields: { raw: { type: "keyword", ignore_above: 256 } },
 * });
 * ```
 */
export type MultiFields = Readonly<
  Record<string, LeafMapping | Exclude<SimpleFieldType, "object">>
>;

/**
 * A `keyword` field: exact values.
 *
 * @example
 * ```ts
 * import { Column, type KeywordMapping, mappingOf } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const mapping: KeywordMapping = { type: "keyword", ignore_above: 256, normalizer: "lowercase" };
 * class User { @Column({ mapping }) email = ""; }
 * assert.equal(mappingOf(User).mappings.properties.email?.normalizer, "lowercase");
 * ```
 */
export interface KeywordMapping extends CommonMapping, IndexedMapping {
  /** The type. */
  type: "keyword";
  /** Longer values are not indexed. */
  ignore_above?: number;
  /** The normalizer (from the index's `analysis.normalizer`, or `lowercase`). */
  normalizer?: string;
  /** Indexed in place of a null. */
  null_value?: string;
  /** Load global ordinals at refresh. */
  eager_global_ordinals?: boolean;
  /** Split full-text queries on whitespace. */
  split_queries_on_whitespace?: boolean;
  /** The similarity (scoring) algorithm. */
  similarity?: string;
  /** What the index keeps: `docs`, `freqs`. */
  index_options?: "docs" | "freqs" | "positions" | "offsets";
  /** Keep norms for scoring. */
  norms?: boolean;
  /** Other forms of the field. */
  fields?: MultiFields;
}

/**
 * A `text` field: analysed full text.
 *
 * @example
 * ```ts
 * import { Column, mappingOf, type TextMapping } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const mapping: TextMapping = { type: "text", analyzer: "standard", search_analyzer: "simple" };
 * class Post { @Column({ mapping }) body = ""; }
 * assert.equal(mappingOf(Post).mappings.properties.body?.search_analyzer, "simple");
 * ```
 */
export interface TextMapping extends CommonMapping {
  /** The type. */
  type: "text";
  /** The analyzer at index time (and search time unless `search_analyzer`). */
  analyzer?: string;
  /** The analyzer at search time. */
  search_analyzer?: string;
  /** The analyzer of phrase queries. */
  search_quote_analyzer?: string;
  /** `false`: not searchable. */
  index?: boolean;
  /** Store the value apart from `_source`. */
  store?: boolean;
  /** Keep norms for scoring. */
  norms?: boolean;
  /** In-memory field data for sorting and aggregating text (costly). */
  fielddata?: boolean;
  /** What the index keeps: `docs`, `freqs`, `positions`, `offsets`. */
  index_options?: "docs" | "freqs" | "positions" | "offsets";
  /** Index two-term shingles for faster phrases. */
  index_phrases?: boolean;
  /** Index prefixes for faster prefix queries. */
  index_prefixes?: { min_chars?: number; max_chars?: number };
  /** The gap between the values of an array. */
  position_increment_gap?: number;
  /** Term vectors: `no`, `yes`, `with_positions_offsets`, … */
  term_vector?: string;
  /** The similarity (scoring) algorithm. */
  similarity?: string;
  /** Load global ordinals at refresh. */
  eager_global_ordinals?: boolean;
  /** Other forms of the field. */
  fields?: MultiFields;
}

/**
 * The whole and floating-point number types (`scaled_float` has its own mapping).
 *
 * @example
 * ```ts
 * import type { NumberType } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const type: NumberType = "half_float";
 * assert.equal(type, "half_float");
 * ```
 */
export type NumberType =
  | "long"
  | "integer"
  | "short"
  | "byte"
  | "double"
  | "float"
  | "half_float"
  | "unsigned_long";

/**
 * A numeric field.
 *
 * @example
 * ```ts
 * import { Column, mappingOf, type NumberMapping } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const mapping: NumberMapping = { type: "integer", null_value: 0, coerce: false };
 * class Item { @Column({ mapping }) stock = 0; }
 * assert.deepEqual(mappingOf(Item).mappings.properties.stock, { type: "integer", null_value: 0, coerce: false });
 * ```
 */
export interface NumberMapping extends CommonMapping, IndexedMapping {
  /** The type. */
  type: NumberType;
  /** Accept numbers in strings and truncate fractions of whole types (default true). */
  coerce?: boolean;
  /** Skip malformed values instead of refusing the document. */
  ignore_malformed?: boolean;
  /** Indexed in place of a null. */
  null_value?: number;
  /** Other forms of the field. */
  fields?: MultiFields;
}

/**
 * A `scaled_float`: a long scaled by `scaling_factor`.
 *
 * @example
 * ```ts
 * import { Column, mappingOf, type ScaledFloatMapping } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const mapping: ScaledFloatMapping = { type: "scaled_float", scaling_factor: 100 };
 * class Product { @Column({ mapping }) price = 0; }
 * assert.equal(mappingOf(Product).mappings.properties.price?.scaling_factor, 100);
 * ```
 */
export interface ScaledFloatMapping extends CommonMapping, IndexedMapping {
  /** The type. */
  type: "scaled_float";
  /** Values are stored as `round(value * scaling_factor)`. */
  scaling_factor: number;
  /** Accept numbers in strings. */
  coerce?: boolean;
  /** Skip malformed values. */
  ignore_malformed?: boolean;
  /** Indexed in place of a null. */
  null_value?: number;
  /** Other forms of the field. */
  fields?: MultiFields;
}

/**
 * A `date` (milliseconds) or `date_nanos` field.
 *
 * @example
 * ```ts
 * import { Column, type DateMapping, mappingOf } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const mapping: DateMapping = { type: "date", format: "strict_date_optional_time||epoch_millis" };
 * class Event { @Column({ mapping, type: "date" }) at: Date | null = null; }
 * assert.equal(mappingOf(Event).mappings.properties.at?.format, "strict_date_optional_time||epoch_millis");
 * ```
 */
export interface DateMapping extends CommonMapping, IndexedMapping {
  /** The type. */
  type: "date" | "date_nanos";
  /** The accepted formats, `||`-separated. */
  format?: string;
  /** The locale of month and day names. */
  locale?: string;
  /** Skip malformed values. */
  ignore_malformed?: boolean;
  /** Indexed in place of a null. */
  null_value?: string;
  /** Other forms of the field. */
  fields?: MultiFields;
}

/**
 * A `boolean` field.
 *
 * @example
 * ```ts
 * import { Column, type BooleanMapping, mappingOf } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const mapping: BooleanMapping = { type: "boolean", null_value: false };
 * class Task { @Column({ mapping }) done = false; }
 * assert.equal(mappingOf(Task).mappings.properties.done?.null_value, false);
 * ```
 */
export interface BooleanMapping extends CommonMapping, IndexedMapping {
  /** The type. */
  type: "boolean";
  /** Indexed in place of a null. */
  null_value?: boolean;
  /** Other forms of the field. */
  fields?: MultiFields;
}

/**
 * An `ip` field (IPv4 and IPv6).
 *
 * @example
 * ```ts
 * import { Column, type IpMapping, mappingOf } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const mapping: IpMapping = { type: "ip", null_value: "0.0.0.0" };
 * class Hit { @Column({ mapping }) client = ""; }
 * assert.equal(mappingOf(Hit).mappings.properties.client?.type, "ip");
 * ```
 */
export interface IpMapping extends CommonMapping, IndexedMapping {
  /** The type. */
  type: "ip";
  /** Skip malformed values. */
  ignore_malformed?: boolean;
  /** Indexed in place of a null. */
  null_value?: string;
  /** Other forms of the field. */
  fields?: MultiFields;
}

/**
 * A `geo_point` field.
 *
 * @example
 * ```ts
 * import { Column, type GeoPointMapping, mappingOf } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const mapping: GeoPointMapping = { type: "geo_point", ignore_malformed: true };
 * class Place { @Column({ mapping }) location: { lat: number; lon: number } | null = null; }
 * assert.equal(mappingOf(Place).mappings.properties.location?.ignore_malformed, true);
 * ```
 */
export interface GeoPointMapping extends CommonMapping, IndexedMapping {
  /** The type. */
  type: "geo_point";
  /** Skip malformed points. */
  ignore_malformed?: boolean;
  /** Accept (and drop) a third dimension. */
  ignore_z_value?: boolean;
  /** Indexed in place of a null. */
  null_value?: MappingValue;
}

/**
 * The entity class whose fields an object or nested field holds; a function returning it
 * (`() => Address`) refers to a class declared further down or to the class itself.
 *
 * @example
 * ```ts
 * import { Column, type EntityRef, mappingOf } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * class Address { @Column({ mapping: "keyword" }) city = ""; }
 * const entity: EntityRef = Address;
 * class User { @Column({ mapping: { type: "object", entity } }) address: Address | null = null; }
 * assert.deepEqual(mappingOf(User).mappings.properties.address, { properties: { city: { type: "keyword" } } });
 * ```
 */
// deno-lint-ignore no-explicit-any
export type EntityRef = (new (...args: any[]) => unknown) | (() => new (...args: any[]) => unknown);

/**
 * An `object` field: its properties are the mapped fields of `entity`.
 *
 * @example
 * ```ts
 * import { Column, mappingOf, type ObjectMapping } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * class Meta { @Column({ mapping: "keyword" }) source = ""; }
 * const mapping: ObjectMapping = { type: "object", entity: Meta, dynamic: "strict" };
 * class Doc { @Column({ mapping }) meta: Meta | null = null; }
 * assert.deepEqual(mappingOf(Doc).mappings.properties.meta, {
 *   dynamic: "strict", properties: { source: { type: "keyword" } },
 * });
 * ```
 */
export interface ObjectMapping extends CommonMapping {
  /** The type. */
  type: "object";
  /** The class of the object's fields (none: an object with no declared fields). */
  entity?: EntityRef;
  /** What happens to undeclared fields inside. */
  dynamic?: Dynamic;
  /** `false`: kept in `_source` only, not parsed nor indexed. */
  enabled?: boolean;
  /** `false`: dotted field names stay leaves (Elasticsearch 8.3+). */
  subobjects?: boolean;
}

/**
 * A `nested` field: each object of an array is indexed on its own.
 *
 * @example
 * ```ts
 * import { Column, mappingOf, type NestedMapping } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * class Line { @Column({ mapping: "keyword" }) sku = ""; @Column({ mapping: "integer" }) qty = 0; }
 * const mapping: NestedMapping = { type: "nested", entity: Line };
 * class Order { @Column({ mapping }) lines: Line[] = []; }
 * assert.deepEqual(mappingOf(Order).mappings.properties.lines, {
 *   type: "nested", properties: { sku: { type: "keyword" }, qty: { type: "integer" } },
 * });
 * ```
 */
export interface NestedMapping extends CommonMapping {
  /** The type. */
  type: "nested";
  /** The class of each object's fields. */
  entity?: EntityRef;
  /** What happens to undeclared fields inside. */
  dynamic?: Dynamic;
  /** Also index the fields in the parent document. */
  include_in_parent?: boolean;
  /** Also index the fields in the root document. */
  include_in_root?: boolean;
}

/**
 * An Elasticsearch `dense_vector` field.
 *
 * @example
 * ```ts
 * import { Column, type DenseVectorMapping, mappingOf } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const mapping: DenseVectorMapping = {
 *   type: "dense_vector", dims: 3, similarity: "cosine", index_options: { type: "hnsw", m: 16 },
 * };
 * class Doc { @Column({ mapping }) embedding: number[] = []; }
 * assert.equal(mappingOf(Doc).mappings.properties.embedding?.dims, 3);
 * ```
 */
export interface DenseVectorMapping extends CommonMapping {
  /** The type. */
  type: "dense_vector";
  /** The number of dimensions (set from the first vector when absent). */
  dims?: number;
  /** How vectors are compared for kNN. */
  similarity?: "l2_norm" | "dot_product" | "cosine" | "max_inner_product";
  /** `false`: not searchable with kNN. */
  index?: boolean;
  /** The element type. */
  element_type?: "float" | "byte" | "bit";
  /** The kNN index: `hnsw`, `int8_hnsw`, `bbq_hnsw`, `flat`, … and its parameters. */
  index_options?: {
    readonly type: string;
    readonly m?: number;
    readonly ef_construction?: number;
    readonly confidence_interval?: number;
    readonly [option: string]: MappingValue | undefined;
  };
}

/**
 * An OpenSearch `knn_vector` field (the k-NN plugin).
 *
 * @example
 * ```ts
 * import { Column, type KnnVectorMapping, mappingOf } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const mapping: KnnVectorMapping = { type: "knn_vector", dimension: 3, space_type: "l2" };
 * class Doc { @Column({ mapping }) embedding: number[] = []; }
 * assert.equal(mappingOf(Doc).mappings.properties.embedding?.dimension, 3);
 * ```
 */
export interface KnnVectorMapping extends CommonMapping {
  /** The type. */
  type: "knn_vector";
  /** The number of dimensions. */
  dimension: number;
  /** The distance: `l2`, `cosinesimil`, `innerproduct`, … */
  space_type?: string;
  /** `float`, `byte`, `binary`. */
  data_type?: string;
  /** `on_disk` or `in_memory`. */
  mode?: string;
  /** `1x` … `32x`. */
  compression_level?: string;
  /** The index method (`{name: "hnsw", engine: "lucene", parameters: {…}}`). */
  method?: Readonly<Record<string, MappingValue>>;
}

/**
 * Types this library names but whose options go through `raw` (binary, wildcard, shapes, ranges,
 * completion and the like).
 *
 * @example
 * ```ts
 * import type { OtherType } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const type: OtherType = "wildcard";
 * assert.equal(type, "wildcard");
 * ```
 */
export type OtherType =
  | "binary"
  | "wildcard"
  | "match_only_text"
  | "constant_keyword"
  | "flattened"
  | "flat_object"
  | "geo_shape"
  | "shape"
  | "point"
  | "search_as_you_type"
  | "completion"
  | "token_count"
  | "integer_range"
  | "long_range"
  | "float_range"
  | "double_range"
  | "date_range"
  | "ip_range"
  | "version"
  | "rank_feature"
  | "rank_features"
  | "sparse_vector"
  | "semantic_text"
  | "percolator"
  | "join"
  | "alias";

/**
 * A field of one of the {@linkcode OtherType}s: the common options, the rest in `raw`.
 *
 * @example
 * ```ts
 * import { Column, mappingOf, type OtherMapping } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const mapping: OtherMapping = { type: "alias", raw: { path: "name" } };
 * class Doc { @Column({ mapping: "keyword" }) name = ""; @Column({ mapping }) title = ""; }
 * assert.deepEqual(mappingOf(Doc).mappings.properties.title, { type: "alias", path: "name" });
 * ```
 */
export interface OtherMapping extends CommonMapping, IndexedMapping {
  /** The type. */
  type: OtherType;
  /** Other forms of the field. */
  fields?: MultiFields;
}

/**
 * A field's whole mapping as JSON, for a type this library does not name.
 *
 * @example
 * ```ts
 * import { Column, mappingOf, type RawFieldMapping } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const mapping: RawFieldMapping = { raw: { type: "murmur3" } };
 * class Doc { @Column({ mapping }) hash = ""; }
 * assert.deepEqual(mappingOf(Doc).mappings.properties.hash, { type: "murmur3" });
 * ```
 */
export interface RawFieldMapping {
  /** No typed type: `raw` carries it. */
  type?: undefined;
  /** The field's mapping. */
  raw: Readonly<Record<string, MappingValue>>;
}

/**
 * A mapping that can stand as a multi-field (anything but objects).
 *
 * @example
 * ```ts
 * import type { LeafMapping } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const leaf: LeafMapping = { type: "keyword" };
 * assert.equal(leaf.type, "keyword");
 * ```
 */
export type LeafMapping =
  | KeywordMapping
  | TextMapping
  | NumberMapping
  | ScaledFloatMapping
  | DateMapping
  | BooleanMapping
  | IpMapping
  | GeoPointMapping
  | DenseVectorMapping
  | KnnVectorMapping
  | OtherMapping
  | RawFieldMapping;

/**
 * The index mapping of one field, declared on `@Column({ mapping })` or in `defineEntity`.
 *
 * @example
 * ```ts
 * import { Column, type FieldMapping, mappingOf } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const mapping: FieldMapping = { type: "text", fields: { raw: { type: "keyword" } } };
 * class City { @Column({ mapping }) name = ""; }
 * assert.equal(mappingOf(City).mappings.properties.name?.type, "text");
 * ```
 */
export type FieldMapping = LeafMapping | ObjectMapping | NestedMapping;

/**
 * The types a mapping may name by itself: `mapping: "keyword"` is `mapping: {type: "keyword"}`.
 *
 * @example
 * ```ts
 * import { Column, mappingOf, type SimpleFieldType } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const type: SimpleFieldType = "geo_point";
 * class Place { @Column({ mapping: type }) at = ""; }
 * assert.deepEqual(mappingOf(Place).mappings.properties.at, { type: "geo_point" });
 * ```
 */
export type SimpleFieldType =
  | "keyword"
  | "text"
  | NumberType
  | "date"
  | "date_nanos"
  | "boolean"
  | "ip"
  | "geo_point"
  | "object"
  | "dense_vector"
  | OtherType;

/**
 * An analysis component (analyzer, tokenizer, filter, char filter, normalizer).
 *
 * @example
 * ```ts
 * import type { AnalysisComponent } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const folding: AnalysisComponent = { type: "custom", tokenizer: "standard", filter: ["lowercase"] };
 * assert.equal(folding.tokenizer, "standard");
 * ```
 */
export interface AnalysisComponent {
  /** The component type (`custom`, `pattern`, `stop`, …). */
  readonly type?: string;
  /** An analyzer's tokenizer. */
  readonly tokenizer?: string;
  /** An analyzer's or normalizer's token filters. */
  readonly filter?: readonly string[];
  /** An analyzer's or normalizer's char filters. */
  readonly char_filter?: readonly string[];
  /** The component's other parameters. */
  readonly [option: string]: MappingValue | undefined;
}

/**
 * The `analysis` settings: components by name.
 *
 * @example
 * ```ts
 * import { Table, mappingOf, type AnalysisSettings } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const analysis: AnalysisSettings = { normalizer: { folded: { type: "custom", filter: ["lowercase"] } } };
 * @Table({ index: "users", settings: { analysis } })
 * class User {}
 * assert.deepEqual(mappingOf(User).settings?.analysis, analysis);
 * ```
 */
export interface AnalysisSettings {
  /** Analyzers by name. */
  analyzer?: Readonly<Record<string, AnalysisComponent>>;
  /** Tokenizers by name. */
  tokenizer?: Readonly<Record<string, AnalysisComponent>>;
  /** Token filters by name. */
  filter?: Readonly<Record<string, AnalysisComponent>>;
  /** Char filters by name. */
  char_filter?: Readonly<Record<string, AnalysisComponent>>;
  /** Normalizers by name. */
  normalizer?: Readonly<Record<string, AnalysisComponent>>;
}

/**
 * Index settings declared on `@Table({ settings })`.
 *
 * @example
 * ```ts
 * import { Table, mappingOf, type IndexSettings } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const settings: IndexSettings = { number_of_shards: 1, number_of_replicas: 0, refresh_interval: "5s" };
 * @Table({ index: "logs", settings })
 * class Log {}
 * assert.deepEqual(mappingOf(Log).settings, settings);
 * ```
 */
export interface IndexSettings {
  /** Primary shards (fixed at creation). */
  number_of_shards?: number;
  /** Replicas of each shard. */
  number_of_replicas?: number;
  /** How often writes become searchable (`"1s"`, `"-1"` off). */
  refresh_interval?: string;
  /** The largest `from + size` of a search. */
  max_result_window?: number;
  /** Analyzers, tokenizers, filters, normalizers. */
  analysis?: AnalysisSettings;
  /** Settings not modelled here, written as given (`{"index.codec": "best_compression"}`). */
  raw?: Readonly<Record<string, MappingValue>>;
}

/**
 * The index-level mapping options `@Table` takes beside the index name.
 *
 * @example
 * ```ts
 * import { Table, mappingOf, type TableMapping } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const options: TableMapping = { dynamic: false, rawMappings: { _source: { excludes: ["big"] } } };
 * @Table({ index: "docs", ...options })
 * class Doc {}
 * assert.deepEqual(mappingOf(Doc).mappings, { dynamic: "false", _source: { excludes: ["big"] }, properties: {} });
 * ```
 */
export interface TableMapping {
  /** Index settings for `create()`. */
  settings?: IndexSettings;
  /** What happens to fields no column maps. */
  dynamic?: Dynamic;
  /** Other top-level keys of `mappings` (`_source`, `_routing`, `dynamic_templates`, …). */
  rawMappings?: Readonly<Record<string, MappingValue>>;
}

/**
 * An entity's mapping declaration is wrong: an unknown option for its type, an option of the
 * wrong kind, a `raw` key that shadows a typed option, an object field whose entity maps itself
 * through its own fields. The message names the class and field.
 *
 * @example
 * ```ts
 * import { Column, MappingDeclarationError } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * assert.throws(() => {
 *   // deno-lint-ignore no-explicit-any
 *   class Bad { @Column({ mapping: { type: "keyword", ignoreAbove: 10 } as any }) tag = ""; }
 *   return Bad;
 * }, (e) => e instanceof MappingDeclarationError && e.code === "MAPPING_DECLARATION" && /ignoreAbove/.test(e.message));
 * ```
 */
export class MappingDeclarationError extends TypeError {
  /** Always `"MAPPING_DECLARATION"`. */
  readonly code = "MAPPING_DECLARATION" as const;

  /**
   * Creates the error.
   *
   * @param message Where and what is wrong, and what to do.
   */
  constructor(message: string) {
    super(message);
    this.name = "MappingDeclarationError";
  }
}

const COMMON = ["copy_to", "meta", "raw"];
const INDEXED = ["index", "doc_values", "store"];
const NUMBER_KEYS = [...COMMON, ...INDEXED, "coerce", "ignore_malformed", "null_value", "fields"];
/** The number types that take the numbers' options (`scaled_float` adds `scaling_factor`). */
export const NUMBER_TYPES: readonly NumberType[] = [
  "long",
  "integer",
  "short",
  "byte",
  "double",
  "float",
  "half_float",
  "unsigned_long",
];
const OTHER_TYPES: readonly OtherType[] = [
  "binary",
  "wildcard",
  "match_only_text",
  "constant_keyword",
  "flattened",
  "flat_object",
  "geo_shape",
  "shape",
  "point",
  "search_as_you_type",
  "completion",
  "token_count",
  "integer_range",
  "long_range",
  "float_range",
  "double_range",
  "date_range",
  "ip_range",
  "version",
  "rank_feature",
  "rank_features",
  "sparse_vector",
  "semantic_text",
  "percolator",
  "join",
  "alias",
];

/** Per type: the typed options it takes (`type` aside). */
const KEY_LISTS: readonly (readonly [string, readonly string[]])[] = [
  ["keyword", [
    ...COMMON,
    ...INDEXED,
    "ignore_above",
    "normalizer",
    "null_value",
    "eager_global_ordinals",
    "split_queries_on_whitespace",
    "similarity",
    "index_options",
    "norms",
    "fields",
  ]],
  ["text", [
    ...COMMON,
    "analyzer",
    "search_analyzer",
    "search_quote_analyzer",
    "index",
    "store",
    "norms",
    "fielddata",
    "index_options",
    "index_phrases",
    "index_prefixes",
    "position_increment_gap",
    "term_vector",
    "similarity",
    "eager_global_ordinals",
    "fields",
  ]],
  ...NUMBER_TYPES.map((t) => [t, NUMBER_KEYS] as const),
  ["scaled_float", [...NUMBER_KEYS, "scaling_factor"]],
  ["date", [...COMMON, ...INDEXED, "format", "locale", "ignore_malformed", "null_value", "fields"]],
  ["boolean", [...COMMON, ...INDEXED, "null_value", "fields"]],
  ["ip", [...COMMON, ...INDEXED, "ignore_malformed", "null_value", "fields"]],
  ["geo_point", [...COMMON, ...INDEXED, "ignore_malformed", "ignore_z_value", "null_value"]],
  ["object", [...COMMON, "entity", "dynamic", "enabled", "subobjects"]],
  ["nested", [...COMMON, "entity", "dynamic", "include_in_parent", "include_in_root"]],
  ["dense_vector", [
    ...COMMON,
    "dims",
    "similarity",
    "index",
    "element_type",
    "index_options",
  ]],
  ["knn_vector", [
    ...COMMON,
    "dimension",
    "space_type",
    "data_type",
    "mode",
    "compression_level",
    "method",
  ]],
  ...OTHER_TYPES.map((t) => [t, [...COMMON, ...INDEXED, "fields"]] as const),
];
const KEYS: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  KEY_LISTS.map(([type, keys]) => [type, new Set(keys)] as const),
);
(KEYS as Map<string, ReadonlySet<string>>).set("date_nanos", KEYS.get("date")!);

const SIMPLE: ReadonlySet<string> = new Set(
  [...KEYS.keys()].filter((t) => t !== "nested" && t !== "knn_vector" && t !== "scaled_float"),
);

/** The typed options of each type (for the generator, which writes only these as typed). */
export function typedOptions(type: string): ReadonlySet<string> | undefined {
  return KEYS.get(type);
}

/** Whether a type can be written by itself (`mapping: "keyword"`). */
export function isSimpleFieldType(type: string): boolean {
  return SIMPLE.has(type);
}

function kindOf(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

const EXPECTED: Readonly<Record<string, string>> = {
  ignore_above: "number",
  scaling_factor: "number",
  dims: "number",
  dimension: "number",
  position_increment_gap: "number",
  normalizer: "string",
  analyzer: "string",
  search_analyzer: "string",
  search_quote_analyzer: "string",
  format: "string",
  locale: "string",
  similarity: "string",
  element_type: "string",
  index_options: "string|object",
  index_prefixes: "object",
  term_vector: "string",
  space_type: "string",
  index: "boolean",
  doc_values: "boolean",
  store: "boolean",
  norms: "boolean",
  coerce: "boolean",
  ignore_malformed: "boolean",
  ignore_z_value: "boolean",
  eager_global_ordinals: "boolean",
  fielddata: "boolean",
  index_phrases: "boolean",
  enabled: "boolean",
  subobjects: "boolean",
  include_in_parent: "boolean",
  include_in_root: "boolean",
  split_queries_on_whitespace: "boolean",
  copy_to: "string|array",
  meta: "object",
  raw: "object",
  fields: "object",
  method: "object",
  entity: "function",
  dynamic: "boolean|string",
};

/**
 * Checks one field's mapping where it is declared and returns it with a shorthand expanded, so
 * a misspelt option or a value of the wrong kind fails at once.
 *
 * @param where `@Column on name`, `defineEntity(User) field name`.
 * @param spec The declaration.
 * @param leaf True for a multi-field (no objects there).
 */
export function checkFieldMapping(where: string, spec: unknown, leaf = false): FieldMapping {
  if (typeof spec === "string") {
    if (!SIMPLE.has(spec)) {
      throw new MappingDeclarationError(
        `${where}: mapping ${JSON.stringify(spec)} is no type that stands alone; give ${
          KEYS.has(spec) ? `{ type: ${JSON.stringify(spec)}, … } with its options` : "a known type"
        } (or { raw: { type: ${JSON.stringify(spec)} } } for a type this library does not name)`,
      );
    }
    return checkFieldMapping(where, { type: spec }, leaf);
  }
  if (spec === null || typeof spec !== "object" || Array.isArray(spec)) {
    throw new MappingDeclarationError(`${where}: mapping must be a type name or an object`);
  }
  const m = spec as Record<string, unknown>;
  if (m.type === undefined) {
    const extra = Object.keys(m).filter((k) => k !== "raw" && k !== "type");
    if (kindOf(m.raw) !== "object" || extra.length > 0) {
      throw new MappingDeclarationError(
        `${where}: a mapping without type is { raw: {…the whole mapping…} }${
          extra.length > 0 ? `; found ${extra.join(", ")}` : ""
        }`,
      );
    }
    return m as unknown as RawFieldMapping;
  }
  const type = m.type;
  const keys = typeof type === "string" ? KEYS.get(type) : undefined;
  if (keys === undefined) {
    throw new MappingDeclarationError(
      `${where}: unknown mapping type ${JSON.stringify(type)}; for a type this library does not ` +
        `name write { raw: { type: ${JSON.stringify(type)}, … } }`,
    );
  }
  if (leaf && (type === "object" || type === "nested")) {
    throw new MappingDeclarationError(`${where}: a multi-field cannot be an ${type}`);
  }
  for (const [key, value] of Object.entries(m)) {
    if (key === "type" || value === undefined) continue;
    if (!keys.has(key)) {
      throw new MappingDeclarationError(
        `${where}: ${type} takes no option ${JSON.stringify(key)}; its options are ${
          [...keys].join(", ")
        } (put others in raw)`,
      );
    }
    const expected = EXPECTED[key];
    if (expected !== undefined && !expected.split("|").includes(kindOf(value))) {
      throw new MappingDeclarationError(
        `${where}: ${key} must be ${expected.replace("|", " or ")}, not ${kindOf(value)}`,
      );
    }
  }
  if (type === "scaled_float" && typeof m.scaling_factor !== "number") {
    throw new MappingDeclarationError(`${where}: scaled_float needs scaling_factor`);
  }
  if (type === "knn_vector" && typeof m.dimension !== "number") {
    throw new MappingDeclarationError(`${where}: knn_vector needs dimension`);
  }
  const raw = m.raw as Record<string, unknown> | undefined;
  for (const key of Object.keys(raw ?? {})) {
    if (key === "type" || (keys.has(key) && key !== "raw")) {
      throw new MappingDeclarationError(
        `${where}: raw.${key} shadows the typed option; set ${key} itself`,
      );
    }
  }
  if (m.fields !== undefined) {
    const fields: Record<string, FieldMapping> = {};
    for (const [name, sub] of Object.entries(m.fields as Record<string, unknown>)) {
      fields[name] = checkFieldMapping(`${where} multi-field ${name}`, sub, true);
    }
    return { ...m, fields } as FieldMapping;
  }
  return m as unknown as FieldMapping;
}

const TABLE_KEYS = new Set(["index", "settings", "dynamic", "rawMappings"]);
const SETTINGS_KEYS = new Set([
  "number_of_shards",
  "number_of_replicas",
  "refresh_interval",
  "max_result_window",
  "analysis",
  "raw",
]);
const ANALYSIS_KEYS = new Set(["analyzer", "tokenizer", "filter", "char_filter", "normalizer"]);

/**
 * Checks `@Table`'s (or `defineEntity`'s) index-level options.
 *
 * @param where The class.
 * @param spec The options (`index` and the {@linkcode TableMapping} keys).
 * @param keys The keys allowed besides the mapping's (`index` for `@Table`).
 */
export function checkTableMapping(
  where: string,
  spec: Record<string, unknown>,
  keys: ReadonlySet<string> = TABLE_KEYS,
): TableMapping {
  for (const key of Object.keys(spec)) {
    if (!keys.has(key)) {
      throw new MappingDeclarationError(
        `${where}: unknown option ${JSON.stringify(key)}; the options are ${[...keys].join(", ")}`,
      );
    }
  }
  const { settings, dynamic, rawMappings } = spec as TableMapping;
  if (dynamic !== undefined && !["boolean", "string"].includes(typeof dynamic)) {
    throw new MappingDeclarationError(
      `${where}: dynamic must be true, false, "strict" or "runtime"`,
    );
  }
  if (rawMappings !== undefined && kindOf(rawMappings) !== "object") {
    throw new MappingDeclarationError(`${where}: rawMappings must be an object`);
  }
  if (rawMappings !== undefined && "properties" in rawMappings) {
    throw new MappingDeclarationError(
      `${where}: rawMappings.properties would replace the columns' mappings; map each field on its column`,
    );
  }
  if (settings !== undefined) {
    if (kindOf(settings) !== "object") {
      throw new MappingDeclarationError(`${where}: settings must be an object`);
    }
    for (const key of Object.keys(settings)) {
      if (!SETTINGS_KEYS.has(key)) {
        throw new MappingDeclarationError(
          `${where}: settings take no ${JSON.stringify(key)}; they are ${
            [...SETTINGS_KEYS].join(", ")
          } (put others in settings.raw)`,
        );
      }
    }
    for (const key of Object.keys(settings.analysis ?? {})) {
      if (!ANALYSIS_KEYS.has(key)) {
        throw new MappingDeclarationError(
          `${where}: settings.analysis takes no ${JSON.stringify(key)}; the sections are ${
            [...ANALYSIS_KEYS].join(", ")
          }`,
        );
      }
    }
  }
  return {
    ...(settings !== undefined ? { settings } : {}),
    ...(dynamic !== undefined ? { dynamic } : {}),
    ...(rawMappings !== undefined ? { rawMappings } : {}),
  };
}
