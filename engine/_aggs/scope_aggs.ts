// Single-bucket aggregations that change the doc set: `global` (every doc of the targets),
// `nested` and `reverse_nested`. Nested objects are indexed flat (as objects are), so `nested`
// counts the objects under its path in the matching docs and runs its sub-aggregations over the
// docs holding them; `reverse_nested` goes back to those docs.

import { esError, illegalArgument, parsingError } from "../_errors.ts";
import { matchLive } from "../_query/query_exec.ts";
import type { AggFn, AggInput } from "./agg_values.ts";
import type { JsonObject } from "../_json.ts";

/** Runs sub-aggregations (handed in, so this file does not import the table that lists it). */
export type SubAggs = (sub: JsonObject, inputs: AggInput[]) => JsonObject;

let nestedDepth = 0;

/** The objects at a dotted path of a source (arrays flattened), as `nested` counts them. */
export function objectsAt(source: unknown, path: string): number {
  let level: unknown[] = [source];
  for (const part of path.split(".")) {
    const next: unknown[] = [];
    for (const o of level) {
      if (o === null || typeof o !== "object" || Array.isArray(o) || !Object.hasOwn(o, part)) {
        continue;
      }
      const v = (o as JsonObject)[part];
      if (Array.isArray(v)) next.push(...v.filter((x) => x !== null && typeof x === "object"));
      else if (v !== null && typeof v === "object") next.push(v);
    }
    level = next;
  }
  return level.length;
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
        docs: matchLive({ kind: "match_all", boost: 1 }, i.ctx, false).docs,
      }));
      let n = 0;
      for (const i of all) n += i.docs.length;
      return withCount(run, sub, all, n);
    },
    nested: (body, inputs, sub, name) => {
      if (typeof body.path !== "string") {
        throw parsingError(`Missing [path] field for nested aggregation [${name}]`);
      }
      const path = body.path;
      let count = 0;
      const holders = inputs.map((i) => {
        const docs = i.docs.filter((d) => {
          const n = objectsAt(i.ctx.snapshot.doc(d).source, path);
          count += n;
          return n > 0;
        });
        return { ctx: i.ctx, docs, ...(i.scored ? { scored: i.scored } : {}) };
      });
      nestedDepth++;
      try {
        return withCount(run, sub, holders, count);
      } finally {
        nestedDepth--;
      }
    },
    reverse_nested: (body, inputs, sub, name) => {
      if (nestedDepth === 0) {
        throw illegalArgument(
          `Reverse nested aggregation [${name}] can only be used inside a [nested] aggregation`,
        );
      }
      if (body.path !== undefined && typeof body.path !== "string") {
        throw parsingError(`[reverse_nested] aggregation [${name}]: [path] must be a string`);
      }
      let n = 0;
      for (const i of inputs) n += i.docs.length;
      return withCount(run, sub, inputs, n);
    },
  };
}
