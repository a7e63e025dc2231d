/**
 * A connection: the factory of statements, with the server's flavour and version.
 *
 * @module
 */

import { DataAccessError, UnsupportedFeatureError } from "../errors.ts";
import { Executor, registerExecutorReader } from "../wire/_executor.ts";
import { Statement } from "./statement.ts";
import { NO_GENERATED_KEYS, PreparedStatement } from "./prepared_statement.ts";
import type { StatementConnection } from "./statement_base.ts";
import type { Transport } from "../wire/transport.ts";
import { parseJsonBody } from "../wire/_json_body.ts";
import { HitStream, type StreamOptions } from "./hit_stream.ts";

/**
 * What `GET /` says about the server.
 *
 * @example
 * ```ts
 * import { DataSource, type ServerInfo } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const fetch = () => Promise.resolve(Response.json({ version: { number: "9.0.0" } }));
 * const conn = await new DataSource({ nodes: ["http://es:9200"], fetch }).getConnection();
 * const info: ServerInfo = await conn.serverInfo();
 * assert.deepEqual(info, { flavour: "elasticsearch", version: "9.0.0", major: 9 });
 * ```
 */
export interface ServerInfo {
  /** `"opensearch"` when `version.distribution` says so, else `"elasticsearch"`. */
  flavour: "elasticsearch" | "opensearch";
  /** `version.number`, e.g. `"8.15.0"`. */
  version: string;
  /** The major version, e.g. 8. */
  major: number;
}

/**
 * Options of a connection made directly from a transport.
 *
 * @example
 * ```ts
 * import { Connection, Transport } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const urls: string[] = [];
 * const transport = new Transport({
 *   nodes: ["http://es:9200"],
 *   fetch: (url) => (urls.push(url), Promise.resolve(Response.json({ _id: "1", result: "deleted" }))),
 * });
 * const conn = new Connection(transport, { indexRefresh: true });
 * assert.equal(await conn.createStatement().executeUpdate("DELETE /idx/_doc/1"), 1);
 * assert.deepEqual(urls, ["http://es:9200/idx/_doc/1?refresh=true"]);
 * ```
 */
export interface ConnectionOptions {
  /** Add `refresh=true` to document writes. */
  indexRefresh?: boolean;
  /** Where the server info comes from (a data source shares one cached answer). */
  serverInfo?: () => Promise<ServerInfo>;
}

/**
 * Reads `GET /` and works out flavour and version (no product check).
 *
 * @param transport The transport to ask.
 * @param signal An optional signal.
 * @returns The server info.
 * @example
 * ```ts
 * import { readServerInfo, Transport } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const transport = new Transport({
 *   nodes: ["http://os:9200"],
 *   fetch: () =>
 *     Promise.resolve(Response.json({ version: { number: "1.3.14", distribution: "opensearch" } })),
 * });
 * assert.equal((await readServerInfo(transport)).flavour, "opensearch");
 * ```
 */
export async function readServerInfo(
  transport: Transport,
  signal?: AbortSignal,
): Promise<ServerInfo> {
  const response = await transport.request({ method: "GET", path: "/", signal, command: "GET /" });
  const body = parseJsonBody({
    status: response.status,
    text: response.body,
    contentType: response.headers.get("content-type") ?? "",
    command: "GET /",
    redactSecrets: (text) => transport.redactSecrets(text),
  });
  const version = (body as { version?: { number?: unknown; distribution?: unknown } } | undefined)
    ?.version;
  if (typeof version?.number !== "string") {
    throw new DataAccessError(
      "RESPONSE",
      `GET / on ${response.node} did not return version.number; is this Elasticsearch or OpenSearch?`,
      { command: "GET /" },
    );
  }
  return {
    flavour: version.distribution === "opensearch" ? "opensearch" : "elasticsearch",
    version: version.number,
    major: Number.parseInt(version.number, 10),
  };
}

/**
 * A connection to a cluster. Connections are cheap (the transport is shared); close them with
 * `close()` or `await using`.
 *
 * @example Ask the server what it is
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const fetch = () =>
 *   Promise.resolve(Response.json({ version: { number: "2.13.0", distribution: "opensearch" } }));
 * const ds = new DataSource({ nodes: ["http://os:9200"], fetch });
 * {
 *   await using conn = await ds.getConnection();
 *   assert.deepEqual(await conn.serverInfo(), { flavour: "opensearch", version: "2.13.0", major: 2 });
 * }
 * ```
 */
export class Connection implements StatementConnection {
  readonly #executor: Executor;
  readonly #serverInfo: () => Promise<ServerInfo>;

