// Elasticsearch-shaped error bodies for EngineErrors.

import { type EngineError, inOpenSearchTerms, isForeignType } from "../_errors.ts";

/** Exceptions Elasticsearch unwraps when it reports `root_cause` (everything else is its own root). */
const WRAPPERS = new Set(["search_phase_execution_exception", "remote_transport_exception"]);

/**
 * Elasticsearch's error body: `root_cause` is the exception itself unless it only wraps another,
 * or is caused by another of Elasticsearch's own exceptions (the deepest of those is the root).
 * For `opensearch`, a JSON reader's failure is named as OpenSearch names it.
 */
export function errorBody(e: EngineError, flavour?: string): Record<string, unknown> {
  if (flavour === "opensearch") e = inOpenSearchTerms(e);
  if (WRAPPERS.has(e.type) || (e.causedBy && !isForeignType(e.causedBy.type))) return e.toBody();
  const root = { type: e.type, reason: e.message, ...e.extra };
  return { error: { root_cause: [root], ...e.toCause() }, status: e.status };
}
