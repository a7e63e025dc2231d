// HTTP/1.1 response framing for contrib/fetch_node and contrib/fetch_deno: the response head
// (status line and header fields) and the chunked transfer coding, as pure functions over bytes
// and text, so the socket code stays small and these parts are tested on their own; and the one
// rule both follow when a connection to `localhost` is refused.

/** A malformed response: the connection cannot be trusted and is closed. */
export class Http1ProtocolError extends Error {
  /** Like undici's code for the same failure, so callers can tell it from a network error. */
  readonly code = "ERR_INVALID_HTTP_RESPONSE";
  constructor(message: string) {
    super(`invalid HTTP response: ${message}`);
    this.name = "Http1ProtocolError";
  }
}

/** Field lines (each after its CR LF) whose names are tokens and values hold no NUL, CR or LF. */
const HEAD =
  /^HTTP\/1\.([01]) (\d{3})(?: ([^\0\r\n]*))?((?:\r\n[!#$%&'*+\-.^_`|~0-9A-Za-z]+:[^\0\r\n]*)*)$/;
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: ([^\0\r\n]*))?$/;
const FIELD_LINE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+:[^\0\r\n]*$/;

/**
 * A parsed response head. Its field lines are kept as they came (checked whole) and a field is
 * looked up in their lowercased copy when asked for: an answer's few reads cost a search each,
 * with no string made per field that nobody reads.
 */
export class ResponseHead {
  /** 0 for HTTP/1.0, 1 for HTTP/1.1. */
  readonly minor: number;
  readonly status: number;
  readonly statusText: string;
  /** The field lines, each after its CR LF ("" without fields). */
  readonly lines: string;
  readonly #lower: string;
  #fields: [string, string][] | undefined;

  constructor(parts: { minor: number; status: number; statusText: string; lines: string }) {
    this.minor = parts.minor;
    this.status = parts.status;
    this.statusText = parts.statusText;
    this.lines = parts.lines;
    // Lowercasing keeps a latin1 text's length: offsets in it are offsets in `lines`.
    this.#lower = parts.lines.toLowerCase();
  }

  /** The values of the field `key` (lowercase) joined with ", ", or null without one. */
  get(key: string): string | null {
    const lower = this.#lower;
    const needle = `\r\n${key}:`;
    let at = lower.indexOf(needle);
    let found: string | null = null;
    while (at >= 0) {
      const from = at + needle.length;
      let end = lower.indexOf("\r\n", from);
      if (end < 0) end = lower.length;
      const value = trimmed(this.lines, from, end);
      found = found === null ? value : `${found}, ${value}`;
      at = lower.indexOf(needle, end);
    }
    return found;
  }

  /** Field names lowercased, values trimmed, in arrival order. */
  get fields(): [string, string][] {
    if (this.#fields === undefined) {
      const fields: [string, string][] = [];
      const lines = this.lines;
      for (let at = 0; at < lines.length;) {
        const from = at + 2;
        let end = lines.indexOf("\r\n", from);
        if (end < 0) end = lines.length;
        const colon = lines.indexOf(":", from);
        fields.push([lines.slice(from, colon).toLowerCase(), trimmed(lines, colon + 1, end)]);
        at = end;
      }
      this.#fields = fields;
    }
    return this.#fields;
  }
}

/** `text` from `from` to `to` without optional white space (RFC 9110 §5.6.3) at either end. */
function trimmed(text: string, from: number, to: number): string {
  while (from < to && isSpace(text.charCodeAt(from))) from++;
  while (to > from && isSpace(text.charCodeAt(to - 1))) to--;
  return text.slice(from, to);
}

/** Space and tab. */
function isSpace(c: number): boolean {
  return c === 32 || c === 9;
}

/**
 * Parses a response head: the text before the blank line, read as latin1.
 *
 * @throws {Http1ProtocolError} On anything that is not a well-formed HTTP/1.x head.
 */
export function parseResponseHead(text: string): ResponseHead {
  // One regular expression checks the whole head: a bare CR or LF (which would end a line for
  // another parser), a NUL, a name that is not a token, obsolete line folding (a line starting
  // with white space, refused as RFC 9112 allows) all fail it.
  const head = HEAD.exec(text);
  if (head === null) throw malformed(text);
  return new ResponseHead({
    minor: head[1] === "1" ? 1 : 0,
    status: Number(head[2]),
    statusText: head[3] ?? "",
    lines: head[4]!,
  });
}

/** The error for a head that is not well formed: its first bad line. */
function malformed(text: string): Http1ProtocolError {
  const lines = text.split("\r\n");
  if (!STATUS_LINE.test(lines[0]!)) {
    return new Http1ProtocolError(`bad status line ${JSON.stringify(lines[0])}`);
  }
  const bad = lines.slice(1).find((line) => !FIELD_LINE.test(line)) ?? "";
  return new Http1ProtocolError(`bad header line ${JSON.stringify(bad.slice(0, 80))}`);
}

/** One to fifteen ASCII digits (a length the framing accepts as it is). */
function isDecimal(text: string): boolean {
  if (text.length === 0 || text.length > 15) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** How the body of a response is delimited. */
export type Framing =
  | { kind: "none" }
  | { kind: "length"; length: number }
  | { kind: "chunked" }
  | { kind: "close" };

/**
 * The body's framing (RFC 9112 §6.3) and whether the connection may carry another request.
 *
 * @throws {Http1ProtocolError} On a bad or conflicting `content-length`.
 */
export function framingOf(
  head: ResponseHead,
  method: string,
): { framing: Framing; keepAlive: boolean } {
  let length: string | undefined;
  // Each field's values come joined with ", " (RFC 9110 §5.3): the tests below read the list.
  const lengths = head.get("content-length");
  if (lengths !== null && isDecimal(lengths)) length = lengths;
  else if (lengths !== null) {
    // A list of equal values is one value; different ones are a smuggling attempt.
    for (const part of lengths.split(",")) {
      const v = part.trim();
      if (!/^\d{1,15}$/.test(v) || (length !== undefined && length !== v)) {
        throw new Http1ProtocolError(`bad content-length ${JSON.stringify(lengths)}`);
      }
      length = v;
    }
  }
  const codings = head.get("transfer-encoding");
  const encoded = codings !== null;
  // Chunked only when it is the last coding applied.
  const chunked = encoded && /(?:^|,)\s*chunked\s*$/i.test(codings);
  let close = head.minor === 0;
  const connection = head.get("connection");
  // The usual value is told without a regular expression.
  if (connection === "keep-alive") close = false;
  else if (connection !== null) {
    const tokens = connection.toLowerCase();
    if (/(?:^|,)\s*close\s*(?:,|$)/.test(tokens)) close = true;
    else if (head.minor === 0 && /(?:^|,)\s*keep-alive\s*(?:,|$)/.test(tokens)) close = false;
  }
  const status = head.status;
  if (method === "HEAD" || status === 204 || status === 304 || (status >= 100 && status < 200)) {
    return { framing: NO_BODY, keepAlive: !close };
  }
  if (encoded) {
    return chunked
      ? { framing: CHUNKED, keepAlive: !close }
      : { framing: UNTIL_CLOSE, keepAlive: false };
  }
  if (length !== undefined) {
    return { framing: { kind: "length", length: Number(length) }, keepAlive: !close };
  }
  return { framing: UNTIL_CLOSE, keepAlive: false };
}

/**
 * How long a connection may stay idle after an answer with `Keep-Alive: <hint>`: `limit`, or
 * less under the server's `timeout=N`, with a margin (a second, or half of a short timeout) so
 * the server does not close a connection just picked.
 */
export function idleLimitOf(hint: string, limit: number): number {
  const timeout = /timeout\s*=\s*(\d+)/i.exec(hint);
  if (!timeout) return limit;
  const ms = Number(timeout[1]) * 1000;
  return Math.min(limit, ms >= 2000 ? ms - 1000 : ms / 2);
}

/** Request heads up to this size are taken by every server (Netty's default limit is 8 KiB). */
const SAFE_HEAD = 8 * 1024;

/**
 * Whether `status` may be a server refusing a request head too large to parse, so that the
 * connection must not carry another request (`payload`: the request as written, a string when
 * its head is ASCII, or bytes, or parts whose first holds the whole head). Elasticsearch 9.5 and
 * OpenSearch 3.8 answer a head over `http.max_header_size` (16 KiB) with `400
 * too_long_http_header_exception`, no `connection: close`, and then ignore everything else sent
 * on that connection. Only a `400` or `431` to a head over 8 KiB counts; the common answer costs
 * nothing.
 */
export function refusedHead(
  status: number,
  payload: string | Uint8Array | readonly Uint8Array[],
): boolean {
  if (status !== 400 && status !== 431) return false;
  const head = typeof payload === "string" || payload instanceof Uint8Array ? payload : payload[0];
  if (head === undefined || head.length <= SAFE_HEAD) return false;
  // A string payload is ASCII: its length is its size in bytes.
  const end = typeof head === "string" ? head.indexOf("\r\n\r\n") : headEnd(head, 0);
  return end < 0 || end > SAFE_HEAD;
}

/** Where the blank line after the head starts (the `\r\n\r\n`), searching from `from`; or -1. */
export function headEnd(buf: Uint8Array, from: number): number {
  for (
    let i = buf.indexOf(13, from);
    i >= 0 && i + 3 < buf.byteLength;
    i = buf.indexOf(13, i + 1)
  ) {
    if (buf[i + 1] === 10 && buf[i + 2] === 13 && buf[i + 3] === 10) return i;
  }
  return -1;
}

/**
 * Whether `after` bytes read with a head, past its end, mean a confused server (whose
 * connection is not reused): an answer with no body, or an empty one, has nothing after it.
 */
export function strayAfterHead(framing: Framing, after: number): boolean {
  return after > 0 &&
    (framing.kind === "none" || (framing.kind === "length" && framing.length === 0));
}

// The framings without a length, shared by every answer (never changed).
const NO_BODY: Framing = Object.freeze({ kind: "none" });
const CHUNKED: Framing = Object.freeze({ kind: "chunked" });
const UNTIL_CLOSE: Framing = Object.freeze({ kind: "close" });

/** The longest chunk-size line (with extensions) or trailer line accepted. */
const MAX_LINE = 4096;

/**
 * Decodes the chunked transfer coding incrementally: `push` takes whatever bytes arrived and
 * hands the data on; once the last chunk and the trailers are read, `done` is true and `push`
 * returns where the body ended in the bytes given.
 */
export class ChunkedDecoder {
  #state: "size" | "data" | "data-crlf" | "trailer" = "size";
  #line = "";
  #left = 0;
  /** True after the terminating chunk and its trailers. */
  done = false;

  /**
   * Consumes `bytes`, calling `emit` with each piece of data.
   *
   * @returns The offset just past the body when it ended in these bytes, else -1.
   * @throws {Http1ProtocolError} On a malformed chunk.
   */
  push(bytes: Uint8Array, emit: (data: Uint8Array) => void): number {
    let i = 0;
    while (i < bytes.length && !this.done) {
      if (this.#state === "data") {
        const n = Math.min(this.#left, bytes.length - i);
        emit(bytes.subarray(i, i + n));
        i += n;
        this.#left -= n;
        if (this.#left === 0) this.#state = "data-crlf";
        continue;
      }
      // The other states read a line: collect bytes up to LF.
      const lf = bytes.indexOf(10, i);
      const end = lf < 0 ? bytes.length : lf;
      for (let k = i; k < end; k++) this.#line += String.fromCharCode(bytes[k]!);
      if (this.#line.length > MAX_LINE) throw new Http1ProtocolError("chunk line too long");
      i = end;
      if (lf < 0) break;
      i++;
      if (!this.#line.endsWith("\r")) throw new Http1ProtocolError("bare LF in chunked body");
      const line = this.#line.slice(0, -1);
      this.#line = "";
      if (this.#state === "data-crlf") {
        if (line !== "") throw new Http1ProtocolError("chunk data longer than its size");
        this.#state = "size";
      } else if (this.#state === "size") {
        const size = /^([0-9A-Fa-f]{1,12})[ \t]*(?:;.*)?$/.exec(line);
        if (size === null) throw new Http1ProtocolError(`bad chunk size ${JSON.stringify(line)}`);
        this.#left = parseInt(size[1]!, 16);
        this.#state = this.#left === 0 ? "trailer" : "data";
      } else if (line === "") {
        this.done = true;
      }
    }
    return this.done ? i : -1;
  }
}

/** `localhost` and the names under it (RFC 6761: they name the loopback addresses). */
const LOCALHOST = /(?:^|\.)localhost\.?$/i;
/** Failures after which another address of the name may still answer. */
const UNREACHED = new Set(["ECONNREFUSED", "EADDRNOTAVAIL", "ENETUNREACH", "EHOSTUNREACH"]);
/** The loopback addresses, in the order they are tried. */
const LOOPBACKS = ["127.0.0.1", "::1"] as const;

/**
 * The loopback addresses to try, in order, after a connection to `hostname` failed with `error`
 * before it stood (so nothing of a request left the process): for `localhost` and the names
 * under it, refused (or unreachable), 127.0.0.1 and ::1, less an address the error says was
 * tried (Node's `address`, or each of an `AggregateError`'s `errors`). Empty for any other name
 * or failure: a refused `localhost` is never tried on an address that is not a loopback one.
 * A runtime's connect may try only the first address a name resolves to (`Deno.connect`, Node's
 * `net.connect` where the name has one address), and `localhost` may resolve to `::1` first
 * while the server listens on 127.0.0.1 only (a server started with `network.host: 127.0.0.1`,
 * a port published on 127.0.0.1), or the other way round. When none answers, the first failure
 * is the one to report.
 */
export function loopbackFallbacks(hostname: string, error: unknown): string[] {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  if (!LOCALHOST.test(hostname) || typeof code !== "string" || !UNREACHED.has(code)) return [];
  const tried = new Set<unknown>();
  const e = error as { address?: unknown; errors?: unknown };
  tried.add(e.address);
  if (Array.isArray(e.errors)) { for (const each of e.errors) tried.add(each?.address); }
  return LOOPBACKS.filter((address) => !tried.has(address));
}
