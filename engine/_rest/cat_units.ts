// How `_cat` tables write sizes (`bytes=`) and durations (`time=`), as Elasticsearch's RestTable
// does, and how a size setting (`50gb`) is read.

import { esError, illegalArgument } from "../_errors.ts";

const BYTE_UNITS: Record<string, number> = {
  b: 1,
  kb: 1024,
  mb: 1024 ** 2,
  gb: 1024 ** 3,
  tb: 1024 ** 4,
  pb: 1024 ** 5,
};

/** A size setting (`1.5gb`, `512 b`) in bytes, as Elasticsearch's ByteSizeValue reads it. */
export function parseByteSize(text: string, key: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([kmgtp]?b)$/i.exec(text.trim());
  if (!m) {
    throw esError(
      "parse_exception",
      `failed to parse setting [${key}] with value [${text}] as a size in bytes`,
    );
  }
  return Number(m[1]) * BYTE_UNITS[m[2]!.toLowerCase()]!;
}

/**
 * A size as `_cat` writes it: in the `bytes` unit when one is given (a whole number, rounded
 * down as Elasticsearch does), else human-readable with one decimal cut, not rounded (`512b`,
 * `4.5kb`, `1.2mb`; 1.29 kb is `1.2kb`).
 */
export function formatBytes(bytes: number, inUnit?: string | null): string {
  if (inUnit !== undefined && inUnit !== null) {
    const size = BYTE_UNITS[inUnit];
    if (size === undefined) {
      throw illegalArgument(
        `failed to parse [bytes] with value [${inUnit}]: expected one of [b, kb, mb, gb, tb, pb]`,
      );
    }
    return String(Math.floor(bytes / size));
  }
  const units = ["b", "kb", "mb", "gb", "tb", "pb"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  // One decimal, cut rather than rounded, as Elasticsearch's format1Decimals writes it.
  return unit === 0 ? `${value}b` : `${Math.floor(value * 10) / 10}${units[unit]}`;
}

const TIME_UNITS: ReadonlyArray<readonly [string, number]> = [
  ["d", 86_400_000],
  ["h", 3_600_000],
  ["m", 60_000],
  ["s", 1000],
  ["ms", 1],
  ["micros", 1e-3],
  ["nanos", 1e-6],
];

/**
 * A duration in milliseconds as `_cat` writes it: a whole number in the `time` unit when it is one
 * of `d`, `h`, `m`, `s`, `ms`, `micros`, `nanos` (rounded down); otherwise (no unit, or one
 * Elasticsearch does not know) human-readable in the largest unit that fits, with at most one
 * decimal (`1.5h`, `42s`, `0s`).
 *
 * @example
 * ```ts
 * import { formatTime } from "./cat_units.ts";
 * console.log(formatTime(5_400_000), formatTime(5_400_000, "m")); // 1.5h 90
 * ```
 */
export function formatTime(millis: number, inUnit?: string | null): string {
  const chosen = TIME_UNITS.find(([name]) => name === inUnit);
  if (chosen) return String(Math.floor(millis / chosen[1]));
  if (millis <= 0) return millis === 0 ? "0s" : String(millis);
  const [name, size] = TIME_UNITS.find(([, size]) => millis >= size) ?? TIME_UNITS[6]!;
  const value = Math.floor((millis / size) * 10) / 10;
  return `${value}${name}`;
}
