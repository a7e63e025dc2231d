// Metric aggregations: min, max, avg, sum, value_count, cardinality, stats, extended_stats, percentiles.

import { illegalArgument } from "../_errors.ts";
import {
  type AggFn,
  type AggInput,
  badField,
  eachValue,
  eachValueOrMissing,
  fieldOf,
  numericOnly,
  valueFormat,
} from "./agg_values.ts";
import type { JsonObject } from "../_json.ts";
import { percentileValues, withValueStrings } from "./value_strings.ts";
import type { ExecContext } from "../_query/exec_context.ts";
import type { ShardSnapshot } from "../_index/shard_snapshot.ts";
import { shardFor, splitRoutingShards } from "../_index/routing.ts";

/**
 * Elasticsearch's compensated (Kahan) sum, added to one value at a time; a non-finite value makes
 * the sum non-finite for good.
 */
class CompensatedSum {
  value = 0;
  #delta = 0;
  add(x: number): void {
    if (!Number.isFinite(x)) this.value = x + this.value;
    if (Number.isFinite(this.value)) {
      const corrected = x + this.#delta;
      const updated = this.value + corrected;
      this.#delta = corrected - (updated - this.value);
      this.value = updated;
    }
  }
}

/**
 * A sum as Elasticsearch computes it: compensated per shard, then the shards' sums compensated in
 * shard order (so large values add up to the same last digits).
 */
function shardSum(groups: readonly (readonly number[])[], f: (x: number) => number): number {
  const total = new CompensatedSum();
  for (const g of groups) {
    const part = new CompensatedSum();
    for (const x of g) part.add(f(x));
    total.add(part.value);
  }
  return total.value;
}

/**
 * The values of a field per shard, each shard's in document order (as Lucene collects them), with
 * the field's info.
 */
function valuesPerShard(
  inputs: AggInput[],
  body: JsonObject,
  field: string,
): { groups: number[][]; info: ReturnType<typeof eachValueOrMissing> } {
  const byInput = new Map<AggInput, { docs: number[]; values: number[] }>(
    inputs.map((i) => [i, { docs: [], values: [] }]),
  );
  const info = eachValueOrMissing(inputs, body, field, (v, d, input) => {
    const at = byInput.get(input);
    at?.docs.push(d);
    at?.values.push(Number(v));
  });
  const groups: number[][] = [];
  for (const [input, { docs, values }] of byInput) groups.push(...byShard(input.ctx, docs, values));
  return { groups, info };
}

/** Splits one target's values (of `docs`, global ordinals) by shard, each in document order. */
function byShard(ctx: ExecContext, docs: number[], values: number[]): number[][] {
  let order: number[] | null = null;
  for (let i = 1; i < docs.length; i++) {
    if (docs[i]! < docs[i - 1]!) {
      // A `missing` value comes after the field's own: put it back at its document (stable).
      order = docs.map((_, j) => j).sort((a, b) => docs[a]! - docs[b]!);
      break;
    }
  }
  const inOrder = order ? order.map((j) => values[j]!) : values;
  const shards = documentShards(ctx);
  if (!shards) return [inOrder];
  const groups: number[][] = Array.from({ length: ctx.shards ?? 1 }, () => []);
  const docOrder = order ? order.map((j) => docs[j]!) : docs;
  inOrder.forEach((x, i) => groups[shards[docOrder[i]!]!]!.push(x));
  return groups;
}

const shardCache = new WeakMap<ShardSnapshot, Uint16Array>();

/**
 * The shard of every document of a target by global ordinal (each routed by murmur3 of its routing
 * or `_id`, as the real engines route it), or null for a one-shard index.
 */
function documentShards(ctx: ExecContext): Uint16Array | null {
  const shards = ctx.shards ?? 1;
  if (shards <= 1) return null;
  const known = shardCache.get(ctx.snapshot);
  if (known) return known;
  const routingShards = ctx.flavour === "opensearch" ? splitRoutingShards(shards) : shards;
  const out = new Uint16Array(ctx.snapshot.maxDoc);
  for (const v of ctx.snapshot.views) {
    v.segment.docs.forEach((doc, local) => {
      out[v.base + local] = shardFor(doc.routing ?? doc.id, shards, routingShards);
    });
  }
  shardCache.set(ctx.snapshot, out);
  return out;
}

const same = (x: number) => x;

