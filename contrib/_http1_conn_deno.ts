// One keep-alive connection of contrib/fetch_deno (`Deno.connect` / `Deno.connectTls`) and the
// HTTP/1.1 exchange it carries at a time: the request is written in one piece, the response
// parsed by ./_http1.ts and its body handed to a BodySink (decoded on the way when it is
// compressed). One read is pending on the connection the whole time it is open, idle too, so a
// server that closes an idle connection is seen at once and the connection is never picked
// again. Its owner (the origin's pool, ./_http1_pool.ts) gets it back when the exchange
// ends.

import {
  ChunkedDecoder,
  type Framing,
  framingOf,
  headEnd,
  Http1ProtocolError,
  idleLimitOf,
  loopbackFallbacks,
  parseResponseHead,
  refusedHead,
  type ResponseHead,
  strayAfterHead,
} from "./_http1.ts";
import { BodySink, type BodySource } from "./_body_sink.ts";
import { FieldHeaders, NodeResponse } from "./_node_response.ts";
import { type Decoder, decoderFor } from "./_decode_node.ts";
import type { ConnOwner, Job, PooledConn } from "./_http1_pool.ts";
import type { Origin } from "./_http1_request.ts";

/** TLS options of `https:` origins, as `Deno.connectTls` takes them. */
export interface DenoTlsOptions {
  /** Trusted CA certificates in PEM (in place of the default root store). */
  caCerts?: string[];
  /** A client certificate chain in PEM, with `key`. */
  cert?: string;
  /** The client certificate's private key in PEM. */
  key?: string;
}

/** Options of one connection. */
export interface ConnOptions {
  readonly keepAliveMs: number;
  readonly tls?: DenoTlsOptions | undefined;
}

/** A request on a {@linkcode DenoConn}: its payload is the bytes of one write. */
type DenoJob = Job<Uint8Array, DenoConn>;

const MAX_HEAD = 64 * 1024;
/** The size of the buffer a connection reads into. */
const READ_SIZE = 64 * 1024;

/**
 * A failure before the connection was established: nothing of the request left this process.
 * The message is worded so the driver's retry policy sees a connect-phase failure; `code` is
 * Deno's (e.g. `ECONNREFUSED`), `ENOTFOUND` for a failed lookup or `TLS` for a handshake, and
 * `cause` the original error. `phase` says whether the TCP connection or the TLS handshake on
 * it failed.
 */
function connectFailure(error: unknown, origin: Origin, phase: "tcp" | "tls"): Error {
  const e = error as { code?: unknown; message?: unknown };
  const message = String(e?.message ?? error);
  const code = typeof e?.code === "string"
    ? e.code
    : phase === "tls"
    ? "TLS"
    : /lookup|name resolution|not known/i.test(message)
    ? "ENOTFOUND"
    : "ECONNREFUSED";
  const what = phase === "tls"
    ? `the TLS handshake with ${origin.host}:${origin.port} failed`
    : `could not connect to ${origin.host}:${origin.port}`;
  return Object.assign(
    new Error(`tcp connect error: ${what} (${code}): ${message}`, { cause: error }),
    { code },
  );
}

/**
 * `Deno.connect` to `hostname`. It tries only the first address the name resolves to, where
 * the runtime's fetch tries each in turn; so a refused `localhost` is tried again on the
 * loopback addresses `loopbackFallbacks` (./_http1.ts) gives, where the net permission for them
 * is granted (never a prompt). The first failure is what is reported when none answers.
 */
async function connectTcp(hostname: string, port: number): Promise<Deno.TcpConn> {
  try {
    return await Deno.connect({ hostname, port });
  } catch (error) {
    for (const loopback of loopbackFallbacks(hostname, error)) {
      const host = loopback.includes(":") ? `[${loopback}]:${port}` : `${loopback}:${port}`;
      if (Deno.permissions.querySync({ name: "net", host }).state !== "granted") continue;
      try {
        return await Deno.connect({ hostname: loopback, port });
      } catch { /* the next address */ }
    }
    throw error;
  }
}

