// Reads a request body while it arrives, never past its size limit; and as the lines it is made
// of, so a large NDJSON body (`_bulk`) is never held whole: neither its bytes nor one string of
// all of it.

/**
 * Passes each chunk of a byte stream to `fn` as it arrives; false, after cancelling the stream and
 * before passing on the chunk that crosses it, as soon as more than `limit` bytes have arrived.
 */
export async function eachChunkAtMost(
  stream: ReadableStream<Uint8Array>,
  limit: number,
  fn: (chunk: Uint8Array) => void,
): Promise<boolean> {
  const reader = stream.getReader();
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return true;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      return false;
    }
    fn(value);
  }
}

/**
 * The lines of a UTF-8 byte stream split on `\n` (what `text.split("\n")` gives for the decoded
 * text: the last element is `""` when the text ends with a newline), decoded chunk by chunk.
 * Returns `null`, after cancelling the stream, as soon as more than `limit` bytes have arrived.
 *
 * @param stream The body's bytes.
 * @param limit The most bytes accepted.
 * @returns The lines, or null when the body is longer than `limit`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readLines } from "./ndjson_lines.ts";
 *
 * const bytes = new TextEncoder().encode('{"index":{}}\n{"a":"é"}\n');
 * const stream = new ReadableStream<Uint8Array>({
 *   start(c) {
 *     for (let i = 0; i < bytes.length; i += 5) c.enqueue(bytes.subarray(i, i + 5));
 *     c.close();
 *   },
 * });
 * assert.deepEqual(await readLines(stream, 100), ['{"index":{}}', '{"a":"é"}', ""]);
 * ```
 */
export async function readLines(
  stream: ReadableStream<Uint8Array>,
  limit: number,
): Promise<string[] | null> {
  const decoder = new TextDecoder();
  const lines: string[] = [];
  let parts: string[] = [];
  const take = (text: string) => {
    let from = 0;
    for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", from)) {
      const piece = text.slice(from, at);
      if (parts.length === 0) lines.push(piece);
      else {
        parts.push(piece);
        lines.push(parts.join(""));
        parts = [];
      }
      from = at + 1;
    }
    if (from < text.length) parts.push(from === 0 ? text : text.slice(from));
  };
  const whole = await eachChunkAtMost(stream, limit, (chunk) => {
    take(decoder.decode(chunk, { stream: true }));
  });
  if (!whole) return null;
  take(decoder.decode());
  lines.push(parts.join(""));
  return lines;
}
