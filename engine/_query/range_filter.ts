// A numeric or date `range` beside a smaller required clause, checked on that clause's docs by
// their doc values instead of collecting every doc in the range (at a million documents a wide
// range is hundreds of thousands of docs, sorted, for a conjunction of a few thousand).

import { type Exact, toDouble } from "../_index/exact_long.ts";
import { type FieldIndex, numAt } from "../_index/segment.ts";
import { lowerBound, upperBound } from "../_index/sorted_search.ts";
import type { ExecContext } from "./exec_context.ts";
import type { QueryNode } from "./query_nodes.ts";
import { rangeBounds } from "./range_query.ts";

/** Inclusive bounds of a range over one field. */
export interface NumericRange {
  /** Field path. */
  readonly path: string;
  /** Lowest value in range. */
  readonly lo: Exact;
  /** Highest value in range. */
  readonly hi: Exact;
}

/**
 * The bounds of a filter clause that can be checked by doc values (a `range` on a number or
 * date field whose every segment keeps doc values), or null.
 */
export function checkableRange(q: QueryNode, ctx: ExecContext): NumericRange | null {
  if (q.kind !== "range") return null;
  const bounds = rangeBounds(q, ctx);
  if (!bounds) return null;
  for (const v of ctx.snapshot.views) {
    const f = v.segment.fields.get(bounds.path);
    if (f && (f.pointValues !== null) !== (f.numValues !== null)) return null;
  }
  return bounds;
}

/** How many docs the range holds at most (its points), to compare with a conjunction's size. */
export function rangeSizeAtMost(r: NumericRange, ctx: ExecContext): number {
  let n = 0;
  for (const v of ctx.snapshot.views) {
    const values = v.segment.fields.get(r.path)?.pointValues;
    if (!values) continue;
    n += upper(values, r.hi) - lower(values, r.lo);
  }
  return n;
}

// A neighbour's double may round onto a bound: one more value each side is counted.
function lower(values: ArrayLike<number>, lo: Exact): number {
  return Math.max(0, lowerBound(values, Number(lo)) - 1);
}

function upper(values: ArrayLike<number>, hi: Exact): number {
  return Math.min(values.length, upperBound(values, Number(hi)) + 1);
}

/**
 * The docs of `docs` (global ordinals, ascending) with a value of the range's field within its
 * bounds, compared exactly (whole numbers beyond 2^53 by their digits).
 */
export function docsInRange(ctx: ExecContext, docs: Int32Array, r: NumericRange): Int32Array {
  const out = new Int32Array(docs.length);
  let k = 0;
  const views = ctx.snapshot.views;
  // Without exact values a field holds doubles, compared with the bounds' doubles as the points are.
  const loD = toDouble(r.lo);
  const hiD = toDouble(r.hi);
  let vi = -1;
  let base = 0;
  let next = 0; // first ordinal past the current view
  let f: FieldIndex | undefined;
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i]!;
    if (d >= next) {
      // Docs ascend: move to the view holding d, reading its field once.
      do vi++; while (vi + 1 < views.length && views[vi + 1]!.base <= d);
      const v = views[vi]!;
      base = v.base;
      next = vi + 1 < views.length ? views[vi + 1]!.base : 0x7fffffff;
      f = v.segment.fields.get(r.path);
    }
    if (!f?.numValues) continue;
    const values = f.numValues;
    const local = d - base;
    const end = f.dvStart[local + 1]!;
    for (let j = f.dvStart[local]!; j < end; j++) {
      const inside = f.exact
        ? numAt(f, j) >= r.lo && numAt(f, j) <= r.hi
        : values[j]! >= loD && values[j]! <= hiD;
      if (inside) {
        out[k++] = d;
        break;
      }
    }
  }
  return out.subarray(0, k);
}
