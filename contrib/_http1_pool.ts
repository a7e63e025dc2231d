// The connections behind contrib/fetch_deno and contrib/fetch_node, runtime-independent: per
// origin a pool of keep-alive connections (most recently used first, so idle ones age out and
// are swept), with requests queued past `maxSockets` and withdrawn when their signal aborts.
// The runtime's part comes in as a `connect` function (a new connection to an origin) and an
// `unrefTimer` (so the sweeper does not keep the process alive); an idle connection is told to
// `rest`, which lets go of the process too.

import type { Origin } from "./_http1_request.ts";

/** What a connection tells the pool that owns it. */
export interface ConnOwner<C> {
  /** The exchange ended and the connection can carry another. */
  release(conn: C): void;
  /** The connection closed (called once per connection). */
  closed(conn: C): void;
}

/** What a pool needs of a connection. */
export interface PooledConn<P> {
  /** When it last became idle (ms since the epoch). */
  idleAt: number;
  /** How long it may stay idle, in ms. */
  readonly idleLimit: number;
  /** Whether it can still carry a request (not dead, its socket not destroyed). */
  readonly usable: boolean;
  /** Carries `job`'s exchange. */
  run(job: Job<P, this>): void;
  /** Closes it; an exchange in flight fails with `reason`. */
  kill(reason: unknown): void;
  /** It went idle: it no longer keeps the process alive. */
  rest(): void;
}

/** What a {@linkcode Job} sends. */
export interface JobRequest<P> {
  /** The URL the response reports. */
  readonly url: string;
  readonly method: string;
  /** The request head and body, as the connection writes them. */
  readonly payload: P;
  readonly signal: AbortSignal | undefined;
}

/** One request, from the moment it is queued until its response body is complete. */
export class Job<P, C = unknown> implements JobRequest<P> {
  settled = false;
  conn: C | undefined;
  onAbort: (() => void) | undefined;
  readonly url: string;
  readonly method: string;
  readonly payload: P;
  readonly signal: AbortSignal | undefined;

  /**
   * @param request What to send.
   * @param resolve Settles the caller's promise with the response.
   * @param reject Settles it with a failure.
   */
  constructor(
    request: JobRequest<P>,
    readonly resolve: (response: Response) => void,
    readonly reject: (error: unknown) => void,
  ) {
    this.url = request.url;
    this.method = request.method;
    this.payload = request.payload;
    this.signal = request.signal;
  }

  /** Detaches from the signal once the exchange is over. */
  done(): void {
    if (this.onAbort !== undefined) this.signal!.removeEventListener("abort", this.onAbort);
    this.onAbort = undefined;
  }
}

/** Pool sizes. */
export interface PoolSizes {
  readonly maxSockets: number;
  readonly maxFreeSockets: number;
}

/** The runtime's part of a pool. */
export interface PoolRuntime<P, C extends PooledConn<P>> extends PoolSizes {
  /** Opens a new connection to `origin`, owned by `owner`. */
  connect(owner: ConnOwner<C>, origin: Origin): C;
  /** Keeps a timer from holding the process open. */
  unrefTimer(timer: ReturnType<typeof setInterval>): void;
}

/** The connections to one origin. */
class Pool<P, C extends PooledConn<P>> implements ConnOwner<C> {
  readonly idle: C[] = [];
  readonly waiting: Job<P, C>[] = [];
  open = 0;
  closing = false;
  #sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(readonly origin: Origin, readonly runtime: PoolRuntime<P, C>) {}

  submit(job: Job<P, C>): void {
    const now = this.idle.length > 0 ? Date.now() : 0;
    while (this.idle.length > 0) {
      const conn = this.idle.pop()!;
      if (conn.usable && now - conn.idleAt <= conn.idleLimit) return conn.run(job);
      conn.kill(undefined);
    }
    if (this.open < this.runtime.maxSockets) {
      this.open++;
      return this.runtime.connect(this, this.origin).run(job);
    }
    this.waiting.push(job);
  }

  /** Takes a queued job back (its signal aborted). */
  withdraw(job: Job<P, C>): boolean {
    const at = this.waiting.indexOf(job);
    if (at < 0) return false;
    this.waiting.splice(at, 1);
    return true;
  }

  release(conn: C): void {
    const next = this.waiting.shift();
    if (next !== undefined) return conn.run(next);
    if (this.closing || this.idle.length >= this.runtime.maxFreeSockets) {
      return conn.kill(undefined);
    }
    conn.idleAt = Date.now();
    conn.rest();
    this.idle.push(conn);
    if (this.#sweeper === undefined) {
      const sweeper = setInterval(() => this.#sweep(), 1_000);
      this.runtime.unrefTimer(sweeper);
      this.#sweeper = sweeper;
    }
  }

  closed(conn: C): void {
    this.open--;
    const at = this.idle.indexOf(conn);
    if (at >= 0) this.idle.splice(at, 1);
    const next = this.waiting.shift();
    if (next !== undefined) this.submit(next);
    if (this.idle.length === 0) this.#stop();
  }

  #sweep(): void {
    const now = Date.now();
    for (const conn of [...this.idle]) {
      if (now - conn.idleAt > conn.idleLimit) conn.kill(undefined);
    }
  }

  #stop(): void {
    if (this.#sweeper !== undefined) clearInterval(this.#sweeper);
    this.#sweeper = undefined;
  }

  destroy(): void {
    this.closing = true;
    this.#stop();
    for (const conn of [...this.idle]) conn.kill(undefined);
  }
}

/** Every origin's pool. */
export class Http1Agent<P, C extends PooledConn<P>> {
  readonly #pools = new Map<string, Pool<P, C>>();
  constructor(readonly runtime: PoolRuntime<P, C>) {}

  /** Queues `job` on its origin's pool; its signal withdraws or aborts it. */
  submit(origin: Origin, job: Job<P, C>): void {
    let pool = this.#pools.get(origin.key);
    if (pool === undefined) this.#pools.set(origin.key, pool = new Pool(origin, this.runtime));
    const signal = job.signal;
    if (signal !== undefined) {
      job.onAbort = () => {
        const reason = signal.reason;
        if (pool!.withdraw(job)) {
          job.done();
          job.settled = true;
          return job.reject(reason);
        }
        (job.conn as C | undefined)?.kill(reason);
      };
      signal.addEventListener("abort", job.onAbort, { once: true });
    }
    pool.submit(job);
  }

  /** Closes every idle connection (busy ones close when their exchange ends). */
  close(): void {
    for (const pool of this.#pools.values()) pool.destroy();
    this.#pools.clear();
  }
}
