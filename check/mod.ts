/**
 * The checker: console command text verified against Elasticsearch's own API specification
 * (endpoints, URL parameters, request bodies, the query DSL and aggregations), OpenSearch's
 * additions, and an index mapping when one is given — before the command runs.
 *
 * @example
 * ```ts
 * import { checkCommand, MappingModel } from "@searchvisitor/searchvisitor/check";
 * import assert from "node:assert/strict";
 *
 * const mapping = MappingModel.from({ properties: { name: { type: "text" } } });
 * const [d] = checkCommand('GET /users/_search {"query": {"term": {"name": "Alice"}}}', { mapping });
 * assert.equal(d!.code, "field-type");
 * assert.equal(d!.severity, "warning");
 * ```
 *
 * @module
 */

export {
  checkCommand,
  type CheckOptions,
  type Diagnostic,
  formatDiagnostic,
  type Severity,
  targetIndex,
} from "./check_command.ts";
export { IndexMappings, type MappedField, MappingModel } from "./mapping_model.ts";
export {
  checkSource,
  checkStatementText,
  type FileDiagnostic,
  findCommands,
  type FoundCommand,
  type SourceKind,
  sourceKindOf,
} from "./source_check.ts";
