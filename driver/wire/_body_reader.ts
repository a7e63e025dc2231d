// Reads a response body as text, counting bytes while it streams: past the limit reading stops
// (an endless body is cut off, never buffered whole); an abort of the signal stops it too. A
// network body with a declared, unencoded length within the limit is read directly, and so is the
// body of an in-process fetch (already whole in memory), whose size is checked once it is read.

import { utf8Length } from "../_utf8.ts";

/** One decoder for every body: `decode` without `stream` keeps no state between calls. */
const UTF8 = new TextDecoder();

/** Thrown inside the reader when the body passes the limit. */
export class TooLarge {
  constructor(readonly limit: number) {}
}

/** How a transport reads its bodies: one object per transport, handed in on every read. */
export interface BodyLimits {
  /** The most bytes a body may have. */
  limit: number;
  /**
   * A declared, unencoded `content-length` is trusted (the runtime's own network fetch never
   * delivers more): such a body is read whole instead of counted while it streams.
   */
  trustLength: boolean;
}

/**
 * Reads `res`'s body as UTF-8 text, at most `limits.limit` bytes.
 *
 * @throws {TooLarge} Past the limit.
 * @throws The signal's reason when it aborts while reading.
 */
export function readBody(
  res: Response,
  limits: BodyLimits,
  signal: AbortSignal,
): Promise<string> {
  const limit = limits.limit;
  const headers = res.headers; // one getter call, two reads
  const declared = headers.get("content-length");
  if (declared !== null) {
    if (Number(declared) > limit) return refuse(res, limit);
    // A network fetch delivers no more than the declared length, unless the body is decoded
    // on the way (content-encoding): then it is counted while it streams, as is any body from
    // an injected fetch (which may declare anything). Touching `res.body` costs a stream, so
    // the common case reads the text directly (no extra promise either).
    if (limits.trustLength && headers.get("content-encoding") === null) return res.text();
  }
  return readStream(res, limit, signal);
}

/**
 * Reads the body of an in-process fetch's response (one marked
 * `Symbol.for("searchvisitor.inProcessFetch")`: its bodies are finite and already in memory, as
 * the embedded engine's are): as text in one go, then held to the limit by its UTF-8 size.
 *
 * @throws {TooLarge} When the declared length or the text passes the limit.
 */
export function readInProcessBody(
  res: Response,
  limit: number,
  headers: Headers = res.headers,
): Promise<string> {
  if (declaresMore(headers, limit)) return refuse(res, limit);
  return res.text().then((text) => {
    if (!fits(text, limit)) throw new TooLarge(limit);
    return text;
  });
}

/** The response declares a `content-length` over `limit` (it is then refused unread). */
export function declaresMore(headers: Headers, limit: number): boolean {
  const declared = headers.get("content-length");
  return declared !== null && Number(declared) > limit;
}

/** The text's UTF-8 size is within `limit` bytes. */
export function fits(text: string, limit: number): boolean {
  // A UTF-16 unit is 1 to 3 UTF-8 bytes (a surrogate pair 4 for 2): the exact count is
  // needed only between those bounds.
  return text.length <= limit && (text.length * 3 <= limit || utf8Length(text) <= limit);
}

/** Cancels the body and throws {@linkcode TooLarge}. */
export async function refuse(res: Response, limit: number): Promise<never> {
  await res.body?.cancel().catch(() => {});
  throw new TooLarge(limit);
}

async function readStream(res: Response, limit: number, signal: AbortSignal): Promise<string> {
  const body = res.body;
  if (body === null) return "";
  const reader = body.getReader();
  const onAbort = () => reader.cancel(signal.reason).catch(() => {});
  signal.addEventListener("abort", onAbort, { once: true });
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (signal.aborted) throw signal.reason;
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => {});
        throw new TooLarge(limit);
      }
      chunks.push(value);
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
  // Decoded once at the end (within the limit): cheaper than a streaming decode per chunk.
  if (chunks.length === 1) return UTF8.decode(chunks[0]);
  const all = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return UTF8.decode(all);
}
