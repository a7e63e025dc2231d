// HTTP adapter over node:http, which Deno, Bun and Node all provide. It is the one server that
// hands over bodies sent with GET (Elasticsearch reads them on `_search`, `_count`, scroll, ...);
// `Deno.serve` and `Bun.serve` drop them.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { utf8Length } from "./_utf8.ts";
import { getHeapStatistics } from "node:v8";
import { searchBegins } from "./_index/search_pressure.ts";

/** The heap limit of this process (`--max-old-space-size` and the like), when the runtime tells. */
export function heapSize(): number | undefined {
  try {
    const limit = getHeapStatistics().heap_size_limit;
    return typeof limit === "number" && limit > 0 ? limit : undefined;
  } catch {
    return undefined;
  }
}
/**
 * Answers a request whose real method travels beside it (GET and HEAD bodies come as POST), with
 * the request target as sent (`req.url`, undecoded: the engine routes on it, dot segments as data).
 */
type Handler = (request: Request, method: string, target: string) => Promise<Response | Answer>;

/** The engine's answer as `serve()` hands it over (see `_rest/handle.ts`): no web `Response`. */
interface Answer {
  status: number;
  /** By lowercase name. */
  headers: Record<string, string>;
  /** The body's text, or null for none. */
  text: string | null;
}

/**
 * The request's headers as a record, which `new Request` takes far more cheaply than a `Headers`
 * (Deno converts a `Headers` init by iterating it, re-sorting its list at every step: ~14 KB per
 * request); {@link checkedHeaders} when one of them is refused.
 */
function headerRecord(req: IncomingMessage, without?: string): Record<string, string> {
  const out: Record<string, string> = {};
  const headers = req.headers;
  for (const key in headers) {
    const value = headers[key];
    if (value === undefined || key === without) continue;
    out[key] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

/** The headers one by one: a value that web Headers refuse is dropped, like an unknown header. */
function checkedHeaders(record: Record<string, string>): Headers {
  const headers = new Headers();
  for (const key in record) {
    try {
      headers.set(key, record[key]!);
    } catch {
      // dropped (see above)
    }
  }
  return headers;
}

/** A request with `init`'s headers, dropping any that web Headers refuse (see above). */
function requestWith(
  url: string,
  init: RequestInit & { headers: Record<string, string> },
): Request {
  try {
    return new Request(url, init);
  } catch {
    return new Request(url, { ...init, headers: checkedHeaders(init.headers) });
  }
}

/** A header name as web Headers keep it (a lowercase token). */
const PLAIN_NAME = /^[!#$%&'*+\-.^_`|~0-9a-z]+$/;
/** A value web Headers take as it is: no surrounding whitespace to trim, nothing they refuse. */
const PLAIN_VALUE = /^(?:[\x21-\x7e\x80-\xff](?:[\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?)?$/;

/** Headers read by name, as a web `Headers` reads the same record. */
class PlainHeaders {
  readonly #record: Record<string, string>;
  constructor(record: Record<string, string>) {
    this.#record = record;
  }
  get(name: string): string | null {
    const key = name.toLowerCase();
    return Object.hasOwn(this.#record, key) ? this.#record[key]! : null;
  }
  has(name: string): boolean {
    return this.get(name) !== null;
  }
}

/**
 * A bodiless request as the engine reads one (its URL, method and headers by name), without a
 * web `Request`, whose making (URL parsing, a `Headers`, its list) costs more than a search
 * allocates; null when a header is one a web `Headers` would refuse or rewrite (then a real
 * Request is made, as before).
 */
function plainRequest(url: string, method: string, record: Record<string, string>): Request | null {
  for (const key in record) {
    if (!PLAIN_NAME.test(key) || !PLAIN_VALUE.test(record[key]!)) return null;
  }
  // Only what the engine reads of a Request (see `_rest/handle.ts`, `serve_guard.ts`).
  return { url, method, headers: new PlainHeaders(record), body: null } as unknown as Request;
}

function urlOf(req: IncomingMessage, hostname: string, port: number): string {
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  return `http://${host}:${port}${req.url ?? "/"}`;
}

/**
 * A request whose body streams as it arrives (POST, PUT, ...: a `_bulk` is read line by line),
 * with backpressure; once the engine stops reading (a body past the limit), the rest is drained,
 * never kept.
 */
function streamingRequest(
  req: IncomingMessage,
  hostname: string,
  port: number,
): { request: Request; stop(): void } {
  let stopped = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      req.on("data", (chunk: Uint8Array) => {
        if (stopped) return;
        controller.enqueue(chunk);
        if ((controller.desiredSize ?? 1) <= 0) req.pause();
      });
      req.on("end", () => {
        if (!stopped) controller.close();
      });
      req.on("error", (e) => {
        if (!stopped) controller.error(e);
      });
    },
    pull() {
      req.resume();
    },
    cancel() {
      stopped = true;
      req.resume();
    },
  }, { highWaterMark: 16 });
  const request = requestWith(
    urlOf(req, hostname, port),
    {
      method: (req.method ?? "POST").toUpperCase(),
      headers: headerRecord(req),
      body,
      duplex: "half",
    } as RequestInit & { headers: Record<string, string> },
  );
  return { request, stop: () => void (stopped = true, req.resume()) };
}

/** Bodies up to this size, declared, are collected before the engine sees them (see below). */
const SMALL_BODY = 64 * 1024;

/** Where and how requests arrive. */
interface Arrivals {
  hostname: string;
  port: number;
  /** The largest body kept. */
  limit: number;
  /** Tells the engine the text of a collected body (then never read again from the request). */
  knowText?: (request: Request, text: string) => void;
}

/** The text of collected chunks, decoded as the engine decodes a body (UTF-8, BOM dropped). */
function textOf(chunks: Uint8Array[], size: number): string {
  if (chunks.length === 1) return new TextDecoder().decode(chunks[0]);
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(all);
}

/**
 * Collects a request body up to `limit + 1` bytes: anything longer is cut there (the rest is
 * drained, never kept), so the engine refuses it with 413 without the server holding it. GET and
 * HEAD bodies, and small declared ones (a search): a stream, its reader and its promises cost
 * more than the search itself allocates; the engine is told their text.
 */
function toRequest(
  req: IncomingMessage,
  at: Arrivals,
): Promise<{ request: Request; method: string; stop?: () => void }> {
  const { hostname, port, limit } = at;
  const method = (req.method ?? "GET").toUpperCase();
  const declared = Number(req.headers["content-length"] ?? NaN);
  const small = declared <= SMALL_BODY && declared <= limit;
  if (method !== "GET" && method !== "HEAD" && !small) {
    try {
      return Promise.resolve({ ...streamingRequest(req, hostname, port), method });
    } catch (e) {
      return Promise.reject(e);
    }
  }
  const bodiless = method === "GET" || method === "HEAD";
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
      const headers = headerRecord(req, size > limit ? "content-length" : undefined);
      const hasBody = size > 0;
      // A body whose text the engine is told is not put in the Request: a Blob body costs a
      // stream the engine never reads.
      const told = hasBody && size <= limit && at.knowText !== undefined &&
        !headers["content-encoding"];
      // A web Request cannot carry a body on GET or HEAD: it travels as POST, method beside it.
      const carrier = hasBody && bodiless ? "POST" : method;
      const body = hasBody && !told ? new Blob(chunks as BlobPart[]) : undefined;
      try {
        const url = urlOf(req, hostname, port);
        // A target that is a path always makes a valid URL (a Request would refuse others).
        const plain = body === undefined && (req.url ?? "/").startsWith("/");
        const request = (plain ? plainRequest(url, carrier, headers) : null) ??
          requestWith(url, { method: carrier, headers, body });
        if (told) at.knowText!(request, textOf(chunks, size));
        resolve({ request, method });
      } catch (e) {
        reject(e);
      }
    });
  });
}

