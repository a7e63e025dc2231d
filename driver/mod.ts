/**
 * The driver: JDBC's programming model for Elasticsearch and OpenSearch over `fetch`.
 * `DataSource` → `Connection` → `Statement` / `PreparedStatement` → `ResultSet` or an update
 * count, with the Kibana console command language, typed errors and a retrying transport.
 *
 * @example Run a command through an injected fetch
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const fetch = () => Promise.resolve(Response.json({ count: 42 }));
 * await using conn = await new DataSource("http://localhost:9200", { fetch }).getConnection();
 * const rs = await conn.createStatement().executeQuery("GET /users/_count");
 * assert.ok(rs.next());
 * assert.equal(rs.getNumber("COUNT"), 42);
 * ```
 *
 * @module
 */

// The driver a user works with: data source, connection, statements, result sets, streaming,
// the bulk writer, the transport and its events, and the errors.
export * from "./errors.ts";
export { type Auth, DataSource, type DataSourceOptions } from "./jdbc/data_source.ts";
export { mappingEpoch, serverProduct } from "./jdbc/mapping_epoch.ts";
export {
  Connection,
  type ConnectionOptions,
  readServerInfo,
  type ServerInfo,
} from "./jdbc/connection.ts";
export { Statement } from "./jdbc/statement.ts";
export {
  type ExecuteOptions,
  StatementBase,
  type StatementConnection,
} from "./jdbc/statement_base.ts";
export {
  NO_GENERATED_KEYS,
  PreparedStatement,
  RETURN_GENERATED_KEYS,
} from "./jdbc/prepared_statement.ts";
export { type HitMeta, readHitMeta } from "./jdbc/hit_meta.ts";
export type { Aggregate, Aggregations, Bucket } from "./jdbc/aggregations.ts";
export { ColumnTypeError } from "./jdbc/cell_types.ts";
export {
  type ColumnRef,
  ResultSet,
  type ResultSetMeta,
  type TotalHits,
} from "./jdbc/result_set.ts";
export { HitStream, type StreamOptions, type StreamServerInfo } from "./jdbc/hit_stream.ts";
export {
  type BulkFailure,
  type BulkOperation,
  type BulkResult,
  type BulkSource,
  type BulkStats,
  BulkWriter,
  type BulkWriterOptions,
} from "./jdbc/bulk_writer.ts";
export { IndexPattern } from "./command/path_segment.ts";
export {
  type FetchFunction,
  Transport,
  type TransportOptions,
  type TransportRequest,
  type TransportResponse,
  type TransportTuning,
} from "./wire/transport.ts";
export type {
  RequestEventBase,
  TransportEvent,
  TransportEventListener,
} from "./wire/transport_events.ts";

// The command language, for layers that parse and bind commands themselves and run them with
// `StatementBase.executeCommands` (the template, mapper and console do): parse once, cache by
// text, bind per call. Value encoding and hints happen inside `bindScript`.
export type { BoundCommand, HintValue, Method } from "./command/_command.ts";
export { parseScript } from "./command/command_tokenizer.ts";
export {
  type BodyMember,
  bodyMembers,
  commentEnd,
  isMethodAt,
  isNdjsonTarget,
  METHODS,
  stringEnd,
} from "./command/console_lexer.ts";
export type {
  ParsedCommand,
  ParsedHint,
  ParsedScript,
  Slot,
  SlotKind,
} from "./command/command_tokenizer.ts";
export { bindScript, type BindScriptOptions } from "./command/command_binder.ts";
export { CommandCache } from "./command/command_cache.ts";

// For the layers that render optional parts (template rules, mapper files): one test-expression
// language and one clean-up of the commas that vanished members leave.
export {
  TestExpression,
  type TestParseOptions,
  type VariableLookup,
} from "./expression/test_expression.ts";
export { dropDanglingCommas } from "./command/dangling_commas.ts";
