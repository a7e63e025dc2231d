// The embedded engine: in-memory state plus a fetch handler speaking the Elasticsearch REST API.

import { SearchContexts } from "./_search/search_api.ts";
import { Cluster } from "./_state/cluster.ts";
import type { EngineState, NodeIdentity } from "./_rest/context.ts";

export type { NodeIdentity };
import { type Answer, handle, handleAnswer, knowBodyText } from "./_rest/handle.ts";
import { createIndex } from "./_rest/indices.ts";
import { generateId } from "./_rest/write_params.ts";
import type { ShardSnapshot } from "./_index/shard_snapshot.ts";
import { countScrollFreed } from "./_rest/search_stats.ts";
import { MAX_BUCKETS_OPENSEARCH } from "./_index/limits.ts";
import { DEFAULT_HEAP_BYTES, DEFAULT_LIMIT } from "./_rest/indexing_pressure.ts";

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
  /**
   * Version reported by `GET /` and used for `compatible-with` media types: 9.x by default
   * (Elasticsearch), 3.x for OpenSearch; pass e.g. `"8.15.0"` to behave as Elasticsearch 8.
   */
  version?: string;
  /** `http.max_content_length` in bytes, checked before and after decompression (100 MB). */
  maxContentLength?: number;
  /**
   * `indexing_pressure.memory.limit`: what the `_bulk` requests in flight may hold, in bytes or as
   * a share of the heap (`"10%"`, Elasticsearch's default). A bulk request costs its length plus
   * 512 bytes per line (what the engine holds per line while it indexes and answers); one past
   * the limit is refused with Elasticsearch's 429 `es_rejected_execution_exception`, so a load
   * backs off and sends smaller batches instead of exhausting the process.
   */
  indexingPressureLimit?: number | string;
  /**
   * The heap the engine may use, for limits sized from it. Web-standard code cannot read it:
   * {@link serve} passes the runtime's own (`node:v8`'s `heap_size_limit`), and without either
   * 4 GiB (V8's usual default) is assumed.
   */
  heapBytes?: number;
  /** Where internal errors are reported (one line each); `console.error` by default. */
  log?: (line: string) => void;
  /** Clock in epoch milliseconds, for tests. */
  now?: () => number;
  /**
   * The node's names, ids and transport address, as a real node's `node.name`, `cluster.name`
   * and data folder give them (by default `searchvisitor`, random ids, `127.0.0.1:9300`): an
   * engine standing in for a known node answers with its identity.
   */
  node?: NodeIdentity;
  /**
   * Where the ids of documents written without one come from: random 20-character ids like
   * Elasticsearch's by default; a test (or a tester mirroring a real engine) may give its own.
   */
  ids?: () => string;
}

/** The Elasticsearch version the engine reports unless told otherwise. */
export const ELASTICSEARCH_VERSION = "9.5.4";
/** The OpenSearch version the engine reports in the OpenSearch flavour. */
export const OPENSEARCH_VERSION = "3.8.0";

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
 * Answers a request whose real method may differ from `request.method` (a GET with a body);
 * `target` is the request target as sent (path and query, undecoded), which the engine routes on.
 */
export type RawHandler = (
  request: Request,
  method?: string,
  maxContentLength?: number,
  target?: string,
) => Promise<Response>;

/** {@link RawHandler} answering with the engine's {@link Answer}, never a web `Response`. */
export type AnswerHandler = (
  request: Request,
  method?: string,
  maxContentLength?: number,
  target?: string,
) => Promise<Answer>;

/** A surrogate anywhere, or a byte-order mark first. */
const SURROGATE_OR_BOM = /[\uD800-\uDFFF]|^\uFEFF/;

/**
 * The path and query of a URL string as written: `new URL()` and `new Request()` resolve dot
 * segments (`%2e%2e` too), and Elasticsearch routes on the raw path, where `..` is data.
 */
function rawTarget(input: string): string | undefined {
  const origin = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]*/.exec(input);
  if (origin === null && !input.startsWith("/")) return undefined;
  const rest = origin === null ? input : input.slice(origin[0].length);
  const hash = rest.indexOf("#");
  const target = hash < 0 ? rest : rest.slice(0, hash);
  return target === "" || target.startsWith("?") ? `/${target}` : target;
}

