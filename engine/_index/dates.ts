// Date values: parse stored dates to epoch millis and evaluate date math in range queries.

import { fitsFormat, formatWithPattern, parseWithPattern } from "./date_format.ts";
import { fromLocal, offsetText, type TimeZone, toLocal } from "./time_zones.ts";

/** Pattern letters that read a zone or offset from the text itself. */
const ZONE_LETTERS = /[XxZzOV]/;

const UNIT_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  H: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/**
 * Parses a date value (ISO-like string, `yyyy/MM/dd HH:mm:ss`, or epoch millis) to epoch millis;
 * NaN when invalid. Text without an offset is local time in `zone` (UTC when absent).
 */
export function parseDate(value: unknown, format?: string, zone?: TimeZone): number {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return NaN;
    // A number is read by the first epoch format of the field (seconds under `epoch_second`).
    const epoch = format?.split("||").map((f) => f.trim()).find((f) => f.startsWith("epoch_"));
    return epoch === "epoch_second" ? Math.trunc(value * 1000) : Math.trunc(value);
  }
  if (typeof value !== "string" || value === "") return NaN;
  if (format === undefined && value.length >= 20) {
    const ms = isoUtc(value);
    if (ms !== undefined) return ms;
  }
  if (format) {
    // Custom patterns among the `||` alternatives are tried first; built-in names fall through.
    const alts = format.split("||").map((f) => f.trim());
    for (const alt of alts) {
      const ms = parseWithPattern(value, alt);
      if (Number.isNaN(ms)) continue;
      return zone && !ZONE_LETTERS.test(alt) ? fromLocal(zone, ms) : ms;
    }
    // Only custom patterns and epoch formats: text none of them reads is no date (real engines:
    // `failed to parse date field [2024-01-01T00:00:00Z] with format [yyyy-MM-dd]`).
    if (fitsFormat(value, format) === false) return NaN;
  }
  if (
    /^-?\d+$/.test(value) &&
    (format?.includes("epoch_") || !/^\d{4}$/.test(value))
  ) {
    if (format?.includes("epoch_second")) return Number(value) * 1000;
    return Number(value);
  }
  let text = value.trim().replace(/^(\d{4})\/(\d{2})\/(\d{2})/, "$1-$2-$3").replace(" ", "T");
  if (/^\d{4}$/.test(text)) text += "-01-01";
  else if (/^\d{4}-\d{2}$/.test(text)) text += "-01";
  // A date-time without offset is UTC in Elasticsearch, unless a time zone is given.
  const local = !/(Z|[+-]\d{2}(:?\d{2})?)$/.test(text.slice(10));
  if (/T\d{2}(:\d{2}(:\d{2}(\.\d+)?)?)?$/.test(text)) text += "Z";
  if (/T\d{2}Z$/.test(text)) text = text.replace("Z", ":00Z");
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return NaN;
  return zone && local ? fromLocal(zone, ms) : ms;
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function digits(text: string, from: number, count: number): number {
  let n = 0;
  for (let i = from; i < from + count; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

/**
 * The common shape `yyyy-MM-ddTHH:mm:ss[.SSS]Z` read without regular expressions; undefined for
 * anything else (or an impossible date), which the general parser then answers.
 */
function isoUtc(text: string): number | undefined {
  const n = text.length;
  if (n !== 20 && n !== 24) return undefined;
  if (
    text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84 ||
    text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58 || text.charCodeAt(n - 1) !== 90 ||
    (n === 24 && text.charCodeAt(19) !== 46)
  ) return undefined;
  const y = digits(text, 0, 4);
  const mo = digits(text, 5, 2);
  const d = digits(text, 8, 2);
  const h = digits(text, 11, 2);
  const mi = digits(text, 14, 2);
  const sec = digits(text, 17, 2);
  const frac = n === 24 ? digits(text, 20, 3) : 0;
  if (y < 100 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59) {
    return undefined;
  }
  if (sec < 0 || sec > 59 || frac < 0) return undefined;
  const leap = mo === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  if (d > DAYS[mo - 1]! + (leap ? 1 : 0)) return undefined;
  return Date.UTC(y, mo - 1, d, h, mi, sec, frac);
}

function roundDown(ms: number, unit: string): number {
  const d = new Date(ms);
  switch (unit) {
    case "y":
      return Date.UTC(d.getUTCFullYear(), 0, 1);
    case "M":
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    case "w": {
      const day = (d.getUTCDay() + 6) % 7; // ISO weeks start on Monday
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - day);
    }
    default: {
      const size = UNIT_MS[unit]!;
      return Math.floor(ms / size) * size;
    }
  }
}

function addUnits(ms: number, amount: number, unit: string): number {
  const d = new Date(ms);
  if (unit === "y") return d.setUTCFullYear(d.getUTCFullYear() + amount);
  if (unit === "M") return d.setUTCMonth(d.getUTCMonth() + amount);
  return ms + amount * UNIT_MS[unit]!;
}

/** Rounding down in a zone: on the local clock, back to the instant. */
function roundDownIn(ms: number, unit: string, zone: TimeZone | undefined): number {
  if (!zone) return roundDown(ms, unit);
  return fromLocal(zone, roundDown(toLocal(zone, ms), unit));
}

/** Adding units in a zone: days and longer move the local clock, hours and less the instant. */
function addUnitsIn(ms: number, amount: number, unit: string, zone: TimeZone | undefined): number {
  if (!zone || !"yMwd".includes(unit)) return addUnits(ms, amount, unit);
  return fromLocal(zone, addUnits(toLocal(zone, ms), amount, unit));
}

/** How a date field reads and writes its values: its format, its resolution, its time zone. */
export interface DateShape {
  /** The mapping's (or the request's) `format`; Elasticsearch's default when absent. */
  readonly format?: string;
  /** `date_nanos`: values are epoch nanoseconds, not millis. */
  readonly nanos?: boolean;
  /** Local times in this zone (`time_zone`); UTC when absent. */
  readonly zone?: TimeZone;
}

/**
 * Which way date math's `/unit` rounds: `down` to the start of the unit, `up` to its end, as
 * `lte` and `gt` bounds do in Elasticsearch.
 */
export type Rounding = "down" | "up";

/**
 * Evaluates a date-math expression (`now-1d/d`, `2020-01-01||+1M`) to epoch millis, rounding as
 * `rounding` says; with a `zone`, rounding and calendar units follow its local clock and dates
 * without an offset are local times (the shape's `nanos` is not read: the answer is millis).
 */
export function evalDateMath(
  value: unknown,
  now: number,
  shape: DateShape = {},
  rounding: Rounding = "down",
): number {
  const { format, zone } = shape;
  const roundUp = rounding === "up";
  if (typeof value !== "string") return parseDate(value, format, zone);
  let base: number;
  let math: string;
  if (value.startsWith("now")) {
    base = now;
    math = value.slice(3);
  } else {
    const sep = value.indexOf("||");
    if (sep < 0) return parseDate(value, format, zone);
    base = parseDate(value.slice(0, sep), format, zone);
    math = value.slice(sep + 2);
  }
  let ms = base;
  const re = /([+-]\d*[yMwdhHms])|(\/[yMwdhHms])/gy;
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = re.exec(math)) !== null) {
    consumed = re.lastIndex;
    if (m[1]) {
      const unit = m[1].at(-1)!;
      const num = m[1].slice(1, -1);
      const amount = (num === "" ? 1 : Number(num)) * (m[1][0] === "-" ? -1 : 1);
      ms = addUnitsIn(ms, amount, unit, zone);
    } else {
      const unit = m[2]!.slice(1);
      ms = roundDownIn(ms, unit, zone);
      if (roundUp) ms = addUnitsIn(ms, 1, unit, zone) - 1;
    }
  }
  if (consumed !== math.length) return NaN;
  return ms;
}

