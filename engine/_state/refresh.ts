// The `refresh` parameter of writes and the lazy scheduled refresh (no background timers).

import { illegalArgument } from "../_errors.ts";
import type { IndexState } from "./index_state.ts";

/** Timers and waiters the engine must clear on close. */
export interface RefreshScheduler {
  now: () => number;
  timers: Set<ReturnType<typeof setTimeout>>;
  waiters: Set<() => void>;
}

/** Elasticsearch's default `index.max_refresh_listeners`. */
export const MAX_REFRESH_LISTENERS = 1000;

/** Refreshes each index whose scheduled refresh is due (called before searches). */
export function refreshDue(indices: Iterable<IndexState>, now: number): void {
  for (const index of indices) if (!index.closed) index.refreshIfDue(now);
}

/** Resolves after the next refresh of `index`: the scheduled one, or any explicit one before it. */
export function waitForRefresh(index: IndexState, scheduler: RefreshScheduler): Promise<void> {
  // Like `index.max_refresh_listeners`: past the bound a refresh happens now instead of another
  // waiter being parked (with refresh disabled they would otherwise pile up forever).
  if (scheduler.waiters.size >= MAX_REFRESH_LISTENERS) {
    index.refresh(scheduler.now());
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = (): void => {
      if (timer !== undefined) {
        clearTimeout(timer);
        scheduler.timers.delete(timer);
      }
      scheduler.waiters.delete(done);
      resolve();
    };
    scheduler.waiters.add(done);
    index.onNextRefresh(done);
    const interval = index.refreshIntervalMs;
    if (interval < 0) return;
    const delay = Math.max(0, index.lastRefresh + interval - scheduler.now());
    timer = setTimeout(() => {
      scheduler.timers.delete(timer!);
      timer = undefined;
      index.refresh(scheduler.now());
    }, delay);
    scheduler.timers.add(timer);
  });
}

/**
 * Applies a write's `refresh` parameter to the indices it touched.
 * Returns true when the refresh was forced (`refresh=true`). With `shard`, a forced refresh only
 * covers that shard, as for a single-document write.
 */
export async function applyRefresh(
  value: string | null,
  indices: Iterable<IndexState>,
  scheduler: RefreshScheduler,
  shard?: number,
): Promise<boolean> {
  if (value === null || value === "false") return false;
  const unique = [...new Set(indices)];
  if (value === "" || value === "true") {
    for (const index of unique) index.refresh(scheduler.now(), shard);
    return true;
  }
  if (value === "wait_for") {
    await Promise.all(unique.filter((i) => i.hasPending).map((i) => waitForRefresh(i, scheduler)));
    return false;
  }
  throw illegalArgument(`Unknown value for refresh: [${value}].`);
}
