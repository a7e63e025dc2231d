// The connections behind contrib/fetch_deno: per origin a pool of keep-alive connections (most
// recently used first, so idle ones age out and are swept), with requests queued past
// `maxSockets` and withdrawn when their signal aborts. An idle connection does not keep the
// process alive.

import { DenoConn, type Job, type PoolOptions } from "./_http1_conn_deno.ts";
import type { Origin } from "./_http1_request.ts";

/** The connections to one origin. */
class Pool {
  readonly idle: DenoConn[] = [];
  readonly waiting: Job[] = [];
  open = 0;
  closing = false;
  #sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(readonly origin: Origin, readonly options: PoolOptions) {}

  submit(job: Job): void {
    const now = this.idle.length > 0 ? Date.now() : 0;
    while (this.idle.length > 0) {
      const conn = this.idle.pop()!;
      if (!conn.dead && now - conn.idleAt <= conn.idleLimit) return conn.run(job);
      conn.kill(undefined);
    }
    if (this.open < this.options.maxSockets) {
      this.open++;
      return new DenoConn(this, this.origin, this.options).run(job);
    }
    this.waiting.push(job);
  }

  /** Takes a queued job back (its signal aborted). */
  withdraw(job: Job): boolean {
    const at = this.waiting.indexOf(job);
    if (at < 0) return false;
    this.waiting.splice(at, 1);
    return true;
  }

  release(conn: DenoConn): void {
    const next = this.waiting.shift();
    if (next !== undefined) return conn.run(next);
    if (this.closing || this.idle.length >= this.options.maxFreeSockets) {
      return conn.kill(undefined);
    }
    conn.idleAt = Date.now();
    conn.ref(false);
    this.idle.push(conn);
    if (this.#sweeper === undefined) {
      const sweeper = setInterval(() => this.#sweep(), 1_000);
      Deno.unrefTimer(sweeper as unknown as number);
      this.#sweeper = sweeper;
    }
  }

  closed(conn: DenoConn): void {
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
export class Http1Agent {
  readonly #pools = new Map<string, Pool>();
  constructor(readonly options: PoolOptions) {}

  /** Queues `job` on its origin's pool; its signal withdraws or aborts it. */
  submit(origin: Origin, job: Job): void {
    let pool = this.#pools.get(origin.key);
    if (pool === undefined) this.#pools.set(origin.key, pool = new Pool(origin, this.options));
    const signal = job.request.signal;
    if (signal !== undefined) {
      job.onAbort = () => {
        const reason = signal.reason;
        if (pool!.withdraw(job)) {
          job.done();
          job.settled = true;
          return job.reject(reason);
        }
        job.conn?.kill(reason);
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
