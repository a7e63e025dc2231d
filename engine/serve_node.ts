// HTTP adapter for Node: node:http, converting to and from web Request / Response.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

function toRequest(req: IncomingMessage, hostname: string, port: number): Promise<Request> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    req.on("data", (chunk: Uint8Array) => chunks.push(chunk));
    req.on("error", reject);
    req.on("end", () => {
      const headers = new Headers();
      for (const [key, value] of Object.entries(req.headers)) {
        if (value === undefined) continue;
        headers.set(key, Array.isArray(value) ? value.join(", ") : value);
      }
      const method = req.method ?? "GET";
      const hasBody = method !== "GET" && method !== "HEAD" && chunks.length > 0;
      const body = hasBody ? new Blob(chunks as BlobPart[]) : undefined;
      resolve(
        new Request(`http://${hostname}:${port}${req.url ?? "/"}`, { method, headers, body }),
      );
    });
  });
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => (headers[key] = value));
  res.writeHead(response.status, headers);
  res.end(response.body ? new Uint8Array(await response.arrayBuffer()) : undefined);
}

/** Listens with `node:http`. */
export function listen(
  handler: (request: Request) => Promise<Response>,
  options: { port: number; hostname: string },
): Promise<{ port: number; close(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    let port = options.port;
    const server = createServer((req, res) => {
      toRequest(req, options.hostname, port)
        .then(handler)
        .then((response) => send(res, response))
        .catch(() => {
          res.writeHead(500, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: "internal error", status: 500 }));
        });
    });
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
