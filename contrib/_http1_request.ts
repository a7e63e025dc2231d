// The request side of contrib/fetch_deno and contrib/fetch_node, runtime-independent: a URL split into its origin and
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

/** What {@linkcode requestHead} builds a request from. */
export interface RequestParts {
  readonly method: string;
  readonly target: Target;
  readonly init: RequestInit;
  /** The adapter's name, for error messages. */
  readonly who: string;
}

/**
 * A request checked and written out, for the adapter to turn into what its socket writes:
 * without a body `head` is the whole request; with one, `head` stops after the header lines and
 * the adapter adds `content-length: N\r\n\r\n` (N the body's length in bytes) and the body.
 */
export interface RequestHead {
  readonly head: string;
  /** The head is all visible ASCII (else latin1, one byte per character). */
  readonly ascii: boolean;
  /** The body: text (sent as UTF-8) or bytes. */
  readonly body: string | Uint8Array | undefined;
}

/**
 * The request head as text, and its body, checked as `fetch` checks them.
 *
 * @throws {TypeError} For a header fetch would refuse, a body on GET or HEAD, or a body that
 *   is not text or bytes.
 */
export function requestHead(parts: RequestParts): RequestHead {
  const { method, target, init, who } = parts;
  const body = requestBody(init.body, who);
  if (body !== undefined && (method === "GET" || method === "HEAD")) {
    throw new TypeError(`${who}: a ${method} request cannot have a body`);
  }
  let head = `${method} ${target.path} HTTP/1.1\r\nhost: ${target.origin.hostHeader}\r\n`;
  const fields = headerBlock(init.headers, who);
  head += fields.text;
  if (typeof body === "string") {
    if (!fields.hasType) head += "content-type: text/plain;charset=UTF-8\r\n";
  } else if (body === undefined) {
    if (method === "POST" || method === "PUT" || method === "PATCH") {
      head += "content-length: 0\r\n";
    }
    head += "\r\n";
  }
  return { head, ascii: fields.ascii, body };
}

/**
 * The request head and body as the bytes of one write (TextEncoder, for any runtime).
 *
 * @throws {TypeError} As {@linkcode requestHead}.
 */
export function requestBytes(parts: RequestParts): Uint8Array {
  const { head, ascii, body } = requestHead(parts);
  if (body === undefined) return ascii ? UTF8.encode(head) : latin1(head);
  const bytes = typeof body === "string" ? UTF8.encode(body) : body;
  const full = `${head}content-length: ${bytes.byteLength}\r\n\r\n`;
  return join(ascii ? UTF8.encode(full) : latin1(full), bytes);
}

/** The request's header fields, checked and written out as head lines. */
interface HeaderBlock {
  readonly text: string;
  /** All visible ASCII (else latin1 bytes, written as such). */
  readonly ascii: boolean;
  readonly hasType: boolean;
}

/**
 * The last plain headers object written and what it held: the driver passes the same object
 * on every request, so its lines are checked and written once and then only compared.
 */
let lastHeaders:
  | { source: object; names: string[]; values: string[]; block: HeaderBlock }
  | undefined;

function headerBlock(headers: HeadersInit | undefined, who: string): HeaderBlock {
  if (headers === undefined) return NO_HEADERS;
  const plainObject = !(headers instanceof Headers) && !Array.isArray(headers);
  if (plainObject && lastHeaders?.source === headers) {
    const { names, values } = lastHeaders;
    const record = headers as Record<string, string>;
    let i = 0;
    let same = true;
    for (const name in record) {
      if (i >= names.length || names[i] !== name || values[i] !== record[name]) {
        same = false;
        break;
      }
      i++;
    }
    if (same && i === names.length) return lastHeaders.block;
  }
  let text = "";
  let ascii = true;
  let hasType = false;
  const names: string[] = [];
  const values: string[] = [];
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
    text += `${key}: ${v}\r\n`;
  };
  if (headers instanceof Headers) headers.forEach((value, name) => add(name, value));
  else if (Array.isArray(headers)) { for (const [name, value] of headers) add(name!, value!); }
  else {
    const record = headers as Record<string, string>;
    for (const name in record) {
      const value = record[name]!;
      add(name, value);
      names.push(name);
      values.push(value);
    }
  }
  const block = { text, ascii, hasType };
  // Only values that are strings compare as the same text next time.
  if (plainObject && values.every((v) => typeof v === "string")) {
    lastHeaders = { source: headers, names, values, block };
  }
  return block;
}

const NO_HEADERS: HeaderBlock = { text: "", ascii: true, hasType: false };

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