const RAW = new WeakMap<Engine, RawHandler>();
const ANSWER = new WeakMap<Engine, AnswerHandler>();
const STATE = new WeakMap<Engine, EngineState>();
const HEAP_GIVEN = new WeakSet<Engine>();

/**
 * Tells an engine the heap its runtime gives it (an adapter can read it, web-standard code
 * cannot), unless the engine was built with its own `heapBytes`.
 */
export function useHeapSize(engine: Engine, bytes: number): void {
  if (HEAP_GIVEN.has(engine) || !(bytes > 0) || !Number.isFinite(bytes)) return;
  STATE.get(engine)!.indexingPressure.heapBytes = bytes;
}

/**
 * Makes the engine's searches run in time slices (`serve()` does it for the engine it serves):
 * a long `_search` then gives the event loop turns between its phases, so requests arriving over
 * the network are answered in between. Not the default in process: callers whose requests only
 * await each other (promises, no I/O) would hold a yielded search back until all of theirs wait.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Engine, useTimeSlices } from "./engine.ts";
 * const engine = new Engine();
 * useTimeSlices(engine);
 * const res = await engine.fetch("http://engine/_search");
 * assert.equal(res.status, 200);
 * engine.close();
 * ```
 */
export function useTimeSlices(engine: Engine): void {
  STATE.get(engine)!.timeSliced = true;
}

/**
 * The searchable state of one of an engine's indices as of its last refresh, or undefined when
 * there is no such index (for benchmarks that measure the engine's memory).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Engine, indexSnapshot } from "./engine.ts";
 * const engine = new Engine();
 * await engine.fetch("http://engine/i/_doc/1?refresh=true", {
 *   method: "PUT",
 *   body: '{"a":1}',
 *   headers: { "content-type": "application/json" },
 * });
 * assert.equal(indexSnapshot(engine, "i")?.docCount, 1);
 * assert.equal(indexSnapshot(engine, "none"), undefined);
 * engine.close();
 * ```
 */
export function indexSnapshot(engine: Engine, index: string): ShardSnapshot | undefined {
  return STATE.get(engine)!.cluster.indices.get(index)?.searchTarget().snapshot;
}

/** The handler of an engine for HTTP adapters, which carry GET and HEAD bodies as POST requests. */
export function rawHandler(engine: Engine): RawHandler {
  return RAW.get(engine)!;
}

