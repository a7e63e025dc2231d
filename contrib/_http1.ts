// HTTP/1.1 response framing for contrib/fetch_node: the response head (status line and header
// fields) and the chunked transfer coding, as pure functions over bytes and text, so the socket
// code stays small and these parts are tested on their own.

/** A malformed response: the connection cannot be trusted and is closed. */
export class Http1ProtocolError extends Error {
  /** Like undici's code for the same failure, so callers can tell it from a network error. */
  readonly code = "ERR_INVALID_HTTP_RESPONSE";
  constructor(message: string) {
    super(`invalid HTTP response: ${message}`);
    this.name = "Http1ProtocolError";
  }
}

/** A parsed response head. */
export interface ResponseHead {
  /** 0 for HTTP/1.0, 1 for HTTP/1.1. */
  readonly minor: number;
  readonly status: number;
  readonly statusText: string;
  /** Field names lowercased, values trimmed, in arrival order. */
  readonly fields: [string, string][];
}

const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: ([^\r\n]*))?$/;

/**
 * Parses a response head: the text before the blank line, read as latin1.
 *
 * @throws {Http1ProtocolError} On anything that is not a well-formed HTTP/1.x head.
 */
export function parseResponseHead(text: string): ResponseHead {
  if (text.indexOf("\0") >= 0) throw badLine(text, text.indexOf("\0"));
  let end = text.indexOf("\r\n");
  const firstEnd = end < 0 ? text.length : end;
  const first = text.slice(0, firstEnd);
  const status = STATUS_LINE.exec(first);
  if (status === null) throw new Http1ProtocolError(`bad status line ${JSON.stringify(first)}`);
  const fields: [string, string][] = [];
  let at = firstEnd + 2;
  // One pass over the text: each line is checked and cut where it lies, without a substring
  // per line (a bare CR or LF inside a line would end it for another parser: refused).
  while (end >= 0) {
    end = text.indexOf("\r\n", at);
    const stop = end < 0 ? text.length : end;
    const lf = text.indexOf("\n", at);
    const cr = text.indexOf("\r", at);
    const colon = text.indexOf(":", at);
    // Obsolete line folding (a line starting with white space) is refused, as RFC 9112 allows.
    if (
      (lf >= 0 && lf < stop) || (cr >= 0 && cr < stop) || colon <= at || colon >= stop ||
      !isToken(text, at, colon)
    ) throw badLine(text, at);
    let from = colon + 1;
    let to = stop;
    while (from < to && isSpace(text.charCodeAt(from))) from++;
    while (to > from && isSpace(text.charCodeAt(to - 1))) to--;
    fields.push([text.slice(at, colon).toLowerCase(), text.slice(from, to)]);
    at = stop + 2;
  }
  return {
    minor: first.charCodeAt(7) - 48,
    status: Number(status[2]),
    statusText: status[3] ?? "",
    fields,
  };
}

/** The error for the line of `text` that holds offset `at`. */
function badLine(text: string, at: number): Http1ProtocolError {
  const start = text.lastIndexOf("\r\n", at - 1);
  if (start < 0) {
    return new Http1ProtocolError(`bad status line ${JSON.stringify(text.split("\r\n")[0])}`);
  }
  const end = text.indexOf("\r\n", start + 2);
  const line = text.slice(start + 2, end < 0 ? text.length : end);
  return new Http1ProtocolError(`bad header line ${JSON.stringify(line.slice(0, 80))}`);
}

/** Optional white space around a field value (RFC 9110 §5.6.3): space and tab. */
function isSpace(c: number): boolean {
  return c === 32 || c === 9;
}

/** The characters of a token (RFC 9110 §5.6.2), by char code. */
const TOKEN_CHARS = (() => {
  const table = new Uint8Array(128);
  for (const c of "!#$%&'*+-.^_`|~") table[c.charCodeAt(0)] = 1;
  for (let c = 48; c < 58; c++) table[c] = 1;
  for (let c = 65; c < 91; c++) table[c] = table[c + 32] = 1;
  return table;
})();

/** `text` from `start` to `end` is a token. */
function isToken(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128 || TOKEN_CHARS[c] === 0) return false;
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
  let chunked = false;
  let encoded = false;
  let close = head.minor === 0;
  for (const [name, value] of head.fields) {
    if (name === "content-length") {
      // A list of equal values is one value; different ones are a smuggling attempt.
      for (const part of value.split(",")) {
        const v = part.trim();
        if (!/^\d{1,15}$/.test(v) || (length !== undefined && length !== v)) {
          throw new Http1ProtocolError(`bad content-length ${JSON.stringify(value)}`);
        }
        length = v;
      }
    } else if (name === "transfer-encoding") {
      encoded = true;
      chunked = /(?:^|,)\s*chunked\s*$/i.test(value);
    } else if (name === "connection") {
      const tokens = value.toLowerCase();
      if (/(?:^|,)\s*close\s*(?:,|$)/.test(tokens)) close = true;
      else if (head.minor === 0 && /(?:^|,)\s*keep-alive\s*(?:,|$)/.test(tokens)) close = false;
    }
  }
  const status = head.status;
  if (method === "HEAD" || status === 204 || status === 304 || (status >= 100 && status < 200)) {
    return { framing: { kind: "none" }, keepAlive: !close };
  }
  if (encoded) {
    return chunked
      ? { framing: { kind: "chunked" }, keepAlive: !close }
      : { framing: { kind: "close" }, keepAlive: false };
  }
  if (length !== undefined) {
    return { framing: { kind: "length", length: Number(length) }, keepAlive: !close };
  }
  return { framing: { kind: "close" }, keepAlive: false };
}

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
