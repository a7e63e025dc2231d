// POST /_forcemerge, /{index}/_forcemerge: merges each index's segments now and answers when done.

import { validationFailed } from "../_errors.ts";
import { boolParam, intParam, ok, type Reply, type RequestContext } from "./context.ts";
import { broadcastShards, targets } from "./targets.ts";

/**
 * Runs a running background merge to its end, then merges down to `max_num_segments` (default:
 * whatever the merge policy wants, i.e. only finishing the running merge); `only_expunge_deletes`
 * merges the segments that hold deletions. Answers `_shards` as Elasticsearch does.
 */
export function forceMergeHandler(ctx: RequestContext): Reply {
  const max = intParam(ctx, "max_num_segments");
  const expunge = boolParam(ctx, "only_expunge_deletes");
  boolParam(ctx, "flush", true);
  if (expunge && max !== undefined) {
    throw validationFailed("cannot set only_expunge_deletes and max_num_segments at the same time");
  }
  const found = targets(ctx);
  for (const index of found) {
    // -1 is Elasticsearch's "unset": the merge policy decides.
    index.forceMerge(max === undefined || max < 0 ? Infinity : max, expunge);
  }
  return ok({ _shards: broadcastShards(found) });
}
