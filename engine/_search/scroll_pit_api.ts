// The scroll and point-in-time entry points for the REST layer: next scroll page, clear scroll,
// open and close a point in time (Elasticsearch and OpenSearch forms).

import { renderHits, renderTotal } from "../_hits/hits_render.ts";
import { parseKeepAlive } from "./keep_alive.ts";
import type { SearchContexts } from "./search_contexts.ts";
import type { SearchTarget } from "../_index/search_target.ts";
import { shards } from "./shard_failure.ts";

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
