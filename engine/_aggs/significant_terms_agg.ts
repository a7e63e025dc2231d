// `significant_terms`: terms unusually frequent in the matching docs (the foreground) compared
// with every doc of the targets, or those of a `background_filter` (the background). Scored by
// JLH (the default), `mutual_information`, `chi_square`, `gnd` or `percentage`, as the real
// engines compute it: each shard scores its own foreground terms with its own counts and returns
// its best `shard_size`; the reduce sums the counts of the shards that returned a term, rescores,
// and keeps the best `size` in the order its Java HashMap and Lucene PriorityQueue leave ties in.
// The background without a filter is every document of the shard: OpenSearch counts Lucene's
// `maxDoc` (nested objects and deletions not yet merged included), Elasticsearch the live
// top-level documents when the index maps nested fields (else `maxDoc` too).

import { EngineError, illegalArgument, parsingError } from "../_errors.ts";
import { consumeBuckets } from "../_index/limits.ts";
import { routingShardsOf, shardFor } from "../_index/routing.ts";
import { matchLive } from "../_query/query_exec.ts";
import { parseQuery } from "../_query/query_parser.ts";
import { type AggInput, fieldOf, keyFilter, positiveSetting, valueFormat } from "./agg_values.ts";
import type { BucketDocs, SubRunner } from "./bucket_aggs.ts";
import { docParts, keyId, type Part, partComparator } from "./compound_keys.ts";
import type { JsonObject } from "../_json.ts";
import type { QueryNode } from "../_query/query_nodes.ts";
import { hashMapOrder, LuceneQueue, pagedHashOrder } from "../_index/java_order.ts";

/** Frequencies a heuristic scores: the term's docs in each set and the sets' sizes. */
interface Freqs {
  readonly subsetFreq: number;
  readonly subsetSize: number;
  readonly supersetFreq: number;
  readonly supersetSize: number;
}

type Heuristic = (f: Freqs) => number;

function jlh(f: Freqs): number {
  if (f.subsetSize === 0 || f.supersetSize === 0) return 0;
  const sub = f.subsetFreq / f.subsetSize;
  // A term missing from a background that is not a superset counts once (no division by zero).
  const sup = (f.supersetFreq === 0 ? 1 : f.supersetFreq) / f.supersetSize;
  const absolute = sub - sup;
  return absolute <= 0 ? 0 : absolute * (sub / sup);
}

/** The 2x2 contingency table of the NXY heuristics (term in/out of the subset, in/out of the rest). */
/** What the background set is: the whole index (`background_is_superset`), or the rest apart. */
type Background = "superset" | "separate";

function table(f: Freqs, background: Background) {
  const { subsetFreq: sf, subsetSize: ss, supersetFreq: bf, supersetSize: bs } = f;
  return background === "superset"
    ? {
      n00: bs - bf - (ss - sf),
      n01: ss - sf,
      n10: bf - sf,
      n11: sf,
      n0_: bs - bf,
      n1_: bf,
      n_0: bs - ss,
      n_1: ss,
      n: bs,
    }
    : {
      n00: bs - bf,
      n01: ss - sf,
      n10: bf,
      n11: sf,
      n0_: bs - bf + ss - sf,
      n1_: bf + sf,
      n_0: bs,
      n_1: ss,
      n: bs + ss,
    };
}

type Table = ReturnType<typeof table>;

/** A heuristic on the contingency table; without `include_negatives`, a term rarer in the subset than in the rest scores -Infinity. */
function nxy(
  spec: JsonObject,
  score: (t: Table) => number,
  opts: { readonly negatives?: boolean } = {},
): Heuristic {
  const includeNegatives = opts.negatives === true || spec.include_negatives === true;
  const background: Background = spec.background_is_superset !== false ? "superset" : "separate";
  return (f) => {
    const t = table(f, background);
    const s = score(t);
    if (!includeNegatives && t.n11 / t.n_1 < t.n10 / t.n_0) return -Infinity;
    return s;
  };
}

function miTerm(nxy: number, nx_: number, n_y: number, n: number): number {
  const numerator = Math.abs(n * nxy);
  const denominator = Math.abs(nx_ * n_y);
  const factor = Math.abs(nxy / n);
  if (numerator < 1e-7 && factor < 1e-7) return 0;
  return factor * Math.log(numerator / denominator);
}

