// Whether a JSON value can be indexed into a field of a given mapped type.

import { type EngineError, esError, illegalArgument } from "../_errors.ts";
import { utf8Length } from "../_utf8.ts";

const INTEGER_TYPES = new Set(["long", "integer", "short", "byte", "unsigned_long"]);
const FLOAT_TYPES = new Set(["double", "float", "half_float", "scaled_float"]);

/** A short preview of a value, as Elasticsearch prints it in parse errors. */
export function previewValue(value: unknown): string {
  if (typeof value === "object" && value !== null) return JSON.stringify(value);
  return String(value);
}

/** Whether a value can be a number: integer and float fields refuse the same values alike. */
function numberProblem(value: unknown): EngineError | undefined {
  if (typeof value === "number") return undefined;
  if (typeof value === "string") {
    const trimmed = value.trim();
    if (trimmed !== "" && Number.isFinite(Number(trimmed))) return undefined;
    return esError("number_format_exception", `For input string: "${value}"`);
  }
  if (typeof value === "boolean") {
    return illegalArgument(
      `Current token (VALUE_${
        String(value).toUpperCase()
      }) not numeric, can not use numeric value accessors`,
    );
  }
  return illegalArgument("Cannot parse object as number");
}

/** The value of the ASCII digits `text[from]` `text[from + 1]`, or -1 when either is not one. */
function twoDigits(text: string, from: number): number {
  const a = text.charCodeAt(from) - 48;
  const b = text.charCodeAt(from + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/**
 * True when `text` is `yyyy-MM-ddTHH:mm:ss.SSSZ` with each part in the range `Date.parse` takes
 * (day 1–31 whatever the month, as it does; hours 0–23): then `Date.parse` surely reads it,
 * and the common form of a date skips it. False says nothing (ask `Date.parse`).
 */
export function plainIsoMillis(text: string): boolean {
  if (
    text.length !== 24 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 ||
    text.charCodeAt(10) !== 84 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58 ||
    text.charCodeAt(19) !== 46 || text.charCodeAt(23) !== 90
  ) return false;
  if (twoDigits(text, 0) < 0 || twoDigits(text, 2) < 0) return false;
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  const hour = twoDigits(text, 11);
  const minute = twoDigits(text, 14);
  const second = twoDigits(text, 17);
  const ms = twoDigits(text, 20);
  const last = text.charCodeAt(22) - 48;
  if (month < 1 || month > 12 || day < 1 || day > 31 || ms < 0 || last < 0 || last > 9) {
    return false;
  }
  if (minute < 0 || minute > 59 || second < 0 || second > 59) return false;
  return hour >= 0 && hour <= 23;
}

/** Returns the cause when `value` does not fit `type`, else undefined. */
export function checkValue(type: string, value: unknown): EngineError | undefined {
  if (INTEGER_TYPES.has(type) || FLOAT_TYPES.has(type)) return numberProblem(value);
  if (type === "boolean") {
    if (typeof value === "boolean" || value === "true" || value === "false" || value === "") {
      return undefined;
    }
    return illegalArgument(
      `Failed to parse value [${previewValue(value)}] as only [true] or [false] are allowed.`,
    );
  }
  if (type === "date" || type === "date_nanos") {
    if (typeof value === "number") return undefined;
    if (typeof value === "string" && plainIsoMillis(value)) return undefined;
    if (
      typeof value === "string" &&
      // Only `yyyy/MM/dd…` is rewritten (the common ISO text skips the regular expression).
      !Number.isNaN(
        Date.parse(
          value.charCodeAt(4) === 47
            ? value.replace(/^(\d{4})\/(\d{2})\/(\d{2})/, "$1-$2-$3")
            : value,
        ),
      )
    ) return undefined;
    if (typeof value === "string" && /^\d+$/.test(value)) return undefined;
    return illegalArgument(
      `failed to parse date field [${
        previewValue(value)
      }] with format [strict_date_optional_time||epoch_millis]`,
    );
  }
  if ((type === "keyword" || type === "text") && typeof value === "object" && value !== null) {
    return illegalArgument(`Can't get text on a START_OBJECT`);
  }
  return undefined;
}

/** Lucene's longest term, in UTF-8 bytes. */
export const MAX_TERM_BYTES = 32766;

/**
 * Lucene's refusal of a keyword value longer than {@link MAX_TERM_BYTES} (unless `ignore_above`
 * leaves it out of the index), else undefined.
 */
export function immenseTerm(
  type: string | undefined,
  ignoreAbove: unknown,
  field: string,
  value: unknown,
): EngineError | undefined {
  // A UTF-8 byte is at most three per UTF-16 unit: shorter strings always fit.
  if (type !== "keyword" || typeof value !== "string" || value.length * 3 <= MAX_TERM_BYTES) {
    return undefined;
  }
  if (typeof ignoreAbove === "number" && value.length > ignoreAbove) return undefined;
  if (utf8Length(value) <= MAX_TERM_BYTES) return undefined;
  const bytes = new TextEncoder().encode(value);
  const prefix = Array.from(new Int8Array(bytes.buffer, 0, 30)).join(", ");
  return illegalArgument(
    `Document contains at least one immense term in field="${field}" (whose UTF8 encoding is longer than the max length ${MAX_TERM_BYTES}), all of which were skipped. Please correct the analyzer to not produce such terms. The prefix of the first immense term is: '[${prefix}]...'`,
  );
}