function metric(kind: "min" | "max" | "avg" | "sum"): AggFn {
  return (body, inputs, _sub, name) => {
    const field = fieldOf(body, name, kind);
    numericOnly(inputs, field, kind);
    let n = 0;
    let lo = Infinity;
    let hi = -Infinity;
    const { groups, info } = valuesPerShard(inputs, body, field);
    for (const g of groups) {
      for (const x of g) {
        n++;
        if (x < lo) lo = x;
        if (x > hi) hi = x;
      }
    }
    const total = shardSum(groups, same);
    const value = kind === "sum"
      ? total
      : n === 0
      ? null
      : kind === "avg"
      ? total / n
      : kind === "min"
      ? lo
      : hi;
    const out: JsonObject = { value };
    const text = valueFormat(body, info);
    if (text && value !== null) out.value_as_string = text(value);
    return out;
  };
}

/** The `percents` of a `percentiles` body (the defaults when absent), checked as Elasticsearch does. */
function percentsOf(body: JsonObject, name: string): number[] {
  if (!Object.hasOwn(body, "percents")) return [1, 5, 25, 50, 75, 95, 99];
  const raw = body.percents;
  if (raw === null) throw illegalArgument(`[percents] must not be null: [${name}]`);
  if (!Array.isArray(raw) || raw.length === 0) {
    throw illegalArgument(`[percents] must not be empty: [${name}]`);
  }
  return raw.map((p) => {
    if (typeof p !== "number") {
      throw badField(
        "percentiles",
        "percents",
        `[percents] must be numbers, found [${JSON.stringify(p)}]`,
      );
    }
    if (p < 0 || p > 100) {
      throw illegalArgument(`percent must be in [0,100], got [${p}]: [${name}]`);
    }
    return p;
  });
}

/** Checks the `tdigest` and `hdr` settings (the engine's percentiles are exact either way). */
function checkDigest(body: JsonObject, name: string): void {
  const compression = (body.tdigest as JsonObject | undefined)?.compression;
  if (compression !== undefined && !(Number(compression) >= 0)) {
    const shown = Number.isInteger(compression) ? `${compression}.0` : String(compression);
    throw illegalArgument(
      `[compression] must be greater than or equal to 0. Found [${shown}] in [${name}]`,
    );
  }
  const digits = (body.hdr as JsonObject | undefined)?.number_of_significant_value_digits;
  if (digits !== undefined && !(Number(digits) >= 0 && Number(digits) <= 5)) {
    throw illegalArgument(`[numberOfSignificantValueDigits] must be between 0 and 5: [${name}]`);
  }
}

/** A percentile of sorted values, interpolating between unit-weight centroids as a t-digest does. */
function percentile(sorted: number[], p: number): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  const target = (p / 100) * n;
  if (target <= 0.5) return sorted[0]!;
  if (target >= n - 0.5) return sorted[n - 1]!;
  const i = Math.floor(target - 0.5);
  const frac = target - 0.5 - i;
  return sorted[i]! + frac * (sorted[i + 1]! - sorted[i]!);
}

const min = (vs: number[]) => vs.reduce((a, b) => (b < a ? b : a), Infinity);
const max = (vs: number[]) => vs.reduce((a, b) => (b > a ? b : a), -Infinity);

/** `weighted_avg`: Σ(value·weight) / Σweight over docs having both (or their `missing`). */
function weightedAvg(body: JsonObject, inputs: AggInput[], name: string): JsonObject {
  const side = (k: "value" | "weight"): JsonObject => {
    const v = body[k];
    if (v === null || typeof v !== "object" || typeof (v as JsonObject).field !== "string") {
      throw illegalArgument(
        `[${k}] must be specified with a [field] for [weighted_avg] aggregation [${name}]`,
      );
    }
    return v as JsonObject;
  };
  const value = side("value");
  const weight = side("weight");
  let num = 0;
  let den = 0;
  for (const input of inputs) {
    const weights = new Map<number, number>();
    eachValueOrMissing([input], weight, String(weight.field), (w, d) => {
      if (weights.has(d)) {
        throw illegalArgument(
          "Encountered more than one weight for a single document. Use a script to combine multiple weights-per-doc into a single value.",
        );
      }
      weights.set(d, Number(w));
    });
    eachValueOrMissing([input], value, String(value.field), (v, d) => {
      const w = weights.get(d);
      if (w === undefined) return;
      num += Number(v) * w;
      den += w;
    });
  }
  return { value: den === 0 ? null : num / den };
}

/** Reads `sigma`, refusing a negative one as Elasticsearch does. */
export function sigmaOf(raw: unknown, type: string): number {
  const sigma = raw === undefined || raw === null ? 2 : Number(raw);
  if (!(sigma >= 0)) {
    const shown = Number.isInteger(sigma) ? `${sigma}.0` : String(raw);
    throw badField(type, "sigma", `[sigma] must be greater than or equal to 0. Found [${shown}]`);
  }
  return sigma;
}