function mutualInformation(t: Table): number {
  const score = (miTerm(t.n00, t.n0_, t.n_0, t.n) + miTerm(t.n01, t.n0_, t.n_1, t.n) +
    miTerm(t.n10, t.n1_, t.n_0, t.n) + miTerm(t.n11, t.n1_, t.n_1, t.n)) / Math.log(2);
  return Number.isNaN(score) ? -Infinity : score;
}

function chiSquare(t: Table): number {
  return t.n * Math.pow(t.n11 * t.n00 - t.n01 * t.n10, 2) / (t.n_1 * t.n1_ * t.n0_ * t.n_0);
}

/** Google Normalized Distance, inverted (relevant terms score high). */
function gnd(t: Table): number {
  const fx = t.n1_;
  const fy = t.n_1;
  const fxy = t.n11;
  if (fxy === 0) return 0;
  if (fx === fy && fx === fxy) return 1;
  const score = (Math.max(Math.log(fx), Math.log(fy)) - Math.log(fxy)) /
    (Math.log(t.n) - Math.min(Math.log(fx), Math.log(fy)));
  return Math.exp(-1 * score);
}

function heuristicOf(body: JsonObject, name: string): Heuristic {
  const known = [
    "jlh",
    "mutual_information",
    "chi_square",
    "percentage",
    "gnd",
    "script_heuristic",
  ];
  const chosen = known.filter((k) => body[k] !== undefined);
  if (chosen.length > 1) {
    throw parsingError(`[significant_terms] aggregation [${name}] has more than one heuristic`);
  }
  const spec = (chosen[0] ? body[chosen[0]] : {}) as JsonObject;
  switch (chosen[0] ?? "jlh") {
    case "jlh":
      return jlh;
    case "percentage":
      return (f) => (f.supersetFreq === 0 ? 0 : f.subsetFreq / f.supersetFreq);
    case "mutual_information":
      return nxy(spec, mutualInformation);
    case "chi_square":
      return nxy(spec, chiSquare);
    case "gnd":
      return nxy(spec, gnd, { negatives: true });
    default:
      throw illegalArgument(
        `[significant_terms] heuristic [${
          chosen[0]
        }] is not supported by this engine; use jlh, mutual_information, chi_square, gnd or percentage`,
      );
  }
}

/** A term of one shard's answer: its counts there, and the shard's matching docs holding it. */
interface ShardTerm {
  readonly key: Part;
  readonly subsetDf: number;
  readonly supersetDf: number;
  readonly score: number;
  readonly input: number;
  readonly docs: number[];
}

interface ShardAnswer {
  readonly subsetSize: number;
  readonly supersetSize: number;
  /** Best first, as the shard's priority queue gave them out. */
  readonly terms: ShardTerm[];
}

/** The shard of each document of an input, routed as the real engines route it. */
function router(input: AggInput): (doc: number) => number {
  const shards = input.ctx.shards ?? 1;
  if (shards <= 1) return () => 0;
  const routing = routingShardsOf(input.ctx);
  const snapshot = input.ctx.snapshot;
  return (doc) => {
    const d = snapshot.doc(doc);
    return shardFor(d.routing ?? d.id, shards, routing);
  };
}

/** Every ordinal of the input's snapshot, deleted documents included (Lucene's `maxDoc`). */
function allOrdinals(input: AggInput): Int32Array {
  const out = new Int32Array(input.ctx.snapshot.maxDoc);
  for (let i = 0; i < out.length; i++) out[i] = i;
  return out;
}

/** Lucene documents one stored document makes: itself and each object under a nested path. */
function luceneDocs(source: unknown, nested: ReadonlySet<string>, prefix = ""): number {
  if (source === null || typeof source !== "object") return 0;
  if (Array.isArray(source)) {
    return source.reduce((n: number, x) => n + luceneDocs(x, nested, prefix), 0);
  }
  let n = 0;
  for (const [k, v] of Object.entries(source)) {
    const path = prefix + k;
    if (nested.has(path)) {
      for (const item of Array.isArray(v) ? v : [v]) {
        if (item !== null && typeof item === "object") {
          n += 1 + luceneDocs(item, nested, path + ".");
        }
      }
    } else if (v !== null && typeof v === "object") n += luceneDocs(v, nested, path + ".");
  }
  return n;
}

