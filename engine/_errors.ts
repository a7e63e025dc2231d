// Elasticsearch-shaped errors raised anywhere inside the engine and turned into error bodies by
// the REST layer. Internal to engine/.

/** Exception types that are not Elasticsearch's own (Java's and Lucene's). */
const FOREIGN = new Set([
  "illegal_argument_exception",
  "illegal_state_exception",
  "input_coercion_exception",
  "json_e_o_f_exception",
  "json_parse_exception",
  "named_object_not_found_exception",
  "number_format_exception",
  "stream_read_exception",
  "unexpected_end_of_input_exception",
  // The x-content library's, an IllegalArgumentException beneath Elasticsearch's own.
  "x_content_e_o_f_exception",
  "x_content_parse_exception",
  "query_validation_exception",
  "too_complex_to_determinize_exception",
  "too_many_nested_clauses",
]);

/** Whether `type` is a Java or Lucene exception rather than one of Elasticsearch's own. */
export function isForeignType(type: string): boolean {
  return FOREIGN.has(type);
}

/** What an error says besides its status, type and reason. */
export interface ErrorDetail {
  /** Extra fields for the error object (`index`, `index_uuid`, `shard`, ...); none by default. */
  extra?: Record<string, unknown>;
  /** The nested cause, rendered as `caused_by`. */
  causedBy?: EngineError;
}

/** An error with Elasticsearch's status, exception `type` and `reason`. */
export class EngineError extends Error {
  /** HTTP status to answer with. */
  readonly status: number;
  /** Elasticsearch exception type, e.g. `index_not_found_exception`. */
  readonly type: string;
  /** Extra fields for the error object (`index`, `index_uuid`, `shard`, `resource.id`, ...). */
  readonly extra: Record<string, unknown>;
  /** Optional nested cause, rendered as `caused_by`. */
  readonly causedBy?: EngineError;
  /**
   * Where in the request body the parser stood when it failed; the REST layer reports it as the
   * error's `line` and `col`, as Elasticsearch does for parse errors.
   */
  spot?: BodySpot;

  constructor(status: number, type: string, reason: string, detail: ErrorDetail = {}) {
    super(reason);
    this.name = "EngineError";
    this.status = status;
    this.type = type;
    this.extra = detail.extra ?? {};
    if (detail.causedBy) this.causedBy = detail.causedBy;
  }

  /** The `{"type","reason",...}` object of this error (with `caused_by` when present). */
  toCause(): Record<string, unknown> {
    const cause: Record<string, unknown> = { type: this.type, reason: this.message, ...this.extra };
    if (this.causedBy) cause.caused_by = this.causedBy.toCause();
    return cause;
  }

  /** The full error body `{"error":{"root_cause":[...],"type","reason",...},"status"}`. */
  toBody(): Record<string, unknown> {
    // Elasticsearch reports the deepest of its own exceptions; plain Java and Lucene ones beneath
    // it (`illegal_argument_exception`, ...) stay its `caused_by`.
    let root = this.causedBy ?? this;
    while (root.causedBy && !FOREIGN.has(root.causedBy.type)) root = root.causedBy;
    const rootCause = { type: root.type, reason: root.message, ...root.extra };
    return { error: { root_cause: [rootCause], ...this.toCause() }, status: this.status };
  }
}

/**
 * Every exception type the engine answers with, and its HTTP status: one table, so a type always
 * comes with the status Elasticsearch gives it.
 */
export const ERROR_TYPES = {
  action_request_validation_exception: 400,
  aggregation_execution_exception: 500,
  aliases_not_found_exception: 404,
  cluster_block_exception: 403,
  content_too_long: 413,
  date_time_exception: 400,
  document_missing_exception: 404,
  document_parsing_exception: 400,
  document_source_missing_exception: 400,
  exception: 500,
  illegal_argument_exception: 400,
  illegal_state_exception: 500,
  index_closed_exception: 400,
  index_not_found_exception: 404,
  index_template_missing_exception: 404,
  input_coercion_exception: 400,
  invalid_alias_name_exception: 400,
  invalid_index_name_exception: 400,
  invalid_index_template_exception: 400,
  json_e_o_f_exception: 400,
  json_parse_exception: 400,
  mapper_parsing_exception: 400,
  named_object_not_found_exception: 400,
  no_such_remote_cluster_exception: 404,
  media_type_header_exception: 400,
  number_format_exception: 400,
  parse_exception: 400,
  query_validation_exception: 400,
  parsing_exception: 400,
  query_shard_exception: 400,
  repository_missing_exception: 404,
  resource_already_exists_exception: 400,
  resource_not_found_exception: 404,
  routing_missing_exception: 400,
  script_exception: 400,
  search_context_missing_exception: 404,
  shard_not_found_exception: 404,
  security_exception: 401,
  settings_exception: 400,
  status_exception: 400,
  stream_constraints_exception: 400,
  stream_read_exception: 400,
  strict_dynamic_mapping_exception: 400,
  too_complex_to_determinize_exception: 400,
  too_many_buckets_exception: 400,
  too_many_nested_clauses: 400,
  too_many_scroll_contexts_exception: 429,
  unexpected_end_of_input_exception: 400,
  unsupported_version_exception: 500,
  validation_exception: 400,
  version_conflict_engine_exception: 409,
  x_content_e_o_f_exception: 400,
  x_content_parse_exception: 400,
  zone_rules_exception: 400,
} as const;

