/**
 * Every hit of a search, page by page: a point in time with `search_after` (Elasticsearch `_pit`,
 * OpenSearch `_search/point_in_time`), or a scroll where the server has no point in time. The
 * point in time or scroll is closed when the hits run out, on an error, and when the consumer
 * stops early; one page is fetched ahead while the consumer reads the current one, so memory
 * holds at most two pages whatever the number of hits.
 *
 * @module
 */

import {
  DataAccessError,
  IllegalStateError,
  PartialResultsError,
  ResponseError,
} from "../errors.ts";
import { allowsPartialResults } from "../response_errors.ts";
import { callerAbort } from "../wire/_transport_util.ts";
import type { BoundCommand } from "../command/command.ts";
import { bindScript } from "../command/command_binder.ts";
import { parseScript } from "../command/command_tokenizer.ts";
import { classify } from "../wire/_endpoint.ts";
import { type Executor, executorOf } from "../wire/_executor.ts";
import { mapResponse } from "../wire/_response_mapper.ts";
import { parseJsonBody } from "../wire/_json_body.ts";
import { ResultSet } from "./result_set.ts";
import { encodeJson } from "../command/value_encoder.ts";
import { parseSearchPlan, type SearchPlan } from "./_stream_plan.ts";

/**
 * How {@linkcode HitStream} pages through the hits.
 *
 * @example
 * ```ts
 * import type { StreamOptions } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const options: StreamOptions = { pageSize: 500, keepAlive: "2m", mode: "scroll" };
 * assert.equal(options.mode, "scroll");
 * ```
 */
export interface StreamOptions {
  /** Hits per request (default: the body's `size`, else 1000). */
  pageSize?: number;
  /** How long the server keeps the point in time or scroll between two pages (default `"1m"`). */
  keepAlive?: string;
  /**
   * `"auto"` (the default): a point in time where the server has one (Elasticsearch 7.12+,
   * OpenSearch 2.4+) and the search names an index, else a scroll. `"pit"` or `"scroll"` force one.
   */
  mode?: "auto" | "pit" | "scroll";
  /** Aborts the stream: the pending request rejects with the signal's reason (an `AbortError` by default), and the PIT or scroll is closed. */
  signal?: AbortSignal;
}

/** The options of a {@linkcode HitStream} made directly: a stream's, and where server facts come from. */
export interface HitStreamOptions extends StreamOptions {
  /**
   * Where flavour and version come from (for `mode: "auto"`); `Connection.stream` hands in the
   * connection's. Without it `"auto"` falls back to a scroll.
   */
  serverInfo?: () => Promise<StreamServerInfo>;
}

/** What the stream needs to know about the server (a `ServerInfo` fits). */
export interface StreamServerInfo {
  /** `"elasticsearch"` or `"opensearch"`. */
  flavour: "elasticsearch" | "opensearch";
  /** `version.number`. */
  version: string;
}

type Page = { rs: ResultSet; hits: unknown[] };

/**
 * An async iterable over every hit of one `_search` command: iterate it for rows (`_ID`,
 * `_DOC`), or call {@linkcode HitStream.pages} for one {@linkcode ResultSet} per page. Nothing is
 * sent until iteration starts; each iteration runs the search afresh. Get one from
 * `Connection.stream`.
 *
 * The body's `query`, `sort`, `_source`, `aggregations`… are kept; `size` is the page size;
 * `from`, `search_after`, `pit` and a `scroll` parameter are the stream's to set and are refused.
 * Without a `sort`, hits come in index order (`_shard_doc`, or `_doc` for a scroll), the cheapest.
 * Point-in-time pages do not count hits (`total` is null) unless the body sets `track_total_hits`.
 *
 * @example Every hit, whatever the page size
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { Engine } from "@searchvisitor/searchvisitor/engine";
 * import assert from "node:assert/strict";
 *
 * const engine = new Engine();
 * await using conn = await new DataSource({ nodes: ["http://engine"], fetch: engine.fetch }).getConnection();
 * const stmt = conn.createStatement();
 * await stmt.executeUpdate('POST /n/_bulk?refresh=true\n{"index":{"_id":"1"}}\n{"n":1}\n{"index":{"_id":"2"}}\n{"n":2}\n{"index":{"_id":"3"}}\n{"n":3}\n');
 * const ids: string[] = [];
 * for await (const row of conn.stream('POST /n/_search {"sort": [{"n": "desc"}]}', [], { pageSize: 2 })) {
 *   ids.push(row._ID as string);
 * }
 * assert.deepEqual(ids, ["3", "2", "1"]);
 * engine.close();
 * ```
 */
