/**
 * The entry point of the driver: a data source built from a connection string or options, which
 * hands out connections sharing one transport.
 *
 * @module
 */

import { type Auth, parseCloudId, parseConnectionUrl, parseNode } from "../wire/_url.ts";
import { Connection, readServerInfo, type ServerInfo } from "./connection.ts";
import { type FetchFunction, Transport } from "../wire/transport.ts";
import { type TransportTuning, tuningOf } from "../wire/transport_types.ts";
import type { TransportEventListener } from "../wire/transport_events.ts";

export type { Auth } from "../wire/_url.ts";

/**
 * Everything a data source can be told.
 *
 * @example
 * ```ts
 * import { DataSource, type DataSourceOptions } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const options: DataSourceOptions = {
 *   nodes: ["http://h1:9200", "http://h2:9200"],
 *   auth: { username: "elastic", password: "changeme" },
 *   timeoutMs: 5_000,
 *   indexRefresh: true,
 *   fetch: () => Promise.resolve(Response.json({})),
 * };
 * const ds = new DataSource(options);
 * assert.equal(ds.indexRefresh, true);
 * assert.doesNotMatch(JSON.stringify(ds), /changeme/);
 * ```
 */
export interface DataSourceOptions extends TransportTuning {
  /** Node URLs, e.g. `["http://h1:9200", "https://user:pass@h2:9200"]`. */
  nodes?: readonly string[];
  /** An Elastic Cloud id, instead of (or besides) `nodes`. */
  cloudId?: string;
  /** Basic credentials, an API key (encoded, or id + key) or a bearer token. */
  auth?: Auth;
  /** The `fetch` to call (inject a fake, the embedded engine, or a runtime-specific client). */
  fetch?: FetchFunction;
  /** Extra headers for every request. */
  headers?: Readonly<Record<string, string>>;
  /** Gzip request bodies. */
  compression?: boolean;
  /** Add `refresh=true` to document writes. */
  indexRefresh?: boolean;
  /** Receives request, retry and node events (see `TransportEvent`); nothing secret is in them. */
  onEvent?: TransportEventListener;
}

