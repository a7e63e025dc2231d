// Time zones as Elasticsearch reads `time_zone` (Java's `ZoneId.of`): `Z`, offsets (`+01:00`,
// `-0530`, `+1`), `UTC`/`GMT`/`UT` with an optional offset, and region names (`Europe/Paris`)
// whose offsets, daylight saving included, come from the platform's `Intl.DateTimeFormat`.

import { esError } from "../_errors.ts";

/** A time zone: its offset from UTC at any instant, and local ↔ UTC conversion. */
export interface TimeZone {
  /** The id as given. */
  readonly id: string;
  /** True for a fixed offset (no daylight saving). */
  readonly fixed: boolean;
  /** Offset from UTC in ms at the instant `utc`. */
  offsetAt(utc: number): number;
}

/** UTC. */
export const UTC: TimeZone = { id: "Z", fixed: true, offsetAt: () => 0 };

function fixedZone(id: string, ms: number): TimeZone {
  return ms === 0 && id === "Z" ? UTC : { id, fixed: true, offsetAt: () => ms };
}

/** `ZoneOffset.of`: ±h, ±hh, ±hh:mm, ±hhmm, ±hh:mm:ss, ±hhmmss, at most ±18:00. */
function parseOffset(text: string): number | null {
  const m = /^([+-])(\d{1,2})(?::?(\d{2})(?::?(\d{2}))?)?$/.exec(text);
  if (!m || (m[2]!.length === 1 && m[3] !== undefined)) return null;
  const colons = (text.match(/:/g) ?? []).length;
  if (colons > 0 && colons !== (m[4] !== undefined ? 2 : 1)) return null;
  const h = Number(m[2]);
  const min = Number(m[3] ?? 0);
  const s = Number(m[4] ?? 0);
  if (h > 18 || min > 59 || s > 59 || (h === 18 && (min > 0 || s > 0))) return null;
  return (m[1] === "-" ? -1 : 1) * ((h * 60 + min) * 60 + s) * 1000;
}

const PARTS = {
  hourCycle: "h23",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
  era: "short",
} as const;

function regionZone(id: string): TimeZone | null {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat("en-US", { ...PARTS, timeZone: id });
  } catch {
    return null;
  }
  const exact = (at: number): number => {
    const p: Record<string, string> = {};
    for (const part of format.formatToParts(at)) p[part.type] = part.value;
    const year = p.era === "BC" || p.era === "B" ? 1 - Number(p.year) : Number(p.year);
    const d = new Date(
      Date.UTC(2000, Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute)),
    );
    d.setUTCFullYear(year);
    return d.getTime() + Number(p.second) * 1000 - Math.floor(at / 1000) * 1000;
  };
  // Offsets rarely change: one reading per day (both ends agree), and per quarter hour (the finest
  // step a change takes) only on the days a change happens. Both caches are bounded.
  const days = new Map<number, number | null>();
  const slots = new Map<number, number>();
  const offsetAt = (utc: number): number => {
    const day = Math.floor(utc / DAY);
    let offset = days.get(day);
    if (offset === undefined) {
      const start = exact(day * DAY);
      offset = start === exact((day + 1) * DAY - 1000) ? start : null;
      if (days.size >= 65_536) days.clear();
      days.set(day, offset);
    }
    if (offset !== null) return offset;
    const slot = Math.floor(utc / 900_000);
    let inSlot = slots.get(slot);
    if (inSlot === undefined) {
      inSlot = exact(slot * 900_000);
      if (slots.size >= 4096) slots.clear();
      slots.set(slot, inSlot);
    }
    return inSlot;
  };
  return { id, fixed: false, offsetAt };
}

const DAY = 86_400_000;
const zones = new Map<string, TimeZone>();

/**
 * The zone of a `time_zone` value; unknown or malformed ids fail as Elasticsearch fails them.
 *
 * @example
 * ```ts
 * import { parseTimeZone } from "./time_zones.ts";
 * const paris = parseTimeZone("Europe/Paris");
 * console.assert(paris.offsetAt(Date.UTC(2024, 6, 1)) === 2 * 3_600_000);
 * ```
 */
export function parseTimeZone(id: string): TimeZone {
  const known = zones.get(id);
  if (known) return known;
  let zone: TimeZone | null = null;
  if (id === "Z") zone = UTC;
  else if (id.startsWith("+") || id.startsWith("-")) {
    const ms = parseOffset(id);
    if (ms === null) {
      throw esError("date_time_exception", `Invalid ID for ZoneOffset, invalid format: ${id}`);
    }
    zone = fixedZone(id, ms);
  } else {
    const prefix = /^(UTC|GMT|UT)(.*)$/.exec(id);
    if (prefix && (prefix[2] === "" || /^[+-]/.test(prefix[2]!))) {
      const ms = prefix[2] === "" ? 0 : parseOffset(prefix[2]!);
      if (ms === null) {
        throw esError("date_time_exception", `Invalid ID for offset-based ZoneId: ${id}`);
      }
      zone = fixedZone(id, ms);
    } else if (!/^[A-Za-z][A-Za-z0-9~/._+-]+$/.test(id)) {
      throw esError(
        "date_time_exception",
        `Invalid ID for region-based ZoneId, invalid format: ${id}`,
      );
    } else {
      zone = regionZone(id);
      if (!zone) throw esError("zone_rules_exception", `Unknown time-zone ID: ${id}`);
    }
  }
  if (zones.size < 1024) zones.set(id, zone);
  return zone;
}

/** The local wall-clock time of an instant, as millis of a UTC clock showing it. */
export function toLocal(zone: TimeZone, utc: number): number {
  return utc + zone.offsetAt(utc);
}

/**
 * The instant of a local wall-clock time (millis of a UTC clock showing it). In an overlap the
 * earlier instant wins; in a gap the time moves later by the gap, as Java's `ZonedDateTime` does.
 */
export function fromLocal(zone: TimeZone, local: number): number {
  if (zone.fixed) return local - zone.offsetAt(local);
  const around = new Set([
    zone.offsetAt(local - 86_400_000),
    zone.offsetAt(local - zone.offsetAt(local)),
    zone.offsetAt(local + 86_400_000),
  ]);
  let best: number | null = null;
  for (const o of around) {
    if (zone.offsetAt(local - o) === o && (best === null || local - o < best)) best = local - o;
  }
  if (best !== null) return best;
  // A gap: keep the offset from before the transition (the smaller one when clocks go forward).
  return local - Math.min(...around);
}

/** Writes an offset as `Z` or `±hh:mm` (with `:ss` when it has seconds). */
export function offsetText(ms: number): string {
  if (ms === 0) return "Z";
  const abs = Math.abs(ms) / 1000;
  const h = Math.floor(abs / 3600);
  const m = Math.floor((abs % 3600) / 60);
  const s = abs % 60;
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${ms < 0 ? "-" : "+"}${pad(h)}:${pad(m)}${s ? `:${pad(s)}` : ""}`;
}
