/**
 * The HTTP transport: the only place that calls `fetch`. It picks live nodes round-robin, marks
 * a node that refuses, hangs or drops connections dead and asks it again after a backoff, applies
 * a timeout per attempt and per request and the caller's `AbortSignal`, caps the response size
 * while reading it, and turns error statuses into {@linkcode ResponseError}.
 *
 * Retries (the policy is written out in `retry_policy.ts` and the README):
 * - 429 and connect-phase failures (refused, DNS, TLS: nothing was sent) are retried for every
 *   request, honouring `Retry-After`; a connect failure on a node that answered before and is not
 *   known dead counts as "may have been sent" (a fetch may have re-sent the request on a new
 *   connection after a pooled one broke, and report only that connect);
 * - after a request may have reached the server (a reset or dropped connection after sending,
 *   an attempt timeout, 502/503/504) it is re-sent only when idempotent (GET, HEAD, an
 *   unconditional DELETE, read-only POSTs, PUT of a document with an explicit id,
 *   settings/mapping PUTs, or marked `idempotent` by the caller; never a scroll page), judged
 *   from the request's `pathTemplate` (the command as written) when it has one; otherwise the
 *   call fails with `OutcomeUnknownError`, which says whether the request was sent;
 * - waits are exponential with full jitter, within `maxRetries` and the request's deadline.
 *
 * Redirects are never followed (`redirect: "manual"` on every call): a `3xx` is a
 * {@linkcode RedirectError} with the status and the redacted location, never retried.
 *
 * @module
 */

import { redact } from "../error_base.ts";
import { ConnectionError, RedirectError, ResponseError, ResponseTooLargeError } from "../errors.ts";
import { NodePool } from "./_node_pool.ts";
import { type BodyLimits, fits, readBody, TooLarge } from "./_body_reader.ts";
import { backoffDelay, isConnectPhase, isIdempotent, retryAfterMs } from "./retry_policy.ts";
import { Deadlines, type Watch } from "./_deadlines.ts";
import {
  check,
  codeOf,
  deadlineError,
  describe,
  fromServer,
  gzip,
  isAbort,
  outcomeUnknown,
  secretsOf,
  sleep,
  timeoutError,
} from "./_transport_util.ts";
import type {
  FetchFunction,
  TransportOptions,
  TransportRequest,
  TransportResponse,
} from "./transport_types.ts";
import { AttemptEvents, type TransportEventListener } from "./transport_events.ts";

export type {
  FetchFunction,
  TransportOptions,
  TransportRequest,
  TransportResponse,
  TransportTuning,
} from "./transport_types.ts";

const GATEWAY_STATUSES = new Set([502, 503, 504]);
const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** Reads `Transport.#attempts` (set by the class's static block, which runs
 * where the class is defined: declared before it). */
let attemptsOf: <T>(
  transport: Transport,
  req: TransportRequest,
  then: (res: TransportResponse) => T,
) => Promise<T>;

/**
 * Sends requests to Elasticsearch or OpenSearch nodes over `fetch`.
 *
 * @example Send a request through an injected fetch
 * ```ts
 * import { Transport } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const seen: string[] = [];
 * const transport = new Transport({
 *   nodes: ["http://a:9200", "http://b:9200"],
 *   fetch: (url, init) => {
 *     seen.push(`${init.method} ${url}`);
 *     return Promise.resolve(Response.json({ count: 3 }));
 *   },
 * });
 * const res = await transport.request({ method: "GET", path: "/idx/_count", body: "{}" });
 * assert.equal(res.status, 200);
 * assert.deepEqual(JSON.parse(res.body), { count: 3 });
 * assert.deepEqual(seen, ["POST http://a:9200/idx/_count"]);
 * ```
 */
