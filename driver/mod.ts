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
export { ColumnTypeError, type MisfitCell } from "./jdbc/cell_types.ts";
export {
  type ColumnRef,
  ResultSet,
  type ResultSetMeta,
  type TotalHits,
} from "./jdbc/result_set.ts";
export {
  HitStream,
  type HitStreamOptions,
  type StreamOptions,
  type StreamServerInfo,
} from "./jdbc/hit_stream.ts";
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

// What `StatementBase.executeCommands` runs: commands bound by the layers above (their parser,
// cache and binder are in the driver's unpublished `internal.ts`).
export type { BoundCommand, HintValue, Method } from "./command/command.ts";

// A parsed command, as the migrate room's public steps carry it (its parser is in `internal.ts`).
export type { ParsedCommand, ParsedHint, Slot, SlotKind } from "./command/command_tokenizer.ts";
