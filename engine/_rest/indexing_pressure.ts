// `indexing_pressure.memory.limit`: bulk requests in flight may hold at most this much, and one
// past it is refused with Elasticsearch's 429 `es_rejected_execution_exception` (a load backs off
// and retries smaller) instead of taking the process down.

import { EngineError } from "../_errors.ts";

/**
 * What each line of a bulk body costs beyond its text while it is indexed and answered (its
 * parsed action, the document kept until indexing, its item in the reply): measured at about
 * 900 bytes per tiny document (two lines).
 */
export const LINE_OVERHEAD_BYTES = 512;

/** The heap assumed when no adapter tells the engine its own: V8's usual 4 GiB. */
export const DEFAULT_HEAP_BYTES = 4 * 2 ** 30;

/** Elasticsearch's default limit: 10% of the heap. */
export const DEFAULT_LIMIT = "10%";

/** The in-flight accounting of one engine. */
export interface IndexingPressure {
  /** `indexing_pressure.memory.limit`: bytes, or a percentage of the heap (`"10%"`). */
  limit: number | string;
  /** The heap the limit is a share of. */
  heapBytes: number;
  /** Bytes held by bulk requests now running. */
  current: number;
}

/** The limit in bytes. */
export function limitBytes(p: IndexingPressure): number {
  if (typeof p.limit === "number") return p.limit;
  const percent = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(p.limit);
  if (percent) return Math.floor(p.heapBytes * Number(percent[1]) / 100);
  return Number(p.limit);
}

/** What a bulk body costs: its length plus {@link LINE_OVERHEAD_BYTES} per line. */
export function bulkCost(text: string): number {
  let lines = 0;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) lines++;
  if (text.length > 0 && !text.endsWith("\n")) lines++;
  return text.length + lines * LINE_OVERHEAD_BYTES;
}

/** {@link bulkCost} of a body split on `\n` (`text.split("\n")`), without joining it. */
export function linesCost(lines: readonly string[]): number {
  let length = lines.length - 1;
  for (const line of lines) length += line.length;
  const count = lines.length - 1 + (lines[lines.length - 1] === "" ? 0 : 1);
  return length + count * LINE_OVERHEAD_BYTES;
}

/**
 * Admits a bulk request of `bytes`, or throws Elasticsearch's 429 when the requests in flight and
 * this one would pass the limit. Returns the release to call when the request is answered.
 */
export function admit(
  p: IndexingPressure,
  flavour: "elasticsearch" | "opensearch",
  bytes: number,
): () => void {
  const max = limitBytes(p);
  if (p.current + bytes > max) {
    const type = flavour === "opensearch"
      ? "rejected_execution_exception"
      : "es_rejected_execution_exception";
    throw new EngineError(
      429,
      type,
      `rejected execution of coordinating operation [coordinating_and_primary_bytes=${p.current}, replica_bytes=0, all_bytes=${p.current}, coordinating_operation_bytes=${bytes}, max_coordinating_and_primary_bytes=${max}]`,
    );
  }
  p.current += bytes;
  return () => void (p.current -= bytes);
}