export class Transport {
  readonly #nodes: readonly string[];
  readonly #pool: NodePool;
  readonly #fetch: FetchFunction;
  /** An injected fetch may ignore the signal: its promise is raced against it. */
  readonly #injected: boolean;
  /** A fetch marked in-process: its bodies are read whole (as `readInProcessBody` does). */
  readonly #inProcess: boolean;
  /** A fetch that takes a `LightSignal` (see `_deadlines.ts`), as contrib/fetch_node does. */
  readonly #light: boolean;
  readonly #timeoutMs: number;
  readonly #requestTimeoutMs: number | undefined;
  readonly #maxRetries: number;
  readonly #baseDelay: number;
  readonly #maxDelay: number;
  readonly #maxBytes: number;
  /** The size cap and whether a declared length is trusted (see `readBody`). */
  readonly #limits: BodyLimits;
  readonly #headers: Readonly<Record<string, string>>;
  /** The headers of a JSON and an NDJSON body, built once (fetch only reads them). */
  readonly #jsonHeaders: Readonly<Record<string, string>>;
  readonly #ndjsonHeaders: Readonly<Record<string, string>>;
  readonly #deadlines = new Deadlines();
  readonly #secrets: readonly string[];
  readonly #compression: boolean;
  readonly #onEvent: TransportEventListener | undefined;
  /** Nodes that answered at least once (their connections may be pooled). */
  readonly #answered = new Set<string>();
  /**
   * The node of the last answer, until a node is marked dead: an answer of it again needs no
   * `#answeredBy` (it is in `#answered`, alive, and the product was read).
   */
  #lastAnswered: string | undefined;
  /**
   * Requests take `#quickFirst`: an in-process fetch or a network one (the runtime's own, or
   * one marked as such), no compression, no event listener.
   */
  readonly #quick: boolean;
  #product: string | undefined;
  #productRead = false;
  #requestIds = 0;

