// One keep-alive socket of contrib/fetch_node (node:net / node:tls) and the HTTP/1.1 exchange
// it carries at a time: the request is written in one piece, the response parsed by ./_http1.ts
// and its body handed to a BodySink (decoded on the way when it is compressed). Its owner (the
// origin's pool, ./_http1_pool.ts) gets it back when the exchange ends.

import { Buffer } from "node:buffer";
import { connect as netConnect, isIP, type Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";
import {
  ChunkedDecoder,
  type Framing,
  framingOf,
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

/**
 * The socket a {@linkcode Conn} writes to: a `node:net` / `node:tls` socket, or another runtime's
 * socket wrapped to the same members (see ./_http1_socket_bun.ts).
 */
export interface Wire {
  readonly destroyed: boolean;
  /** Bytes given to `write` and not yet handed to the operating system. */
  readonly writableLength: number;
  write(data: string | Uint8Array): unknown;
  cork(): void;
  uncork(): void;
  pause(): unknown;
  resume(): unknown;
  ref(): unknown;
  unref(): unknown;
  destroy(): unknown;
}

/**
 * Opens a plain-TCP socket for `conn` to `origin` (at `address` in place of the origin's host
 * name when given: a loopback address for a refused `localhost`) and reports its events to
 * `conn`: `ready` and `tcp` set once connected, then `onData`, `onError`, `onEnd` and (once)
 * `onClose`.
 */
export type OpenWire = (conn: Conn, origin: Origin, address?: string) => Wire;

/** Options of one socket. */
export interface ConnOptions {
  /** Opens plain-TCP sockets in place of `node:net` (TLS always goes through `node:tls`). */
  readonly open?: OpenWire;
  readonly keepAliveMs: number;
  readonly tls?: {
    ca?: string | string[];
    cert?: string;
    key?: string;
    rejectUnauthorized?: boolean;
  };
}

/** The request head and body, ready for the socket: a string when all ASCII/UTF-8. */
export type NodePayload = string | Uint8Array[];

/** A request on a {@linkcode Conn}. */
type NodeJob = Job<NodePayload, Conn>;

const MAX_HEAD = 64 * 1024;
const TCP_CONNECT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH"]);

/**
 * A failure before the connection was established: nothing of the request left this process.
 * The message is worded so the driver's retry policy sees a connect-phase failure; `code` keeps
 * the operating system's (or TLS library's) code and `cause` the original error. `phase` says
 * whether the TCP connection or the TLS handshake on it failed.
 */
function connectFailure(error: unknown, origin: Origin, phase: "tcp" | "tls"): Error {
  const tcp = phase === "tcp";
  const e = error as { code?: unknown; message?: unknown };
  const code = typeof e?.code === "string" ? e.code : tcp ? "ECONNRESET" : "TLS";
  const what = tcp || TCP_CONNECT_CODES.has(code)
    ? `could not connect to ${origin.host}:${origin.port}`
    : `the TLS handshake with ${origin.host}:${origin.port} failed`;
  return Object.assign(
    new Error(`tcp connect error: ${what} (${code}): ${String(e?.message ?? error)}`, {
      cause: error,
    }),
    { code },
  );
}

/** One socket and the exchange it carries. */
export class Conn implements BodySource, PooledConn<NodePayload> {
  /** The socket (another one only while connecting, for a refused `localhost`). */
  socket: Wire;
  /** Connected (and the TLS handshake done): from here a failure may follow a sent request. */
  ready = false;
  tcp = false;
  dead = false;
  reusable = true;
  idleAt = 0;
  idleLimit: number;
  job: NodeJob | undefined;
  error: unknown;
  phase: "head" | "body" | "done" = "done";
  headBuf: Buffer | undefined;
  framing: Framing = { kind: "none" };
  left = 0;
  chunked: ChunkedDecoder | undefined;
  sink: BodySink | undefined;
  decoder: Decoder | undefined;
  /** The last `Keep-Alive` header read. */
  hint: string | undefined;
  readonly #options: ConnOptions;
  /** The loopback addresses still to try after a refused `localhost` (set at the first refusal). */
  #fallbacks: string[] | undefined;

  constructor(readonly pool: ConnOwner<Conn>, readonly origin: Origin, options: ConnOptions) {
    this.idleLimit = options.keepAliveMs;
    this.#options = options;
    this.socket = this.#open(undefined);
  }

  /** A socket to the origin, at `address` in place of its host name when given. */
  #open(address: string | undefined): Wire {
    const { origin } = this;
    const options = this.#options;
    return !origin.secure && options.open !== undefined
      ? options.open(this, origin, address)
      : this.#openNode(origin, options, address);
  }

  #openNode(origin: Origin, options: ConnOptions, address: string | undefined): Socket {
    const { host: name, port } = origin;
    const host = address ?? name;
    const socket = origin.secure
      ? tlsConnect({
        host,
        port,
        // The certificate is checked against the name asked for, at whichever address.
        servername: isIP(name) === 0 ? name : undefined,
        ALPNProtocols: ["http/1.1"],
        ...options.tls,
      }, () => this.ready = true)
      : netConnect({ host, port, noDelay: true }, () => this.ready = this.tcp = true);
    if (origin.secure) socket.once("connect", () => this.tcp = true);
    socket.setKeepAlive(true, 30_000);
    socket.on("data", (chunk: Buffer) => this.onData(chunk));
    socket.on("error", (error) => this.onError(error));
    socket.on("end", () => this.onEnd());
    socket.on("close", () => this.onClose());
    return socket;
  }

  /** Whether it can carry another request. */
  get usable(): boolean {
    return !this.dead && !this.socket.destroyed;
  }

  /** Idle in the pool: it does not keep the process alive. */
  rest(): void {
    this.socket.unref();
  }

  /** The socket failed (its close follows). */
  onError(error: unknown): void {
    this.error ??= error;
  }

  /** The server ended its side: the socket is not reused. */
  onEnd(): void {
    this.dead = true;
  }

  /** Sends `job` on this connection. */
  run(job: NodeJob): void {
    this.job = job;
    job.conn = this;
    this.phase = "head";
    this.reusable = true;
    this.sink = undefined;
    this.decoder = undefined;
    this.chunked = undefined;
    const socket = this.socket;
    if (this.idleAt !== 0) {
      socket.ref();
      this.idleAt = 0;
    }
    this.#write(job.payload);
  }

  #write(payload: NodePayload): void {
    const socket = this.socket;
    if (typeof payload === "string") socket.write(payload);
    else {
      socket.cork();
      for (const part of payload) socket.write(part);
      socket.uncork();
    }
  }

  onData(chunk: Buffer): void {
    const job = this.job;
    if (job === undefined || this.phase === "done") return this.kill(undefined);
    if (this.phase === "head") {
      let buf = this.headBuf === undefined ? chunk : Buffer.concat([this.headBuf, chunk]);
      for (;;) {
        const end = buf.indexOf("\r\n\r\n");
        if (end < 0) {
          if (buf.length > MAX_HEAD) return this.kill(new Http1ProtocolError("head too large"));
          this.headBuf = buf;
          return;
        }
        let head;
        try {
          head = parseResponseHead(buf.toString("latin1", 0, end));
        } catch (error) {
          return this.kill(error);
        }
        buf = buf.subarray(end + 4);
        if (head.status === 101) {
          return this.kill(new Http1ProtocolError("101 Switching Protocols is not supported"));
        }
        if (head.status >= 200) {
          this.headBuf = undefined;
          // Bytes after a body-less answer: the server is confused, the socket not reused.
          if (!this.begin(job, head, buf.length)) return;
          break;
        }
        // 100 Continue, 103 Early Hints: interim answers, the final one follows.
      }
      chunk = buf;
    }
    if (chunk.length > 0) this.onBody(chunk);
  }

  /**
   * The head arrived: resolves the request with its response. False when it has no body or
   * failed (`after`: how many bytes followed the head in the same read).
   */
  begin(job: NodeJob, head: ResponseHead, after: number): boolean {
    let framing;
    try {
      framing = framingOf(head, job.method);
    } catch (error) {
      this.kill(error);
      return false;
    }
    this.framing = framing.framing;
    this.reusable = framing.keepAlive;
    const headers = new FieldHeaders(head);
    const hint = headers.get("keep-alive");
    // The same hint on every answer of a socket is read once.
    if (hint !== null && hint !== this.hint) {
      this.hint = hint;
      this.idleLimit = idleLimitOf(hint, this.idleLimit);
    }
    if (refusedHead(head.status, job.payload)) this.reusable = false;
    const kind = this.framing.kind;
    if (strayAfterHead(this.framing, after)) this.reusable = false;
    if (kind === "none") {
      this.phase = "done";
      job.settled = true;
      job.resolve(new NodeResponse(head, headers, job.url, undefined));
      this.finish();
      return false;
    }
    const sink = new BodySink(this);
    this.sink = sink;
    // A coding it does not know is passed through as it came, as fetch does.
    const encoding = headers.get("content-encoding");
    if (encoding !== null) this.decoder = decoderFor(encoding, sink);
    this.phase = "body";
    if (this.framing.kind === "length") this.left = this.framing.length;
    if (kind === "chunked") this.chunked = new ChunkedDecoder();
    job.settled = true;
    job.resolve(new NodeResponse(head, headers, job.url, sink));
    if (kind === "length" && this.left === 0) {
      this.endBody();
      return false;
    }
    return true;
  }

  onBody(chunk: Buffer): void {
    const framing = this.framing;
    if (framing.kind === "length") {
      const n = Math.min(this.left, chunk.length);
      this.deliver(n === chunk.length ? chunk : chunk.subarray(0, n));
      this.left -= n;
      // Bytes past the declared length: the server is confused, the socket is not reused.
      if (n < chunk.length) this.reusable = false;
      if (this.left === 0) this.endBody();
    } else if (framing.kind === "chunked") {
      let end;
      try {
        end = this.chunked!.push(chunk, (data) => this.deliver(data));
      } catch (error) {
        return this.kill(error);
      }
      if (end >= 0) {
        if (end < chunk.length) this.reusable = false;
        this.endBody();
      }
    } else this.deliver(chunk);
  }

  /** Hands body bytes on (a Buffer: the response makes plain arrays of what it gives out). */
  deliver(bytes: Uint8Array): void {
    if (this.decoder !== undefined) this.decoder.write(bytes);
    else this.sink?.push(bytes);
  }

  endBody(): void {
    this.phase = "done";
    if (this.decoder !== undefined) this.decoder.end();
    else this.sink?.end();
    this.finish();
  }

  /**
   * The exchange is over: the socket goes back to the pool, or is closed. An answer that ended
   * before its request was written in full (OpenSearch answers `413` with `content-length: 0` as
   * soon as it has read the head of a body over `http.max_content_length`, and keeps the
   * connection) closes it: the next request would wait behind the rest of a body the server
   * only discards.
   */
  finish(): void {
    const job = this.job;
    this.job = undefined;
    job?.done();
    const socket = this.socket;
    if (this.reusable && !this.dead && !socket.destroyed && socket.writableLength === 0) {
      this.pool.release(this);
    } else this.kill(undefined);
  }

  /** Closes the socket; `error` fails the exchange in progress (its promise or its body). */
  kill(error: unknown): void {
    this.dead = true;
    const job = this.job;
    this.job = undefined;
    this.socket.destroy();
    if (job === undefined) return;
    job.done();
    const reason = error ?? new Http1ProtocolError("unexpected bytes");
    if (!job.settled) {
      job.settled = true;
      job.reject(reason);
    } else if (this.decoder !== undefined) this.decoder.fail(reason);
    else this.sink?.fail(reason);
  }

  onClose(): void {
    if (!this.tcp && !this.dead && this.#fallBack()) return;
    this.dead = true;
    this.pool.closed(this);
    if (this.job === undefined) return;
    if (this.phase === "body" && this.framing.kind === "close" && this.error === undefined) {
      return this.endBody();
    }
    const error = !this.ready
      ? connectFailure(this.error, this.origin, !this.tcp || !this.origin.secure ? "tcp" : "tls")
      : this.error ?? Object.assign(new Error("socket hang up"), { code: "ECONNRESET" });
    this.kill(error);
  }

  /**
   * The connection was refused before it stood: for `localhost`, the next loopback address the
   * shared rule gives (never another address) gets a new socket, and the request, none of which
   * left the process, is written on it. False when there is none left: the first failure stands.
   */
  #fallBack(): boolean {
    const address = (this.#fallbacks ??= loopbackFallbacks(this.origin.host, this.error)).shift();
    if (address === undefined) return false;
    this.socket = this.#open(address);
    const job = this.job;
    if (job !== undefined) this.#write(job.payload);
    return true;
  }

  pause(): void {
    this.socket.pause();
    this.decoder?.pause();
  }
  resume(): void {
    this.socket.resume();
    this.decoder?.resume();
  }
  cancel(): void {
    this.kill(undefined);
  }
}
