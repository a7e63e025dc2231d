// Loopback servers for the tests of contrib/fetch_node: one on node:http with a hand-written
// handler, one on node:net that answers with exactly the bytes a test writes (malformed heads,
// chunked bodies, lies about lengths, resets). Both count connections. Used only by tests.

import { Buffer } from "node:buffer";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { type AddressInfo, createServer as createTcpServer, type Socket } from "node:net";

/** A running test server. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Connections accepted so far. */
  connections(): number;
  /** Connections closed so far (by either side). */
  closed(): number;
  /** Closes every connection and the listener. */
  stop(): Promise<void>;
}

/** A node:http server with `handler`. */
export async function httpServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  options: { keepAliveTimeout?: number } = {},
): Promise<LoopbackServer> {
  let opened = 0;
  let closed = 0;
  const server = createServer(handler);
  if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
  server.on("connection", (socket) => {
    opened++;
    socket.on("close", () => closed++);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => opened,
    closed: () => closed,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A node:net server: `onRequest` is called with the socket and the request's head (text up to
 * the blank line) each time one arrives; it writes whatever bytes the test wants. `onData`, when
 * given, sees the raw bytes instead (for a client that does not speak HTTP, e.g. TLS).
 */
export async function tcpServer(
  onRequest: (socket: Socket, head: string, index: number) => void,
  options: { onData?: (socket: Socket, chunk: Uint8Array) => void } = {},
): Promise<LoopbackServer> {
  let opened = 0;
  let closed = 0;
  let requests = 0;
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    opened++;
    sockets.add(socket);
    socket.on("close", () => {
      closed++;
      sockets.delete(socket);
    });
    socket.on("error", () => {});
    let pending = "";
    socket.on("data", (chunk: Uint8Array) => {
      if (options.onData) return options.onData(socket, chunk);
      // One character per byte, so the declared body length counts right.
      pending += Buffer.from(chunk).toString("latin1");
      for (let end = pending.indexOf("\r\n\r\n"); end >= 0; end = pending.indexOf("\r\n\r\n")) {
        const head = pending.slice(0, end);
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        pending = pending.slice(end + 4 + length);
        onRequest(socket, head, requests++);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => opened,
    closed: () => closed,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Waits until `ok()` holds, for at most 2 s. */
export async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!ok()) throw new Error("condition not reached within 2 s");
}
