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
import { type MappedReply, mapResponse, type Outcome } from "./_response_mapper.ts";
import { warningsOf } from "./_warnings.ts";
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

/** A command's endpoint and the path sent for it, with what they decide (see `#planOf`). */
interface Plan {
  readonly method: string;
  /** The bound path the plan was made from. */
  readonly from: string;
  readonly endpoint: Endpoint;
  /** The path sent (`rewritePath`'s). */
  readonly path: string;
  readonly allowPartial: boolean;
  readonly allowNotFound: boolean;
  readonly changesMappings: boolean;
}

/**
 * A response as the mapper reads it. The content type is looked up when the mapper asks for it
 * (a text answer, a body that is no JSON, an error), not for every answer: in Deno a header
 * lookup is a checked call over the header list.
 */
class Reply implements MappedReply {
  readonly status: number;
  readonly text: string;
  readonly command: string;
  readonly redactSecrets: (text: string) => string;
  readonly allowPartial: boolean;
  readonly #headers: Headers;
  #contentType: string | undefined;

  constructor(
    response: TransportResponse,
    command: string,
    plan: Plan,
    redact: (text: string) => string,
  ) {
    this.status = response.status;
    this.text = response.body;
    this.command = command;
    this.redactSecrets = redact;
    this.allowPartial = plan.allowPartial;
    this.#headers = response.headers;
  }

  get contentType(): string {
    return this.#contentType ??= this.#headers.get("content-type") ?? "";
  }

  /** The response headers (a search's result set reads its `Warning` header from them). */
  get headers(): Headers {
    return this.#headers;
  }
}

/** Sends commands for one connection. */
export class Executor {
  readonly transport: Transport;
  /** What the data source asks of the paths (`indexRefresh`), read by `rewritePath`. */
  readonly rules: PathRules;
  closed = false;
  /** Removes the transport's credentials from error excerpts (one function, not one per call). */
  readonly #redact: (text: string) => string;
  /** The plan of the last command sent (see `#planOf`). */
  #last: Plan | undefined;
  /** The last command sent without options, its plan and request (see `#request`). */
  #lastCommand: BoundCommand | undefined;
  #lastRequestPlan: Plan | undefined;
  #lastRequest: TransportRequest | undefined;

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
      const plan = this.#planOf(command);
      // The response is mapped in the transport's step that read it (no hop of its own).
      const mapped = (response: TransportResponse) => then(this.#map(command, plan, response));
      // Mapping caches go stale before (a read racing it) and after, whatever the outcome (a
      // timeout may still have applied it).
      if (!plan.changesMappings) {
        return requestThen(this.transport, this.#request(command, plan, options), mapped);
      }
      bumpMappingEpoch(this.transport);
      return this.transport.request(this.#request(command, plan, options))
        .finally(() => bumpMappingEpoch(this.transport))
        .then(mapped);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * What the executor works out from a command's method and path: kept for the last one, so a
   * command run again and again (the same path string: no bound path values, or the same ones)
   * is classified, rewritten and checked once.
   */
  #planOf(command: BoundCommand): Plan {
    const last = this.#last;
    if (last !== undefined && last.from === command.path && last.method === command.method) {
      return last;
    }
    const endpoint = classify(command.method, command.path);
    const path = rewritePath(endpoint, command.path, this.rules, command.text);
    const plan: Plan = {
      method: command.method,
      from: command.path,
      endpoint,
      path,
      allowPartial: allowsPartialResults(path),
      allowNotFound: allowsNotFound(endpoint.kind),
      changesMappings: changesMappings(command.method, endpoint.segments),
    };
    this.#last = plan;
    return plan;
  }

  #map(command: BoundCommand, plan: Plan, response: TransportResponse): Outcome[] {
    const outcomes = mapResponse(
      plan.endpoint,
      new Reply(response, command.text, plan, this.#redact),
    );
    // The result sets read their `Warning` headers when first asked for `warnings` (a header
    // lookup is a checked call in Deno; most reads never ask): a search's meta names them.
    for (let i = 0; i < outcomes.length; i++) {
      const outcome = outcomes[i]!;
      if (outcome.kind === "rows" && outcome.meta.headers === undefined) {
        outcome.meta.headers = response.headers;
      }
    }
    return outcomes;
  }

  /**
   * The request of a command, made once for the last command sent without options: the binder
   * hands a read run again with the same values the same bound command (see `bindSingle`), and
   * the transport only reads a request.
   */
  #request(command: BoundCommand, plan: Plan, options: CallOptions): TransportRequest {
    if (options !== NO_OPTIONS) return this.#newRequest(command, plan, options);
    const last = this.#lastRequest;
    if (last !== undefined && this.#lastCommand === command && this.#lastRequestPlan === plan) {
      return last;
    }
    const request = this.#newRequest(command, plan, options);
    this.#lastCommand = command;
    this.#lastRequestPlan = plan;
    this.#lastRequest = request;
    return request;
  }

  #newRequest(command: BoundCommand, plan: Plan, options: CallOptions): TransportRequest {
    return {
      method: command.method,
      path: plan.path,
      pathTemplate: command.pathTemplate,
      body: command.body,
      ndjson: command.ndjson,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      idempotent: options.idempotent,
      allowNotFound: plan.allowNotFound,
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