/** Whether a filter matches a document holding no field (a nested object, for the parent's). */
function matchesBareDoc(q: QueryNode): boolean {
  switch (q.kind) {
    case "match_all":
      return true;
    case "constant_score":
      return matchesBareDoc(q.filter);
    case "bool": {
      if (![...q.must, ...q.filter].every(matchesBareDoc)) return false;
      if (q.mustNot.some(matchesBareDoc)) return false;
      const required = q.must.length + q.filter.length;
      return q.should.length === 0 || required > 0 && q.minimumShouldMatch === undefined ||
        q.should.some(matchesBareDoc);
    }
    default:
      return false;
  }
}

/**
 * The background of one input: the docs whose terms count as `bg_count` and each shard's
 * background size.
 */
function background(
  body: JsonObject,
  input: AggInput,
  shardOf: (doc: number) => number,
  shards: number,
): { docs: Int32Array; sizes: number[] } {
  const sizes = new Array<number>(shards).fill(0);
  const nested = input.ctx.fields.nested;
  if (body.background_filter !== undefined) {
    const filter = parseQuery(body.background_filter);
    const docs = matchLive(filter, input.ctx, "filter").docs;
    for (const d of docs) sizes[shardOf(d)]!++;
    if (input.ctx.flavour === "opensearch" && nested.size > 0 && matchesBareDoc(filter)) {
      // OpenSearch counts the filter over every Lucene document: a filter a nested object
      // (holding none of the parent's fields) passes counts the live nested objects too.
      const all = matchLive({ kind: "match_all", boost: 1 }, input.ctx, "filter").docs;
      const snapshot = input.ctx.snapshot;
      for (const d of all) sizes[shardOf(d)]! += luceneDocs(snapshot.doc(d).source, nested);
    }
    return { docs, sizes };
  }
  if (input.ctx.flavour !== "opensearch" && nested.size > 0) {
    // Elasticsearch filters the background to the top-level documents of an index with nested
    // fields, and counts them (live ones only).
    const docs = matchLive({ kind: "match_all", boost: 1 }, input.ctx, "filter").docs;
    for (const d of docs) sizes[shardOf(d)]!++;
    return { docs, sizes };
  }
  const docs = allOrdinals(input);
  const snapshot = input.ctx.snapshot;
  for (const d of docs) {
    sizes[shardOf(d)]! += 1 + (nested.size > 0 ? luceneDocs(snapshot.doc(d).source, nested) : 0);
  }
  return { docs, sizes };
}

/** How `getKeyAsString` spells a key, which the reduce's HashMap hashes. */
function keyString(key: Part, text: ((n: number) => string) | null): string {
  if (text && typeof key === "number") return text(key);
  return String(key);
}

const FLOAT_TYPES = new Set(["double", "float", "half_float", "scaled_float"]);

/** What a `significant_terms` body asks for, read once for every input and shard. */
interface SigSettings {
  readonly field: string;
  readonly size: number;
  readonly shardSize: number;
  readonly minDocCount: number;
  readonly shardMinDocCount: number;
  readonly score: Heuristic;
  readonly include: ReturnType<typeof keyFilter>;
  readonly exclude: ReturnType<typeof keyFilter>;
  /** Whether shards walk their terms in term order (Elasticsearch's global ordinals). */
  readonly byOrdinal: boolean;
  readonly topLevel: boolean;
}

function settingsOf(
  body: JsonObject,
  opts: { name: string; topLevel: boolean; opensearch: boolean; sub: boolean },
): SigSettings {
  const { name, topLevel } = opts;
  const field = fieldOf(body, name, "significant_terms");
  const spec = { body, type: "significant_terms", name };
  const size = positiveSetting(spec, "size", 10);
  // Without a shard_size the shards return twice the usual queue (size × 1.5 + 10); a smaller
  // one given is kept as it is.
  const shardSize = body.shard_size === undefined
    ? 2 * Math.floor(size * 1.5 + 10)
    : positiveSetting(spec, "shard_size", size);
  const minDocCount = Number(body.min_doc_count ?? 3);
  const shardMinDocCount = Number(body.shard_min_doc_count ?? 0);
  const score = heuristicOf(body, name);
  const include = keyFilter(body.include);
  const exclude = keyFilter(body.exclude);
  const byOrdinal = !opts.opensearch && topLevel && !include && !exclude && !opts.sub;
  return {
    field,
    size,
    shardSize,
    minDocCount,
    shardMinDocCount,
    score,
    include,
    exclude,
    byOrdinal,
    topLevel,
  };
}

