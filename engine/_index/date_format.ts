// Custom Java-style date patterns (`dd/MM/yyyy HH:mm:ss.SSS`) from mappings and range queries.

const TOKENS: Record<string, string> = {
  yyyy: "(?<y>\\d{4})",
  uuuu: "(?<y>\\d{4})",
  yyy: "(?<y>\\d{3,})",
  yy: "(?<yy>\\d{2})",
  y: "(?<y>\\d{1,})",
  MM: "(?<M>\\d{2})",
  M: "(?<M>\\d{1,2})",
  dd: "(?<d>\\d{2})",
  d: "(?<d>\\d{1,2})",
  HH: "(?<H>\\d{2})",
  H: "(?<H>\\d{1,2})",
  mm: "(?<m>\\d{2})",
  ss: "(?<s>\\d{2})",
  SSSSSSSSS: "(?<S>\\d{9})",
  SSSSSS: "(?<S>\\d{6})",
  SSS: "(?<S>\\d{3})",
  XXX: "(?<z>Z|[+-]\\d{2}:\\d{2})",
  XX: "(?<z>Z|[+-]\\d{4})",
  X: "(?<z>Z|[+-]\\d{2}(?:\\d{2})?)",
  xxx: "(?<z>[+-]\\d{2}:\\d{2})",
  xx: "(?<z>[+-]\\d{4})",
  ZZZZZ: "(?<z>Z|[+-]\\d{2}:\\d{2}(?::\\d{2})?)",
  ZZZ: "(?<z>Z|[+-]\\d{4})",
  ZZ: "(?<z>Z|[+-]\\d{4})",
  Z: "(?<z>Z|[+-]\\d{4})",
};
const TOKEN_RE =
  /yyyy|uuuu|yyy|yy|y|MMMM|MMM|MM|M|dd|d|HH|H|mm|ss|SSSSSSSSS|SSSSSS|SSS|XXX|XX|X|xxx|xx|ZZZZZ|ZZZ|ZZ|Z|EEEE|EEE|E|e|'[^']*'|./g;
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
/** Built-in format names (`strict_date_optional_time`, `date`, ...), which are not patterns. */
const BUILT_IN = /_|^(?:date|time|year|week|hour|minute|second)s?$|^iso8601$/;
const cache = new Map<string, RegExp | null>();

function compile(pattern: string): RegExp | null {
  if (cache.has(pattern)) return cache.get(pattern)!;
  let re: RegExp | null = null;
  if (/[yu]/.test(pattern) && !BUILT_IN.test(pattern)) {
    const body = pattern.replace(TOKEN_RE, (t) => {
      if (TOKENS[t]) return TOKENS[t];
      if (t.startsWith("'")) return t.slice(1, -1).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      return t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    });
    try {
      re = new RegExp(`^${body}$`);
    } catch {
      // A pattern naming a field twice (`yyyy ... y`) cannot be read: it parses nothing.
      re = null;
    }
  }
  if (cache.size > 200) cache.clear();
  cache.set(pattern, re);
  return re;
}

/** Epoch formats, which read a number written as text (`1700000000000`, `-1.5`). */
const EPOCH_FORMATS = new Set(["epoch_millis", "epoch_second"]);
const EPOCH_TEXT = /^-?\d+(\.\d+)?$/;

/**
 * Whether this module reads `alt` completely: an epoch format, or a custom pattern without month
 * or day names. Text such a format does not fit is no date for it.
 */
function isExact(alt: string): boolean {
  if (EPOCH_FORMATS.has(alt)) return true;
  return compile(alt) !== null && !alt.replace(/'[^']*'/g, "").match(/MMM|E|e/);
}

/**
 * Whether date `text` fits `format` exactly, as a formatter made of exact formats alone reads it
 * (wholly, nothing left over): true when an `||` alternative reads it, false when none does and
 * every alternative is an epoch format or a custom pattern this module reads completely; the real
 * engines then refuse the text (`failed to parse date field [...] with format [...]`) instead of
 * trying ISO text. Undefined when an alternative is a built-in name (`strict_date_optional_time`)
 * or a pattern read only in part (month or day names), which this module cannot judge.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fitsFormat } from "./date_format.ts";
 * assert.equal(fitsFormat("2022", "yyyy"), true);
 * assert.equal(fitsFormat("2022-01-01", "yyyy"), false);
 * assert.equal(fitsFormat("2022-01-01", "yyyy||epoch_millis"), false);
 * assert.equal(fitsFormat("1640995200000", "yyyy||epoch_millis"), true);
 * assert.equal(fitsFormat("2022-01-01", "yyyy||strict_date_optional_time"), undefined);
 * assert.equal(fitsFormat("01 Jan 2022", "dd MMM yyyy"), undefined);
 * ```
 */
export function fitsFormat(text: string, format: string): boolean | undefined {
  const alts = format.split("||").map((f) => f.trim());
  if (!alts.every(isExact)) return undefined;
  return alts.some((f) =>
    EPOCH_FORMATS.has(f) ? EPOCH_TEXT.test(text) : !Number.isNaN(parseWithPattern(text, f))
  );
}

