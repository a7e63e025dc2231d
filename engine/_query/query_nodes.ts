// The frozen, kind-tagged query tree that the parser builds and the executor runs.

import type { SpanNode } from "./span_nodes.ts";

/** A field with a query-time boost, as in `title^2`. */
export interface BoostedField {
  /** Field path or wildcard pattern. */
  readonly field: string;
  /** Boost for this field. */
  readonly boost: number;
}

/** Any parsed query. */
export type QueryNode =
  | { readonly kind: "match_all"; readonly boost: number }
  | { readonly kind: "span"; readonly span: SpanNode; readonly boost: number }
  | { readonly kind: "match_none" }
  | {
    readonly kind: "term";
    readonly field: string;
    readonly value: unknown;
    readonly boost: number;
    readonly caseInsensitive: boolean;
  }
  | {
    readonly kind: "terms";
    readonly field: string;
    readonly values: readonly unknown[];
    readonly boost: number;
  }
  | {
    readonly kind: "match";
    readonly field: string;
    readonly query: unknown;
    readonly operator: "or" | "and";
    readonly minimumShouldMatch?: string;
    readonly analyzer?: string;
    readonly boost: number;
    readonly zeroTermsAll: boolean;
    readonly prefixLast?: boolean;
    readonly lenient?: boolean;
    readonly fuzziness?: string;
    readonly prefixLength?: number;
    readonly transpositions?: boolean;
    /** `fuzzy_rewrite: constant_score…`: a fuzzy term's expansions score the boost. */
    readonly constantRewrite?: boolean;
  }
  | {
    readonly kind: "match_phrase";
    readonly field: string;
    readonly query: unknown;
    readonly slop: number;
    readonly boost: number;
    readonly prefixLast?: boolean;
    /** `match_phrase_prefix`: how many terms the last one expands to (default 50). */
    readonly maxExpansions?: number;
  }
  | {
    readonly kind: "multi_match";
    readonly fields: readonly BoostedField[];
    readonly query: unknown;
    readonly type: string;
    readonly operator: "or" | "and";
    readonly minimumShouldMatch?: string;
    readonly tieBreaker: number;
    readonly boost: number;
    readonly lenient: boolean;
    readonly analyzer?: string;
    readonly fuzziness?: string;
    readonly prefixLength?: number;
    readonly transpositions?: boolean;
    /** `fuzzy_rewrite: constant_score…`: a fuzzy term's expansions score the boost. */
    readonly constantRewrite?: boolean;
  }
  | {
    readonly kind: "bool";
    readonly must: readonly QueryNode[];
    readonly should: readonly QueryNode[];
    readonly mustNot: readonly QueryNode[];
    readonly filter: readonly QueryNode[];
    readonly minimumShouldMatch?: string;
    readonly boost: number;
  }
  | {
    readonly kind: "range";
    readonly field: string;
    readonly gt?: unknown;
    readonly gte?: unknown;
    readonly lt?: unknown;
    readonly lte?: unknown;
    readonly format?: string;
    /** `time_zone` of dates without an offset and of date-math rounding. */
    readonly timeZone?: string;
    readonly boost: number;
  }
  | {
    readonly kind: "prefix";
    readonly field: string;
    readonly value: string;
    readonly boost: number;
    readonly caseInsensitive: boolean;
    /** A field pattern's fields add up (`simple_query_string`) instead of the best one counting. */
    readonly sumExpanded?: boolean;
  }
  | {
    readonly kind: "wildcard";
    readonly field: string;
    readonly value: string;
    readonly boost: number;
    readonly caseInsensitive: boolean;
    /** A field pattern's fields add up (`simple_query_string`) instead of the best one counting. */
    readonly sumExpanded?: boolean;
  }
  | {
    readonly kind: "regexp";
    readonly field: string;
    readonly value: string;
    readonly boost: number;
    readonly caseInsensitive: boolean;
    /** Lucene's optional-operator flags (ALL when absent). */
    readonly flags?: number;
    /** Bound on automaton states (Lucene's default 10000 when absent). */
    readonly maxDeterminizedStates?: number;
  }
  | { readonly kind: "exists"; readonly field: string; readonly boost: number }
  | {
    readonly kind: "geo";
    /** The query's name (`geo_distance`, `geo_bounding_box`, …), for errors. */
    readonly query: string;
    readonly field: string;
    /** Whether a quantised point (lat, lon) matches. */
    readonly test: (lat: number, lon: number) => boolean;
    readonly boost: number;
    readonly ignoreUnmapped: boolean;
    /** A point off the globe under `validation_method: STRICT`, refused when the query runs. */
    readonly invalid?: { readonly reason: string; readonly cause?: string };
    /** `geo_shape`'s `within`/`disjoint`, which OpenSearch refuses on a geo_point field. */
    readonly refusedOnOpenSearch?: string;
    /** `within`/`disjoint`: a document matches when every one of its points passes `test`. */
    readonly everyPoint?: boolean;
    /** The shape as given, for the Lucene query an explanation names. */
    readonly shape?: GeoShapeSpec;
  }
  | { readonly kind: "ids"; readonly values: readonly string[]; readonly boost: number }
  | { readonly kind: "constant_score"; readonly filter: QueryNode; readonly boost: number }
  | {
    readonly kind: "dis_max";
    readonly queries: readonly QueryNode[];
    readonly tieBreaker: number;
    readonly boost: number;
  }
  | {
    readonly kind: "function_score";
    readonly query: QueryNode;
    readonly functions: readonly ScoreFunction[];
    readonly scoreMode: string;
    readonly boostMode: string;
    readonly maxBoost: number;
    readonly minScore?: number;
    readonly boost: number;
  }
  | {
    readonly kind: "knn";
    readonly field: string;
    readonly vector: readonly number[];
    readonly k: number;
    readonly numCandidates: number;
    readonly filter: QueryNode | null;
    /** Raw-similarity threshold (a distance bound for `l2_norm`). */
    readonly similarity?: number;
    /** `rescore_vector.oversample`: rescoring quantised candidates on the raw vectors (0: off). */
    readonly oversample?: number;
    readonly boost: number;
  }
  | {
    readonly kind: "script_score";
    readonly query: QueryNode;
    readonly script: ScoreScript;
    readonly minScore?: number;
    readonly boost: number;
  }
  | { readonly kind: "script"; readonly script: ScoreScript; readonly boost: number }
  | {
    readonly kind: "nested";
    /** The nested path (full, from the root). */
    readonly path: string;
    /** Run on each object under the path. */
    readonly query: QueryNode;
    /** How the matching objects' scores make the document's. */
    readonly scoreMode: NestedScoreMode;
    /** Match nothing (instead of failing) when the path is not mapped. */
    readonly ignoreUnmapped: boolean;
    readonly boost: number;
  }
  | {
    readonly kind: "boosting";
    readonly positive: QueryNode;
    readonly negative: QueryNode;
    readonly negativeBoost: number;
    readonly boost: number;
  };

