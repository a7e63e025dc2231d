// The indices a request names: the `{index}` path parameter resolved with the request's
// ignore_unavailable / allow_no_indices / expand_wildcards options.

import type { IndexState } from "../_state/index_state.ts";
import type { ResolveOptions } from "../_state/cluster.ts";
import { illegalArgument } from "../_errors.ts";
import type { RequestContext } from "./context.ts";

/**
 * An index option flag as Elasticsearch reads it: blank keeps the default, `true`/`false`, and
 * anything else is a 400 caused by the boolean parser's complaint.
 */
function optionFlag(ctx: RequestContext, name: string): boolean | undefined {
  const raw = ctx.params.get(name);
  if (raw === null || raw.trim() === "") return undefined;
  if (raw === "true" || raw === "false") return raw === "true";
  throw illegalArgument(
    `Could not convert [${name}] to boolean`,
    illegalArgument(`Failed to parse value [${raw}] as only [true] or [false] are allowed.`),
  );
}

/** The `expand_wildcards` states (`open`, `closed`, `hidden`, `none`, `all`), checked. */
function expandStates(raw: string): { open: boolean; closed: boolean; hidden: boolean } {
  const states = { open: false, closed: false, hidden: false };
  for (const state of raw.split(",").filter((s) => s !== "")) {
    if (state === "open") states.open = true;
    else if (state === "closed") states.closed = true;
    else if (state === "all") states.open = states.closed = states.hidden = true;
    else if (state === "none") states.open = states.closed = states.hidden = false;
    else if (state === "hidden") states.hidden = true;
    else {
      throw illegalArgument(`No valid expand wildcard value [${state}]`);
    }
  }
  return states;
}

/** ignore_unavailable / allow_no_indices / expand_wildcards from the query string. */
export function resolveOptions(ctx: RequestContext, defaults: ResolveOptions = {}): ResolveOptions {
  const expand = ctx.params.get("expand_wildcards");
  const opts: ResolveOptions = { ...defaults };
  const ignoreUnavailable = optionFlag(ctx, "ignore_unavailable");
  if (ignoreUnavailable !== undefined) opts.ignoreUnavailable = ignoreUnavailable;
  const allowNoIndices = optionFlag(ctx, "allow_no_indices");
  if (allowNoIndices !== undefined) opts.allowNoIndices = allowNoIndices;
  if (expand !== null) {
    const states = expandStates(expand);
    opts.expandClosed = states.closed;
    opts.expandOpen = states.open;
    opts.expandHidden = states.hidden;
  }
  return opts;
}

/** Resolves the `{index}` path parameter (or all indices). */
export function targets(ctx: RequestContext, defaults: ResolveOptions = {}): IndexState[] {
  return ctx.state.cluster.resolve(ctx.p.index, resolveOptions(ctx, defaults));
}

/**
 * The `_shards` of an action broadcast to `indices`' shards: every copy counted, the primaries
 * answering (the replicas of a one-node cluster are unassigned), none failing.
 */
export function broadcastShards(
  indices: readonly IndexState[],
): { total: number; successful: number; failed: number } {
  let total = 0;
  let successful = 0;
  for (const index of indices) {
    total += index.shardCount * (1 + index.replicas);
    successful += index.shardCount;
  }
  return { total, successful, failed: 0 };
}