function base64(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function authorization(auth: Auth | undefined): string | undefined {
  if (auth === undefined) return undefined;
  if ("username" in auth && typeof auth.username === "string") {
    return `Basic ${base64(`${auth.username}:${auth.password ?? ""}`)}`;
  }
  if ("apiKey" in auth) {
    const key = auth.apiKey;
    if (typeof key === "string" && key !== "") return `ApiKey ${key}`;
    if (typeof key === "object" && key !== null && typeof key.id === "string") {
      return `ApiKey ${base64(`${key.id}:${key.apiKey}`)}`;
    }
  }
  if ("bearer" in auth && typeof auth.bearer === "string" && auth.bearer !== "") {
    return `Bearer ${auth.bearer}`;
  }
  throw new TypeError(
    "auth must be { username, password }, { apiKey } or { bearer } with non-empty values",
  );
}

function authKind(auth: Auth | undefined): string | undefined {
  if (auth === undefined) return undefined;
  return "username" in auth ? "basic" : "apiKey" in auth ? "apiKey" : "bearer";
}

/**
 * Hands out connections to one cluster. Credentials are kept in a private field and never
 * appear in `String(ds)`, `JSON.stringify(ds)` or the console.
 *
 * @example From a JDBC URL, with an injected fetch
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const urls: string[] = [];
 * const ds = new DataSource(
 *   "jdbc:dbvisitor:elastic://h1:9200;h2?user=u&password=s3cret&indexRefresh=true",
 *   { fetch: (url) => (urls.push(url), Promise.resolve(Response.json({ _id: "1", result: "created" }))) },
 * );
 * assert.deepEqual(ds.nodes, ["http://h1:9200", "http://h2:9200"]);
 * assert.doesNotMatch(String(ds) + JSON.stringify(ds), /s3cret/);
 * await using conn = await ds.getConnection();
 * assert.equal(await conn.createStatement().executeUpdate('PUT /idx/_doc/1 {"a": 1}'), 1);
 * assert.deepEqual(urls, ["http://h1:9200/idx/_doc/1?refresh=true"]);
 * ```
 */
export class DataSource {
  readonly #auth: Auth | undefined;
  readonly #options:
    & Omit<DataSourceOptions, "auth" | "fetch" | "headers" | "cloudId" | "onEvent">
    & {
      nodes: readonly string[];
    };
  readonly #headerNames: string[];
  readonly #transport: Transport;
  #serverInfo: Promise<ServerInfo> | undefined;

  /**
   * Creates a data source; no request is made until a command runs.
   *
   * @param config A connection string (`jdbc:dbvisitor:elastic://h1:9200;h2:9200?user=..`,
   * `http(s)://[user:pass@]host:port`) or options. Hosts are split on `;`, properties after
   * `?` on `&` only, as dbVisitor does: `password=Zq7Pw;Kx9Vt` is one password.
   * @param overrides Options that add to or override what the string says (e.g. `fetch`).
   */
  constructor(
    config: string | DataSourceOptions,
    overrides: Partial<Omit<DataSourceOptions, "nodes">> = {},
  ) {
    const base: DataSourceOptions = typeof config === "string"
      ? parseConnectionUrl(config)
      : { ...config };
    const options: DataSourceOptions = { ...base, ...withoutUndefined(overrides) };
    const urls = [...(options.nodes ?? [])];
    if (options.cloudId !== undefined) urls.push(parseCloudId(options.cloudId));
    if (urls.length === 0) {
      throw new TypeError(
        "DataSource needs at least one node, e.g. { nodes: ['http://localhost:9200'] }",
      );
    }
    let auth = options.auth;
    const nodes = urls.map((url) => {
      const parsed = parseNode(url);
      auth ??= parsed.auth;
      return parsed.node;
    });
    this.#auth = auth;
    this.#headerNames = Object.keys(options.headers ?? {});
    const tuning = tuningOf(options);
    this.#options = {
      nodes,
      ...tuning,
      compression: options.compression ?? false,
      indexRefresh: options.indexRefresh ?? false,
    };
    this.#transport = new Transport({
      nodes,
      fetch: options.fetch,
      ...tuning,
      headers: options.headers,
      compression: options.compression,
      authorization: authorization(auth),
      onEvent: options.onEvent,
    });
  }

  /** The node URLs (without credentials). */
  get nodes(): readonly string[] {
    return this.#options.nodes;
  }

  /** Whether document writes get `refresh=true`. */
  get indexRefresh(): boolean {
    return this.#options.indexRefresh ?? false;
  }

  /** The shared transport (for raw requests). */
  get transport(): Transport {
    return this.#transport;
  }

  /**
   * Returns a new connection over the shared transport (no request is made).
   *
   * @returns A new connection over the shared transport (no request is made).
   */
  getConnection(): Promise<Connection> {
    return Promise.resolve(
      new Connection(this.#transport, {
        indexRefresh: this.indexRefresh,
        serverInfo: () => this.#info(),
      }),
    );
  }

  #info(): Promise<ServerInfo> {
    this.#serverInfo ??= readServerInfo(this.#transport).catch((error) => {
      this.#serverInfo = undefined;
      throw error;
    });
    return this.#serverInfo;
  }

  /**
   * Returns `DataSource(<nodes>)`, without credentials.
   *
   * @returns `DataSource(<nodes>)`, without credentials.
   */
  toString(): string {
    return `DataSource(${this.nodes.join(", ")})`;
  }

  /**
   * Returns the settings without credentials or header values.
   *
   * @returns The settings without credentials or header values.
   */
  toJSON(): Record<string, unknown> {
    return {
      ...withoutUndefined(this.#options),
      auth: authKind(this.#auth),
      headers: this.#headerNames.length > 0 ? this.#headerNames : undefined,
    };
  }
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<
    T
  >;
}