/** Formats epoch millis as Elasticsearch's default `strict_date_optional_time` output. */
export function formatDate(ms: number): string {
  return new Date(ms).toISOString();
}

/** Parses a date in the field's resolution: epoch millis, or epoch nanos for `date_nanos`. */
export function parseDateAt(value: unknown, shape: DateShape): number {
  const { format, nanos, zone } = shape;
  const ms = parseDate(value, format, zone);
  if (!nanos || Number.isNaN(ms)) return ms;
  let extra = 0;
  if (typeof value === "string") {
    const frac = /[.,](\d{4,9})(?=\D*$)/.exec(value);
    if (frac) extra = Number(frac[1]!.slice(3).padEnd(6, "0"));
  }
  return ms * 1e6 + extra;
}

/**
 * Formats a stored date value (millis or nanos) with the field's format, ISO text by default; with
 * a zone, as its local time (ISO text then ends with the offset).
 */
export function formatDateAt(value: number | bigint, shape: DateShape = {}): string {
  const { nanos, format, zone } = shape;
  // Nanos beyond 2^53 arrive as exact bigints: split them before any rounding.
  const ms = typeof value === "bigint"
    ? Number(nanos ? value / 1_000_000n - (value % 1_000_000n < 0n ? 1n : 0n) : value)
    : nanos
    ? Math.floor(value / 1e6)
    : value;
  const offset = zone ? zone.offsetAt(ms) : 0;
  const custom = formatWithPattern(ms, format, offset);
  if (custom !== null) return custom;
  const zoneText = offset === 0 && !zone ? "Z" : offsetText(offset);
  if (!nanos) return formatDate(ms + offset).replace(/Z$/, zoneText);
  const extra = typeof value === "bigint"
    ? Number(value - BigInt(ms) * 1_000_000n)
    : Math.round(value - ms * 1e6);
  const rest = String(extra).padStart(6, "0");
  return formatDate(ms + offset).replace(/Z$/, rest.replace(/0+$/, "") + zoneText);
}

/** A query-side date (plain or date math) in the field's resolution (millis or nanos). */
export function dateValueAt(
  value: unknown,
  now: number,
  shape: DateShape,
  rounding: Rounding = "down",
): number {
  const isMath = typeof value === "string" && (value.startsWith("now") || value.includes("||"));
  if (!isMath) return parseDateAt(value, shape);
  const ms = evalDateMath(value, now, shape, rounding);
  if (!shape.nanos || Number.isNaN(ms)) return ms;
  return rounding === "up" && /\/[yMwdhHms]$/.test(value as string) ? ms * 1e6 + 999_999 : ms * 1e6;
}