/** {@link rawHandler} whose answers are not web `Response`s: what `serve()` writes. */
export function answerHandler(engine: Engine): AnswerHandler {
  return ANSWER.get(engine)!;
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

  /** Which product the engine imitates. */
  get flavour(): "elasticsearch" | "opensearch" {
    return this.#state.flavour;
  }

  /** The version the engine reports. */
  get version(): string {
    return this.#state.version;
  }

  /** Creates an empty engine. */
  constructor(options: EngineOptions = {}) {
    const now = options.now ?? Date.now;
    const flavour = options.flavour ?? "elasticsearch";
    const cluster = new Cluster(now);
    cluster.defaultIndexSettings = flavour === "opensearch"
      ? { "index.replication.type": "DOCUMENT" }
      : { "index.routing.allocation.include._tier_preference": "data_content" };
    if (flavour === "opensearch") cluster.singleIndexResourceType = "index_expression";
    // Elasticsearch 9.5 places a document by hash modulo the shard count; OpenSearch over the
    // index's routing shards (see _index/routing.ts).
    cluster.routingOverRoutingShards = flavour === "opensearch";
    cluster.softDeletesRequired = flavour === "elasticsearch";
    cluster.commitBytes = flavour === "opensearch" ? 208 : 227;
    if (options.refreshIntervalMs !== undefined) {
      cluster.defaultRefreshIntervalMs = options.refreshIntervalMs;
    }
    const clusterUuid = crypto.randomUUID().replace(/-/g, "").slice(0, 22);
    this.#state = {
      cluster,
      flavour,
      version: options.version ??
        (flavour === "opensearch" ? OPENSEARCH_VERSION : ELASTICSEARCH_VERSION),
      maxContentLength: options.maxContentLength,
      log: options.log ?? ((line) => console.error(line)),
      now,
      search: new SearchContexts(now),
      timers: new Set(),
      waiters: new Set(),
      clusterUuid,
      newId: options.ids ?? generateId,
      node: {
        name: options.node?.name ?? "searchvisitor",
        id: options.node?.id ?? clusterUuid,
        ephemeralId: options.node?.ephemeralId ?? options.node?.id ?? clusterUuid,
        transportAddress: options.node?.transportAddress ?? "127.0.0.1:9300",
        clusterName: options.node?.clusterName ?? "searchvisitor",
      },
      persistentSettings: {},
      tasks: new Map(),
      transientSettings: {},
      indexingPressure: {
        limit: options.indexingPressureLimit ?? DEFAULT_LIMIT,
        heapBytes: options.heapBytes ?? DEFAULT_HEAP_BYTES,
        current: 0,
      },
    };
    if (options.heapBytes !== undefined) HEAP_GIVEN.add(this);
    const state = this.#state;
    state.search.nodeId = state.node.id;
    STATE.set(this, state);
    cluster.shardLimit = { ...cluster.shardLimit, flavour, version: state.version };
    cluster.autoCreate = (name) => createIndex(state, name, {}, "write");
    state.search.onScrollFreed = (scroll, at) => countScrollFreed(cluster, scroll, at);
    if (flavour === "opensearch") state.search.maxBuckets = MAX_BUCKETS_OPENSEARCH;
    RAW.set(
      this,
      (request, method, maxContentLength, target) =>
        handle(state, request, { method, maxContentLength, target }),
    );
    ANSWER.set(
      this,
      (request, method, maxContentLength, target) =>
        handleAnswer(state, request, { method, maxContentLength, target }),
    );
    // Tells clients that read the mark (searchvisitor's transport) that every body is finite and
    // already in memory: read whole, not streamed chunk by chunk.
    Object.defineProperty(this.fetch, Symbol.for("searchvisitor.inProcessFetch"), { value: true });
  }

  /**
   * Answers one REST request, like `globalThis.fetch` does for a real cluster.
   *
   * @param input A `Request`, or a URL (any origin; only path and query are read). The engine
   *   routes on the path as written, as Elasticsearch does (`/idx/_doc/%2e%2e` names the
   *   document `..`), when it gets a string; a `URL` or `Request` has already resolved dot
   *   segments (`%2e%2e` included) when it was built, so pass a string to keep them.
   * @param init Method, headers and body, as for `fetch`.
   * @returns The response, never a rejected promise for bad input.
   */
  readonly fetch = (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    let request: Request;
    let method: string | undefined;
    try {
      if (input instanceof Request && !isRequestInit(init)) request = input;
      else {
        // The engine answers at once and never reads a signal, and a Request that follows one
        // costs more to build than most searches take: it is left out.
        if (init?.signal) init = { ...init, signal: null };
        // Elasticsearch reads bodies on GET (search, count, scroll, ...): a web Request cannot
        // hold one, so it travels as POST with the real method beside it.
        const wanted = (init?.method ?? (input instanceof Request ? input.method : "GET"))
          .toUpperCase();
        const bodied = init?.body !== undefined && init.body !== null;
        if (bodied && (wanted === "GET" || wanted === "HEAD")) {
          request = new Request(input, { ...init, method: "POST" });
          method = wanted;
        } else request = new Request(input, init);
      }
    } catch (e) {
      return Promise.reject(e); // like fetch: bad arguments reject, they do not throw
    }
    // A string body is the text the engine would decode from its bytes unless it holds a
    // surrogate (a lone one decodes as U+FFFD) or opens with a BOM (dropped): then it is read.
    const body = init?.body;
    if (typeof body === "string" && !SURROGATE_OR_BOM.test(body)) knowBodyText(request, body);
    const target = typeof input === "string" ? rawTarget(input) : undefined;
    return handle(this.#state, request, { method, target });
  };

  /** Stops pending `refresh=wait_for` timers, releases their waiters and stops running merges. */
  close(): void {
    for (const timer of this.#state.timers) clearTimeout(timer);
    this.#state.timers.clear();
    for (const waiter of [...this.#state.waiters]) waiter();
    for (const index of this.#state.cluster.indices.values()) index.release(); // running merges
  }
}
