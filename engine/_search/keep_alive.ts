// Time values such as `1m` or `30s`, as used by `scroll` and `keep_alive`.

import { esError } from "../_errors.ts";

const UNITS: Record<string, number> = {
  nanos: 1e-6,
  micros: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** Parses a time value (`1m` → 60000). Bad input → 400 `parse_exception` like Elasticsearch. */
export function parseKeepAlive(text: string, setting = "keep_alive"): number {
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*(nanos|micros|ms|s|m|h|d)\s*$/.exec(String(text));
  if (!m) {
    throw esError(
      "parse_exception",
      `failed to parse setting [${setting}] with value [${text}] as a time value: unit is missing or unrecognized`,
    );
  }
  const ms = Number(m[1]) * UNITS[m[2]!]!;
  if (ms < 0 && ms !== -1) {
    throw esError(
      "parse_exception",
      `failed to parse setting [${setting}] with value [${text}] as a time value: negative durations are not supported`,
    );
  }
  return ms;
}
