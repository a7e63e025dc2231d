// Elasticsearch-shaped errors raised anywhere inside the engine and turned into error bodies by
// the REST layer. Internal to engine/.

/** Exception types that are not Elasticsearch's own (Java's and Lucene's). */
const FOREIGN = new Set([
  "illegal_argument_exception",
  "illegal_state_exception",
  "number_format_exception",
  "too_complex_to_determinize_exception",
  "too_many_nested_clauses",
]);

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

  constructor(
    status: number,
    type: string,
    reason: string,
    extra: Record<string, unknown> = {},
    causedBy?: EngineError,
  ) {
    super(reason);
    this.name = "EngineError";
    this.status = status;
    this.type = type;
    this.extra = extra;
    if (causedBy) this.causedBy = causedBy;
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

/** 400 `parsing_exception`, as Elasticsearch raises for malformed query DSL. */
export function parsingError(reason: string, extra: Record<string, unknown> = {}): EngineError {
  return new EngineError(400, "parsing_exception", reason, extra);
}

/** 400 `illegal_argument_exception`. */
export function illegalArgument(reason: string): EngineError {
  return new EngineError(400, "illegal_argument_exception", reason);
}
