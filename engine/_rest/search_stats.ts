// Counts searches into each index's `search` stats, as Elasticsearch's shards count their query
// and fetch phases: one query per shard searched, one fetch per shard whose hits are fetched (a
// search over a single shard fetches in the same round, so it always counts one), a scroll page
// as one more query and fetch, and a scroll as finished when it is freed.

import type { SearchTarget } from "../_index/search_target.ts";
import type { ScrollState } from "../_search/search_contexts.ts";
import type { Cluster } from "../_state/cluster.ts";
import type { SearchCounters } from "../_state/index_stats.ts";
import type { IndexState } from "../_state/index_state.ts";
import type { RequestContext } from "./context.ts";

/** The `stats` groups a search body names (strings only; anything else is ignored). */
function groupsOf(body: Record<string, unknown> | undefined): string[] {
  const raw = body?.stats;
  if (typeof raw === "string") return [raw];
  return Array.isArray(raw) ? raw.filter((g): g is string => typeof g === "string") : [];
}

/** The indices whose hits a response returned. */
function hitIndices(response: Record<string, unknown>): Set<string> {
  const out = new Set<string>();
  const hits = (response.hits as { hits?: unknown } | undefined)?.hits;
  if (!Array.isArray(hits)) return out;
  for (const h of hits) {
    const name = (h as { _index?: unknown } | null)?._index;
    if (typeof name === "string") out.add(name);
  }
  return out;
}

/** What a finished search answered and how long it took. */
interface SearchDone {
  response: Record<string, unknown>;
  millis: number;
}

/**
 * Records one search (or count, or scroll page) over `targets` that took `done.millis`. The
 * indices are looked up by name now, so a search over a point in time whose index was deleted
 * since counts nowhere.
 */
function countSearch(
  cluster: Cluster,
  targets: readonly SearchTarget[],
  body: Record<string, unknown> | undefined,
  done: SearchDone,
): void {
  const { response, millis } = done;
  const indices = targets.map((t) => cluster.indices.get(t.index))
    .filter((i): i is IndexState => i !== undefined);
  const shards = indices.reduce((n, i) => n + i.shardCount, 0);
  // One shard fetches in the query's round whatever it returned: the hits are read only beside
  // other shards.
  const fetched = shards === 1 ? null : hitIndices(response);
  const groups = groupsOf(body);
  for (const index of indices) {
    const fetches = fetched === null || fetched.has(index.name) ? 1 : 0;
    const counters: SearchCounters[] = [index.stats.search];
    for (const g of groups) {
      const c = index.stats.group(g);
      if (c !== undefined) counters.push(c);
    }
    for (const c of counters) {
      c.queryTotal += index.shardCount;
      c.queryMillis += millis;
      c.fetchTotal += fetches;
    }
  }
}

/**
 * Runs a search body through `run` and counts it into its targets' stats. A refused request
 * (bad body, window too large, …) is not counted: Elasticsearch refuses it before any shard runs.
 */
export function countedSearch<T extends Record<string, unknown> | Promise<Record<string, unknown>>>(
  ctx: RequestContext,
  targets: readonly SearchTarget[],
  body: Record<string, unknown> | undefined,
  run: () => T,
): T {
  const started = performance.now();
  const response = run();
  const count = (r: Record<string, unknown>) =>
    countSearch(ctx.state.cluster, targets, body, {
      response: r,
      millis: performance.now() - started,
    });
  if (response instanceof Promise) {
    // A time-sliced search: counted when it ends (a refused one, as above, is not).
    return response.then((r) => {
      count(r);
      return r;
    }) as T;
  }
  count(response as Record<string, unknown>);
  return response;
}

/** Records a freed scroll: one finished scroll per shard it held, timed from open to free. */
export function countScrollFreed(cluster: Cluster, scroll: ScrollState, now: number): void {
  for (const target of scroll.targets) {
    const index = cluster.indices.get(target.index);
    if (index === undefined) continue;
    index.stats.search.scrollTotal += index.shardCount;
    index.stats.search.scrollMillis += Math.max(0, now - (scroll.openedAt ?? now));
  }
}