/** `extended_stats` of a list of values (also `extended_stats_bucket`). */
export function extendedStats(
  vs: number[],
  rawSigma: unknown,
  type: string,
  groups: readonly (readonly number[])[] = [vs],
): JsonObject {
  const sigma = sigmaOf(rawSigma, type);
  const n = vs.length;
  const total = shardSum(groups, same);
  const squares = shardSum(groups, (x) => x * x);
  const avg = n ? total / n : null;
  const deviations = n ? Math.max(0, squares - total * total / n) : 0;
  const variance = n ? deviations / n : null;
  // One value has no sample variance: real Elasticsearch 9.5.4 and OpenSearch 3.8.0 write the
  // Java NaN as the text "NaN" there (and null for no value at all).
  const sampleVariance = n > 1 ? deviations / (n - 1) : n === 1 ? "NaN" : null;
  const std = variance === null ? null : Math.sqrt(variance);
  const stdSample = typeof sampleVariance === "number" ? Math.sqrt(sampleVariance) : sampleVariance;
  const bounds = (s: number | string | null) =>
    avg === null || s === null
      ? { upper: null, lower: null }
      : typeof s === "string"
      ? { upper: s, lower: s }
      : { upper: avg + sigma * s, lower: avg - sigma * s };
  return {
    count: n,
    min: n ? min(vs) : null,
    max: n ? max(vs) : null,
    avg,
    sum: total,
    sum_of_squares: n ? squares : null,
    variance,
    variance_population: variance,
    variance_sampling: sampleVariance,
    std_deviation: std,
    std_deviation_population: std,
    std_deviation_sampling: stdSample,
    std_deviation_bounds: {
      ...bounds(std),
      upper_population: bounds(std).upper,
      lower_population: bounds(std).lower,
      upper_sampling: bounds(stdSample).upper,
      lower_sampling: bounds(stdSample).lower,
    },
  };
}

/** Metric aggregations by type name. */
export const METRIC_AGGS: Record<string, AggFn> = {
  min: metric("min"),
  max: metric("max"),
  avg: metric("avg"),
  sum: metric("sum"),
  weighted_avg: (body, inputs, _s, name) => weightedAvg(body, inputs, name),
  value_count: (body, inputs, _s, name) => {
    let n = 0;
    eachValueOrMissing(inputs, body, fieldOf(body, name, "value_count"), () => n++);
    return { value: n };
  },
  cardinality: (body, inputs, _s, name) => {
    const threshold = body.precision_threshold;
    if (threshold !== undefined && !(Number(threshold) >= 0)) {
      throw badField(
        "cardinality",
        "precision_threshold",
        `[precisionThreshold] must be greater than or equal to 0. Found [${threshold}] in [${name}]`,
      );
    }
    const set = new Set<number | string | bigint>();
    const field = fieldOf(body, name, "cardinality");
    if (body.missing === undefined || body.missing === null) {
      eachValue(inputs, field, (v: number | string | bigint) => set.add(v), true); // exact longs
    } else eachValueOrMissing(inputs, body, field, (v) => set.add(v));
    return { value: set.size };
  },
  stats: (body, inputs, _s, name) => {
    const { groups, info } = valuesPerShard(inputs, body, fieldOf(body, name, "stats"));
    const vs = groups.flat();
    const n = vs.length;
    const total = shardSum(groups, same);
    return withValueStrings({
      count: n,
      min: n ? min(vs) : null,
      max: n ? max(vs) : null,
      avg: n ? total / n : null,
      sum: total,
    }, valueFormat(body, info));
  },
  extended_stats: (body, inputs, _s, name) => {
    const { groups, info } = valuesPerShard(inputs, body, fieldOf(body, name, "extended_stats"));
    return withValueStrings(
      extendedStats(groups.flat(), body.sigma, "extended_stats", groups),
      valueFormat(body, info),
    );
  },
  percentiles: (body, inputs, _s, name) => {
    const percents = percentsOf(body, name);
    checkDigest(body, name);
    const field = fieldOf(body, name, "percentiles");
    numericOnly(inputs, field, "percentiles");
    const vs: number[] = [];
    const info = eachValueOrMissing(inputs, body, field, (v) => vs.push(Number(v)));
    vs.sort((a, b) => a - b);
    const text = valueFormat(body, info);
    const entries = percents.map((p) =>
      [Number.isInteger(p) ? `${p}.0` : String(p), percentile(vs, p)] as const
    );
    return percentileValues(entries, body.keyed, text);
  },
};
