// Plain-TCP sockets of contrib/fetch_node on Bun: `Bun.connect` instead of Bun's `node:net`,
// whose stream layer costs more per request than the whole exchange on a native socket. The
// wire below gives a Conn (./_http1_conn_node.ts) the members of a `node:net` socket it uses and
// reports the socket's events to it; the HTTP/1.1 exchange, the pool and every guarantee stay
// the shared code's. TLS stays on `node:tls`.

import { Buffer } from "node:buffer";
import type { Conn, OpenWire, Wire } from "./_http1_conn_node.ts";

/** The part of a `Bun.connect` socket used here. */
interface BunSocket {
  write(data: string | Uint8Array): number;
  end(): void;
  terminate(): void;
  pause(): void;
  resume(): void;
  ref(): void;
  unref(): void;
  /** Bun's own signatures (enable, and the delay in ms), not this project's. */
  setKeepAlive?: (...args: [boolean, number]) => boolean;
  setNoDelay?: (...args: [boolean]) => boolean;
  data: BunWire;
}

interface BunConnect {
  connect(options: {
    hostname: string;
    port: number;
    data: BunWire;
    socket: typeof HANDLERS;
  }): Promise<BunSocket>;
}

/** `Bun.connect` when this runs on Bun, else undefined. */
export function bunSockets(): OpenWire | undefined {
  const bun = (globalThis as { Bun?: Partial<BunConnect> }).Bun;
  if (typeof bun?.connect !== "function") return undefined;
  const connect = bun.connect.bind(bun) as BunConnect["connect"];
  return (conn, origin, address) => new BunWire(conn, address ?? origin.host, origin.port, connect);
}

/** One `Bun.connect` socket, shaped as the `node:net` members a Conn uses. */
class BunWire implements Wire {
  destroyed = false;
  readonly conn: Conn;
  socket: BunSocket | undefined;
  /** What could not be written yet: before the socket opened, or past a short write. */
  #queue: Uint8Array[] | undefined;
  #queueText: string | undefined;
  #corked: Uint8Array[] | undefined;
  #paused = false;
  #unref = false;
  #closed = false;

  constructor(conn: Conn, hostname: string, port: number, connect: BunConnect["connect"]) {
    this.conn = conn;
    // A failure is reported by `connectError`; the promise's rejection says it again.
    connect({ hostname, port, data: this, socket: HANDLERS })
      .catch(() => {});
  }

  opened(socket: BunSocket): void {
    this.socket = socket;
    if (this.destroyed) return socket.terminate();
    socket.setNoDelay?.(true);
    socket.setKeepAlive?.(true, 30_000);
    this.conn.ready = this.conn.tcp = true;
    if (this.#paused) socket.pause();
    if (this.#unref) socket.unref();
    this.flush();
  }

  write(data: string | Uint8Array): boolean {
    if (this.destroyed) return false;
    if (this.#corked !== undefined) {
      this.#corked.push(typeof data === "string" ? Buffer.from(data) : data);
      return true;
    }
    const socket = this.socket;
    if (socket === undefined || this.#queue !== undefined || this.#queueText !== undefined) {
      this.#enqueue(data);
      return false;
    }
    const n = socket.write(data);
    if (typeof data === "string") {
      // The common case: the request in one write (the count is of UTF-8 bytes).
      if (n >= Buffer.byteLength(data)) return true;
      this.#queue = [Buffer.from(data).subarray(Math.max(n, 0))];
      return false;
    }
    if (n >= data.byteLength) return true;
    this.#queue = [data.subarray(Math.max(n, 0))];
    return false;
  }

  #enqueue(data: string | Uint8Array): void {
    if (typeof data === "string" && this.#queue === undefined) {
      this.#queueText = (this.#queueText ?? "") + data;
      return;
    }
    const queue = this.#queue ??= [];
    if (this.#queueText !== undefined) {
      queue.push(Buffer.from(this.#queueText));
      this.#queueText = undefined;
    }
    queue.push(typeof data === "string" ? Buffer.from(data) : data);
  }

  /** Writes what is queued (the socket opened or drained). */
  flush(): void {
    const socket = this.socket;
    if (socket === undefined || this.destroyed) return;
    const text = this.#queueText;
    if (text !== undefined) {
      this.#queueText = undefined;
      if (this.#queue === undefined) {
        this.write(text);
        return;
      }
      this.#queue.unshift(Buffer.from(text));
    }
    const queue = this.#queue;
    if (queue === undefined) return;
    while (queue.length > 0) {
      const part = queue[0]!;
      const n = socket.write(part);
      if (n < part.byteLength) {
        queue[0] = part.subarray(Math.max(n, 0));
        return;
      }
      queue.shift();
    }
    this.#queue = undefined;
  }

  /** What is queued, corked or not yet written past a short write. */
  get writableLength(): number {
    let n = this.#queueText === undefined ? 0 : Buffer.byteLength(this.#queueText);
    for (const part of this.#queue ?? []) n += part.byteLength;
    for (const part of this.#corked ?? []) n += part.byteLength;
    return n;
  }

  cork(): void {
    this.#corked ??= [];
  }

  uncork(): void {
    const parts = this.#corked;
    this.#corked = undefined;
    if (parts === undefined || parts.length === 0) return;
    this.write(parts.length === 1 ? parts[0]! : Buffer.concat(parts));
  }

  pause(): void {
    this.#paused = true;
    this.socket?.pause();
  }

  resume(): void {
    this.#paused = false;
    this.socket?.resume();
  }

  ref(): void {
    this.#unref = false;
    this.socket?.ref();
  }

  unref(): void {
    this.#unref = true;
    this.socket?.unref();
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.#queue = this.#queueText = this.#corked = undefined;
    // Before the socket opened, `opened` ends it.
    this.socket?.terminate();
  }

  /**
   * The socket closed (or never opened): the Conn hears it once, after the current call
   * returns, as `node:net` reports a close (Bun runs its handler inside `terminate()`).
   */
  closed(error: unknown): void {
    this.destroyed = true;
    if (this.#closed) return;
    this.#closed = true;
    if (error !== undefined && error !== null) this.conn.onError(error);
    queueMicrotask(() => this.conn.onClose());
  }
}

/** One set of handlers for every socket: each finds its wire in `socket.data`. */
const HANDLERS = {
  open(socket: BunSocket): void {
    socket.data.opened(socket);
  },
  data(socket: BunSocket, chunk: Buffer): void {
    socket.data.conn.onData(chunk);
  },
  drain(socket: BunSocket): void {
    socket.data.flush();
  },
  end(socket: BunSocket): void {
    // The server ended its side: the socket is not reused, and ours is ended too (a body read
    // until the close ends with it).
    socket.data.conn.onEnd();
    socket.end();
  },
  error(socket: BunSocket, error: unknown): void {
    socket.data.conn.onError(error);
  },
  close(socket: BunSocket, error?: unknown): void {
    socket.data.closed(error);
  },
  connectError(socket: BunSocket, error: unknown): void {
    socket.data.closed(error);
  },
};