/** How a `nested` query combines the scores of a document's matching objects. */
export type NestedScoreMode = "avg" | "max" | "min" | "sum" | "none";

/** An inline script of a `script_score` or `script` query. */
export interface ScoreScript {
  /** Painless source. */
  readonly source: string;
  /** `params`. */
  readonly params: Readonly<Record<string, unknown>>;
  /** `knn` for OpenSearch's `knn_score` exact-search script; Painless otherwise. */
  readonly lang?: "knn";
}

/** A query node of one kind. */
export type QueryOf<K extends QueryNode["kind"]> = Extract<QueryNode, { kind: K }>;

/** One scoring function of a `function_score` query. */
export interface ScoreFunction {
  /** Only docs matching this filter get the function. */
  readonly filter?: QueryNode;
  /** Constant multiplier. */
  readonly weight?: number;
  /** `field_value_factor`. */
  readonly fieldValueFactor?: { field: string; factor: number; modifier: string; missing?: number };
  /** `random_score` seed. */
  readonly randomSeed?: number;
  /** `random_score` field whose first value is hashed (the Lucene doc id without one). */
  readonly randomField?: string;
  /** `gauss`, `exp` or `linear` decay. */
  readonly decay?: DecaySpec;
}

/** A decay function of `function_score`, as written (resolved against the field's type). */
export interface DecaySpec {
  readonly fn: "gauss" | "exp" | "linear";
  readonly field: string;
  readonly origin?: unknown;
  readonly scale: unknown;
  readonly offset?: unknown;
  readonly decay: number;
  /** `min` (the default), `max`, `avg` or `sum` of a multi-valued doc's distances. */
  readonly multiValueMode: string;
}

/** A geo query's shape as its body gave it (degrees; a polygon's points in order). */
export type GeoShapeSpec =
  | {
    readonly kind: "box";
    readonly top: number;
    readonly left: number;
    readonly bottom: number;
    readonly right: number;
  }
  | { readonly kind: "circle"; readonly lat: number; readonly lon: number; readonly meters: number }
  | { readonly kind: "polygon"; readonly points: readonly { lat: number; lon: number }[] }
  | {
    readonly kind: "shape box";
    readonly top: number;
    readonly left: number;
    readonly bottom: number;
    readonly right: number;
  };
