// The indices a request names: the `{index}` path parameter resolved with the request's
// ignore_unavailable / allow_no_indices / expand_wildcards options.

import type { IndexState } from "../_state/index_state.ts";
import type { ResolveOptions } from "../_state/cluster.ts";
import { boolParam, type RequestContext } from "./context.ts";

/** ignore_unavailable / allow_no_indices / expand_wildcards from the query string. */
export function resolveOptions(ctx: RequestContext, defaults: ResolveOptions = {}): ResolveOptions {
  const expand = ctx.params.get("expand_wildcards");
  const opts: ResolveOptions = { ...defaults };
  if (ctx.params.has("ignore_unavailable")) {
    opts.ignoreUnavailable = boolParam(ctx, "ignore_unavailable");
  }
  if (ctx.params.has("allow_no_indices")) opts.allowNoIndices = boolParam(ctx, "allow_no_indices");
  if (expand !== null) {
    opts.expandClosed = expand.includes("closed") || expand.includes("all");
    opts.expandOpen = expand.includes("open") || expand.includes("all");
  }
  return opts;
}

/** Resolves the `{index}` path parameter (or all indices). */
export function targets(ctx: RequestContext, defaults: ResolveOptions = {}): IndexState[] {
  return ctx.state.cluster.resolve(ctx.p.index, resolveOptions(ctx, defaults));
}
