// The `function_score` query: weights, field_value_factor, random_score and the decay functions
// (gauss, exp, linear on numbers, dates and geo points) combined with the query score through
// score_mode and boost_mode, as Elasticsearch's and OpenSearch's FunctionScoreQuery computes them:
// each function in doubles, `avg` divided by the weights of the functions that matched, the
// factor capped by max_boost and the combination rounded to a float; the query's boost goes to
// its inner query (so `replace` drops it), and min_score tests the final score.

import { illegalArgument, parsingError } from "../_errors.ts";
import { evalDateMath } from "../_index/dates.ts";
import { timeValueMs } from "../_index/time_value.ts";
// Java's String.hashCode, as the real engines salt and seed random scores with it.
import { javaStringHash as javaHash } from "../_index/java_order.ts";
import { arcDistance, javaDouble, parseDistance, parsePoint } from "../_index/geo.ts";
import { geoColumn } from "../_index/geo_values.ts";
import { routingShardsOf, shardFor } from "../_index/routing.ts";
import type { Hits } from "./doc_set.ts";
import type { ExecContext } from "./exec_context.ts";
import type { DecaySpec, QueryNode, QueryOf, ScoreFunction } from "./query_nodes.ts";

const DECAYS = new Set(["gauss", "exp", "linear"]);
const MULTI_VALUE_MODES = new Set(["min", "max", "avg", "sum"]);

function parseDecay(kind: string, v: unknown): DecaySpec {
  if (v === null || typeof v !== "object" || Array.isArray(v)) {
    throw parsingError(`[${kind}] malformed score function score, expected an object`);
  }
  let field: string | undefined;
  let spec: Record<string, unknown> | undefined;
  let mode = "min";
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (k === "multi_value_mode") {
      mode = String(x).toLowerCase();
      if (!MULTI_VALUE_MODES.has(mode)) {
        throw parsingError(`Unknown multi value mode [${x}]`);
      }
    } else if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      field = k;
      spec = x as Record<string, unknown>;
    }
  }
  if (field === undefined || spec === undefined) {
    throw parsingError(`[${kind}] malformed score function score, no field given`);
  }
  if (spec.scale === undefined) {
    throw parsingError(`[${kind}] must be set for field [${field}]: [scale]`);
  }
  const decay = spec.decay === undefined ? 0.5 : Number(spec.decay);
  return {
    fn: kind as DecaySpec["fn"],
    field,
    origin: spec.origin,
    scale: spec.scale,
    offset: spec.offset,
    decay,
    multiValueMode: mode,
  };
}

/** Parses one function object (`parseQuery` is passed in to parse filters). */
export function parseFunction(
  o: Record<string, unknown>,
  parseQuery: (q: unknown) => QueryNode,
): ScoreFunction {
  const fn: { -readonly [K in keyof ScoreFunction]: ScoreFunction[K] } = {};
  for (const [k, v] of Object.entries(o)) {
    if (k === "filter") fn.filter = parseQuery(v);
    else if (k === "weight") fn.weight = Number(v);
    else if (k === "field_value_factor") {
      const p = v as Record<string, unknown>;
      if (typeof p.field !== "string") {
        throw parsingError(`[field_value_factor] requires a [field]`);
      }
      fn.fieldValueFactor = {
        field: p.field,
        factor: Math.fround(Number(p.factor ?? 1)),
        modifier: String(p.modifier ?? "none"),
        missing: p.missing === undefined ? undefined : Number(p.missing),
      };
    } else if (k === "random_score") {
      const p = (v ?? {}) as Record<string, unknown>;
      if (p.seed !== undefined) fn.randomSeed = seedOf(p.seed);
      else fn.randomSeed = Math.floor(Math.random() * 2 ** 31); // a time-based seed in the engines
      // With a seed and no field the real engines hash `_seq_no` (and warn).
      if (typeof p.field === "string") fn.randomField = p.field;
      else if (p.seed !== undefined) fn.randomField = "_seq_no";
    } else if (DECAYS.has(k)) fn.decay = parseDecay(k, v);
    else throw parsingError(`function_score query does not support [${k}]`);
  }
  return fn;
}

