// The embedded engine: in-memory state plus a fetch handler speaking the Elasticsearch REST API.

import { SearchContexts } from "./_search/search_api.ts";
import { Cluster } from "./_state/cluster.ts";
import type { EngineState } from "./_rest/context.ts";
import { handle } from "./_rest/handle.ts";

/**
 * Options of {@link Engine}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Engine, type EngineOptions } from "@searchvisitor/searchvisitor/engine";
 *
 * const options: EngineOptions = { flavour: "opensearch", refreshIntervalMs: -1 };
 * const engine = new Engine(options);
 * const info = await (await engine.fetch("http://engine/")).json();
 * assert.equal(info.version.distribution, "opensearch");
 * engine.close();
 * ```
 */
export interface EngineOptions {
  /** Default `index.refresh_interval` in milliseconds (1000 like Elasticsearch; -1 disables). */
  refreshIntervalMs?: number;
  /** Which product to imitate in `GET /`, headers and error names. */
  flavour?: "elasticsearch" | "opensearch";
  /** Version number reported by `GET /`. */
  version?: string;
  /** Clock in epoch milliseconds, for tests. */
  now?: () => number;
}

const INIT_KEYS = [
  "method",
  "headers",
  "body",
  "signal",
  "redirect",
  "credentials",
  "mode",
  "cache",
];

/** True for a fetch `RequestInit`; false for the second argument servers pass (`Deno.serve`, `Bun.serve`). */
function isRequestInit(init: unknown): init is RequestInit {
  return init !== null && typeof init === "object" && INIT_KEYS.some((k) => k in init);
}

/**
 * An in-memory, Elasticsearch-compatible engine. Its {@link Engine.fetch} answers REST requests
 * without any network, so it can be passed as a client's `fetch`; {@link serve} exposes it over HTTP.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Engine } from "@searchvisitor/searchvisitor/engine";
 *
 * const engine = new Engine();
 * const put = await engine.fetch("http://engine/users/_doc/1?refresh=true", {
 *   method: "PUT",
 *   headers: { "content-type": "application/json" },
 *   body: JSON.stringify({ name: "alice" }),
 * });
 * assert.equal(put.status, 201);
 * const res = await engine.fetch("http://engine/users/_search", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: JSON.stringify({ query: { match: { name: "alice" } } }),
 * });
 * const body = await res.json();
 * assert.equal(body.hits.hits[0]._id, "1");
 * engine.close();
 * ```
 */
export class Engine {
  readonly #state: EngineState;

  /** Creates an empty engine. */
  constructor(options: EngineOptions = {}) {
    const now = options.now ?? Date.now;
    const flavour = options.flavour ?? "elasticsearch";
    const cluster = new Cluster(now);
    if (options.refreshIntervalMs !== undefined) {
      cluster.defaultRefreshIntervalMs = options.refreshIntervalMs;
    }
    this.#state = {
      cluster,
      flavour,
      version: options.version ?? (flavour === "opensearch" ? "2.19.0" : "8.15.0"),
      now,
      search: new SearchContexts(now),
      timers: new Set(),
      waiters: new Set(),
      clusterUuid: crypto.randomUUID().replace(/-/g, "").slice(0, 22),
      persistentSettings: {},
      tasks: new Map(),
      transientSettings: {},
    };
  }

  /**
   * Answers one REST request, like `globalThis.fetch` does for a real cluster.
   *
   * @param input A `Request`, or a URL (any origin; only path and query are read).
   * @param init Method, headers and body, as for `fetch`.
   * @returns The response, never a rejected promise for bad input.
   */
  readonly fetch = (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    let request: Request;
    try {
      request = input instanceof Request && !isRequestInit(init) ? input : new Request(input, init);
    } catch (e) {
      return Promise.reject(e); // like fetch: bad arguments reject, they do not throw
    }
    return handle(this.#state, request);
  };

  /** Stops pending `refresh=wait_for` timers and releases their waiters. */
  close(): void {
    for (const timer of this.#state.timers) clearTimeout(timer);
    this.#state.timers.clear();
    for (const waiter of [...this.#state.waiters]) waiter();
  }
}
