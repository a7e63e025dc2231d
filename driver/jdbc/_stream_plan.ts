// What a stream of hits sends, worked out from its one bound `_search` command: the index, the
// query-string parameters for opening a point in time and for each page, the page size, the
// sort, and the body's other members as ready JSON text. Internal to hit_stream.ts.

import { IllegalStateError } from "../errors.ts";
import type { BoundCommand } from "../command/command.ts";
import { classify } from "../wire/_endpoint.ts";
import { parseExactJson } from "../wire/_exact_json.ts";
import { encodeJson } from "../command/value_encoder.ts";

/** The stream's view of a search command. */
export interface SearchPlan {
  /** The index expression as written in the path (still percent-encoded), or undefined. */
  readonly index: string | undefined;
  /** `&routing=…&preference=…` and the other target parameters, for opening the PIT. */
  readonly pitQuery: string;
  /** `?…` with the remaining parameters for each page (or ""). */
  readonly searchQuery: string;
  /** Hits per page. */
  readonly size: number;
  /** The keep-alive of the PIT or scroll. */
  readonly keepAlive: string;
  /** The body's `sort`, as an array, or undefined. */
  readonly sort: unknown[] | undefined;
  /** The body's other members as JSON text ending with `,` (or ""), `size` first. */
  readonly bodyPrefix: string;
  /** Whether the body sets `track_total_hits` (otherwise point-in-time pages do not count). */
  readonly tracksTotal: boolean;
}

const TARGET_PARAMS = new Set([
  "routing",
  "preference",
  "ignore_unavailable",
  "expand_wildcards",
  "allow_no_indices",
]);
const KEEP_ALIVE = /^\d+(?:d|h|m|s|ms|micros|nanos)$/;

/**
 * Checks a bound command and works out the stream's requests.
 *
 * @param command The bound command.
 * @param options The stream's page size and keep-alive.
 * @returns The plan.
 */
export function parseSearchPlan(
  command: BoundCommand,
  options: { pageSize?: number; keepAlive?: string },
): SearchPlan {
  const refuse = (what: string): never => {
    throw new IllegalStateError(`stream: ${what}`, { command: command.text });
  };
  const endpoint = classify(command.method, command.path);
  const s = endpoint.segments;
  if (
    endpoint.kind !== "search" || s.at(-1) !== "_search" || s.length > 2 ||
    (command.method !== "GET" && command.method !== "POST")
  ) {
    refuse(`takes one GET|POST /index/_search command, not ${command.method} ${command.path}`);
  }
  const pit: string[] = [];
  const search: string[] = [];
  for (const pair of endpoint.query.split("&")) {
    if (pair === "") continue;
    const name = decodeURIComponent(pair.split("=", 1)[0] ?? "").toLowerCase();
    if (name === "scroll" || name === "from" || name === "search_after") {
      refuse(`the ${name} parameter is the stream's to set; remove it from the path`);
    }
    (TARGET_PARAMS.has(name) ? pit : search).push(pair);
  }
  let body: Record<string, unknown> = {};
  if (command.body !== undefined && command.body.trim() !== "") {
    const parsed = parseExactJson(command.body);
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      refuse("the search body must be a JSON object");
    }
    body = parsed as Record<string, unknown>;
  }
  for (const key of ["search_after", "pit", "scroll"]) {
    if (key in body) refuse(`"${key}" is the stream's to set; remove it from the body`);
  }
  if (body.from !== undefined && body.from !== 0) {
    refuse(`"from": ${JSON.stringify(body.from)} cannot be used; the stream reads every hit`);
  }
  const size = options.pageSize ?? (body.size === undefined ? 1000 : body.size);
  if (typeof size !== "number" || !Number.isInteger(size) || size < 1) {
    refuse(`the page size must be a whole number ≥ 1, got ${JSON.stringify(size)}`);
  }
  const keepAlive = options.keepAlive ?? "1m";
  if (!KEEP_ALIVE.test(keepAlive)) {
    refuse(`keepAlive ${JSON.stringify(keepAlive)} is not a time value such as "1m" or "30s"`);
  }
  const sort = body.sort === undefined
    ? undefined
    : Array.isArray(body.sort)
    ? body.sort
    : [body.sort];
  const rest: string[] = [`"size":${size}`];
  for (const [key, value] of Object.entries(body)) {
    if (key === "size" || key === "from" || key === "sort") continue;
    rest.push(`${JSON.stringify(key)}:${encodeJson(value, 0)}`);
  }
  return {
    index: s.length === 2 ? s[0] : undefined,
    pitQuery: pit.map((p) => `&${p}`).join(""),
    searchQuery: search.length === 0 ? "" : `?${search.join("&")}`,
    size: size as number,
    keepAlive,
    sort,
    bodyPrefix: rest.join(",") + ",",
    tracksTotal: "track_total_hits" in body,
  };
}
