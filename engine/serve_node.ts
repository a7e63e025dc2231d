// HTTP adapter over node:http, which Deno, Bun and Node all provide. It is the one server that
// hands over bodies sent with GET (Elasticsearch reads them on `_search`, `_count`, scroll, ...);
// `Deno.serve` and `Bun.serve` drop them.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
/** Answers a request whose real method travels beside it (GET and HEAD bodies come as POST). */
type Handler = (request: Request, method: string) => Promise<Response>;

/**
 * Collects a request body up to `limit + 1` bytes: anything longer is cut there (the rest is
 * drained, never kept), so the engine refuses it with 413 without the server holding it.
 */
function toRequest(
  req: IncomingMessage,
  hostname: string,
  port: number,
  limit: number,
): Promise<{ request: Request; method: string }> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    req.on("data", (chunk: Uint8Array) => {
      if (size > limit) return;
      const room = limit + 1 - size;
      const kept = chunk.byteLength > room ? chunk.subarray(0, room) : chunk;
      chunks.push(kept);
      size += kept.byteLength;
    });
    req.on("error", reject);
    req.on("end", () => {
      const headers = new Headers();
      for (const [key, value] of Object.entries(req.headers)) {
        if (value === undefined) continue;
        try {
          headers.set(key, Array.isArray(value) ? value.join(", ") : value);
        } catch {
          // a header value that web Headers refuse is dropped, like an unknown header
        }
      }
      if (size > limit) headers.delete("content-length");
      const method = (req.method ?? "GET").toUpperCase();
      const hasBody = size > 0;
      // A web Request cannot carry a body on GET or HEAD: it travels as POST, method beside it.
      const carrier = hasBody && (method === "GET" || method === "HEAD") ? "POST" : method;
      const body = hasBody ? new Blob(chunks as BlobPart[]) : undefined;
      const host = hostname.includes(":") ? `[${hostname}]` : hostname;
      try {
        const request = new Request(`http://${host}:${port}${req.url ?? "/"}`, {
          method: carrier,
          headers,
          body,
        });
        resolve({ request, method });
      } catch (e) {
        reject(e);
      }
    });
  });
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    if (key === "www-authenticate") {
      headers[key] = response.headers.get(key)!.split(/,\s*(?=ApiKey|Basic|Bearer)/);
    } else headers[key] = value;
  });
  const body = response.body ? new Uint8Array(await response.arrayBuffer()) : undefined;
  // A declared length, as Elasticsearch sends it (node:http would otherwise chunk the answer,
  // since the head is written first): a client can then read the body in one go.
  if (body !== undefined && headers["content-length"] === undefined) {
    headers["content-length"] = String(body.byteLength);
  }
  res.writeHead(response.status, headers);
  res.end(body);
}

const BAD_REQUEST = JSON.stringify({
  error: {
    root_cause: [{ type: "illegal_argument_exception", reason: "malformed HTTP request" }],
    type: "illegal_argument_exception",
    reason: "malformed HTTP request",
  },
  status: 400,
});

/** Listens with `node:http`. */
export function listen(
  handler: Handler,
  options: { port: number; hostname: string; maxBodyBytes: number },
): Promise<{ port: number; close(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    let port = options.port;
    const server = createServer((req, res) => {
      toRequest(req, options.hostname, port, options.maxBodyBytes)
        .then(({ request, method }) => handler(request, method))
        .then((response) => send(res, response))
        .catch(() => {
          if (res.headersSent) return void res.destroy();
          res.writeHead(400, { "content-type": "application/json; charset=UTF-8" });
          res.end(BAD_REQUEST);
        });
    });
    // Elasticsearch keeps idle HTTP connections open; node's default closes them after 5 s, and
    // a client that reuses one just as it closes (a busy machine widens that moment) sees a reset
    // of a request the server never read. An hour outlasts the runtimes' own pool idle times.
    server.keepAliveTimeout = 3_600_000;
    server.on("error", reject);
    server.listen(options.port, options.hostname, () => {
      port = (server.address() as AddressInfo).port;
      resolve({
        port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections?.();
          }),
      });
    });
  });
}