/** The int a `random_score` seed becomes: an int as is, a long folded, a string's hashCode. */
function seedOf(v: unknown): number {
  if (typeof v === "string") return javaHash(v);
  const n = Number(v);
  if (Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31) return n | 0;
  const big = BigInt.asIntN(64, BigInt(Math.trunc(n)));
  return Number(BigInt.asIntN(32, big ^ (big >> 32n)));
}

const MODIFIERS: Record<string, (x: number) => number> = {
  none: (x) => x,
  log: (x) => Math.log10(x),
  log1p: (x) => Math.log10(x + 1),
  log2p: (x) => Math.log10(x + 2),
  ln: (x) => Math.log(x),
  ln1p: (x) => Math.log1p(x),
  ln2p: (x) => Math.log1p(x + 1),
  square: (x) => Math.pow(x, 2),
  sqrt: (x) => Math.sqrt(x),
  reciprocal: (x) => 1 / x,
};

/** The numeric doc values of `field` for `doc` (ascending, as Lucene keeps them). */
function numbersOf(ctx: ExecContext, field: string, doc: number): number[] {
  const view = ctx.snapshot.viewOf(doc);
  const f = view.segment.fields.get(field);
  const local = doc - view.base;
  if (!f?.numValues) return [];
  const out: number[] = [];
  for (let i = f.dvStart[local]!; i < f.dvStart[local + 1]!; i++) out.push(f.numValues[i]!);
  return out.sort((a, b) => a - b);
}

/** A time value (`10d`, `2h`, `30m`, `15s`, `500ms`; a bare number is millis) in millis. */
function timeValueOf(v: unknown, what: string): number {
  if (typeof v === "number") return v;
  const ms = timeValueMs(String(v), { bare: "millis" });
  if (Number.isNaN(ms)) {
    throw parsingError(
      `failed to parse setting [${what}] with value [${v}] as a time value: unit is missing or unrecognized`,
    );
  }
  return Math.trunc(ms);
}

function select(distances: number[], mode: string): number {
  switch (mode) {
    case "max":
      return Math.max(...distances);
    case "sum":
      return distances.reduce((a, b) => a + b, 0);
    case "avg":
      return distances.reduce((a, b) => a + b, 0) / distances.length;
    default:
      return Math.min(...distances);
  }
}

/** The decay function of a doc: 1 for a doc without a value (its distance counts as 0). */
function decayScorer(d: DecaySpec, ctx: ExecContext): (doc: number) => number {
  const info = ctx.fields.full.byPath.get(d.field);
  let scale: number;
  let distances: (doc: number) => number[];
  if (info?.type === "geo_point") {
    const origin = parsePoint(d.origin);
    scale = parseDistance(d.scale);
    const offset = d.offset === undefined ? 0 : parseDistance(d.offset);
    distances = (doc) => {
      const view = ctx.snapshot.viewOf(doc);
      const col = geoColumn(view.segment, d.field);
      const local = doc - view.base;
      const out: number[] = [];
      for (let i = col.start[local]!; i < col.start[local + 1]!; i++) {
        const meters = arcDistance(origin.lat, origin.lon, col.lat[i]!, col.lon[i]!);
        out.push(Math.max(0, meters - offset));
      }
      return out;
    };
  } else {
    let origin: number;
    let offset: number;
    if (info?.kind === "date") {
      origin = d.origin === undefined
        ? ctx.now
        : evalDateMath(d.origin, ctx.now, { format: info.format });
      scale = timeValueOf(d.scale, `${d.field}.scale`);
      offset = d.offset === undefined ? 0 : timeValueOf(d.offset, `${d.field}.offset`);
    } else {
      if (d.origin === undefined) {
        throw parsingError(`[${d.fn}] must be set for numeric fields.`);
      }
      origin = Number(d.origin);
      scale = Number(d.scale);
      offset = d.offset === undefined ? 0 : Number(d.offset);
    }
    distances = (doc) =>
      numbersOf(ctx, d.field, doc).map((v) => Math.max(0, Math.abs(v - origin) - offset));
  }
  const decay = d.decay;
  let evaluate: (distance: number) => number;
  if (d.fn === "gauss") {
    const s = 0.5 * Math.pow(scale, 2) / Math.log(decay);
    evaluate = (v) => Math.exp(0.5 * Math.pow(v, 2) / s);
  } else if (d.fn === "exp") {
    const s = Math.log(decay) / scale;
    evaluate = (v) => Math.exp(s * v);
  } else {
    const s = scale / (1 - decay);
    evaluate = (v) => Math.max(0, (s - v) / s);
  }
  return (doc) => {
    const ds = distances(doc);
    return evaluate(ds.length === 0 ? 0 : select(ds, d.multiValueMode));
  };
}

