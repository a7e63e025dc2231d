// Time values such as `1m` or `30s`, as used by `scroll` and `keep_alive`.

import { esError } from "../_errors.ts";
import { timeValueMs } from "../_index/time_value.ts";

/** Parses a time value (`1m` → 60000). Bad input → 400 `parse_exception` like Elasticsearch. */
export function parseKeepAlive(text: string, setting = "keep_alive"): number {
  const ms = timeValueMs(String(text));
  if (Number.isNaN(ms)) {
    throw esError(
      "parse_exception",
      `failed to parse setting [${setting}] with value [${text}] as a time value: unit is missing or unrecognized`,
    );
  }
  if (ms < 0 && ms !== -1) {
    throw esError(
      "parse_exception",
      `failed to parse setting [${setting}] with value [${text}] as a time value: negative durations are not supported`,
    );
  }
  return ms;
}
