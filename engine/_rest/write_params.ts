// Reading the write parameters shared by index, create, update, delete and bulk items.

import { EngineError, esError, illegalArgument, validationFailed } from "../_errors.ts";
import { parseKeepAlive } from "../_search/keep_alive.ts";
import type { IndexState } from "../_state/index_state.ts";
import type { WriteOptions } from "../_state/writes.ts";

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
  opts.ifPrimaryTerm = num("if_primary_term", get("if_primary_term"));
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
  if (id.length * 3 > 512 && new TextEncoder().encode(id).length > 512) {
    throw validationFailed(
      `id [${id}] is too long, must be no longer than 512 bytes but was: ${
        new TextEncoder().encode(id).length
      }`,
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