/** BitMixer.mix32 (murmur3's finaliser). */
function mix32(k: number): number {
  k = Math.imul(k ^ (k >>> 16), 0x85ebca6b);
  k = Math.imul(k ^ (k >>> 13), 0xc2b2ae35);
  return (k ^ (k >>> 16)) | 0;
}

/** Lucene's `StringHelper.murmurhash3_x86_32` of UTF-8 bytes. */
function murmurBytes(bytes: Uint8Array, seed: number): number {
  const mix = (k: number) =>
    Math.imul((Math.imul(k, 0xcc9e2d51) << 15) | (Math.imul(k, 0xcc9e2d51) >>> 17), 0x1b873593);
  let h = seed | 0;
  const blocks = bytes.length & ~3;
  for (let i = 0; i < blocks; i += 4) {
    h ^= mix(bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24));
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  let k = 0;
  switch (bytes.length & 3) {
    case 3:
      k = bytes[blocks + 2]! << 16;
    // falls through
    case 2:
      k |= bytes[blocks + 1]! << 8;
    // falls through
    case 1:
      k |= bytes[blocks]!;
      h ^= mix(k);
  }
  h ^= bytes.length;
  return mix32(h);
}

const utf8 = new TextEncoder();

/**
 * `random_score`: a value in [0, 1) from the murmur3 of the doc's first value of `field` (or of
 * its Lucene doc id without one), salted by the index name and the shard, as the real engines
 * draw it; a doc without a value takes the salted seed itself.
 */
function randomScorer(fn: ScoreFunction, ctx: ExecContext): (doc: number) => number {
  const shards = ctx.shards ?? 1;
  const routing = routingShardsOf(ctx);
  const nameHash = javaHash(ctx.index) << 10;
  const field = fn.randomField;
  return (doc) => {
    const stored = ctx.snapshot.doc(doc);
    const shard = shards > 1 ? shardFor(stored.routing ?? stored.id, shards, routing) : 0;
    const salted = mix32(fn.randomSeed! ^ (nameHash | shard));
    let hash: number;
    if (field === undefined) hash = mix32(doc ^ salted);
    else {
      const value = firstValue(ctx, field, doc);
      hash = value === undefined ? salted : murmurBytes(utf8.encode(value), salted);
    }
    return Math.fround((hash & 0x00ffffff) / (1 << 24));
  };
}

/** The first doc value of a field as the bytes Elasticsearch hashes spell it. */
function firstValue(ctx: ExecContext, field: string, doc: number): string | undefined {
  const stored = ctx.snapshot.doc(doc);
  if (field === "_seq_no") return String(stored.seqNo);
  if (field === "_id") return stored.id;
  const view = ctx.snapshot.viewOf(doc);
  const f = view.segment.fields.get(field);
  const local = doc - view.base;
  if (!f || f.dvStart[local]! >= f.dvStart[local + 1]!) return undefined;
  const i = f.dvStart[local]!;
  if (f.strValues) {
    const strs = [...f.strValues.slice(i, f.dvStart[local + 1]!)].map(String).sort();
    return strs[0];
  }
  if (f.numValues) return String(Math.min(...numbersOf(ctx, field, doc)));
  return undefined;
}

