// Single-bucket aggregations that change the doc set: `global` (every doc of the targets),
// `nested` (the objects under a nested path of the docs in scope, each counted and aggregated on
// its own) and `reverse_nested` (back from objects to their parents, or to an outer nested path).

import { esError, illegalArgument, parsingError } from "../_errors.ts";
import { lowerBound } from "../_index/sorted_search.ts";
import type { ExecContext } from "../_query/exec_context.ts";
import { nestedScope, scopeContext } from "../_query/nested_objects.ts";
import { matchLive } from "../_query/query_exec.ts";
import type { AggFn, AggInput } from "./agg_values.ts";
import type { JsonObject } from "../_json.ts";

/** Runs sub-aggregations (handed in, so this file does not import the table that lists it). */
export type SubAggs = (sub: JsonObject, inputs: AggInput[]) => JsonObject;

/** One `nested` aggregation being run: how its objects' contexts lead back to their parents. */
interface NestedFrame {
  readonly path: string;
  readonly links: Map<ExecContext, { outer: ExecContext; parent: Int32Array }>;
}

const frames: NestedFrame[] = [];

/** The objects whose parents are among `docs` (ascending), ascending; `parentOf` ascends too. */
function objectsOf(parentOf: Int32Array, docs: Int32Array): Int32Array {
  const out: number[] = [];
  let o = 0;
  for (const d of docs) {
    // The doc's first object, searched from where the last doc's objects ended.
    for (o = lowerBound(parentOf, d, o); o < parentOf.length && parentOf[o] === d; o++) {
      out.push(o);
    }
  }
  return Int32Array.from(out);
}

/** The distinct parents of `objects` (ascending), ascending. */
function parentsOf(parentOf: Int32Array, objects: Int32Array): Int32Array {
  const out: number[] = [];
  for (const o of objects) {
    const p = parentOf[o]!;
    if (out.length === 0 || out[out.length - 1] !== p) out.push(p);
  }
  return Int32Array.from(out);
}

/** Moves inputs up the nested frames: to the root, or to the objects of `path`. */
function reverse(inputs: AggInput[], path: string | undefined): AggInput[] {
  const out: AggInput[] = [];
  for (const input of inputs) {
    let ctx = input.ctx;
    let docs = input.docs;
    let reached = path === undefined;
    for (let k = frames.length - 1; k >= 0; k--) {
      const frame = frames[k]!;
      const link = frame.links.get(ctx);
      if (!link) break;
      if (frame.path === path) {
        reached = true;
        break;
      }
      docs = parentsOf(link.parent, docs);
      ctx = link.outer;
    }
    // A path that is not an outer nested path of this scope aggregates nothing, as when unmapped.
    out.push({ ctx, docs: reached ? docs : new Int32Array(0) });
  }
  return out;
}

function withCount(
  run: SubAggs,
  sub: JsonObject | undefined,
  inputs: AggInput[],
  count: number,
): JsonObject {
  return { doc_count: count, ...(sub ? run(sub, inputs) : {}) };
}

/** The `global`, `nested` and `reverse_nested` aggregations over a sub-aggregation runner. */
export function scopeAggs(run: SubAggs, topLevel: () => boolean): Record<string, AggFn> {
  return {
    global: (_body, inputs, sub, name) => {
      if (!topLevel()) {
        throw esError(
          "aggregation_execution_exception",
          `Aggregation [${name}] cannot have a global sub-aggregation [${name}]. Global aggregations can only be placed as top level aggregations`,
        );
      }
      const all = inputs.map((i) => ({
        ctx: i.ctx,
        docs: matchLive({ kind: "match_all", boost: 1 }, i.ctx, "filter").docs,
      }));
      let n = 0;
      for (const i of all) n += i.docs.length;
      return withCount(run, sub, all, n);
    },
    nested: (body, inputs, sub, name) => {
      if (typeof body.path !== "string") {
        throw parsingError(`Missing [path] field for nested aggregation [${name}]`);
      }
      const frame: NestedFrame = { path: body.path, links: new Map() };
      const objects: AggInput[] = [];
      let count = 0;
      for (const i of inputs) {
        // An unmapped path (or a plain object) has no nested objects: an empty bucket.
        if (!i.ctx.fields.nested.has(frame.path)) continue;
        const scope = nestedScope(i.ctx, frame.path);
        const ctx = scopeContext(i.ctx, scope, frame.path);
        const docs = objectsOf(scope.parent, i.docs);
        frame.links.set(ctx, { outer: i.ctx, parent: scope.parent });
        objects.push({ ctx, docs });
        count += docs.length;
      }
      frames.push(frame);
      try {
        return withCount(run, sub, objects, count);
      } finally {
        frames.pop();
      }
    },
    reverse_nested: (body, inputs, sub, name) => {
      if (frames.length === 0) {
        throw illegalArgument(
          `Reverse nested aggregation [${name}] can only be used inside a [nested] aggregation`,
        );
      }
      if (body.path !== undefined && typeof body.path !== "string") {
        throw parsingError(`[reverse_nested] aggregation [${name}]: [path] must be a string`);
      }
      const parents = reverse(inputs, body.path);
      let n = 0;
      for (const i of parents) n += i.docs.length;
      return withCount(run, sub, parents, n);
    },
  };
}