/** A failure of an established connection (the request may have been sent). */
function hangUp(error: unknown): Error {
  if (error instanceof Error && typeof (error as { code?: unknown }).code === "string") {
    return error;
  }
  return Object.assign(
    new Error(error === undefined ? "socket hang up" : `socket hang up: ${String(error)}`, {
      cause: error,
    }),
    { code: "ECONNRESET" },
  );
}

/** One connection and the exchange it carries. */
export class DenoConn implements BodySource, PooledConn<Uint8Array> {
  #conn: Deno.Conn | undefined;
  /** Connected (and the TLS handshake done): from here a failure may follow a sent request. */
  ready = false;
  dead = false;
  reusable = true;
  idleAt = 0;
  idleLimit: number;
  job: DenoJob | undefined;
  /** The first failure of the connection (a read or write error). */
  #error: unknown;
  #closed = false;
  #connClosed = false;
  #phase: "head" | "body" | "done" = "done";
  #head: Uint8Array | undefined;
  #framing: Framing = { kind: "none" };
  #left = 0;
  #chunked: ChunkedDecoder | undefined;
  #sink: BodySink | undefined;
  #decoder: Decoder | undefined;
  /** Set while the reader is behind: the read loop waits for it. */
  #paused: Promise<void> | undefined;
  #resume: (() => void) | undefined;
  /** Whether the connection keeps the process alive (while it carries an exchange). */
  #ref = true;
  /** Whether the request of the exchange is still being written. */
  #writing = false;