/** The scorer of one function for a doc, its weight applied. */
function scorerOf(fn: ScoreFunction, ctx: ExecContext): (doc: number) => number {
  const weight = fn.weight === undefined ? undefined : Math.fround(fn.weight);
  let inner: ((doc: number) => number) | undefined;
  if (fn.fieldValueFactor) {
    const f = fn.fieldValueFactor;
    const modifier = Object.hasOwn(MODIFIERS, f.modifier) ? MODIFIERS[f.modifier] : undefined;
    if (!modifier) throw parsingError(`Illegal modifier [${f.modifier}] for field_value_factor`);
    inner = (doc) => {
      const values = numbersOf(ctx, f.field, doc);
      const x = values.length ? values[0]! : f.missing;
      if (x === undefined) throw parsingError(`Missing value for field [${f.field}]`);
      const result = modifier(x * f.factor);
      if (result < 0) {
        const hint = f.modifier === "ln" || f.modifier === "log"
          ? `; consider using ${f.modifier}1p or ${f.modifier}2p instead of ${f.modifier} to avoid negative scores`
          : "";
        throw illegalArgument(
          `field value function must not produce negative scores, but got: [${
            javaDouble(result)
          }] for field value: [${javaDouble(x)}]${hint}`,
        );
      }
      return result;
    };
  } else if (fn.decay) inner = decayScorer(fn.decay, ctx);
  else if (fn.randomSeed !== undefined) inner = randomScorer(fn, ctx);
  if (!inner) return () => weight ?? 1;
  if (weight === undefined) return inner;
  const score = inner;
  return (doc) => score(doc) * weight;
}

/** The functions' factor for a doc under `scoreMode` (1 when no function applies). */
function combine(
  values: readonly number[],
  weights: readonly number[],
  mode: string,
): number {
  if (values.length === 0) return 1;
  switch (mode) {
    case "first":
      return values[0]!;
    case "max":
      return Math.max(...values);
    case "min":
      return Math.min(...values);
    case "sum":
    case "avg": {
      let total = 0;
      let weightSum = 0;
      values.forEach((v, i) => {
        total += v;
        weightSum += weights[i]!;
      });
      if (weightSum === 0) return 1;
      return mode === "avg" ? total / weightSum : total;
    }
    default:
      return values.reduce((a, b) => a * b, 1);
  }
}

function apply(score: number, factor: number, mode: string, maxBoost: number): number {
  const f = Math.min(factor, maxBoost);
  switch (mode) {
    case "replace":
      return Math.fround(f);
    case "sum":
      return Math.fround(score + f);
    case "avg":
      return Math.fround((f + score) / 2);
    case "max":
      return Math.fround(Math.max(score, f));
    case "min":
      return Math.fround(Math.min(score, f));
    default:
      return Math.fround(score * f);
  }
}

/**
 * Rescores `hits` with the query's functions; `filters` holds each function's matching docs (or
 * null).
 */
export function applyFunctions(
  hits: Hits,
  ctx: ExecContext,
  o: QueryOf<"function_score">,
  filters: ReadonlyArray<Set<number> | null>,
): Hits {
  const functions = o.functions;
  const scorers = functions.map((fn) => scorerOf(fn, ctx));
  const weights = functions.map((fn) => Math.fround(fn.weight ?? 1));
  const maxBoost = Math.fround(o.maxBoost);
  const docs: number[] = [];
  const scores: number[] = [];
  for (let i = 0; i < hits.docs.length; i++) {
    const doc = hits.docs[i]!;
    // The boost reaches the inner query's score (BoostQuery hands it down).
    const queryScore = Math.fround((hits.scores ? hits.scores[i]! : 1) * o.boost);
    let score = queryScore;
    if (functions.length > 0) {
      const values: number[] = [];
      const matched: number[] = [];
      functions.forEach((_, k) => {
        if (filters[k] && !filters[k]!.has(doc)) return;
        if (o.scoreMode === "first" && values.length > 0) return;
        values.push(scorers[k]!(doc));
        matched.push(weights[k]!);
      });
      score = apply(queryScore, combine(values, matched, o.scoreMode), o.boostMode, maxBoost);
    }
    if (o.minScore !== undefined && score < o.minScore) continue;
    docs.push(doc);
    scores.push(score);
  }
  return { docs: Int32Array.from(docs), scores: Float64Array.from(scores) };
}
