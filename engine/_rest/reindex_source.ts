// How `_reindex` reads its `source` object as Elasticsearch does: the search part goes through
// the search-source parser (unknown keys refused with its wording; `size` read as an integer),
// `remote` is checked field by field, and the search options reindex cannot honour (`from`,
// `stored_fields`, `_source: false`) are validation problems.

import { EngineError, illegalArgument, parsingError } from "../_errors.ts";
import { type JsonObject, jsonTokenName } from "../_json.ts";

/** Keys a reindex `source` takes (besides those refused by {@link sourceProblems}). */
const SOURCE_FIELDS = new Set([
  "index",
  "query",
  "size",
  "_source",
  "sort",
  "remote",
  "slice",
  "runtime_mappings",
  "fields",
  "from",
  "stored_fields",
]);

const REMOTE_FIELDS = new Set([
  "host",
  "username",
  "password",
  "headers",
  "socket_timeout",
  "connect_timeout",
]);

function numberFormat(text: string): EngineError {
  return new EngineError(400, "number_format_exception", `For input string: "${text}"`);
}

/** Elasticsearch's time-value parser on a remote timeout: a number with a unit suffix. */
function checkTimeout(value: unknown): void {
  if (value === undefined) return;
  const text = String(value).trim().toLowerCase();
  const unit = /(nanos|micros|ms|s|m|h|d)$/.exec(text);
  if (text === "-1" || text === "0") return;
  if (!unit) {
    throw new EngineError(
      400,
      "parse_exception",
      `failed to parse setting with value [${value}] as a time value: unit is missing or unrecognized`,
    );
  }
  const number = text.slice(0, -unit[1]!.length).trim();
  if (!/^-?\d+(\.\d+)?$/.test(number)) throw numberFormat(number);
}

/**
 * Checks a `source.remote` object as Elasticsearch parses it, then refuses it as a cluster with
 * an empty `reindex.remote.whitelist` does: the engine never reads from another cluster.
 */
function checkRemote(remote: unknown): never {
  const spec = { ...(remote as JsonObject) };
  const host = String(spec.host ?? "");
  delete spec.host;
  const m = /^([^:]+):\/\/([^:]+):(\d+)(\/.*)?$/.exec(host);
  if (!m) {
    throw illegalArgument(
      `[host] must be of the form [scheme]://[host]:[port](/[pathPrefix])? but was [${host}]`,
    );
  }
  checkTimeout(spec.socket_timeout);
  checkTimeout(spec.connect_timeout);
  const unknown = Object.keys(spec).filter((k) => !REMOTE_FIELDS.has(k));
  if (unknown.length > 0) {
    throw illegalArgument(`Unsupported fields in [remote]: [${unknown.join(",")}]`);
  }
  throw illegalArgument(`[${m[2]}:${m[3]}] not whitelisted in reindex.remote.whitelist`);
}

/**
 * Parses `source` as Elasticsearch does before validating anything: unknown keys, a `size`
 * that is no integer and a bad `remote` are refused here.
 */
export function parseReindexSource(source: JsonObject): void {
  for (const [key, value] of Object.entries(source)) {
    if (!SOURCE_FIELDS.has(key)) {
      throw parsingError(`Unknown key for a ${jsonTokenName(value)} in [${key}].`);
    }
  }
  if (source.size !== undefined && !Number.isInteger(Number(source.size))) {
    throw numberFormat(String(source.size));
  }
  if (source.remote !== undefined) checkRemote(source.remote);
}

/** The validation problems of the search part, in Elasticsearch's order (before the indices'). */
export function sourceProblems(source: JsonObject): string[] {
  const problems: string[] = [];
  if (source.from !== undefined && source.from !== -1) {
    problems.push("from is not supported in this context");
  }
  if (source.stored_fields !== undefined) {
    problems.push("stored_fields is not supported in this context");
  }
  return problems;
}

/** `_source: false` cannot be reindexed (there would be nothing to write). */
export function sourceDisabled(source: JsonObject): boolean {
  return source._source === false || source._source === "false";
}
