/**
 * An embedded, in-memory, Elasticsearch-compatible engine for tests, demos and examples:
 * {@link Engine} answers REST requests through its `fetch`, {@link serve} exposes it over HTTP
 * (Deno, Bun or Node). It behaves like an Elasticsearch 9 single node (`version: "8.15.0"` for 8; or
 * OpenSearch 3 with `flavour: "opensearch"`): near-real-time search with a 1 s refresh interval,
 * `_version` / `_seq_no` / `_primary_term`, dynamic mapping, and Elasticsearch's error bodies.
 *
 * APIs: `GET /`; documents (`_doc`, `_create`, `_update` with simple Painless scripts, `_source`,
 * `_mget`, `_bulk`); search (`_search`, `_count`, `_msearch`, scroll, point in time, `_explain`,
 * `_validate/query`), `_delete_by_query`, `_update_by_query`, `_reindex`, `_rethrottle`, `_tasks`;
 * indices (create, delete, exists, get, `_mapping`, `_settings`, aliases, `_refresh`,
 * `_open`/`_close`, `_field_caps`); `_cluster/health`, `_cluster/settings`,
 * `_cat/indices|health|count|aliases|shards|nodes`. Bodies sent with GET are read. Unknown URLs,
 * methods, parameters and content types are refused with the status and body Elasticsearch uses,
 * and so is input past Elasticsearch's limits (body size, JSON depth, buckets, clauses, terms,
 * scrolls, regex length and complexity, mapping depth and size).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Engine } from "@searchvisitor/searchvisitor/engine";
 *
 * const engine = new Engine();
 * const res = await engine.fetch("http://engine/");
 * assert.equal(res.status, 200);
 * engine.close();
 * ```
 *
 * @module
 */

export { Engine, type EngineOptions, type NodeIdentity } from "./engine.ts";
export { type EngineServer, serve, type ServeAuth, type ServeOptions } from "./serve.ts";