  /**
   * Creates a transport.
   *
   * @param options The nodes, fetch, timeouts, retries, auth and headers.
   */
  constructor(options: TransportOptions) {
    if (options.nodes.length === 0) {
      throw new TypeError("Transport needs at least one node URL, e.g. http://localhost:9200");
    }
    this.#nodes = options.nodes.map((n) => n.replace(/\/+$/, ""));
    const f = options.fetch;
    this.#fetch = f ?? ((url, init) => globalThis.fetch(url, init));
    // A fetch that declares itself a network fetch (it honours its signal and never delivers
    // more than a declared content-length, as contrib/fetch_node does) is read like the
    // runtime's own: no race against the signal, the declared length trusted.
    this.#injected = f !== undefined &&
      (f as unknown as Record<symbol, unknown>)[Symbol.for("searchvisitor.networkFetch")] !== true;
    // An in-process fetch (the embedded engine's) answers with bodies already in memory: read
    // whole, then held to the cap; its promise is still raced against the signal.
    this.#inProcess = this.#injected &&
      (f as unknown as Record<symbol, unknown>)[Symbol.for("searchvisitor.inProcessFetch")] ===
        true;
    // A fetch that reads only `aborted`, `reason` and the abort listeners of its signal is given
    // the driver's light signal instead of an AbortController per attempt.
    this.#light = f !== undefined &&
      (f as unknown as Record<symbol, unknown>)[Symbol.for("searchvisitor.lightSignal")] === true;
    this.#timeoutMs = check("timeoutMs", options.timeoutMs, 30_000, 1);
    this.#requestTimeoutMs = options.requestTimeoutMs === undefined
      ? undefined
      : check("requestTimeoutMs", options.requestTimeoutMs, 0, 1);
    this.#maxRetries = check("maxRetries", options.maxRetries, 3, 0);
    this.#baseDelay = check("retryBaseDelayMs", options.retryBaseDelayMs, 100, 0);
    this.#maxDelay = check("maxRetryDelayMs", options.maxRetryDelayMs, 10_000, 0);
    this.#maxBytes = check(
      "maxResponseBytes",
      options.maxResponseBytes,
      DEFAULT_MAX_RESPONSE_BYTES,
      1,
    );
    this.#limits = { limit: this.#maxBytes, trustLength: !this.#injected };
    this.#pool = new NodePool(
      this.#nodes,
      check("deadNodeBaseMs", options.deadNodeBaseMs, 1_000, 0),
      check("deadNodeMaxMs", options.deadNodeMaxMs, 60_000, 0),
    );
    this.#compression = options.compression ?? false;
    const headers: Record<string, string> = { accept: "application/json" };
    const secrets: string[] = [];
    for (const [k, v] of Object.entries(options.headers ?? {})) {
      headers[k.toLowerCase()] = v;
      if (/authorization|api[-_]?key|token|secret|cookie/i.test(k)) secrets.push(...secretsOf(v));
    }
    if (options.authorization !== undefined) {
      headers.authorization = options.authorization;
      secrets.push(...secretsOf(options.authorization));
    }
    // Frozen: handed as they are to the runtime's fetch and an in-process one (others get copies).
    this.#headers = Object.freeze(headers);
    this.#jsonHeaders = Object.freeze({ ...headers, "content-type": "application/json" });
    this.#ndjsonHeaders = Object.freeze({ ...headers, "content-type": "application/x-ndjson" });
    this.#onEvent = options.onEvent;
    this.#quick = (this.#inProcess || !this.#injected) && !this.#compression &&
      this.#onEvent === undefined;
    this.#secrets = secrets;
  }

  /** How many times a failed request is retried. */
  get maxRetries(): number {
    return this.#maxRetries;
  }

  /** The node URLs (never with credentials). */
  get nodes(): readonly string[] {
    return this.#nodes;
  }

  /** The nodes now marked dead (they are asked again after a backoff). */
  get deadNodes(): readonly string[] {
    return this.#pool.deadNodes();
  }

  /**
   * The `X-Elastic-Product` header of the first answer (`"Elasticsearch"`, which Elasticsearch
   * 7.14+ sends on every answer, errors too), or undefined before any answer or when it carried
   * none (OpenSearch never sends it): read once, so no answer after the first pays for it. Lets a caller tell the flavour without asking `GET /`, which some builds and
   * roles refuse.
   */
  get product(): string | undefined {
    return this.#product;
  }

  /**
   * Sends one request, retrying where it is safe (see the module documentation).
   *
   * @param req The request.
   * @returns The response of the node that answered.
   * @throws {ResponseError} For an error status (after the retries it allows).
   * @throws {ConnectionError} When no node could be reached; nothing was applied.
   * @throws {OutcomeUnknownError} When a request that is not idempotent failed after it may
   * have reached the server.
   * @throws {TimeoutError} When the request's deadline passed (the caller's abort rejects with
   *   the signal's reason instead, an `AbortError` by default).
   * @throws {ResponseTooLargeError} When the body passed `maxResponseBytes`.
   */
  request(req: TransportRequest): Promise<TransportResponse> {
    try {
      return this.#quick ? this.#quickFirst(req, asIs) : this.#attempts(req, asIs);
    } catch (error) {
      return Promise.reject(error); // a call on a foreign `this`, as from an async method
    }
  }

  static {
    attemptsOf = (transport, req, then) =>
      transport.#quick ? transport.#quickFirst(req, then) : transport.#attempts(req, then);
  }

  /**
   * The first attempt of a request to an in-process fetch or a network one (the runtime's own),
   * as a chain of callbacks in one promise instead of an async frame awaiting a race (one
   * promise hop and a frame fewer, and the race is the watch rejecting this promise, not a
   * promise of its own). It handles only the answer the caller wants (a 2xx, an allowed 404,
   * within the cap); anything else — a fetch that throws or rejects, the deadline or the
   * caller's abort, another status, a body that cannot be read or is too large — is handed as
   * it is to `#attempts`, which treats it as its first attempt's outcome (and retries where it
   * is safe). What `then` throws rejects.
   *
   * A network body is read as `#attempts` reads it (`readBody`: a declared length trusted, else
   * counted while it streams, the attempt's signal stopping it); an in-process one whole, then
   * held to the cap by its size.
   */
  #quickFirst<T>(req: TransportRequest, then: (res: TransportResponse) => T): Promise<T> {
    const hasBody = req.body !== undefined && req.body !== "";
    const method = hasBody && (req.method === "GET" || req.method === "HEAD") ? "POST" : req.method;
    // The frozen headers themselves: an in-process fetch cannot change them (see the mark), a
    // runtime's fetch only reads them (as `#attempts` hands them over).
    const headers = !hasBody ? this.#headers : req.ndjson ? this.#ndjsonHeaders : this.#jsonHeaders;
    const attemptMs = req.timeoutMs ?? this.#timeoutMs;
    const totalMs = this.#requestTimeoutMs ?? attemptMs * 3;
    const node = this.#pool.pick();
    const watch = this.#deadlines.watch(Math.min(attemptMs, totalMs), req.signal, this.#light);
    let pending: Promise<Response>;
    try {
      const fetchFn = this.#fetch; // called without `this`, as in `#attempts`
      pending = fetchFn(node + req.path, {
        method,
        headers,
        body: hasBody ? req.body : undefined,
        signal: watch.signal,
        redirect: "manual",
      });
    } catch (error) {
      pending = Promise.reject(error);
    }
    return new Promise<T>((resolve, reject) => {
      /** Waiting for the response: neither it nor the watch's abort has come. */
      let waiting = true;
      const handOff = (res: Promise<Response>, text?: Promise<string>) =>
        resolve(this.#attempts(req, then, { watch, node, res, text }));
      const onAbort = (reason: unknown) => {
        if (!waiting) return;
        waiting = false;
        handOff(Promise.reject(reason));
      };
      pending.then((res) => {
        if (!waiting) return; // aborted first: the late answer is dropped, as a race drops it
        waiting = false;
        watch.release();
        const status = res.status;
        if (!((status >= 200 && status < 300) || (status === 404 && req.allowNotFound))) {
          return handOff(pending);
        }
        const resHeaders = res.headers;
        const inProcess = this.#inProcess;
        const reading = inProcess ? res.text() : readBody(res, this.#limits, watch.signal);
        reading.then((text) => {
          if (inProcess && !fits(text, this.#maxBytes)) {
            return handOff(pending, Promise.resolve(text));
          }
          watch.done();
          if (node !== this.#lastAnswered) this.#answeredBy(node, resHeaders, undefined);
          try {
            resolve(then({ status, body: text, headers: resHeaders, node }));
          } catch (error) {
            reject(error);
          }
        }, (error) => handOff(pending, rejected(error)));
      }, (error) => {
        if (!waiting) return;
        waiting = false;
        handOff(Promise.reject(error));
      });
      // After the fetch was called (as `#attempts` calls it): a signal that already aborted
      // (the caller's) hands off at once.
      watch.onAbort(onAbort);
    });
  }

  /**
   * `request`, handing the response to `then` in the step that reads it (see `requestThen`);
   * `first` is the first attempt's outcome when `#quickFirst` made it.
   */
  async #attempts<T>(
    req: TransportRequest,
    then: (res: TransportResponse) => T,
    first?: FirstAttempt,
  ): Promise<T> {
    const hasBody = req.body !== undefined && req.body !== "";
    const method = hasBody && (req.method === "GET" || req.method === "HEAD") ? "POST" : req.method;
    let headers: Readonly<Record<string, string>> = !hasBody
      ? this.#headers
      : req.ndjson
      ? this.#ndjsonHeaders
      : this.#jsonHeaders;
    let body: BodyInit | undefined;
    if (hasBody) {
      body = req.body;
      if (this.#compression) {
        body = await gzip(req.body as string);
        headers = { ...headers, "content-encoding": "gzip" };
      }
    }
    // An injected fetch gets its own copy: it may change what it was given.
    if (this.#injected) headers = { ...headers };
    const attemptMs = req.timeoutMs ?? this.#timeoutMs;
    const totalMs = this.#requestTimeoutMs ?? attemptMs * 3;
    /**
     * The request's deadline (`performance.now()` time), from the first attempt's start, read
     * from its watch on the first failure: the success path reads no clock of its own (the
     * watch of a long attempt may read none either).
     */
    let deadline = 0;
    const attempts = this.#maxRetries + 1;
    /** The failed attempts so far (made on the first failure). */
    let failed: Failed | undefined;
    const events = this.#onEvent &&
      new AttemptEvents(this.#onEvent, {
        requestId: ++this.#requestIds,
        method,
        path: req.path,
        body,
      }, this.#secrets);
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const made = attempt === 1 ? first : undefined;
      const node = made?.node ?? this.#pool.pick();
      // The first attempt has the whole time (no clock read of its own on the common path).
      const left = attempt === 1 ? totalMs : deadline - performance.now();
      if (left <= 0) {
        throw deadlineError(req, {
          attemptMs,
          totalMs,
          attempts: attempt - 1,
          deadNodes: this.#pool.deadNodes(),
          cause: failed?.last.error,
        });
      }
      const watchMs = Math.min(attemptMs, left);
      const watch = made?.watch ?? this.#deadlines.watch(watchMs, req.signal, this.#light);
      const signal = watch.signal;
      events?.start(node, attempt);
      let res: Response;
      try {
        if (made !== undefined) res = await made.res;
        else {
          // Called without `this`: a browser's fetch throws "Illegal invocation" on a foreign `this`.
          const fetchFn = this.#fetch;
          // Redirects are never followed: a 307 would carry the body to another host, a 303 turn
          // a write into a GET that reads as success.
          const pending = fetchFn(node + req.path, {
            method,
            headers,
            body,
            signal,
            redirect: "manual",
          });
          res = await (this.#injected ? watch.race(pending) : pending);
        }
      } catch (error) {
        watch.done();
        if (attempt === 1) deadline = watch.startedAt() + totalMs;
        this.#sendFailed(req, { error, node, signal, attemptMs, events });
        failed = fail(failed, error, node);
        if (attempt < attempts) await this.#wait(req, { retry: attempt, deadline, events });
        continue;
      }
      const status = res.status;
      // Read once: each read of a Response's members is a checked getter call in some runtimes.
      const resHeaders = res.headers;
      // A browser's fetch hands back an opaque redirect (status 0) for `redirect: "manual"`.
      if ((status >= 300 && status < 400) || (status === 0 && res.type === "opaqueredirect")) {
        watch.done();
        res.body?.cancel().catch(() => {});
        events?.end(status, "", undefined);
        throw new RedirectError(status, resHeaders.get("location"), { command: req.command });
      }
      let text: string;
      try {
        if (this.#inProcess) {
          // Read whole, then held to the cap by its size: the body is already in memory (what
          // the mark says), so its declared length is not looked up first, as
          // `readInProcessBody` does (a header lookup per answer in Deno, which copies the
          // header list); one promise hop fewer, too.
          text = await (made?.text ?? res.text());
          if (!fits(text, this.#maxBytes)) throw new TooLarge(this.#maxBytes);
        } else text = await (made?.text ?? readBody(res, this.#limits, signal));
      } catch (error) {
        watch.done();
        if (attempt === 1) deadline = watch.startedAt() + totalMs;
        this.#readFailed(req, { error, node, status, attemptMs, events });
        failed = fail(failed, error, node);
        if (attempt < attempts) await this.#wait(req, { retry: attempt, deadline, events });
        continue;
      }
      watch.done();
      events?.end(status, text, undefined);
      this.#answeredBy(node, resHeaders, events);
      if ((status >= 200 && status < 300) || (status === 404 && req.allowNotFound)) {
        return then({ status, body: text, headers: resHeaders, node });
      }
      // An error status: thrown, unless it may be retried (then the wait before the retry).
      if (attempt === 1) deadline = watch.startedAt() + totalMs;
      const retry = this.#statusRetry(req, {
        status,
        text,
        headers: resHeaders,
        node,
        last: attempt >= attempts,
        deadline,
      });
      failed = fail(failed, retry.error, node);
      await this.#wait(req, { retry: attempt, after: retry.after, deadline, events });
    }
    throw this.#exhausted(req, { attemptMs, totalMs, attempts, deadline, failed });
  }

  /**
   * After a fetch that failed (refused, reset, timed out): throws what the caller gets when the
   * request may not be retried (the caller's abort, an unknown outcome of a write); else marks
   * the node dead and returns (the attempt is retried).
   */
  #sendFailed(req: TransportRequest, failure: SendFailure): void {
    const { error, node, events } = failure;
    const timedOut = failure.signal.aborted && !req.signal?.aborted;
    // A connect failure on a node that answered before and was not known dead may come from a
    // re-send on a fresh connection after a pooled one broke with the request on it (Deno's
    // fetch does that, then reports only the refused connect): it is not proof of "unsent".
    const connectPhase = !timedOut && isConnectPhase(error);
    const connect = connectPhase && !(this.#answered.has(node) && !this.#pool.isDead(node));
    events?.end(undefined, "", error);
    if (req.signal?.aborted) throw timeoutError(req, failure.attemptMs, req.signal.reason);
    this.#lastAnswered = undefined;
    if (this.#pool.markDead(node)) events?.nodeDead(node, error);
    if (!connect && !idempotentRequest(req)) {
      throw outcomeUnknown(req, {
        node,
        what: timedOut
          ? `no answer within ${failure.attemptMs} ms`
          : connectPhase
          ? `a new connection was refused (${codeOf(error)}) by a node that had answered, ` +
            "as when a fetch re-sends a request whose pooled connection broke with it on it"
          : `the connection failed (${codeOf(error)})`,
        cause: error,
      });
    }
  }

  /**
   * After a body that broke off or passed the size cap: throws when the request may not be
   * retried (too large, the caller's abort, an unknown outcome of a write); else marks the node
   * dead and returns.
   */
  #readFailed(req: TransportRequest, failure: ReadFailure): void {
    const { error, node, status, events } = failure;
    events?.end(status, "", error);
    if (error instanceof TooLarge) {
      throw new ResponseTooLargeError(error.limit, { command: req.command });
    }
    if (req.signal?.aborted) throw timeoutError(req, failure.attemptMs, req.signal.reason);
    this.#lastAnswered = undefined;
    if (this.#pool.markDead(node)) events?.nodeDead(node, error);
    if (!idempotentRequest(req)) {
      throw outcomeUnknown(req, {
        node,
        what: `the server answered ${status} but the body broke off`,
        cause: error,
        status,
      });
    }
  }

  /** A node answered: it is alive, and the first answer tells the product. */
  #answeredBy(node: string, headers: Headers, events: AttemptEvents | undefined): void {
    this.#lastAnswered = node;
    this.#answered.add(node);
    if (!this.#productRead) {
      // The first answer tells: Elasticsearch names itself on every one, OpenSearch on none.
      this.#productRead = true;
      this.#product = headers.get("x-elastic-product") ?? undefined;
    }
    if (this.#pool.markAlive(node)) events?.nodeAlive(node);
  }

  /**
   * An error status: throws its ResponseError (or, for a gateway's own page on a write, an
   * unknown outcome) unless the request may be retried — a 429, or a gateway status on an
   * idempotent request, with an attempt left and the server's `Retry-After` within the
   * deadline; then returns the error and the wait the server asked for.
   */
  #statusRetry(req: TransportRequest, answer: ErrorAnswer): { error: unknown; after?: number } {
    const { status, headers, node } = answer;
    const error = ResponseError.fromBody(status, this.redactSecrets(answer.text), {
      command: req.command,
      product: headers.get("x-elastic-product") ?? undefined,
    });
    const gateway = GATEWAY_STATUSES.has(status);
    // A gateway's own page (not Elasticsearch's error JSON) says nothing about the write.
    if (gateway && !fromServer(error) && !idempotentRequest(req)) {
      throw outcomeUnknown(req, {
        node,
        what: `a gateway answered ${status}`,
        cause: error,
        status,
      });
    }
    if (!(status === 429 || (gateway && idempotentRequest(req))) || answer.last) throw error;
    const after = status === 429 ? retryAfterMs(headers.get("retry-after"), Date.now()) : undefined;
    if (after !== undefined && performance.now() + after > answer.deadline) throw error;
    return { error, after };
  }

  /** The error of a request whose attempts all failed (or whose deadline passed). */
  #exhausted(req: TransportRequest, spent: Exhausted): unknown {
    const last = spent.failed?.last;
    const lastError = last?.error;
    if (lastError instanceof ResponseError) return lastError;
    if (performance.now() >= spent.deadline || isAbort(lastError)) {
      return deadlineError(req, {
        attemptMs: spent.attemptMs,
        totalMs: spent.totalMs,
        attempts: spent.attempts,
        deadNodes: this.#pool.deadNodes(),
        cause: lastError,
      });
    }
    const where = [...new Set(spent.failed?.tried)].map(redact).join(", ");
    const code = codeOf(lastError);
    return new ConnectionError(
      `Could not reach ${redact(last?.node ?? where)} (${code}) for ${req.method} ${
        redact(req.path)
      } after ${spent.attempts} attempt(s) on ${where}: ${
        describe(lastError)
      }; check that the cluster is running and the URL is right`,
      {
        cause: lastError,
        command: req.command,
        node: last?.node,
        causeCode: code === "no error code" ? undefined : code,
      },
    );
  }

  /** Waits before a retry: the server's `Retry-After` or the backoff, within the deadline. */
  #wait(req: TransportRequest, wait: RetryWait) {
    wait.events?.retry();
    const ms = Math.min(
      wait.after ?? backoffDelay(wait.retry, this.#baseDelay, this.#maxDelay),
      Math.max(0, wait.deadline - performance.now()),
    );
    return sleep(ms, req);
  }

  /**
   * Replaces this transport's credentials (the authorization header, its token, the decoded
   * password) in a text with `***`: for error excerpts of bodies that echo request headers.
   *
   * @param text Any text, e.g. a response body.
   * @returns The text without this transport's secrets.
   *
   * @example
   * ```ts
   * import { Transport } from "@searchvisitor/searchvisitor/driver";
   * import assert from "node:assert/strict";
   *
   * const t = new Transport({ nodes: ["http://es:9200"], authorization: "Bearer s3cr3t-token" });
   * assert.equal(t.redactSecrets("echo: Bearer s3cr3t-token"), "echo: ***");
   * ```
   */
  redactSecrets(text: string): string {
    let out = text;
    for (const secret of this.#secrets) out = out.replaceAll(secret, "***");
    return out;
  }

  /**
   * Waits the backoff before a retry: a random time up to `retryBaseDelayMs × 2^(retry-1)`
   * (full jitter, at most `maxRetryDelayMs`). Used by the transport and by `executeBatch` for
   * items the server rejected with 429.
   *
   * @param retry The retry number, from 1.
   * @param req The request being retried (its signal ends the wait with `TimeoutError`).
   * @returns A promise that resolves after the wait.
   *
   * @example
   * ```ts
   * import { Transport } from "@searchvisitor/searchvisitor/driver";
   * import assert from "node:assert/strict";
   *
   * const transport = new Transport({ nodes: ["http://es:9200"], retryBaseDelayMs: 1 });
   * await transport.backoff(1, { method: "POST", path: "/_bulk" });
   * assert.equal(transport.maxRetries, 3);
   * ```
   */
  backoff(retry: number, req: TransportRequest): Promise<void> {
    return sleep(backoffDelay(retry, this.#baseDelay, this.#maxDelay), req);
  }
}

const asIs = <T>(value: T): T => value;

/** A rejected promise that is handled later (by `#attempts`): never an unhandled rejection. */
function rejected(error: unknown): Promise<never> {
  const promise = Promise.reject(error);
  promise.catch(() => {});
  return promise;
}

/**
 * `transport.request(req)` with `then` applied to the response in the same step: a caller that
 * maps the response at once (the executor) saves the promise hop of a `.then` of its own. What
 * `then` throws rejects the promise; it is never retried. Not part of the public API.
 *
 * @param transport The transport.
 * @param req The request.
 * @param then Maps the response (of a 2xx, or a 404 the request allows).
 * @returns What `then` returns.
 */
export function requestThen<T>(
  transport: Transport,
  req: TransportRequest,
  then: (res: TransportResponse) => T,
): Promise<T> {
  return attemptsOf(transport, req, then);
}

/** The first attempt as `Transport.#quickFirst` made it, for `#attempts` to go on from. */
interface FirstAttempt {
  watch: Watch;
  node: string;
  /** The fetch's outcome (the watch's abort reason, when that came first). */
  res: Promise<Response>;
  /** The body's outcome, when it was read. */
  text?: Promise<string>;
}

/** What a retry waits for (see `Transport.#wait`). */
interface RetryWait {
  /** The retry's number, from 1. */
  retry: number;
  /** The server's `Retry-After` in ms, when it named one. */
  after?: number;
  /** The request's deadline (`performance.now()` time). */
  deadline: number;
  /** The request's event emitter, when the transport has a listener. */
  events: AttemptEvents | undefined;
}

/** Whether a request may be sent twice (the caller's word, else the retry policy's). */
function idempotentRequest(req: TransportRequest): boolean {
  return req.idempotent === true || isIdempotent(req.method, req.pathTemplate ?? req.path);
}

/** The failed attempts of a request: the nodes tried, and the last error. */
interface Failed {
  tried: string[];
  last: { error: unknown; node: string };
}

/** Records a failed attempt (the record is made on the first failure). */
function fail(failed: Failed | undefined, error: unknown, node: string): Failed {
  if (failed === undefined) return { tried: [node], last: { error, node } };
  failed.tried.push(node);
  failed.last = { error, node };
  return failed;
}

/** A fetch that failed (see `Transport.#sendFailed`). */
interface SendFailure {
  error: unknown;
  node: string;
  /** The attempt's signal (aborted: the attempt timed out, or the caller aborted). */
  signal: AbortSignal;
  attemptMs: number;
  events: AttemptEvents | undefined;
}

/** A body that could not be read (see `Transport.#readFailed`). */
interface ReadFailure {
  error: unknown;
  node: string;
  status: number;
  attemptMs: number;
  events: AttemptEvents | undefined;
}

/** An answer with an error status (see `Transport.#statusRetry`). */
interface ErrorAnswer {
  status: number;
  text: string;
  headers: Headers;
  node: string;
  /** This was the last attempt allowed. */
  last: boolean;
  /** The request's deadline (`performance.now()` time). */
  deadline: number;
}

/** What a request spent before it gave up (see `Transport.#exhausted`). */
interface Exhausted {
  attemptMs: number;
  totalMs: number;
  attempts: number;
  deadline: number;
  failed: Failed | undefined;
}