/** A foreground term of one shard: its key and the shard's matching docs holding it. */
type ShardTerms = Map<string, { key: Part; docs: number[] }>;

/**
 * The answers of one input's shards: each scores its own foreground terms against its own
 * background counts and keeps its best `shard_size`. `info` is the field's mapping, if any.
 */
function shardAnswers(
  body: JsonObject,
  input: AggInput,
  opts: { settings: SigSettings; input: number },
): { answers: ShardAnswer[]; info: ReturnType<typeof docParts>["info"] } {
  const { field } = opts.settings;
  const shards = input.ctx.shards ?? 1;
  const shardOf = router(input);
  const fg = docParts([input], field, (v) => v);
  if (fg.info && FLOAT_TYPES.has(fg.info.type)) {
    // Lucene cannot enumerate the terms of a floating point field.
    throw new EngineError(
      500,
      "unsupported_operation_exception",
      "No support for examining floating point numerics",
    );
  }
  const bg = background(body, input, shardOf, shards);
  const bgParts = docParts([{ ctx: input.ctx, docs: bg.docs }], field, (v) => v).maps[0]!;
  const subsetSizes = new Array<number>(shards).fill(0);
  for (const d of input.docs) subsetSizes[shardOf(d)]!++;
  const compare = partComparator(fg.info?.type === "ip");
  // Per shard: each foreground term's docs there, and how many background docs hold it.
  const fgTerms = Array.from({ length: shards }, (): ShardTerms => new Map());
  for (const [doc, parts] of fg.maps[0]!) {
    const terms = fgTerms[shardOf(doc)]!;
    for (const key of [...parts].sort((a, b) => compare(a, b))) {
      const id = keyId([key]);
      const t = terms.get(id);
      if (t) t.docs.push(doc);
      else terms.set(id, { key, docs: [doc] });
    }
  }
  const bgFreqs = Array.from({ length: shards }, () => new Map<string, number>());
  for (const [doc, parts] of bgParts) {
    const s = shardOf(doc);
    const terms = fgTerms[s]!;
    const freqs = bgFreqs[s]!;
    for (const key of parts) {
      const id = keyId([key]);
      if (terms.has(id)) freqs.set(id, (freqs.get(id) ?? 0) + 1);
    }
  }
  const answers: ShardAnswer[] = [];
  for (let s = 0; s < shards; s++) {
    const subsetSize = subsetSizes[s]!;
    const supersetSize = bg.sizes[s]!;
    const terms = shardQueue(fgTerms[s]!, {
      settings: opts.settings,
      compare,
      bgFreqs: bgFreqs[s]!,
      sizes: { subsetSize, supersetSize },
      input: opts.input,
    });
    // Under a bucket aggregation a shard without the parent bucket's docs does not answer.
    if (opts.settings.topLevel || subsetSize > 0) {
      answers.push({ subsetSize, supersetSize, terms });
    }
  }
  return { answers, info: fg.info };
}

/** One shard's terms in term order, into a queue of shard_size by their shard score; best first. */
function shardQueue(
  terms: ShardTerms,
  opts: {
    settings: SigSettings;
    compare: ReturnType<typeof partComparator>;
    bgFreqs: Map<string, number>;
    sizes: { subsetSize: number; supersetSize: number };
    input: number;
  },
): ShardTerm[] {
  const { shardSize, shardMinDocCount, include, exclude, score, byOrdinal } = opts.settings;
  const { subsetSize, supersetSize } = opts.sizes;
  const queue = new LuceneQueue<ShardTerm>(shardSize, (a, b) => a.score < b.score);
  // The shard walks its terms in the order it collected them (first seen in document
  // order), but Elasticsearch in term order (its global ordinals, not remapped) at the top
  // level without include/exclude or sub-aggregations.
  const seen = [...terms];
  const candidates = byOrdinal ? seen.sort(([, a], [, b]) => opts.compare(a.key, b.key)) : seen;
  for (const [id, t] of candidates) {
    if (t.docs.length < shardMinDocCount) continue;
    if ((include && !include(t.key!)) || (exclude && exclude(t.key!))) continue;
    const supersetDf = opts.bgFreqs.get(id) ?? 0;
    queue.insertWithOverflow({
      key: t.key,
      subsetDf: t.docs.length,
      supersetDf,
      score: score({
        subsetFreq: t.docs.length,
        subsetSize,
        supersetFreq: supersetDf,
        supersetSize,
      }),
      input: opts.input,
      docs: t.docs,
    });
  }
  return queue.drainBestFirst();
}