/** An exception type of {@link ERROR_TYPES}. */
export type ErrorType = keyof typeof ERROR_TYPES;

/** An error of `type` with the status the table gives it. */
export function esError(
  type: ErrorType,
  reason: string,
  extra: Record<string, unknown> = {},
  causedBy?: EngineError,
): EngineError {
  return new EngineError(ERROR_TYPES[type], type, reason, { extra, causedBy });
}

/** 400 `parsing_exception`, as Elasticsearch raises for malformed query DSL. */
export function parsingError(reason: string, extra: Record<string, unknown> = {}): EngineError {
  return esError("parsing_exception", reason, extra);
}

/**
 * A place in a request body, named by the first key of that name: the start of its value, of
 * its name, or the last character of its value (where a parser that read the whole object stands).
 */
export interface BodySpot {
  readonly key: string;
  readonly at: "value" | "name" | "end";
}

/** 400 `parsing_exception` raised at a place of the body (reported as `line` and `col`). */
export function parsingErrorAt(reason: string, key: string, at: BodySpot["at"]): EngineError {
  const e = parsingError(reason);
  e.spot = { key, at };
  return e;
}

/** 400 `illegal_argument_exception`. */
export function illegalArgument(reason: string, causedBy?: EngineError): EngineError {
  return esError("illegal_argument_exception", reason, {}, causedBy);
}

/** 400 `action_request_validation_exception`: `Validation Failed: 1: a;2: b;`. */
export function validationFailed(...problems: string[]): EngineError {
  const listed = problems.map((m, i) => `${i + 1}: ${m};`).join("");
  return esError("action_request_validation_exception", `Validation Failed: ${listed}`);
}

/** 400 `x_content_parse_exception`, for request bodies the parser refuses. */
export function xContentParseError(reason: string): EngineError {
  return esError("x_content_parse_exception", reason);
}

/**
 * What the JSON reader (Jackson) failed on: the text is not JSON (`syntax`), it ended early
 * (`eof`), or a value could not be read as the number asked for (`coercion`).
 */
export type JsonFailure = "syntax" | "eof" | "coercion";

const JSON_FAILURES = new WeakMap<EngineError, JsonFailure>();

/**
 * 400 for a body the JSON reader refused, as Elasticsearch wraps Jackson's exception:
 * `x_content_parse_exception` (`x_content_e_o_f_exception` for an early end) caused by
 * `json_parse_exception`, `json_e_o_f_exception` or `input_coercion_exception`. `reason` starts
 * with the place, `[line:col] …`. OpenSearch reports Jackson's exception itself
 * ({@link inOpenSearchTerms}).
 */
export function jsonReadError(failure: JsonFailure, reason: string): EngineError {
  const where = /^\[\d+:\d+\] /.exec(reason)?.[0] ?? "";
  const text = reason.slice(where.length);
  const e = failure === "eof"
    ? esError(
      "x_content_e_o_f_exception",
      `${where}Unexpected end of file`,
      {},
      esError("json_e_o_f_exception", text),
    )
    : esError(
      "x_content_parse_exception",
      reason,
      {},
      esError(failure === "syntax" ? "json_parse_exception" : "input_coercion_exception", text),
    );
  JSON_FAILURES.set(e, failure);
  return e;
}

/** OpenSearch's Jackson (2.18+) names for each failure, and the cause it puts beneath. */
const OPENSEARCH_JSON: Record<JsonFailure, [ErrorType, ErrorType]> = {
  syntax: ["json_parse_exception", "stream_read_exception"],
  eof: ["unexpected_end_of_input_exception", "unexpected_end_of_input_exception"],
  coercion: ["input_coercion_exception", "input_coercion_exception"],
};

/**
 * An error as OpenSearch reports it: where Elasticsearch wraps a JSON reader's failure in
 * `x_content_parse_exception`, OpenSearch shows Jackson's own exception (`json_parse_exception`
 * caused by `stream_read_exception`, `unexpected_end_of_input_exception`, …), anywhere in the
 * chain of causes. Other errors are returned as they are.
 */
export function inOpenSearchTerms(e: EngineError): EngineError {
  const failure = JSON_FAILURES.get(e);
  if (failure !== undefined) {
    const text = e.causedBy?.message ?? e.message;
    const [type, cause] = OPENSEARCH_JSON[failure];
    return esError(type, text, {}, esError(cause, text));
  }
  const cause = e.causedBy && inOpenSearchTerms(e.causedBy);
  if (cause === e.causedBy) return e;
  const out = new EngineError(e.status, e.type, e.message, { extra: e.extra, causedBy: cause });
  if (e.spot) out.spot = e.spot;
  return out;
}

/** 404 `resource_not_found_exception`. */
export function resourceNotFound(reason: string): EngineError {
  return esError("resource_not_found_exception", reason);
}