  constructor(
    readonly pool: ConnOwner<DenoConn>,
    readonly origin: Origin,
    options: ConnOptions,
  ) {
    this.idleLimit = options.keepAliveMs;
    // Nothing in opening or reading is expected to throw past its own handling; if something
    // does, the exchange fails and the connection closes instead of hanging.
    this.#open(options).catch((error) => {
      this.#error ??= error;
      this.kill(this.ready ? hangUp(error) : connectFailure(error, origin, "tcp"));
      this.#onClose();
    });
  }

  async #open(options: ConnOptions): Promise<void> {
    const { host, port } = this.origin;
    let conn: Deno.Conn | undefined;
    let phase: "tcp" | "tls" = "tcp";
    try {
      if (this.origin.secure) {
        const tls = await Deno.connectTls({
          hostname: host,
          port,
          caCerts: options.tls?.caCerts,
          cert: options.tls?.cert,
          key: options.tls?.key,
          alpnProtocols: ["http/1.1"],
        });
        conn = tls;
        // The handshake is lazy: done here, so its failure is a connect failure.
        phase = "tls";
        await tls.handshake();
      } else conn = await connectTcp(host, port);
    } catch (error) {
      try {
        conn?.close(); // a connection whose handshake failed
      } catch { /* closed */ }
      this.#error = connectFailure(error, this.origin, phase);
      return this.#onClose();
    }
    this.#conn = conn;
    // Killed while connecting (its request aborted): closed at once.
    if (this.dead) return this.#onClose();
    this.ready = true;
    if (!this.#ref) conn.unref();
    if (!this.origin.secure) (conn as Deno.TcpConn).setNoDelay(true);
    const job = this.job;
    if (job !== undefined) this.#write(job.payload);
    await this.#loop(conn);
  }

  /** Reads until the connection ends; every chunk goes to `#onData`. */
  async #loop(conn: Deno.Conn): Promise<void> {
    const buf = new Uint8Array(READ_SIZE);
    try {
      for (;;) {
        if (this.#paused !== undefined) await this.#paused;
        if (this.dead) break;
        const n = await conn.read(buf);
        if (n === null) break;
        this.#onData(buf.subarray(0, n));
      }
    } catch (error) {
      if (!this.dead) this.#error ??= error;
    }
    this.#onClose();
  }

  /** Sends `job` on this connection (written once it stands, if it does not yet). */
  run(job: DenoJob): void {
    this.job = job;
    job.conn = this;
    this.#phase = "head";
    this.reusable = true;
    this.#sink = undefined;
    this.#decoder = undefined;
    this.#chunked = undefined;
    this.idleAt = 0;
    this.ref(true);
    if (this.ready) this.#write(job.payload);
  }

  /** Whether it can carry another request. */
  get usable(): boolean {
    return !this.dead;
  }

  /** Idle in the pool: it does not keep the process alive. */
  rest(): void {
    this.ref(false);
  }

  /** Whether the connection keeps the process alive (not while it idles in the pool). */
  ref(on: boolean): void {
    if (this.#ref === on) return;
    this.#ref = on;
    const conn = this.#conn;
    if (conn === undefined) return;
    if (on) conn.ref();
    else conn.unref();
  }

  async #write(bytes: Uint8Array): Promise<void> {
    const conn = this.#conn!;
    this.#writing = true;
    try {
      let at = 0;
      while (at < bytes.byteLength) at += await conn.write(bytes.subarray(at));
    } catch (error) {
      this.kill(hangUp(error));
    } finally {
      this.#writing = false;
    }
  }

  #onData(chunk: Uint8Array): void {
    const job = this.job;
    if (job === undefined || this.#phase === "done") return this.kill(undefined);
    if (this.#phase === "head") {
      let buf = chunk;
      const had = this.#head;
      if (had !== undefined) {
        buf = new Uint8Array(had.byteLength + chunk.byteLength);
        buf.set(had);
        buf.set(chunk, had.byteLength);
      }
      let from = had === undefined ? 0 : Math.max(0, had.byteLength - 3);
      for (;;) {
        const end = headEnd(buf, from);
        if (end < 0) {
          if (buf.byteLength > MAX_HEAD) return this.kill(new Http1ProtocolError("head too large"));
          // Kept past this read: the read buffer is reused.
          this.#head = buf === chunk ? chunk.slice() : buf;
          return;
        }
        let head;
        try {
          head = parseResponseHead(latin1(buf, end));
        } catch (error) {
          return this.kill(error);
        }
        buf = buf.subarray(end + 4);
        from = 0;
        if (head.status === 101) {
          return this.kill(new Http1ProtocolError("101 Switching Protocols is not supported"));
        }
        if (head.status >= 200) {
          this.#head = undefined;
          // Bytes after a body-less answer: the server is confused, the connection not reused.
          if (!this.#begin(job, head, buf.byteLength)) return;
          break;
        }
        // 100 Continue, 103 Early Hints: interim answers, the final one follows.
      }
      chunk = buf;
    }
    if (chunk.byteLength > 0) this.#onBody(chunk);
  }

  /**
   * The head arrived: resolves the request with its response. False when it has no body
   * (`after`: how many bytes followed the head in the same read).
   */
  #begin(job: DenoJob, head: ResponseHead, after: number): boolean {
    let framing;
    try {
      framing = framingOf(head, job.method);
    } catch (error) {
      this.kill(error);
      return false;
    }
    this.#framing = framing.framing;
    this.reusable = framing.keepAlive;
    const headers = new FieldHeaders(head);
    const hint = headers.get("keep-alive");
    if (hint !== null) this.idleLimit = idleLimitOf(hint, this.idleLimit);
    if (refusedHead(head.status, job.payload)) this.reusable = false;
    const kind = this.#framing.kind;
    if (strayAfterHead(this.#framing, after)) this.reusable = false;
    if (kind === "none") {
      this.#phase = "done";
      job.settled = true;
      job.resolve(new NodeResponse(head, headers, job.url, undefined));
      this.#finish();
      return false;
    }
    const sink = new BodySink(this);
    this.#sink = sink;
    // A coding it does not know is passed through as it came, as fetch does.
    const encoding = headers.get("content-encoding");
    if (encoding !== null) this.#decoder = decoderFor(encoding, sink);
    this.#phase = "body";
    if (this.#framing.kind === "length") this.#left = this.#framing.length;
    if (kind === "chunked") this.#chunked = new ChunkedDecoder();
    job.settled = true;
    job.resolve(new NodeResponse(head, headers, job.url, sink));
    if (kind === "length" && this.#left === 0) {
      this.#endBody();
      return false;
    }
    return true;
  }

  #onBody(chunk: Uint8Array): void {
    const framing = this.#framing;
    if (framing.kind === "length") {
      const n = Math.min(this.#left, chunk.byteLength);
      this.#deliver(chunk.subarray(0, n));
      this.#left -= n;
      // Bytes past the declared length: the server is confused, the connection not reused.
      if (n < chunk.byteLength) this.reusable = false;
      if (this.#left === 0) this.#endBody();
    } else if (framing.kind === "chunked") {
      let end;
      try {
        end = this.#chunked!.push(chunk, (data) => this.#deliver(data));
      } catch (error) {
        return this.kill(error);
      }
      if (end >= 0) {
        if (end < chunk.byteLength) this.reusable = false;
        this.#endBody();
      }
    } else this.#deliver(chunk);
  }

  /** Hands bytes of the body on: copied, as the read buffer is reused. */
  #deliver(bytes: Uint8Array): void {
    if (bytes.byteLength === 0) return;
    const copy = bytes.slice();
    if (this.#decoder !== undefined) this.#decoder.write(copy);
    else this.#sink?.push(copy);
  }

  #endBody(): void {
    this.#phase = "done";
    if (this.#decoder !== undefined) this.#decoder.end();
    else this.#sink?.end();
    this.#finish();
  }

  /**
   * The exchange is over: the connection goes back to the pool, or is closed. An answer that
   * ended before its request was written in full (OpenSearch answers `413` with `content-length:
   * 0` as soon as it has read the head of a body over `http.max_content_length`, and keeps the
   * connection) closes it: the next request must not be written while the rest of this one's
   * body still is, where the server would read it as part of that body.
   */
  #finish(): void {
    const job = this.job;
    this.job = undefined;
    job?.done();
    this.#unpause();
    if (this.reusable && !this.dead && !this.#writing) this.pool.release(this);
    else this.kill(undefined);
  }

  /** Closes the connection; `error` fails the exchange in progress (its promise or its body). */
  kill(error: unknown): void {
    this.dead = true;
    const job = this.job;
    this.job = undefined;
    this.#unpause();
    this.#closeConn();
    if (job === undefined) return;
    job.done();
    const reason = error ?? new Http1ProtocolError("unexpected bytes");
    if (!job.settled) {
      job.settled = true;
      job.reject(reason);
    } else if (this.#decoder !== undefined) this.#decoder.fail(reason);
    else this.#sink?.fail(reason);
  }

  /** Closes the connection's resource, once (a connection still being opened has none). */
  #closeConn(): void {
    const conn = this.#conn;
    if (conn === undefined || this.#connClosed) return;
    this.#connClosed = true;
    try {
      conn.close();
    } catch { /* already closed */ }
  }

  /** The connection ended (the read loop stopped, or it never stood). */
  #onClose(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#closeConn();
    const killed = this.dead;
    this.dead = true;
    this.pool.closed(this);
    if (this.job === undefined) return;
    // A body delimited by the end of the connection is complete when the server closes it.
    if (
      !killed && this.#phase === "body" && this.#framing.kind === "close" &&
      this.#error === undefined
    ) {
      return this.#endBody();
    }
    this.kill(this.ready ? hangUp(this.#error) : this.#error);
  }

  #unpause(): void {
    const resume = this.#resume;
    this.#paused = this.#resume = undefined;
    resume?.();
  }

  pause(): void {
    this.#paused ??= new Promise((resolve) => this.#resume = resolve);
    this.#decoder?.pause();
  }
  resume(): void {
    this.#unpause();
    this.#decoder?.resume();
  }
  cancel(): void {
    this.kill(undefined);
  }
}

/** The first `end` bytes as latin1 text (a byte per character, as HTTP heads are read). */
function latin1(buf: Uint8Array, end: number): string {
  let out = "";
  for (let at = 0; at < end; at += 4096) {
    out += String.fromCharCode.apply(
      null,
      buf.subarray(at, Math.min(end, at + 4096)) as unknown as number[],
    );
  }
  return out;
}