/** A term as the reduce sums it over the shards that returned it. */
interface MergedTerm {
  readonly key: Part;
  subsetDf: number;
  supersetDf: number;
  readonly docs: BucketDocs;
}

/**
 * The reduce: terms by their key string, in the shards' order, into a hash map whose
 * iteration order decides among equal scores (OpenSearch: java.util.HashMap; Elasticsearch:
 * its paged hash map, sized for the first shard's buckets). Gives the terms in that order.
 */
function reduceAnswers(
  answers: readonly ShardAnswer[],
  opts: { text: ((n: number) => string) | null; opensearch: boolean },
): MergedTerm[] {
  const merged = new Map<string, MergedTerm>();
  for (const a of answers) {
    for (const t of a.terms) {
      const id = keyString(t.key, opts.text);
      let m = merged.get(id);
      if (!m) merged.set(id, m = { key: t.key, subsetDf: 0, supersetDf: 0, docs: new Map() });
      m.subsetDf += t.subsetDf;
      m.supersetDf += t.supersetDf;
      const docs = m.docs.get(t.input);
      if (docs) docs.push(...t.docs);
      else m.docs.set(t.input, [...t.docs]);
    }
  }
  const keys = [...merged.keys()];
  const order = opts.opensearch
    ? hashMapOrder(keys)
    : pagedHashOrder(keys, answers[0]?.terms.length ?? 0);
  return order.map((id) => merged.get(id)!);
}

/**
 * The `significant_terms` aggregation. `topLevel`: not under a bucket aggregation, so every shard
 * answers (under one, only the shards holding the parent bucket's docs take part in its reduce).
 */
export function significantTermsAgg(
  body: JsonObject,
  inputs: AggInput[],
  sub: SubRunner | null,
  opts: { name: string; topLevel: boolean },
): JsonObject {
  const opensearch = inputs[0]?.ctx.flavour === "opensearch";
  const settings = settingsOf(body, { ...opts, opensearch, sub: sub !== null });
  const answers: ShardAnswer[] = [];
  let info: ReturnType<typeof docParts>["info"];
  inputs.forEach((input, k) => {
    const shard = shardAnswers(body, input, { settings, input: k });
    info ??= shard.info;
    answers.push(...shard.answers);
  });
  let subsetSize = 0;
  let supersetSize = 0;
  for (const a of answers) {
    subsetSize += a.subsetSize;
    supersetSize += a.supersetSize;
  }
  const text = valueFormat(body, info);
  const merged = reduceAnswers(answers, { text, opensearch });
  // Rescored with the summed counts; the best `size` by score.
  type Final = MergedTerm & { score: number };
  const size = Math.min(settings.size, merged.length);
  const ordered = new LuceneQueue<Final>(size, (a, b) => a.score < b.score);
  for (const m of merged) {
    const s = settings.score({
      subsetFreq: m.subsetDf,
      subsetSize,
      supersetFreq: m.supersetDf,
      supersetSize,
    });
    if (s > 0 && m.subsetDf >= settings.minDocCount) ordered.insertWithOverflow({ ...m, score: s });
  }
  const top = ordered.drainBestFirst();
  consumeBuckets(top.length);
  return {
    doc_count: subsetSize,
    bg_count: supersetSize,
    buckets: top.map((t) => {
      for (const docs of t.docs.values()) docs.sort((a, b) => a - b);
      return {
        key: t.key,
        ...(text && typeof t.key !== "string" ? { key_as_string: text(Number(t.key)) } : {}),
        doc_count: t.subsetDf,
        score: t.score,
        bg_count: t.supersetDf,
        ...(sub ? sub(t.docs) : {}),
      };
    }),
  };
}
