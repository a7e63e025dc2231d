/**
 * The progress line of a bulk load: a bar when the total size is known, documents loaded, the
 * rate in docs/s and the bytes read.
 *
 * @module
 */

/** Where a bulk load stands. */
export interface Progress {
  /** Documents acknowledged by the server so far. */
  docs: number;
  /** Documents the server refused so far. */
  failed: number;
  /** Bytes of the file read so far. */
  bytes: number;
  /** The file's size in bytes, when known. */
  totalBytes?: number;
  /** Milliseconds since the load started. */
  elapsedMs: number;
}

/**
 * Formats a number with thousands separators (`12,345`).
 *
 * @param n The number.
 * @returns The text.
 *
 * @example
 * ```ts
 * import { grouped } from "@searchvisitor/searchvisitor/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(grouped(1234567), "1,234,567");
 * ```
 */
export function grouped(n: number): string {
  return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function megabytes(bytes: number): string {
  return (bytes / 1_048_576).toFixed(1);
}

/**
 * Renders one progress line that fits `width` characters.
 *
 * @param p Where the load stands.
 * @param width The terminal's width (default 80).
 * @returns The line, without a newline.
 *
 * @example
 * ```ts
 * import { formatProgress } from "@searchvisitor/searchvisitor/cli";
 * import assert from "node:assert/strict";
 *
 * const line = formatProgress({ docs: 5000, failed: 0, bytes: 512_000, totalBytes: 1_024_000, elapsedMs: 2000 }, 72);
 * assert.equal(line.length <= 72, true);
 * assert.match(line, /^\[#+\.+\]  50% /);
 * assert.match(line, /5,000 docs/);
 * assert.match(line, /2,500 docs\/s/);
 * assert.match(line, /0\.5\/1\.0 MB/);
 * ```
 */
export function formatProgress(p: Progress, width = 80): string {
  const rate = p.elapsedMs > 0 ? (p.docs * 1000) / p.elapsedMs : 0;
  const failed = p.failed > 0 ? `, ${grouped(p.failed)} failed` : "";
  const size = p.totalBytes
    ? `${megabytes(p.bytes)}/${megabytes(p.totalBytes)} MB`
    : `${megabytes(p.bytes)} MB`;
  const tail = `${grouped(p.docs)} docs${failed}  ${grouped(rate)} docs/s  ${size}`;
  if (!p.totalBytes) return tail.slice(0, width);
  const fraction = Math.min(1, p.bytes / p.totalBytes);
  const percent = `${Math.floor(fraction * 100)}%`.padStart(4);
  const barWidth = Math.max(10, Math.min(40, width - tail.length - percent.length - 5));
  const filled = Math.round(fraction * barWidth);
  const line = `[${"#".repeat(filled)}${".".repeat(barWidth - filled)}] ${percent} ${tail}`;
  return line.slice(0, width);
}
