// The request side of contrib/fetch_deno, runtime-independent: a URL split into its origin and
// request target, the method and headers checked as `fetch` checks them, and the request head
// and body as the bytes of one write.

/** Where requests go: one pool per origin. */
export interface Origin {
  /** `scheme://host:port` as the URL spelled it. */
  readonly key: string;
  /** The `Host` header. */
  readonly hostHeader: string;
  readonly secure: boolean;
  /** The host name or address (an IPv6 address without its brackets). */
  readonly host: string;
  readonly port: number;
}

/** A request split for the socket. */
export interface Target {
  readonly origin: Origin;
  /** The request target: path and query, percent-encoded as `fetch` sends it. */
  readonly path: string;
  /** The URL the response reports. */
  readonly url: string;
}

/** A request target fetch would not send as it is (see {@linkcode targetOf}). */
const NOT_AS_IS = /[^\x21-\x7e]|[#\\"<>`{}']|\/(?:\.|%2e)/i;

/** Origins are few (the cluster's nodes): past this many, the cache starts over. */
const MAX_ORIGINS = 64;

/**
 * Splits a URL into its (cached) origin and its request target.
 *
 * @throws {TypeError} For a scheme other than http: and https:, or a URL with credentials.
 */
export function targetOf(url: string, origins: Map<string, Origin>, who: string): Target {
  const secure = url.startsWith("https://");
  if (!secure && !url.startsWith("http://")) {
    throw new TypeError(`${who}: only http: and https: URLs, got ${url.slice(0, 100)}`);
  }
  const slash = url.indexOf("/", secure ? 8 : 7);
  const key = slash < 0 ? url : url.slice(0, slash);
  let path = slash < 0 ? "/" : url.slice(slash);
  // What fetch would not send as it is goes through the URL parser, as in fetch: anything but
  // visible ASCII (a space, non-ASCII), a fragment, the characters it percent-encodes (`"<>`{}`
  // in the path, `"<>'` in the query), `\` (a `/` in http URLs) and dot segments (`/./`, `/../`
  // and their `%2e` spellings are resolved: `/a/../b` is sent as `/b`).
  if (NOT_AS_IS.test(path)) {
    const parsed = new URL(url);
    path = parsed.pathname + parsed.search;
  }
  let origin = origins.get(key);
  if (origin === undefined) {
    const parsed = new URL(key);
    if (parsed.username !== "" || parsed.password !== "") {
      throw new TypeError(
        `${who}: a URL with credentials is refused (send an authorization header)`,
      );
    }
    const host = parsed.hostname.startsWith("[") ? parsed.hostname.slice(1, -1) : parsed.hostname;
    origin = {
      key,
      secure,
      host,
      port: parsed.port === "" ? (secure ? 443 : 80) : Number(parsed.port),
      hostHeader: parsed.host,
    };
    if (origins.size >= MAX_ORIGINS) origins.clear();
    origins.set(key, origin);
  }
  return { origin, path, url: origin.key + path };
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Methods fetch normalises to upper case. */
const NORMALISED = new Set(["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH"]);
/** Request headers fetch does not let a caller set: the connection's own. */
const FORBIDDEN = new Set([
  "host",
  "content-length",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "te",
  "trailer",
  "expect",
]);

/**
 * The method as fetch sends it (the common ones upper-cased).
 *
 * @throws {TypeError} For a method that is not a token, CONNECT or TRACE.
 */
export function methodOf(method: string | undefined, who: string): string {
  if (method === undefined) return "GET";
  const upper = method.toUpperCase();
  if (NORMALISED.has(upper)) return upper;
  if (!TOKEN.test(method) || upper === "CONNECT" || upper === "TRACE") {
    throw new TypeError(`${who}: invalid method ${JSON.stringify(method)}`);
  }
  return method;
}

const UTF8 = new TextEncoder();

/** What {@linkcode requestBytes} builds a request from. */
export interface RequestParts {
  readonly method: string;
  readonly target: Target;
  readonly init: RequestInit;
  /** The adapter's name, for error messages. */
  readonly who: string;
}

/**
 * The request head and body as the bytes of one write.
 *
 * @throws {TypeError} For a header fetch would refuse, a body on GET or HEAD, or a body that
 *   is not text or bytes.
 */
export function requestBytes(parts: RequestParts): Uint8Array {
  const { method, target, init, who } = parts;
  const body = requestBody(init.body, who);
  if (body !== undefined && (method === "GET" || method === "HEAD")) {
    throw new TypeError(`${who}: a ${method} request cannot have a body`);
  }
  let head = `${method} ${target.path} HTTP/1.1\r\nhost: ${target.origin.hostHeader}\r\n`;
  let ascii = true;
  let hasType = false;
  const add = (name: string, value: string): void => {
    const key = name.toLowerCase();
    const v = String(value).trim();
    if (!TOKEN.test(key) || /[\0\r\n]/.test(v)) {
      throw new TypeError(`${who}: invalid header ${JSON.stringify(name)}`);
    }
    if (FORBIDDEN.has(key)) return;
    if (/[^\t\x20-\x7e]/.test(v)) {
      if (/[\u0100-\uffff]/.test(v)) {
        throw new TypeError(`${who}: header ${key} has a character outside latin1`);
      }
      ascii = false;
    }
    if (key === "content-type") hasType = true;
    head += `${key}: ${v}\r\n`;
  };
  const headers = init.headers;
  if (headers instanceof Headers) headers.forEach((value, name) => add(name, value));
  else if (Array.isArray(headers)) { for (const [name, value] of headers) add(name!, value!); }
  else if (headers !== undefined) {
    for (const name in headers) add(name, (headers as Record<string, string>)[name]!);
  }
  if (typeof body === "string") {
    if (!hasType) head += "content-type: text/plain;charset=UTF-8\r\n";
    const bytes = UTF8.encode(body);
    head += `content-length: ${bytes.byteLength}\r\n\r\n`;
    return join(ascii ? UTF8.encode(head) : latin1(head), bytes);
  }
  if (body !== undefined) head += `content-length: ${body.byteLength}\r\n`;
  else if (method === "POST" || method === "PUT" || method === "PATCH") {
    head += "content-length: 0\r\n";
  }
  head += "\r\n";
  const headBytes = ascii ? UTF8.encode(head) : latin1(head);
  return body === undefined ? headBytes : join(headBytes, body);
}

/** A latin1 text as its bytes (one byte per character, all below 256). */
function latin1(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

function join(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}

function requestBody(body: RequestInit["body"], who: string): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return body;
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) {
    return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  }
  throw new TypeError(
    `${who}: a request body must be a string or bytes (the driver sends nothing else)`,
  );
}
