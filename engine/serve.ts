// serve(): exposes an Engine over HTTP with the current runtime's server (Deno, Bun or Node).

import type { Engine } from "./engine.ts";

/**
 * Options of {@link serve}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Engine, serve, type ServeOptions } from "@searchvisitor/searchvisitor/engine";
 *
 * const options: ServeOptions = { port: 0, hostname: "127.0.0.1" };
 * const engine = new Engine();
 * const server = await serve(engine, options);
 * assert.ok(server.port > 0);
 * await server.close();
 * engine.close();
 * ```
 */
export interface ServeOptions {
  /** Port to listen on; 0 (the default) picks a free port. */
  port?: number;
  /** Interface to bind; `127.0.0.1` by default. */
  hostname?: string;
}

/**
 * A running HTTP server for an engine.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Engine, type EngineServer, serve } from "@searchvisitor/searchvisitor/engine";
 *
 * const engine = new Engine();
 * const server: EngineServer = await serve(engine);
 * assert.equal(server.url, `http://127.0.0.1:${server.port}`);
 * await server.close();
 * engine.close();
 * ```
 */
export interface EngineServer {
  /** Base URL, e.g. `http://127.0.0.1:9200`. */
  url: string;
  /** The port actually bound. */
  port: number;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

/** What each runtime adapter provides. */
export interface Adapter {
  listen(
    handler: (request: Request) => Promise<Response>,
    options: { port: number; hostname: string },
  ): Promise<{ port: number; close(): Promise<void> }>;
}

function runtime(): "deno" | "bun" | "node" {
  const g = globalThis as Record<string, unknown>;
  if (g["Deno"] !== undefined) return "deno";
  if (g["Bun"] !== undefined) return "bun";
  return "node";
}

async function loadAdapter(): Promise<Adapter> {
  switch (runtime()) {
    case "deno":
      return await import("./serve_deno.ts");
    case "bun":
      return await import("./serve_bun.ts");
    default:
      return await import("./serve_node.ts");
  }
}

/**
 * Serves an engine over HTTP on loopback, using `Deno.serve`, `Bun.serve` or `node:http`.
 *
 * @param engine The engine whose `fetch` answers the requests.
 * @param options Port (0 = free port) and hostname.
 * @returns The URL, the bound port and `close()`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Engine, serve } from "@searchvisitor/searchvisitor/engine";
 *
 * const engine = new Engine();
 * const server = await serve(engine, { port: 0 });
 * const res = await fetch(server.url);
 * const info = await res.json();
 * assert.equal(info.tagline, "You Know, for Search");
 * await server.close();
 * engine.close();
 * ```
 */
export async function serve(engine: Engine, options: ServeOptions = {}): Promise<EngineServer> {
  const hostname = options.hostname ?? "127.0.0.1";
  const adapter = await loadAdapter();
  const server = await adapter.listen(engine.fetch, { port: options.port ?? 0, hostname });
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  return { url: `http://${host}:${server.port}`, port: server.port, close: server.close };
}
