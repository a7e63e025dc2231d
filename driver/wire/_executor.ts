// Runs bound commands through the transport and maps the responses. One executor per
// connection; statements find it through `executorOf(connection)`.

import { IllegalStateError } from "../errors.ts";
import { allowsPartialResults } from "../response_errors.ts";
import type { BoundCommand } from "../command/command.ts";
import {
  allowsNotFound,
  appendQuery,
  classify,
  type Endpoint,
  type PathRules,
  rewritePath,
} from "./_endpoint.ts";
import { bumpMappingEpoch, changesMappings } from "./_mapping_epoch.ts";
import { mapResponse, type Outcome } from "./_response_mapper.ts";
import {
  requestThen,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from "./transport.ts";

/** Per-call options: the caller's signal and a timeout that overrides the data source's. */
export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  idempotent?: boolean;
}

/** The options of a call that gives none (shared: the executor only reads them). */
export const NO_OPTIONS: CallOptions = Object.freeze({});

const asIs = (outcomes: Outcome[]): Outcome[] => outcomes;

/** Sends commands for one connection. */
export class Executor {
  readonly transport: Transport;
  /** What the data source asks of the paths (`indexRefresh`), read by `rewritePath`. */
  readonly rules: PathRules;
  closed = false;
  /** Removes the transport's credentials from error excerpts (one function, not one per call). */
  readonly #redact: (text: string) => string;

  constructor(transport: Transport, rules: PathRules = {}) {
    this.transport = transport;
    this.rules = rules;
    this.#redact = (text) => transport.redactSecrets(text);
  }

  /** Throws when the connection is closed. */
  ensureOpen(): void {
    if (this.closed) {
      throw new IllegalStateError("The connection is closed; get a new one from the DataSource");
    }
  }

  /** Sends one command and maps its response. */
  run(command: BoundCommand, options: CallOptions = NO_OPTIONS): Promise<Outcome[]> {
    return this.runThen(command, options, asIs);
  }

  /**
   * Sends one command, maps its response and hands the outcomes to `then`, in the same step: a
   * caller that wants one result of them (`executeFirst`) saves the hop of a second `then`.
   */
  runThen<T>(
    command: BoundCommand,
    options: CallOptions,
    then: (outcomes: Outcome[]) => T,
  ): Promise<T> {
    try {
      this.ensureOpen();
      const endpoint = classify(command.method, command.path);
      const path = rewritePath(endpoint, command.path, this.rules, command.text);
      // The response is mapped in the transport's step that read it (no hop of its own).
      const mapped = (response: TransportResponse) =>
        then(this.#map(command, endpoint, path, response));
      // Mapping caches go stale before (a read racing it) and after, whatever the outcome (a
      // timeout may still have applied it).
      if (!changesMappings(command.method, endpoint.segments)) {
        return requestThen(this.transport, this.#request(command, endpoint, path, options), mapped);
      }
      bumpMappingEpoch(this.transport);
      return this.transport.request(this.#request(command, endpoint, path, options))
        .finally(() => bumpMappingEpoch(this.transport))
        .then(mapped);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #map(
    command: BoundCommand,
    endpoint: Endpoint,
    path: string,
    response: TransportResponse,
  ): Outcome[] {
    const outcomes = mapResponse(endpoint, {
      status: response.status,
      text: response.body,
      contentType: response.headers.get("content-type") ?? "",
      command: command.text,
      redactSecrets: this.#redact,
      allowPartial: allowsPartialResults(path),
    });
    // Most answers have no `Warning` header: one lookup, and no list made for them.
    const warning = response.headers.get("warning");
    if (warning) {
      const warnings = warningsOf(warning);
      for (const outcome of outcomes) {
        if (outcome.kind === "rows") outcome.meta.warnings = warnings;
      }
    }
    return outcomes;
  }

  #request(
    command: BoundCommand,
    endpoint: Endpoint,
    path: string,
    options: CallOptions,
  ): TransportRequest {
    return {
      method: command.method,
      path,
      pathTemplate: command.pathTemplate,
      body: command.body,
      ndjson: command.ndjson,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      idempotent: options.idempotent,
      allowNotFound: allowsNotFound(endpoint.kind),
      command: command.text,
    };
  }

  /** Sends a `_bulk` body (for `executeBatch`). */
  bulk(
    body: string,
    refresh: string | undefined,
    options: CallOptions,
  ): Promise<TransportResponse> {
    this.ensureOpen();
    let path = "/_bulk";
    if (refresh !== undefined) path = appendQuery(path, "refresh", refresh);
    else if (this.rules.indexRefresh === true) path = appendQuery(path, "refresh", "true");
    return this.transport.request({
      method: "POST",
      path,
      body,
      ndjson: true,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      idempotent: options.idempotent,
      command: `POST ${path} (batch)`,
    });
  }
}

/** Reads a connection's executor (set once by the Connection class; a private field, no map). */
let readExecutor: (connection: object) => Executor | undefined = () => undefined;

/** Registers how to read a connection's executor (called once, by the Connection class). */
export function registerExecutorReader(reader: (connection: object) => Executor | undefined): void {
  readExecutor = reader;
}

/** The executor of a connection. */
export function executorOf(connection: object): Executor {
  const executor = readExecutor(connection);
  if (!executor) throw new IllegalStateError("This object is not a searchvisitor Connection");
  return executor;
}

/**
 * The messages of the `Warning` headers (`299 Elasticsearch-8.15.0 "message"`): deprecations.
 *
 * @param headers The response headers.
 * @returns The messages, in order.
 */
export function readWarnings(headers: Headers): string[] {
  const value = headers.get("warning");
  return value ? warningsOf(value) : [];
}

/** The messages of a `Warning` header's value (see {@linkcode readWarnings}). */
function warningsOf(value: string): string[] {
  const messages: string[] = [];
  for (const m of value.matchAll(/\d{3} \S+ "((?:[^"\\]|\\.)*)"/g)) {
    messages.push(m[1]!.replace(/\\(.)/g, "$1"));
  }
  return messages.length > 0 ? messages : [value];
}
