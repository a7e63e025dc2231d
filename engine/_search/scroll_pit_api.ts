// The scroll and point-in-time entry points for the REST layer: next scroll page, clear scroll,
// open and close a point in time (Elasticsearch and OpenSearch forms).

import { renderHits, renderTotal } from "../_hits/hits_render.ts";
import { parseKeepAlive } from "./keep_alive.ts";
import type { SearchContexts } from "./search_contexts.ts";
import type { SearchTarget } from "../_index/search_target.ts";
import { shards } from "./shard_failure.ts";
import { type EngineError, esError, illegalArgument } from "../_errors.ts";

/** How a scroll request asks for its next page. */
export interface ScrollAsk {
  /** `scroll`: a new keep-alive for the scroll (the one it had when absent). */
  keepAlive?: string;
  /** `rest_total_hits_as_int`: the total as a bare number. */
  restTotalHitsAsInt: boolean;
}

/** Returns the next page of a scroll; 404 `search_context_missing_exception` when unknown or expired. */
export function scrollApi(
  ctx: SearchContexts,
  scrollId: string,
  ask: ScrollAsk,
): Record<string, unknown> {
  const { keepAlive, restTotalHitsAsInt } = ask;
  const started = performance.now();
  const s = ctx.scroll(scrollId);
  if (keepAlive !== undefined) {
    s.keepAlive = parseKeepAlive(keepAlive, "scroll");
    ctx.checkKeepAlive(s.keepAlive, keepAlive);
  }
  s.expiresAt = ctx.now() + s.keepAlive;
  const page = s.ordered.slice(s.position, s.position + s.size);
  s.position += page.length;
  return {
    _scroll_id: scrollId,
    took: Math.round(performance.now() - started),
    timed_out: false,
    _shards: shards(s.targets),
    hits: renderHits(
      page,
      s.targets,
      { total: renderTotal(s.total, true, { restTotalHitsAsInt }), maxScore: s.maxScore },
      s.render,
    ),
  };
}

/** Frees scrolls: `{succeeded, num_freed}`. */
export function clearScrollApi(
  ctx: SearchContexts,
  scrollIds: string[] | "_all",
): Record<string, unknown> {
  const freed = ctx.clearScrolls(scrollIds);
  return { succeeded: true, num_freed: freed };
}

/** Opens a point in time over the targets' current snapshots. */
export function openPitApi(
  ctx: SearchContexts,
  targets: SearchTarget[],
  keepAlive: string,
  flavour: "elasticsearch" | "opensearch",
): Record<string, unknown> {
  const ms = parseKeepAlive(keepAlive);
  ctx.checkKeepAlive(ms, keepAlive);
  if (flavour === "opensearch") ctx.checkPitRoom();
  const now = ctx.now();
  const id = ctx.addPit({
    targets: targets.map((t) => ({ ...t })),
    keepAlive: ms,
    expiresAt: now + ms,
    createdAt: now,
    tiebreaker: flavour === "elasticsearch",
  });
  if (flavour === "elasticsearch") return { id, _shards: shards(targets) };
  return { pit_id: id, _shards: shards(targets), creation_time: now };
}

/**
 * Closes points in time (ES `{succeeded, num_freed}`, OpenSearch `{pits:[{pit_id, successful}]}`).
 * Elasticsearch answers 404 when `num_freed` is 0 for explicit ids; the REST layer sets the status.
 */
export function closePitApi(
  ctx: SearchContexts,
  ids: string[] | "_all",
  flavour: "elasticsearch" | "opensearch",
): Record<string, unknown> {
  const closed = ctx.closePits(ids);
  if (flavour === "elasticsearch") {
    return { succeeded: true, num_freed: closed.length };
  }
  const list = ids === "_all" ? closed : ids;
  return { pits: list.map((id) => ({ pit_id: id, successful: closed.includes(id) })) };
}

/** The transport version a point-in-time id starts with: a variable-length int, 7 bits a byte. */
function leadingVInt(bytes: Uint8Array): number | undefined {
  let value = 0;
  for (let i = 0; i < Math.min(bytes.length, 5); i++) {
    const b = bytes[i]!;
    value += (b & 0x7f) * 2 ** (7 * i);
    if ((b & 0x80) === 0) return value;
  }
  return undefined;
}

/**
 * The real engines' refusal of a point-in-time id that is none of theirs (nor the engine's): they
 * decode it (URL-safe base64) and read the transport version it starts with, which they do not
 * know. Elasticsearch: 400 `unknown transport version [N] reading search context id`; OpenSearch:
 * 500 `unsupported_version_exception` naming the version the number spells. Undefined for an id
 * that does not decode, or that the engine made.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { foreignPitError } from "./scroll_pit_api.ts";
 * assert.equal(foreignPitError("abc", "elasticsearch")?.message,
 *   "unknown transport version [105] reading search context id");
 * assert.equal(foreignPitError("abc", "opensearch")?.message, "Unsupported version [ES 0.0.1]");
 * ```
 */
export function foreignPitError(
  id: string,
  flavour: "elasticsearch" | "opensearch",
): EngineError | undefined {
  let bytes: Uint8Array;
  try {
    const text = atob(id.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, ""));
    if (text.startsWith("pit:")) return undefined;
    bytes = Uint8Array.from(text, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
  const version = leadingVInt(bytes);
  if (version === undefined) return undefined;
  if (flavour === "elasticsearch") {
    return illegalArgument(`unknown transport version [${version}] reading search context id`);
  }
  const major = Math.floor(version / 1_000_000);
  const minor = Math.floor(version / 10_000) % 100;
  const revision = Math.floor(version / 100) % 100;
  return esError(
    "unsupported_version_exception",
    `Unsupported version [ES ${major}.${minor}.${revision}]`,
  );
}
