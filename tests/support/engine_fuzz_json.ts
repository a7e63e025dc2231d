// The fuzzer's vocabulary: a seedable PRNG, names, parameter values and strings the engine reacts
// to, random JSON, query and aggregation bodies, and mutations of existing bodies.

/** A small, seedable PRNG (mulberry32). */
export class Rng {
  #s: number;
  constructor(seed: number) {
    this.#s = seed >>> 0;
  }
  next(): number {
    let t = (this.#s += 0x6d2b79f5);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

export const NAMES = [
  "idx",
  "idx",
  "logs-1",
  "other",
  "*",
  "_all",
  "idx,other",
  "idx*",
  "missing",
  "UPPER",
  "a%2Fb",
  "%ZZ",
  "..",
  "__proto__",
  "constructor",
  "ñ",
  "x".repeat(300),
  "-bad",
  "_doc",
];
export const IDS = [
  "1",
  "2",
  "3",
  "missing",
  "__proto__",
  "constructor",
  "%00",
  "a b",
  "9".repeat(600),
];
export const PARAM_VALUES = [
  "true",
  "false",
  "",
  "-1",
  "0",
  "1",
  "5",
  "10000",
  "10001",
  "2147483648",
  "99999999999999999999",
  "abc",
  "1m",
  "-5s",
  "0ms",
  "*",
  "_all",
  "NaN",
  "1e309",
  "wait_for",
  "open,closed",
  "n:desc",
  "a:",
  "(a+)+b",
];
const STRINGS = [
  "",
  "a",
  "quick brown fox",
  "*",
  "a*b",
  "a\\*b",
  "(a+)+b",
  "(.*a){20}",
  "[",
  "\\",
  "\u0000",
  "🙂",
  "now-1d/d",
  "2024-13-45",
  "__proto__",
  "constructor",
  "x".repeat(2000),
  "1e309",
  "ctx._source.a = 1",
  "ctx._source.l = []; ctx._source.l.add(ctx._source.l)",
];
const NUMBERS = [
  0,
  -1,
  1,
  2,
  10,
  0.5,
  1e-300,
  1e308,
  -1e308,
  2 ** 53 + 1,
  65536,
  10001,
  2147483647,
];
const KEYS = [
  "query",
  "aggs",
  "size",
  "from",
  "sort",
  "_source",
  "match",
  "term",
  "terms",
  "bool",
  "must",
  "should",
  "filter",
  "range",
  "gte",
  "field",
  "interval",
  "fixed_interval",
  "calendar_interval",
  "histogram",
  "date_histogram",
  "regexp",
  "wildcard",
  "prefix",
  "query_string",
  "script",
  "source",
  "doc",
  "upsert",
  "properties",
  "type",
  "__proto__",
  "constructor",
  "toString",
  "",
  "a.b",
  "n",
  "t",
  "k",
];

function scalar(rng: Rng): unknown {
  switch (rng.int(4)) {
    case 0:
      return rng.pick(STRINGS);
    case 1:
      return rng.pick(NUMBERS);
    case 2:
      return rng.chance(0.5);
    default:
      return null;
  }
}

/** A random JSON value biased toward the engine's vocabulary. */
export function randomJson(rng: Rng, depth = 0): unknown {
  const r = rng.int(10);
  if (depth > 5 || r < 4) return scalar(rng);
  if (r < 6) return Array.from({ length: rng.int(4) }, () => randomJson(rng, depth + 1));
  const out: Record<string, unknown> = {};
  const n = 1 + rng.int(3);
  for (let i = 0; i < n; i++) {
    Object.defineProperty(out, rng.pick(KEYS), {
      value: randomJson(rng, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

const QUERIES: Array<(rng: Rng) => unknown> = [
  () => ({ match_all: {} }),
  (r) => ({ match: { [r.pick(["t", "k", "n", "__proto__"])]: r.pick(STRINGS) } }),
  (r) => ({ term: { [r.pick(["k", "n", "t.keyword"])]: scalar(r) } }),
  (r) => ({ terms: { k: Array.from({ length: r.int(5) }, () => r.pick(STRINGS)) } }),
  (r) => ({ range: { [r.pick(["n", "d"])]: { gte: scalar(r), lt: scalar(r) } } }),
  (r) => ({ regexp: { k: { value: r.pick(STRINGS), flags: r.pick(["ALL", "NONE", "BAD"]) } } }),
  (r) => ({ wildcard: { [r.pick(["k", "t", "_id"])]: r.pick(STRINGS) } }),
  (r) => ({ prefix: { k: r.pick(STRINGS) } }),
  (r) => ({ query_string: { query: r.pick(STRINGS) + " " + r.pick(STRINGS) } }),
  (r) => ({ exists: { field: r.pick(["n", "k", "__proto__", "*"]) } }),
  (r) => ({ ids: { values: [r.pick(IDS)] } }),
  (r) => ({
    bool: { must: [randomQuery(r)], should: [randomQuery(r)], minimum_should_match: scalar(r) },
  }),
];

function randomQuery(rng: Rng): unknown {
  return rng.pick(QUERIES)(rng);
}

const AGGS: Array<(rng: Rng) => unknown> = [
  (r) => ({ terms: { field: r.pick(["k", "n", "t", "t.keyword"]), size: r.pick(NUMBERS) } }),
  (r) => ({ histogram: { field: "n", interval: r.pick(NUMBERS), min_doc_count: r.int(2) } }),
  (r) => ({ date_histogram: { field: "d", fixed_interval: r.pick(["1ms", "1d", "0ms", "1x"]) } }),
  (r) => ({
    date_histogram: { field: "d", calendar_interval: r.pick(["minute", "day", "year", "1q"]) },
  }),
  (r) => ({
    [r.pick(["min", "max", "avg", "sum", "value_count", "stats", "cardinality"])]: {
      field: r.pick(["n", "k", "d"]),
    },
  }),
  (r) => ({ range: { field: "n", ranges: [{ from: scalar(r), to: scalar(r) }] } }),
  (r) => ({ filters: { filters: { a: randomQuery(r), __proto__x: randomQuery(r) } } }),
];

export function searchBody(rng: Rng): unknown {
  const body: Record<string, unknown> = { query: randomQuery(rng) };
  if (rng.chance(0.4)) {
    const agg = rng.pick(AGGS)(rng) as Record<string, unknown>;
    if (rng.chance(0.3)) agg.aggs = { inner: rng.pick(AGGS)(rng) };
    body.aggs = { [rng.pick(["a", "__proto__", "constructor"])]: agg };
  }
  if (rng.chance(0.3)) body.size = rng.pick(NUMBERS);
  if (rng.chance(0.2)) body.from = rng.pick(NUMBERS);
  if (rng.chance(0.3)) {
    body.sort = [{
      [rng.pick(["n", "k", "_score", "t", "__proto__"])]: rng.pick(["asc", "desc", "x"]),
    }];
  }
  if (rng.chance(0.2)) {
    body._source = rng.pick([false, ["k"], { includes: ["*"], excludes: ["n"] }]);
  }
  return body;
}

/** Mutates a JSON value: replaces, drops, renames, nests or grows one part of it. */
export function mutate(value: unknown, rng: Rng, depth = 0): unknown {
  if (depth > 12) return value;
  if (value === null || typeof value !== "object") {
    return rng.chance(0.5) ? scalar(rng) : value;
  }
  if (Array.isArray(value)) {
    const copy = value.slice();
    if (copy.length === 0 || rng.chance(0.2)) copy.push(randomJson(rng));
    else {
      const i = rng.int(copy.length);
      copy[i] = rng.chance(0.7) ? mutate(copy[i], rng, depth + 1) : randomJson(rng);
    }
    return copy;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  const out: Record<string, unknown> = {};
  const target = entries.length > 0 ? rng.int(entries.length) : -1;
  const op = rng.int(6);
  for (let i = 0; i < entries.length; i++) {
    let [k, v] = entries[i]!;
    if (i === target) {
      if (op === 0) continue; // drop
      if (op === 1) k = rng.pick(KEYS); // rename
      else if (op === 2) v = randomJson(rng);
      else if (op === 3) v = [v, v];
      else v = mutate(v, rng, depth + 1);
    }
    Object.defineProperty(out, k, {
      value: v,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  if (op === 5 || entries.length === 0) {
    Object.defineProperty(out, rng.pick(KEYS), {
      value: randomJson(rng),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
