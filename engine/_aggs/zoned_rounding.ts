// Date-histogram rounding in a time zone: buckets start on the zone's local clock, so around a
// daylight-saving change a day holds 23 or 25 hours and a 12h bucket 11 or 13, as in Elasticsearch.

import { fromLocal, type TimeZone, toLocal } from "../_index/time_zones.ts";

/** Rounds an instant down to its bucket's start, and steps from a bucket's start to the next. */
export interface Rounding {
  /** The start of the bucket holding `ms`. */
  readonly floor: (ms: number) => number;
  /** The start of the bucket after the one starting at `ms`. */
  readonly next: (ms: number) => number;
}

const DAY = 86_400_000;

/**
 * Moves a UTC rounding onto a zone's local clock. `size` is the bucket length in ms for fixed
 * intervals and units below a day (null for calendar days, weeks, months, quarters and years).
 *
 * @example
 * ```ts
 * import { zonedRounding } from "./zoned_rounding.ts";
 * import { parseTimeZone } from "../_index/time_zones.ts";
 * const day = (ms: number) => Math.floor(ms / 86_400_000) * 86_400_000;
 * const r = zonedRounding({ floor: day, next: (ms) => ms + 86_400_000 }, 86_400_000, parseTimeZone("+01:00"));
 * console.assert(r.floor(Date.UTC(2024, 0, 1, 23, 30)) === Date.UTC(2024, 0, 1, 23));
 * ```
 */
export function zonedRounding(utc: Rounding, size: number | null, zone: TimeZone): Rounding {
  if (size === null || size >= DAY) {
    const next = (ms: number): number => fromLocal(zone, utc.next(toLocal(zone, ms)));
    return { floor: remembered((ms) => fromLocal(zone, utc.floor(toLocal(zone, ms))), next), next };
  }
  // Below a day, an instant keeps its own offset unless a change lies between it and its bucket
  // start: the hour repeated when clocks go back stays two buckets.
  const floor = (ms: number): number => {
    const offset = zone.offsetAt(ms);
    const start = utc.floor(ms + offset) - offset;
    return zone.offsetAt(start) === offset ? start : fromLocal(zone, utc.floor(ms + offset));
  };
  const next = (ms: number): number => {
    const candidates = [floor(ms + size), floor(fromLocal(zone, toLocal(zone, ms) + size))];
    const after = candidates.filter((c) => c > ms);
    return after.length ? Math.min(...after) : ms + size;
  };
  return { floor: remembered(floor, next), next };
}

/**
 * A floor that remembers the bucket found for each quarter hour and reuses it for later values
 * of that quarter hour when they fall inside it (so it stays exact whatever the offsets).
 */
function remembered(
  floor: (ms: number) => number,
  next: (ms: number) => number,
): (ms: number) => number {
  const seen = new Map<number, { start: number; end: number }>();
  return (ms) => {
    const slot = Math.floor(ms / 900_000);
    const known = seen.get(slot);
    if (known && ms >= known.start && ms < known.end) return known.start;
    const start = floor(ms);
    if (seen.size >= 100_000) seen.clear();
    seen.set(slot, { start, end: next(start) });
    return start;
  };
}
