// Reading the write parameters shared by index, create, update, delete and bulk items.

import { EngineError, esError, illegalArgument, validationFailed } from "../_errors.ts";
import { parseKeepAlive } from "../_search/keep_alive.ts";
import type { Cluster } from "../_state/cluster.ts";
import type { IndexState } from "../_state/index_state.ts";
import { validateUpdateBody } from "../_state/update.ts";
import type { WriteOptions } from "../_state/writes.ts";
import { utf8Length } from "../_utf8.ts";

function num(name: string, value: unknown): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const n = Number(value);
  if (!Number.isInteger(n)) {
    throw illegalArgument(`Failed to parse long parameter [${name}] with value [${value}]`);
  }
  return n;
}

/** Write options from a getter of parameter values (query string or bulk metadata). */
export function writeOptions(get: (name: string) => unknown): WriteOptions {
  const opts: WriteOptions = {};
  const opType = get("op_type");
  if (opType !== undefined && opType !== null) {
    if (opType !== "index" && opType !== "create") {
      throw illegalArgument(`opType must be 'create' or 'index', found: [${opType}]`);
    }
    opts.opType = opType;
  }
  opts.ifSeqNo = num("if_seq_no", get("if_seq_no"));
  if (opts.ifSeqNo !== undefined && opts.ifSeqNo < 0 && opts.ifSeqNo !== -2) {
    throw illegalArgument(`sequence numbers must be non negative. got [${opts.ifSeqNo}].`);
  }
  opts.ifPrimaryTerm = num("if_primary_term", get("if_primary_term"));
  if (opts.ifPrimaryTerm !== undefined && opts.ifPrimaryTerm < 0) {
    throw illegalArgument(`primary term must be non negative. got [${opts.ifPrimaryTerm}]`);
  }
  opts.version = num("version", get("version"));
  const vt = get("version_type");
  if (vt !== undefined && vt !== null) opts.versionType = String(vt);
  const routing = get("routing");
  if (routing !== undefined && routing !== null && routing !== "") opts.routing = String(routing);
  return opts;
}

/** Throws 400 `routing_missing_exception` when the mapping requires routing and none is given. */
export function checkRouting(index: IndexState, id: string, routing: string | undefined): void {
  const meta = index.mappings._routing as { required?: boolean } | undefined;
  if (meta?.required === true && routing === undefined) {
    throw esError("routing_missing_exception", `routing is required for [${index.name}]/[${id}]`, {
      index_uuid: "_na_",
      index: index.name,
    });
  }
}

/** True when a read with `routing` would reach the shard holding a doc stored with `stored`. */
export function sameShard(
  index: IndexState,
  id: string,
  stored: string | undefined,
  routing: string | undefined,
): boolean {
  return index.shardCount <= 1 || index.shardOf(stored ?? id) === index.shardOf(routing ?? id);
}

const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** A 20-character URL-safe id like Elasticsearch's auto-generated ids. */
export function generateId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  let id = "";
  for (const b of bytes) id += ID_ALPHABET[b & 63];
  return id;
}

/** Validates a document id. */
export function checkId(id: string): void {
  // A UTF-16 unit is at most 3 UTF-8 bytes: short ids need no encoding to be measured.
  if (id.length * 3 <= 512) return;
  const bytes = utf8Length(id);
  if (bytes > 512) {
    throw validationFailed(
      `id [${id}] is too long, must be no longer than 512 bytes but was: ${bytes}`,
    );
  }
}

/**
 * Checks the `timeout` and `wait_for_active_shards` parameters of a write the way Elasticsearch's
 * REST layer parses them (a time value; `all` or a count ≥ 0), answering its 400 for bad ones.
 * The single-node engine never waits, so valid values change nothing.
 */
export function checkWaitParams(params: URLSearchParams): void {
  const timeout = params.get("timeout");
  if (timeout !== null && timeout !== "-1" && timeout !== "0") {
    try {
      parseKeepAlive(timeout, "timeout");
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      throw illegalArgument(e.message);
    }
  }
  const active = params.get("wait_for_active_shards");
  if (active === null || active === "all") return;
  if (!/^[+-]?\d+$/.test(active) || Math.abs(Number(active)) > 2 ** 31 - 1) {
    throw illegalArgument(`cannot parse ActiveShardCount[${active}]`);
  }
  if (Number(active) < 0) throw illegalArgument("shard count cannot be a negative value");
}

/**
 * Refuses an ingest pipeline the way Elasticsearch refuses one that does not exist: the engine
 * has none, so any name but `_none` (which asks for no pipeline) is a 400
 * `illegal_argument_exception`, and an empty name fails validation.
 *
 * @param pipeline The `pipeline` parameter or bulk metadata value; undefined or null for none.
 */