  static {
    registerExecutorReader((c) => #executor in c ? (c as Connection).#executor : undefined);
  }

  /**
   * Creates a connection over a transport.
   *
   * @param transport The transport to send requests through.
   * @param options `indexRefresh` and the server info source.
   */
  constructor(transport: Transport, options: ConnectionOptions = {}) {
    this.#executor = new Executor(transport, { indexRefresh: options.indexRefresh ?? false });
    this.#serverInfo = options.serverInfo ?? (() => readServerInfo(transport));
  }

  /**
   * Returns a statement for command text with arguments.
   *
   * @returns A statement for command text with arguments.
   */
  createStatement(): Statement {
    return new Statement(this);
  }

  /**
   * Prepares a command text: it is parsed now and bound on each execution.
   *
   * @param text The command text, parsed now.
   * @param autoGeneratedKeys `RETURN_GENERATED_KEYS` or `NO_GENERATED_KEYS` (the default).
   * @returns A prepared statement.
   */
  prepareStatement(text: string, autoGeneratedKeys: number = NO_GENERATED_KEYS): PreparedStatement {
    return new PreparedStatement(this, text, autoGeneratedKeys);
  }

  /**
   * Every hit of one search, page by page (a point in time with `search_after`, or a scroll),
   * closed on completion, on error and when the loop stops early. See {@linkcode HitStream}.
   *
   * @param text One `GET|POST /index/_search [body]` command; the body's `size` is the page size.
   * @param args Its positional arguments.
   * @param options Page size, keep-alive, mode (`"auto"`, `"pit"`, `"scroll"`) and signal.
   * @returns An async iterable of rows; `.pages()` gives one result set per page.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { Engine } from "@searchvisitor/searchvisitor/engine";
   * import assert from "node:assert/strict";
   *
   * const engine = new Engine();
   * await using conn = await new DataSource({ nodes: ["http://engine"], fetch: engine.fetch }).getConnection();
   * await conn.createStatement().executeUpdate('PUT /logs/_doc/1?refresh=true {"level": "warn"}');
   * const stream = conn.stream('POST /logs/_search {"query": {"term": {"level": ?}}}', ["warn"]);
   * let pages = 0;
   * for await (const rs of stream.pages()) {
   *   pages++;
   *   assert.ok(rs.next());
   *   assert.equal(rs.getString("_ID"), "1");
   * }
   * assert.equal(pages, 1);
   * assert.equal(stream.mode, "pit");
   * engine.close();
   * ```
   */
  stream(text: string, args: readonly unknown[] = [], options: StreamOptions = {}): HitStream {
    return new HitStream(this, text, args, { ...options, serverInfo: () => this.serverInfo() });
  }

  /**
   * Stored procedures do not exist on a search engine.
   *
   * @param _text The call text.
   * @returns Never.
   */
  prepareCall(_text?: string): never {
    this.#executor.ensureOpen();
    throw new UnsupportedFeatureError(
      "prepareCall: Elasticsearch and OpenSearch have no stored procedures; use prepareStatement",
    );
  }

  /**
   * Returns flavour and version from `GET /`, asked once per data source.
   *
   * @returns Flavour and version from `GET /`, asked once per data source.
   */
  serverInfo(): Promise<ServerInfo> {
    try {
      this.#executor.ensureOpen();
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#serverInfo();
  }

  /**
   * Returns true: every request is its own unit; there are no transactions.
   *
   * @returns Always true.
   */
  getAutoCommit(): boolean {
    return true;
  }

  /**
   * Accepts `true`; `false` (transactions) is an UnsupportedFeatureError.
   *
   * @param autoCommit Must be true.
   *
   * @example
   * ```ts
   * import { DataSource, UnsupportedFeatureError } from "@searchvisitor/searchvisitor/driver";
   * import assert from "node:assert/strict";
   *
   * const conn = await new DataSource("http://es:9200").getConnection();
   * conn.setAutoCommit(true);
   * assert.throws(() => conn.setAutoCommit(false), UnsupportedFeatureError);
   * assert.throws(() => conn.commit(), UnsupportedFeatureError);
   * ```
   */
  setAutoCommit(autoCommit: boolean): void {
    if (!autoCommit) throw noTransactions("setAutoCommit(false)");
  }

  /** Transactions do not exist on a search engine: always an UnsupportedFeatureError. */
  commit(): never {
    throw noTransactions("commit");
  }

  /** Transactions do not exist on a search engine: always an UnsupportedFeatureError. */
  rollback(): never {
    throw noTransactions("rollback");
  }

  /**
   * Returns true after `close()`.
   *
   * @returns True after `close()`.
   */
  isClosed(): boolean {
    return this.#executor.closed;
  }

  /** Closes the connection; its statements stop working. */
  close(): Promise<void> {
    this.#executor.closed = true;
    return Promise.resolve();
  }

  /** Closes the connection (for `await using`). */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

function noTransactions(what: string): UnsupportedFeatureError {
  return new UnsupportedFeatureError(
    `${what}: Elasticsearch and OpenSearch have no transactions; every write stands on its own ` +
      "(use if_seq_no/if_primary_term for optimistic concurrency)",
  );
}
