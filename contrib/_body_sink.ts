// The body of one response between the socket and its reader: chunks are queued as they arrive;
// past a high-water mark the socket is paused until the reader catches up, so nothing is
// buffered without bound and a reader that stops reading stops the server too.

/** What the sink asks of the connection. */
export interface BodySource {
  pause(): void;
  resume(): void;
  /** The reader gave up: close the connection (the rest of the body is never read). */
  cancel(reason: unknown): void;
}

const EMPTY = new Uint8Array(0);

/** Bytes queued before the socket is paused. */
const HIGH_WATER = 64 * 1024;

type Waiter = {
  resolve: (chunk: Uint8Array | undefined) => void;
  reject: (error: unknown) => void;
};

/** One response body: the connection pushes, the response reads. */
export class BodySink {
  readonly #source: BodySource;
  #chunks: Uint8Array[] = [];
  #queued = 0;
  #ended = false;
  #failed = false;
  #error: unknown;
  #waiter: Waiter | undefined;
  #paused = false;

  constructor(source: BodySource) {
    this.#source = source;
  }

  /** Queues `chunk` (the sink keeps it: the caller must not reuse its memory). */
  push(chunk: Uint8Array): void {
    if (this.#ended || this.#failed || chunk.byteLength === 0) return;
    const waiter = this.#waiter;
    if (waiter !== undefined && this.#chunks.length === 0) {
      this.#waiter = undefined;
      return waiter.resolve(chunk);
    }
    this.#chunks.push(chunk);
    this.#queued += chunk.byteLength;
    if (this.#queued > HIGH_WATER && !this.#paused) {
      this.#paused = true;
      this.#source.pause();
    }
  }

  /** The body is complete. */
  end(): void {
    if (this.#ended || this.#failed) return;
    this.#ended = true;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    if (waiter !== undefined && this.#chunks.length === 0) waiter.resolve(undefined);
  }

  /** The body broke off (or was aborted): the next read fails with `error`. */
  fail(error: unknown): void {
    if (this.#ended || this.#failed) return;
    this.#failed = true;
    this.#error = error;
    this.#chunks = [];
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.reject(error);
  }

  /** The next chunk, or undefined at the end. */
  next(): Promise<Uint8Array | undefined> {
    if (this.#failed) return Promise.reject(this.#error);
    const chunk = this.#chunks.shift();
    if (chunk !== undefined) {
      this.#queued -= chunk.byteLength;
      if (this.#paused && this.#queued <= HIGH_WATER / 2) {
        this.#paused = false;
        this.#source.resume();
      }
      return Promise.resolve(chunk);
    }
    if (this.#ended) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => this.#waiter = { resolve, reject });
  }

  /**
   * The whole body when it has all arrived in at most one chunk, taken from the sink (the
   * sink is then at its end); else undefined, and nothing is taken.
   */
  takeWhole(): Uint8Array | undefined {
    if (!this.#ended || this.#failed || this.#chunks.length > 1) return undefined;
    const chunk = this.#chunks.pop() ?? EMPTY;
    this.#queued = 0;
    return chunk;
  }

  /** Every remaining byte, in one array. */
  async all(): Promise<Uint8Array> {
    const parts: Uint8Array[] = [];
    let total = 0;
    for (let c = await this.next(); c !== undefined; c = await this.next()) {
      parts.push(c);
      total += c.byteLength;
    }
    if (parts.length === 1) return parts[0]!;
    const out = new Uint8Array(total);
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.byteLength;
    }
    return out;
  }

  /** The reader is no longer interested: the connection is closed. */
  cancel(reason: unknown): void {
    if (this.#ended || this.#failed) return;
    this.fail(reason ?? new DOMException("the body was cancelled", "AbortError"));
    this.#source.cancel(reason);
  }
}