export function checkPipeline(pipeline: unknown): void {
  if (pipeline === undefined || pipeline === null || pipeline === "_none") return;
  if (pipeline === "") throw validationFailed("pipeline cannot be an empty string");
  throw illegalArgument(`pipeline with id [${pipeline}] does not exist`);
}

/**
 * Checks an update's concurrency parameters as Elasticsearch's update validation does, before the
 * body's own checks: `if_seq_no` and `if_primary_term` come together, and a compare-and-write
 * update can be neither retried (`retry_on_conflict`) nor an upsert. Problems are reported in one
 * 400 `action_request_validation_exception` together with the body's.
 *
 * @param body The update body (already known to be an object).
 * @param opts The write options read from the parameters or bulk metadata.
 * @param retryOnConflict The `retry_on_conflict` value as given, undefined when absent.
 */
export function checkUpdateRequest(
  body: Record<string, unknown>,
  opts: WriteOptions,
  retryOnConflict: unknown,
): void {
  const problems = updateParamProblems(body, opts, retryOnConflict);
  if (problems.length > 0) validateUpdateBody(body, problems);
}

/**
 * The problems {@link checkUpdateRequest} reports before the body's own (a bad
 * `retry_on_conflict` is thrown at once, as a parse error).
 */
export function updateParamProblems(
  body: Record<string, unknown>,
  opts: WriteOptions,
  retryOnConflict: unknown,
): string[] {
  let retries = 0;
  if (retryOnConflict !== undefined && retryOnConflict !== null) {
    retries = Number(retryOnConflict);
    if (!Number.isInteger(retries) || String(retryOnConflict).trim() === "") {
      throw illegalArgument(
        `Failed to parse int parameter [retry_on_conflict] with value [${retryOnConflict}]`,
      );
    }
  }
  const problems: string[] = [];
  if (opts.ifSeqNo !== undefined && opts.ifPrimaryTerm === undefined) {
    problems.push("ifSeqNo is set, but primary term is [0]");
  }
  if (opts.ifSeqNo === undefined && opts.ifPrimaryTerm !== undefined) {
    problems.push(`ifSeqNo is unassigned, but primary term is [${opts.ifPrimaryTerm}]`);
  }
  if (opts.ifSeqNo !== undefined) {
    if (retries > 0) problems.push("compare and write operations can not be retried");
    if (body.doc_as_upsert === true) {
      problems.push("compare and write operations can not be used with upsert");
    }
    if (body.upsert !== undefined) {
      problems.push("upsert requests don't support `if_seq_no` and `if_primary_term`");
    }
  }
  return problems;
}

/**
 * The `version` a read (GET, `_source`, an `_mget` item) expects, checked as Elasticsearch checks
 * it: a long, a known `version_type`, and not negative (`-3`, "any version", is allowed).
 *
 * @param version The `version` value as given; undefined or null for none.
 * @param versionType The `version_type` value as given; undefined or null for `internal`.
 * @returns The expected version, or undefined when any version will do.
 */
export function readVersion(version: unknown, versionType: unknown): number | undefined {
  const type = versionType === undefined || versionType === null ? "internal" : String(versionType);
  if (!["internal", "external", "external_gte"].includes(type)) {
    throw illegalArgument(`No version type match [${type}]`);
  }
  const wanted = num("version", version);
  if (wanted === undefined || wanted === -3) return undefined;
  if (wanted < 0) {
    throw validationFailed(
      `illegal version value [${wanted}] for version type [${type.toUpperCase()}]`,
    );
  }
  return wanted;
}

/**
 * The routing of a single-document request addressed to `name`: an alias with an index routing
 * imposes it (on reads too), and refuses a different routing given with the request, as
 * Elasticsearch does; an index, or an alias without one, keeps the request's routing.
 *
 * @param cluster The cluster holding the alias.
 * @param name The index or alias the request names.
 * @param routing The request's routing, undefined for none.
 * @returns The routing to use.
 */
export function aliasRouting(
  cluster: Cluster,
  name: string,
  routing: string | undefined,
): string | undefined {
  if (cluster.indices.has(name)) return routing;
  const targets = cluster.aliasIndices(name);
  const writer = targets.length === 1
    ? targets[0]
    : targets.find((i) => i.aliases.get(name)?.is_write_index === true);
  const own = writer?.aliases.get(name)?.index_routing;
  if (own === undefined || own === null) return routing;
  if (own.includes(",")) {
    throw illegalArgument(
      `index/alias [${name}] provided with routing value [${own}] that resolved to several routing values, rejecting operation`,
    );
  }
  if (routing !== undefined && routing !== own) {
    throw illegalArgument(
      `Alias [${name}] has index routing associated with it [${own}], and was provided with routing value [${routing}], rejecting operation`,
    );
  }
  return own;
}