/** Node's header for one of ours: `WWW-Authenticate` challenges one line each, as sent. */
function headerValue(key: string, value: string): string | string[] {
  return key === "www-authenticate" ? value.split(/,\s*(?=ApiKey|Basic|Bearer)/) : value;
}

async function send(
  res: ServerResponse,
  response: Response | Answer,
  textOf: ((response: Response) => string | undefined) | undefined,
): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  let text: string | undefined;
  let body: Uint8Array | undefined;
  if (response instanceof Response) {
    response.headers.forEach((value, key) => headers[key] = headerValue(key, value));
    // The engine's own answers come as the text they were built from: written as it is, never
    // read back from the body's stream.
    text = response.body ? textOf?.(response) : undefined;
    body = text !== undefined
      ? undefined
      : response.body
      ? new Uint8Array(await response.arrayBuffer())
      : undefined;
  } else {
    // In name order, as a web Headers lists them.
    for (const key of Object.keys(response.headers).sort()) {
      headers[key] = headerValue(key, response.headers[key]!);
    }
    text = response.text ?? undefined;
  }
  // A declared length, as Elasticsearch sends it (node:http would otherwise chunk the answer,
  // since the head is written first): a client can then read the body in one go.
  if (headers["content-length"] === undefined) {
    if (text !== undefined) headers["content-length"] = String(utf8Length(text));
    else if (body !== undefined) headers["content-length"] = String(body.byteLength);
  }
  res.writeHead(response.status, headers);
  if (text !== undefined) res.end(text, "utf8");
  else res.end(body);
}

const BAD_REQUEST = JSON.stringify({
  error: {
    root_cause: [{ type: "illegal_argument_exception", reason: "malformed HTTP request" }],
    type: "illegal_argument_exception",
    reason: "malformed HTTP request",
  },
  status: 400,
});

/** Searches, counts and other reads (not writes, which a merge keeps pace with). */
const READ_PATH = /\/_(?:search|msearch|count|mget)(?:[/?]|$)/;

function isRead(method: string | undefined, url: string | undefined): boolean {
  return method === "GET" || method === "HEAD" || READ_PATH.test(url ?? "");
}

/** Listens with `node:http`. */
export function listen(
  handler: Handler,
  options: {
    port: number;
    hostname: string;
    maxBodyBytes: number;
    textOf?: (response: Response) => string | undefined;
    knowText?: (request: Request, text: string) => void;
  },
): Promise<{ port: number; close(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    let port = options.port;
    const server = createServer((req, res) => {
      // A read waits from its arrival: background merges yield to it (see search_pressure.ts).
      // (A response closes once, and the end counts once: no `once` wrapper per request.)
      if (isRead(req.method, req.url)) res.on("close", searchBegins());
      toRequest(req, {
        hostname: options.hostname,
        port,
        limit: options.maxBodyBytes,
        knowText: options.knowText,
      })
        .then(async ({ request, method, stop }) => {
          const response = await handler(request, method, req.url ?? "/");
          // The engine may answer before reading the whole body (413): drain what is left.
          stop?.();
          return send(res, response, options.textOf);
        })
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
