/**
 * searchvisitor: the data-access programming model of JDBC, JdbcTemplate, MyBatis and dbVisitor
 * for Elasticsearch and OpenSearch, over web-standard `fetch`, for Deno, Bun, Node and edge
 * functions.
 *
 * The root module re-exports the driver and the template layer; the embedded engine is
 * `@searchvisitor/searchvisitor/engine`.
 *
 * @example
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor";
 * import assert from "node:assert/strict";
 *
 * const ds = new DataSource("http://127.0.0.1:9200");
 * assert.ok(ds instanceof DataSource);
 * ```
 *
 * @module
 */
export * from "./driver/mod.ts";
export * from "./template/mod.ts";
