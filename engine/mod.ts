/**
 * An embedded, in-memory, Elasticsearch-compatible engine for tests, demos and examples:
 * {@link Engine} answers REST requests through its `fetch`, {@link serve} exposes it over HTTP.
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

export { Engine, type EngineOptions } from "./engine.ts";
export { type EngineServer, serve, type ServeOptions } from "./serve.ts";