/** Parses `text` with a custom pattern to epoch millis (UTC unless an offset is given); NaN if it does not fit. */
export function parseWithPattern(text: string, pattern: string): number {
  const re = compile(pattern);
  const m = re?.exec(text);
  if (!m?.groups) return NaN;
  const g = m.groups;
  const year = g.y !== undefined
    ? Number(g.y)
    : 2000 + Number(g.yy ?? 70) - (g.yy !== undefined ? 0 : 30);
  const frac = g.S ? Number(g.S.slice(0, 3).padEnd(3, "0")) : 0;
  let ms = Date.UTC(
    year,
    Number(g.M ?? 1) - 1,
    Number(g.d ?? 1),
    Number(g.H ?? 0),
    Number(g.m ?? 0),
    Number(g.s ?? 0),
    frac,
  );
  if (g.z && g.z !== "Z") {
    const sign = g.z[0] === "-" ? -1 : 1;
    const digits = g.z.slice(1).replace(/:/g, "").padEnd(4, "0");
    ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4))) * 60_000 +
      sign * Number(digits.slice(4) || 0) * 1000;
  }
  return ms;
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** One of Java's spellings of an offset: `+HH:MM` (colon) or `+HHMM`, and whether zero is `Z`. */
interface OffsetSpelling {
  readonly colon: boolean;
  readonly zeroAsZ: boolean;
}

/** `XXX`: `+01:00`, `Z`; `X`: `+0100`, `Z`; `xxx`: `+01:00`, `+00:00`; `Z`: `+0100`, `+0000`. */
const WITH_COLON_OR_Z: OffsetSpelling = { colon: true, zeroAsZ: true };
const PLAIN_OR_Z: OffsetSpelling = { colon: false, zeroAsZ: true };
const WITH_COLON: OffsetSpelling = { colon: true, zeroAsZ: false };
const PLAIN: OffsetSpelling = { colon: false, zeroAsZ: false };

/** An offset in one of Java's spellings. */
function offsetOut(offset: number, spelling: OffsetSpelling): string {
  const { colon, zeroAsZ } = spelling;
  if (offset === 0 && zeroAsZ) return "Z";
  const abs = Math.abs(offset) / 60_000;
  const sign = offset < 0 ? "-" : "+";
  return `${sign}${pad(Math.floor(abs / 60))}${colon ? ":" : ""}${pad(abs % 60)}`;
}

/**
 * Formats epoch millis with the first alternative of a mapping format; null for built-in names.
 * `offset` (ms east of UTC) gives the local time shown and the offset that zone letters print.
 */
export function formatWithPattern(
  instant: number,
  format: string | undefined,
  offset = 0,
): string | null {
  const ms = instant + offset;
  const first = format?.split("||")[0]?.trim();
  if (!first) return null;
  if (first === "epoch_millis") return String(instant);
  if (first === "epoch_second") return String(Math.floor(instant / 1000));
  if (BUILT_IN.test(first)) return null;
  const d = new Date(ms);
  return first.replace(TOKEN_RE, (t) => {
    switch (t) {
      case "yyyy":
      case "uuuu":
        return pad(d.getUTCFullYear(), 4);
      case "yy":
        return pad(d.getUTCFullYear() % 100);
      case "yyy":
      case "y":
        // Java writes the full year for every count but two, padded to the count.
        return pad(d.getUTCFullYear(), t.length);
      case "MM":
        return pad(d.getUTCMonth() + 1);
      case "M":
        return String(d.getUTCMonth() + 1);
      case "MMM":
        return MONTHS[d.getUTCMonth()]!.slice(0, 3);
      case "MMMM":
        return MONTHS[d.getUTCMonth()]!;
      case "e":
        // Day of week in the root locale's week: Monday is 1, Sunday 7.
        return String(((d.getUTCDay() + 6) % 7) + 1);
      case "E":
      case "EEE":
        return DAYS[d.getUTCDay()]!.slice(0, 3);
      case "EEEE":
        return DAYS[d.getUTCDay()]!;
      case "dd":
        return pad(d.getUTCDate());
      case "d":
        return String(d.getUTCDate());
      case "HH":
        return pad(d.getUTCHours());
      case "H":
        return String(d.getUTCHours());
      case "mm":
        return pad(d.getUTCMinutes());
      case "ss":
        return pad(d.getUTCSeconds());
      case "SSS":
        return pad(d.getUTCMilliseconds(), 3);
      case "SSSSSS":
      case "SSSSSSSSS":
        return pad(d.getUTCMilliseconds(), 3).padEnd(t.length, "0");
      case "XXX":
      case "ZZZZZ":
        return offsetOut(offset, WITH_COLON_OR_Z);
      case "XX":
      case "X":
        return offsetOut(offset, PLAIN_OR_Z);
      case "xxx":
        return offsetOut(offset, WITH_COLON);
      case "xx":
      case "ZZZ":
      case "ZZ":
      case "Z":
        return offsetOut(offset, PLAIN);
      default:
        return t.startsWith("'") ? t.slice(1, -1) : t;
    }
  });
}