export class HitStream implements AsyncIterable<Record<string, unknown>> {
  readonly #connection: object;
  readonly #command: BoundCommand;
  readonly #options: StreamOptions;
  readonly #serverInfo: () => Promise<StreamServerInfo>;
  #mode: "pit" | "scroll" | undefined;
  #flavour: "elasticsearch" | "opensearch" | undefined;

  /**
   * Binds the command now (a syntax or argument error is thrown here); sends nothing.
   *
   * @param connection The connection to run on.
   * @param text One `GET|POST /index/_search [body]` command.
   * @param args Its positional arguments.
   * @param options Page size, keep-alive, mode and signal, and where the server facts come from.
   */
  constructor(
    connection: object,
    text: string,
    args: readonly unknown[] = [],
    options: HitStreamOptions = {},
  ) {
    this.#connection = connection;
    executorOf(connection).ensureOpen();
    const commands = bindScript(parseScript(text), args);
    if (commands.length !== 1) {
      throw new IllegalStateError(
        `stream takes exactly one search command, got ${commands.length}`,
        { command: text },
      );
    }
    this.#command = commands[0]!;
    parseSearchPlan(this.#command, options); // validate now
    this.#options = options;
    this.#serverInfo = options.serverInfo ?? (() => Promise.reject(new Error("unknown")));
  }

  /** How the last iteration pages: `"pit"` or `"scroll"` (undefined before it started). */
  get mode(): "pit" | "scroll" | undefined {
    return this.#mode;
  }

  /**
   * Every page as a result set (empty pages are skipped). Break out of the loop at any time:
   * the point in time or scroll is closed.
   *
   * @returns An async generator of result sets.
   */
  async *pages(): AsyncGenerator<ResultSet, void, undefined> {
    const exec = executorOf(this.#connection);
    exec.ensureOpen();
    const plan = parseSearchPlan(this.#command, this.#options);
    const mode = await this.#chooseMode(plan);
    if (mode !== "scroll") {
      this.#mode = "pit";
      const done = yield* this.#pitPages(exec, plan, mode);
      if (done) return;
    }
    this.#mode = "scroll";
    yield* this.#scrollPages(exec, plan);
  }

  /**
   * Every hit as a row object (`_ID`, `_DOC`).
   *
   * @returns An async iterator of rows.
   */
  async *[Symbol.asyncIterator](): AsyncIterator<Record<string, unknown>> {
    for await (const rs of this.pages()) yield* rs;
  }

  async #chooseMode(plan: SearchPlan): Promise<"pit" | "scroll" | "auto-pit"> {
    const mode = this.#options.mode ?? "auto";
    if (mode === "scroll") return "scroll";
    if (plan.index === undefined) {
      if (mode === "pit") {
        throw new IllegalStateError(
          'stream with mode "pit" needs an index in the path (POST /index/_search); a point in time is opened on an index',
          { command: this.#command.text },
        );
      }
      return "scroll";
    }
    const info = await this.#serverInfo().catch(() => undefined);
    // A forced point in time still needs the flavour: OpenSearch opens and closes it elsewhere.
    if (mode === "pit") {
      if (info !== undefined) this.#flavour = info.flavour;
      return "pit";
    }
    if (info === undefined) return "auto-pit";
    this.#flavour = info.flavour;
    const [major = 0, minor = 0] = info.version.split(".").map((n) => Number.parseInt(n, 10));
    const pit = info.flavour === "opensearch"
      ? major > 2 || (major === 2 && minor >= 4)
      : major > 7 || (major === 7 && minor >= 12);
    return pit ? "auto-pit" : "scroll";
  }

  /** Pages over a point in time; returns false when an automatic choice must fall back to scroll. */
  async *#pitPages(
    exec: Executor,
    plan: SearchPlan,
    mode: "pit" | "auto-pit",
  ): AsyncGenerator<ResultSet, boolean, undefined> {
    const os = this.#flavour === "opensearch";
    const ka = plan.keepAlive;
    const openPath = os
      ? `/${plan.index}/_search/point_in_time?keep_alive=${ka}${plan.pitQuery}`
      : `/${plan.index}/_pit?keep_alive=${ka}${plan.pitQuery}`;
    let id: string;
    try {
      const opened = await this.#send(exec, { method: "POST", path: openPath });
      const json = parseJsonBody({
        status: opened.status,
        text: opened.body,
        contentType: opened.headers.get("content-type") ?? "",
        command: openPath,
      }) as { id?: unknown; pit_id?: unknown };
      const value = json.pit_id ?? json.id;
      if (typeof value !== "string") throw new IllegalStateError("no point-in-time id");
      id = value;
    } catch (error) {
      if (mode === "auto-pit" && isRefusal(error)) return false;
      throw error;
    }
    const local = new AbortController();
    let pending: Promise<Page> | undefined;
    // Elasticsearch adds the `_shard_doc` tiebreaker itself; OpenSearch is asked for it.
    const sort = plan.sort ?? (os ? [] : ["_shard_doc"]);
    const fullSort = os && !hasShardDoc(sort) ? [...sort, { _shard_doc: "asc" }] : sort;
    const search = (after: unknown[] | undefined): Promise<Page> => {
      const parts = [
        `"pit":${encodeJson({ id, keep_alive: ka }, 0)}`,
        `"sort":${encodeJson(fullSort, 0)}`,
      ];
      if (!plan.tracksTotal) parts.push(`"track_total_hits":false`); // counting is wasted work here
      if (after !== undefined) parts.push(`"search_after":${encodeJson(after, 0)}`);
      const body = `{${plan.bodyPrefix}${parts.join(",")}}`;
      return this.#page(exec, `/_search${plan.searchQuery}`, body, local.signal);
    };
    let delivered = 0;
    let last: unknown;
    try {
      pending = search(undefined);
      for (let first = true;; first = false) {
        let page: Page;
        try {
          page = await (pending as Promise<Page>);
        } catch (error) {
          if (first && mode === "auto-pit" && isRefusal(error)) return false;
          throw this.#stopped(error, delivered, last, "point in time");
        } finally {
          pending = undefined;
        }
        if (page.rs.pitId !== undefined) id = page.rs.pitId;
        const n = page.hits.length;
        if (n >= plan.size) {
          const after = (page.hits[n - 1] as { sort?: unknown } | undefined)?.sort;
          if (!Array.isArray(after)) {
            throw new IllegalStateError("a point-in-time page came back without sort values", {
              command: this.#command.text,
            });
          }
          pending = search(after);
          pending.catch(() => {});
        }
        delivered += n;
        if (n > 0) last = (page.hits[n - 1] as { sort?: unknown } | undefined)?.sort;
        if (n > 0) yield page.rs;
        if (n < plan.size) return true;
      }
    } finally {
      local.abort();
      await pending?.catch(() => {});
      const closeBody = os ? encodeJson({ pit_id: [id] }, 0) : encodeJson({ id }, 0);
      const closePath = os ? "/_search/point_in_time" : "/_pit";
      await this.#send(exec, { method: "DELETE", path: closePath, body: closeBody, closing: true })
        .catch(() => {});
    }
  }

  async *#scrollPages(
    exec: Executor,
    plan: SearchPlan,
  ): AsyncGenerator<ResultSet, void, undefined> {
    const local = new AbortController();
    const ka = plan.keepAlive;
    const target = plan.index === undefined ? "" : `/${plan.index}`;
    const path = `${target}/_search?scroll=${ka}${
      plan.searchQuery.replace(/^\?/, "&")
    }${plan.pitQuery}`;
    const firstBody = `{${plan.bodyPrefix}"sort":${encodeJson(plan.sort ?? ["_doc"], 0)}}`;
    let pending: Promise<Page> | undefined = this.#page(exec, path, firstBody, local.signal);
    let id: string | undefined;
    let seen = 0;
    try {
      for (;;) {
        let page: Page;
        try {
          page = await (pending as Promise<Page>);
        } catch (error) {
          throw this.#stopped(error, seen, undefined, "scroll");
        } finally {
          pending = undefined;
        }
        if (page.rs.scrollId !== undefined) id = page.rs.scrollId;
        const n = page.hits.length;
        seen += n;
        const total = page.rs.total;
        const more = n > 0 && id !== undefined &&
          !(total !== null && total.relation === "eq" && seen >= total.value);
        if (more) {
          const body = encodeJson({ scroll: ka, scroll_id: id }, 0);
          pending = this.#page(exec, "/_search/scroll", body, local.signal);
          pending.catch(() => {});
        }
        if (n > 0) yield page.rs;
        if (!more) return;
      }
    } finally {
      local.abort();
      await pending?.catch(() => {});
      if (id !== undefined) {
        const body = encodeJson({ scroll_id: [id] }, 0);
        await this.#send(exec, {
          method: "DELETE",
          path: "/_search/scroll",
          body,
          closing: true,
        }).catch(() => {});
      }
    }
  }

  /** Sends one page's `POST` and reads its rows. */
  async #page(exec: Executor, path: string, body: string, signal: AbortSignal): Promise<Page> {
    const response = await this.#send(exec, { method: "POST", path, body, signal });
    const outcome = mapResponse(classify("POST", "/_search"), {
      status: response.status,
      text: response.body,
      contentType: response.headers.get("content-type") ?? "",
      command: this.#command.text,
      allowPartial: allowsPartialResults(path),
    })[0];
    if (outcome?.kind !== "rows") throw new IllegalStateError("a search page gave no rows");
    const rs = new ResultSet(outcome.table.columns, outcome.table.rows, outcome.meta);
    const raw = outcome.meta.raw as { hits?: { hits?: unknown } } | undefined;
    const hits = Array.isArray(raw?.hits?.hits) ? raw.hits.hits : [];
    return { rs, hits };
  }

  /**
   * A page that failed ends the stream with an error that says where it stopped: a partial page
   * becomes a PartialResultsError with `delivered` and `after`; any other error of the driver gets
   * the same words in its message.
   */
  #stopped(error: unknown, delivered: number, after: unknown, how: string): unknown {
    const where = `the stream (${how}) stopped after ${delivered} hit(s)${
      after === undefined ? "" : `, the last with sort values ${encodeJson(after, 0)}`
    }: the hits after them were not read`;
    if (error instanceof PartialResultsError && error.delivered === undefined) {
      return new PartialResultsError(error.shards, {
        command: this.#command.text,
        delivered,
        after,
        where,
      });
    }
    if (error instanceof DataAccessError && !(error instanceof PartialResultsError)) {
      error.message += `; ${where}`;
    }
    return error;
  }

  #send(exec: Executor, request: StreamRequest) {
    const { method, path, body, signal } = request;
    const allowNotFound = request.closing === true;
    const user = this.#options.signal;
    if (user?.aborted && !allowNotFound) return Promise.reject(callerAbort(user));
    // Closing a point in time or scroll must go out even after the caller aborted.
    const combined = allowNotFound
      ? undefined
      : signal && user
      ? AbortSignal.any([signal, user])
      : signal ?? user;
    return exec.transport.request({
      method,
      path,
      body,
      signal: combined,
      allowNotFound,
      command: `${method} ${path} (stream of ${this.#command.text.split("\n", 1)[0]})`,
    });
  }
}

/** One request of a stream. */
interface StreamRequest {
  method: "POST" | "DELETE";
  path: string;
  body?: string;
  /** The page's own signal (the stream's local abort). */
  signal?: AbortSignal;
  /**
   * Closes a point in time or scroll: sent even after the caller aborted, and a 404 (already
   * gone) is no error.
   */
  closing?: boolean;
}

function hasShardDoc(sort: readonly unknown[]): boolean {
  return sort.some((k) =>
    k === "_shard_doc" || (typeof k === "object" && k !== null && "_shard_doc" in k)
  );
}

/** A 4xx that says the server does not do this (no PIT endpoint, no `_shard_doc`): use scroll. */
function isRefusal(error: unknown): boolean {
  return error instanceof ResponseError && [400, 404, 405].includes(error.status);
}
