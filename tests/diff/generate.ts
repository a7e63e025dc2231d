// The generated corpus: seeded, reproducible requests drawn from what the real engines accept
// (not from what the embedded engine supports), over documents of every common field type. The
// same seed gives the same documents and the same requests, so a difference can be replayed.

import { prng } from "../support/prng.ts";

/** Which real engine a corpus is for. */
export type Flavour = "elasticsearch" | "opensearch";

/**
 * One request of a corpus. `kind` names what it exercises (`query:match`, `agg:terms`,
 * `error:bad_json`, …); the report counts identical answers per kind. Bodies may hold `$name`
 * placeholders filled from an earlier step's `capture` on each side (a PIT or scroll id that
 * each engine generated for itself).
 */
export interface Step {
  kind: string;
  method: string;
  path: string;
  body?: string;
  /** `application/x-ndjson` for bulk and msearch bodies. */
  contentType?: string;
  /** Extra request headers (`Accept: application/json` on `_cat`). */
  headers?: Record<string, string>;
  /** Read-only and repeatable: the real engine is asked twice to set aside unstable answers. */
  repeatable: boolean;
  /** Save a field of each side's answer under a name for the `$name` placeholders. */
  capture?: { name: string; path: string };
  /** An error on purpose: never counted as "no oracle". */
  onPurpose?: boolean;
  /** Not compared (opening or closing a PIT or scroll). */
  plumbing?: boolean;
}

/** A request, or a short sequence that carries ids from one step to the next. */
export type Item = Step[];

/** The indices of the generated corpus: one shard (scores comparable) and three (the rest). */
export const ONE = "diff-one";
/** The three-shard index of the generated corpus. */
export const MULTI = "diff-multi";
/** The index the write requests use. */
export const SCRATCH = "diff-scratch";

type Rng = () => number;
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const int = (r: Rng, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
const chance = (r: Rng, p: number): boolean => r() < p;

const WORDS = [
  "quick",
  "brown",
  "fox",
  "jumps",
  "over",
  "lazy",
  "dog",
  "search",
  "engine",
  "visitor",
  "shard",
  "index",
  "token",
  "river",
  "stone",
  "light",
];
const TAGS = ["red", "green", "blue", "Red", "yellow", "black-white", "a b", "x"];
const IPS = ["10.0.0.1", "10.0.0.200", "192.168.1.7", "127.0.0.1", "::1", "2001:db8::7"];
const DAYS = ["2020-01-01", "2020-02-29", "2021-06-15", "2023-12-31", "2024-03-10", "1999-12-31"];

/** The mapping of both generated indices: every common field type. */
export function mapping(flavour: Flavour): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    uid: { type: "keyword" },
    title: { type: "text", fields: { raw: { type: "keyword" } } },
    body: { type: "text" },
    tag: { type: "keyword" },
    count: { type: "integer" },
    big: { type: "long" },
    small: { type: "short" },
    tiny: { type: "byte" },
    price: { type: "double" },
    ratio: { type: "float" },
    half: { type: "half_float" },
    when: { type: "date" },
    day: { type: "date", format: "yyyy-MM-dd" },
    stamp: { type: "date", format: "epoch_millis" },
    flag: { type: "boolean" },
    addr: { type: "ip" },
    loc: { type: "geo_point" },
    owner: { properties: { name: { type: "keyword" }, age: { type: "integer" } } },
    items: { type: "nested", properties: { sku: { type: "keyword" }, qty: { type: "integer" } } },
  };
  if (flavour === "elasticsearch") {
    properties.vec = { type: "dense_vector", dims: 3, index: true, similarity: "l2_norm" };
  }
  return { properties };
}

/** The documents of the generated corpus, `n` of them, from the seed. */
export function documents(seed: number, n: number, flavour: Flavour): Record<string, unknown>[] {
  const r = prng(seed);
  const docs: Record<string, unknown>[] = [];
  for (let i = 0; i < n; i++) {
    const d: Record<string, unknown> = { uid: `u${String(i).padStart(3, "0")}` };
    const words = (k: number) => Array.from({ length: k }, () => pick(r, WORDS)).join(" ");
    if (chance(r, 0.9)) d.title = words(int(r, 1, 4));
    if (chance(r, 0.7)) d.body = words(int(r, 3, 12));
    if (chance(r, 0.85)) d.tag = chance(r, 0.2) ? [pick(r, TAGS), pick(r, TAGS)] : pick(r, TAGS);
    if (chance(r, 0.9)) d.count = pick(r, [0, 1, 2, 3, 5, 8, 13, -1, 2147483647, -2147483648, 42]);
    if (chance(r, 0.8)) {
      d.big = pick(r, [0, 1, -7, 9007199254740991, -9007199254740991, 123456789012]);
    }
    if (chance(r, 0.6)) d.small = pick(r, [32767, -32768, 0, 12]);
    if (chance(r, 0.6)) d.tiny = pick(r, [127, -128, 0, 3]);
    if (chance(r, 0.85)) d.price = pick(r, [0.5, 1.25, 99.99, 1e10, -3.5, 0, 19.95, 7]);
    if (chance(r, 0.7)) d.ratio = pick(r, [0.1, 0.5, 0.75, 1, 2.5]);
    if (chance(r, 0.5)) d.half = pick(r, [0.5, 1.5, 65504, -2]);
    if (chance(r, 0.85)) {
      d.when = pick(r, [
        "2024-01-02",
        "2024-01-02T03:04:05Z",
        "2023-07-14T12:30:00.123+02:00",
        "2022-11-30T23:59:59.999Z",
        "2021-03-28T01:30:00Z",
        "2024-02-29T00:00:00-05:00",
      ]);
    }
    if (chance(r, 0.7)) d.day = pick(r, DAYS);
    if (chance(r, 0.6)) d.stamp = pick(r, [0, 1700000000000, 1600000000123, 946684800000]);
    if (chance(r, 0.8)) d.flag = chance(r, 0.5);
    if (chance(r, 0.7)) d.addr = pick(r, IPS);
    if (chance(r, 0.6)) {
      d.loc = pick(r, [
        { lat: 52.37, lon: 4.89 },
        "48.85,2.35",
        [13.4, 52.52],
        { lat: -33.86, lon: 151.2 },
        { lat: 40.71, lon: -74.0 },
        "u173zq",
        "POINT (-0.1278 51.5074)",
        [{ lat: 35.68, lon: 139.69 }, "-22.9,-43.2"],
        { lat: 0, lon: 179.99 },
        [-179.5, -45.25],
      ]);
    }
    if (chance(r, 0.6)) d.owner = { name: pick(r, ["ann", "bob", "cy"]), age: int(r, 18, 80) };
    if (chance(r, 0.5)) {
      d.items = Array.from(
        { length: int(r, 1, 3) },
        () => ({ sku: pick(r, ["s1", "s2", "s3", "s4"]), qty: int(r, 0, 9) }),
      );
    }
    if (chance(r, 0.1)) d.tag = null;
    if (chance(r, 0.05)) d.count = null;
    if (flavour === "elasticsearch" && chance(r, 0.5)) {
      d.vec = [int(r, -5, 5) / 2, int(r, -5, 5) / 2, int(r, -5, 5) / 2];
    }
    docs.push(d);
  }
  return docs;
}

const json = (v: unknown) => JSON.stringify(v);

/** The setup steps: both indices created and loaded, and the scratch index. */
export function setup(seed: number, n: number, flavour: Flavour): Item[] {
  const docs = documents(seed, n, flavour);
  const items: Item[] = [];
  for (const [index, shards] of [[ONE, 1], [MULTI, 3]] as const) {
    items.push([{
      kind: "setup:create",
      method: "PUT",
      path: `/${index}`,
      body: json({
        settings: { number_of_shards: shards, number_of_replicas: 0 },
        mappings: mapping(flavour),
      }),
      repeatable: false,
    }]);
    const lines = docs.flatMap((
      d,
      i,
    ) => [json({ index: { _index: index, _id: String(i) } }), json(d)]);
    items.push([ndjsonItem("setup:bulk", "/_bulk?refresh=true", lines, false)]);
  }
  // The scratch index refreshes only when a write asks: searched with the others (an `_msearch`
  // line without an index), its documents would otherwise count as each engine's own refresh
  // clock had made them visible, a timing the two real answers in a row do not reveal.
  items.push([{
    kind: "setup:create",
    method: "PUT",
    path: `/${SCRATCH}`,
    body: json({
      settings: { number_of_shards: 1, number_of_replicas: 0, refresh_interval: -1 },
      mappings: { properties: { loc: { type: "geo_point" } } },
    }),
    repeatable: false,
  }]);
  return items;
}

const TEXT_FIELDS = ["title", "body"];
const NUM_FIELDS = ["count", "big", "small", "tiny", "price", "ratio", "half"];
const DATE_FIELDS = ["when", "day", "stamp"];
const SORT_FIELDS = [...NUM_FIELDS, ...DATE_FIELDS, "tag", "uid", "flag", "addr", "title.raw"];

function numValue(r: Rng, field: string): number {
  if (field === "tiny") return int(r, -128, 127);
  if (field === "small") return int(r, -100, 32767);
  if (field === "big") return pick(r, [0, 1, 123456789012, -7, 1e15]);
  if (field === "price" || field === "ratio" || field === "half") {
    return pick(r, [0, 0.5, 1, 2.5, 19.95, 100]);
  }
  return pick(r, [-1, 0, 1, 3, 8, 42, 1000]);
}

function dateValue(r: Rng): string | number {
  return pick(r, [
    "2020-01-01",
    "2022-06-01T00:00:00Z",
    "2024-01-01||-1M",
    "now-10y/y",
    "2023-07-14T12:30:00.123+02:00",
    946684800000,
  ]);
}

/** One leaf query of a random type, and its kind. */
function leafQuery(r: Rng, flavour: Flavour): [string, Record<string, unknown>] {
  const t = pick(r, [
    "match",
    "match",
    "match_phrase",
    "match_phrase_prefix",
    "multi_match",
    "term",
    "terms",
    "range",
    "range_date",
    "exists",
    "prefix",
    "wildcard",
    "regexp",
    "fuzzy",
    "ids",
    "query_string",
    "simple_query_string",
    "match_all",
    "match_none",
    "nested",
    "geo_distance",
    "geo_bounding_box",
    "term_bool",
    "term_ip",
    "match_bool_prefix",
    "combined_fields",
  ]);
  const text = () => pick(r, WORDS) + (chance(r, 0.5) ? ` ${pick(r, WORDS)}` : "");
  switch (t) {
    case "match": {
      const f = pick(r, TEXT_FIELDS);
      const opts: Record<string, unknown> = { query: text() };
      if (chance(r, 0.3)) opts.operator = pick(r, ["and", "or", "AND"]);
      if (chance(r, 0.2)) opts.fuzziness = pick(r, ["AUTO", 1, "0"]);
      if (chance(r, 0.2)) opts.minimum_should_match = pick(r, ["50%", 1, "-1"]);
      return ["match", { match: { [f]: chance(r, 0.3) ? text() : opts } }];
    }
    case "match_phrase":
      return ["match_phrase", {
        match_phrase: { [pick(r, TEXT_FIELDS)]: { query: text(), slop: int(r, 0, 2) } },
      }];
    case "match_phrase_prefix":
      return ["match_phrase_prefix", { match_phrase_prefix: { title: text().slice(0, -1) } }];
    case "match_bool_prefix":
      return ["match_bool_prefix", { match_bool_prefix: { body: text().slice(0, -1) } }];
    case "combined_fields":
      return ["combined_fields", { combined_fields: { query: text(), fields: ["title", "body"] } }];
    case "multi_match":
      return ["multi_match", {
        multi_match: {
          query: text(),
          fields: pick(r, [["title", "body"], ["title^2", "body"], ["*"]]),
          type: pick(r, ["best_fields", "most_fields", "cross_fields", "phrase"]),
        },
      }];
    case "term":
      return ["term", {
        term: pick(r, [
          { tag: pick(r, TAGS) },
          { "title.raw": { value: text(), boost: 2 } },
          { count: numValue(r, "count") },
          { tag: { value: "red", case_insensitive: true } },
        ]),
      }];
    case "term_bool":
      return ["term", { term: { flag: pick(r, [true, false, "true"]) } }];
    case "term_ip":
      return ["term", { term: { addr: pick(r, [...IPS, "10.0.0.0/8", "192.168.0.0/16"]) } }];
    case "terms":
      return ["terms", {
        terms: pick(r, [
          { tag: [pick(r, TAGS), pick(r, TAGS)] },
          { count: [1, 2, 3, 42] },
          { uid: ["u001", "u005", "u010"] },
        ]),
      }];
    case "range": {
      const f = pick(r, NUM_FIELDS);
      const lo = numValue(r, f), hi = lo + Math.abs(numValue(r, f)) + 1;
      const b: Record<string, unknown> = {};
      b[pick(r, ["gt", "gte"])] = lo;
      if (chance(r, 0.7)) b[pick(r, ["lt", "lte"])] = hi;
      return ["range", { range: { [f]: b } }];
    }
    case "range_date": {
      const b: Record<string, unknown> = { gte: dateValue(r) };
      if (chance(r, 0.5)) b.lt = pick(r, ["now", "2025-01-01", "2024-01-01T00:00:00Z"]);
      if (chance(r, 0.3)) b.time_zone = pick(r, ["+01:00", "Europe/Paris", "UTC"]);
      if (chance(r, 0.2)) {
        b.format = "yyyy-MM-dd";
        b.gte = "2021-01-01";
        delete b.lt;
      }
      return ["range", { range: { [pick(r, ["when", "when", "day"])]: b } }];
    }
    case "exists":
      return ["exists", { exists: { field: pick(r, [...SORT_FIELDS, "loc", "items", "owner"]) } }];
    case "prefix":
      return ["prefix", { prefix: pick(r, [{ tag: "r" }, { "title.raw": "qu" }, { uid: "u01" }]) }];
    case "wildcard":
      return ["wildcard", {
        wildcard: pick(r, [{ tag: "*e*" }, { uid: "u0?1" }, { title: "qu*" }]),
      }];
    case "regexp":
      return ["regexp", { regexp: pick(r, [{ tag: "re.*" }, { uid: "u0[0-2].*" }]) }];
    case "fuzzy":
      return ["fuzzy", { fuzzy: { title: { value: pick(r, ["quikc", "brwn", "fox"]) } } }];
    case "ids":
      return ["ids", { ids: { values: ["1", "3", "5", "77"] } }];
    case "query_string":
      return ["query_string", {
        query_string: {
          query: pick(r, [
            "quick AND fox",
            "title:dog OR body:river",
            "tag:red",
            "count:[1 TO 5]",
            "qu*",
            '"lazy dog"',
            "-fox",
          ]),
        },
      }];
    case "simple_query_string":
      return ["simple_query_string", {
        simple_query_string: { query: pick(r, ["fox +dog", '"brown fox"', "qui*", "-lazy"]) },
      }];
    case "match_all":
      return ["match_all", { match_all: chance(r, 0.3) ? { boost: 1.5 } : {} }];
    case "match_none":
      return ["match_none", { match_none: {} }];
    case "nested":
      return ["nested", {
        nested: {
          path: "items",
          query: { term: { "items.sku": pick(r, ["s1", "s2", "s3"]) } },
          score_mode: pick(r, ["avg", "max", "sum", "none"]),
        },
      }];
    case "geo_distance":
      return ["geo_distance", {
        geo_distance: {
          distance: pick(r, ["100km", "1000km", "5000mi"]),
          loc: { lat: 50, lon: 5 },
        },
      }];
    default:
      return [flavour === "opensearch" ? "geo_bounding_box" : "geo_bounding_box", {
        geo_bounding_box: { loc: { top_left: [0, 60], bottom_right: [20, 40] } },
      }];
  }
}

/** A bool tree a few levels deep; its kind is `bool`. */
function boolQuery(r: Rng, flavour: Flavour, depth: number): Record<string, unknown> {
  const b: Record<string, unknown> = {};
  for (const clause of ["must", "should", "filter", "must_not"]) {
    if (!chance(r, 0.5)) continue;
    const n = int(r, 1, 2);
    b[clause] = Array.from(
      { length: n },
      () =>
        depth > 0 && chance(r, 0.35) ? boolQuery(r, flavour, depth - 1) : leafQuery(r, flavour)[1],
    );
  }
  if (b.should && chance(r, 0.4)) b.minimum_should_match = pick(r, [1, "50%"]);
  return { bool: b };
}

function compoundQuery(r: Rng, flavour: Flavour): [string, Record<string, unknown>] {
  const inner = () => leafQuery(r, flavour)[1];
  const t = pick(r, ["constant_score", "dis_max", "boosting", "function_score", "bool"]);
  switch (t) {
    case "constant_score":
      return [t, { constant_score: { filter: inner(), boost: pick(r, [1, 2.5]) } }];
    case "dis_max":
      return [t, { dis_max: { queries: [inner(), inner()], tie_breaker: pick(r, [0, 0.3]) } }];
    case "boosting":
      return [t, { boosting: { positive: inner(), negative: inner(), negative_boost: 0.5 } }];
    case "function_score":
      return [t, {
        function_score: {
          query: inner(),
          functions: [pick(r, [
            { field_value_factor: { field: "ratio", missing: 1, modifier: "log1p" } },
            { weight: 3, filter: { term: { tag: "red" } } },
            { gauss: { price: { origin: 10, scale: 5 } } },
          ])],
          score_mode: pick(r, ["multiply", "sum", "max"]),
          boost_mode: pick(r, ["multiply", "replace", "sum"]),
        },
      }];
    default:
      return ["bool", boolQuery(r, flavour, 2)];
  }
}

/** A random aggregation, and its kind. */
function aggregation(r: Rng, flavour: Flavour): [string, Record<string, unknown>] {
  const t = pick(r, [
    "terms",
    "terms",
    "histogram",
    "date_histogram",
    "range",
    "date_range",
    "ip_range",
    "stats",
    "extended_stats",
    "avg",
    "min",
    "max",
    "sum",
    "cardinality",
    "value_count",
    "percentiles",
    "filters",
    "filter",
    "missing",
    "nested",
    "top_hits",
    "composite",
    "significant_terms",
    "geo_bounds",
    "pipeline",
    "rare_terms",
  ]);
  const nf = () => pick(r, NUM_FIELDS);
  switch (t) {
    case "terms": {
      const terms: Record<string, unknown> = {
        field: pick(r, ["tag", "count", "flag", "owner.name", "addr", "day"]),
      };
      if (chance(r, 0.4)) terms.size = int(r, 1, 5);
      if (chance(r, 0.3)) {
        terms.order = pick(r, [{ _key: "asc" }, { _count: "asc" }, { _key: "desc" }]);
      }
      if (chance(r, 0.2)) terms.min_doc_count = pick(r, [0, 2]);
      if (chance(r, 0.2)) terms.missing = "N/A";
      const agg: Record<string, unknown> = { terms };
      if (chance(r, 0.4)) {
        agg.aggs = { inner: { [pick(r, ["avg", "max", "sum"])]: { field: nf() } } };
      }
      return [t, agg];
    }
    case "histogram": {
      const field = pick(r, ["count", "price", "small", "tiny"]);
      const interval = pick(r, [1, 5, 100, 0.5]);
      // `count` spans the int range and `price` holds 1e10: with the empty buckets filled in that
      // is 1e7 to 1e10 buckets, which real OpenSearch 3.8.0 builds in memory before it counts them
      // (a 2 GB heap fills, its breaker then refuses every later request for a minute with 429).
      // On those two only the buckets that hold documents, then; `small` and `tiny` still reach
      // the bucket limit, which both real engines refuse at once.
      const sparse = chance(r, 0.3) || field === "count" || field === "price";
      return [t, { histogram: { field, interval, ...(sparse ? { min_doc_count: 1 } : {}) } }];
    }
    case "date_histogram":
      return [t, {
        date_histogram: {
          field: pick(r, DATE_FIELDS),
          ...(chance(r, 0.5)
            ? { calendar_interval: pick(r, ["month", "year", "1q", "week", "day"]) }
            : { fixed_interval: pick(r, ["30d", "12h", "1000d"]) }),
          ...(chance(r, 0.3) ? { time_zone: pick(r, ["+02:00", "America/New_York"]) } : {}),
          ...(chance(r, 0.3) ? { format: "yyyy-MM-dd" } : {}),
          min_doc_count: pick(r, [0, 1]),
        },
      }];
    case "range":
      return [t, {
        range: {
          field: nf(),
          ranges: [{ to: 1 }, { from: 1, to: 10 }, { from: 10 }],
          ...(chance(r, 0.3) ? { keyed: true } : {}),
        },
      }];
    case "date_range":
      return [t, {
        date_range: {
          field: "when",
          ranges: [{ to: "2022-01-01" }, { from: "2022-01-01", to: "now" }],
          ...(chance(r, 0.4) ? { format: "yyyy" } : {}),
        },
      }];
    case "ip_range":
      return [t, {
        ip_range: { field: "addr", ranges: [{ to: "10.0.0.100" }, { mask: "192.168.0.0/16" }] },
      }];
    case "filters":
      return [t, {
        filters: {
          filters: chance(r, 0.5)
            ? { reds: { term: { tag: "red" } }, foxes: { match: { title: "fox" } } }
            : [{ term: { flag: true } }, { range: { count: { gte: 3 } } }],
          ...(chance(r, 0.3) ? { other_bucket: true } : {}),
        },
      }];
    case "filter":
      return [t, { filter: leafQuery(r, flavour)[1], aggs: { m: { max: { field: nf() } } } }];
    case "missing":
      return [t, { missing: { field: pick(r, ["tag", "count", "loc", "when"]) } }];
    case "nested":
      return [t, {
        nested: { path: "items" },
        aggs: {
          skus: { terms: { field: "items.sku" }, aggs: { q: { sum: { field: "items.qty" } } } },
        },
      }];
    case "top_hits":
      return [t, {
        terms: { field: "tag", size: 3 },
        aggs: {
          top: {
            top_hits: { size: 2, sort: [{ uid: "asc" }], _source: { includes: ["uid", "count"] } },
          },
        },
      }];
    case "composite":
      return [t, {
        composite: {
          size: int(r, 2, 10),
          sources: [
            { t: { terms: { field: "tag" } } },
            ...(chance(r, 0.5) ? [{ h: { histogram: { field: "count", interval: 5 } } }] : []),
          ],
        },
      }];
    case "significant_terms":
      return [t, { significant_terms: { field: "tag" } }];
    case "geo_bounds":
      return [t, { geo_bounds: { field: "loc" } }];
    case "rare_terms":
      return [t, { rare_terms: { field: "tag" } }];
    case "percentiles":
      return [t, { percentiles: { field: nf(), percents: [50, 95] } }];
    case "pipeline":
      return [t, {
        date_histogram: { field: "when", calendar_interval: "year", min_doc_count: 0 },
        aggs: {
          s: { sum: { field: "count" } },
          cum: { cumulative_sum: { buckets_path: "s" } },
          ...(chance(r, 0.5) ? { d: { derivative: { buckets_path: "s" } } } : {}),
        },
      }];
    default:
      return [t, { [t]: { field: nf(), ...(chance(r, 0.2) ? { missing: 0 } : {}) } }];
  }
}

function sortClause(r: Rng): unknown[] {
  const out: unknown[] = [];
  for (let i = int(r, 1, 2); i > 0; i--) {
    const f = pick(r, SORT_FIELDS);
    out.push(
      chance(r, 0.5) ? { [f]: pick(r, ["asc", "desc"]) } : {
        [f]: {
          order: pick(r, ["asc", "desc"]),
          ...(chance(r, 0.4) ? { missing: pick(r, ["_first", "_last"]) } : {}),
          ...(chance(r, 0.2) && NUM_FIELDS.includes(f) ? { mode: pick(r, ["min", "max"]) } : {}),
        },
      },
    );
  }
  out.push({ uid: "asc" }); // a total order: ties would make the real engine's order arbitrary
  return out;
}

const search = (
  kind: string,
  index: string,
  body: unknown,
  query = "",
  onPurpose = false,
): Item => [{
  kind,
  method: "POST",
  path: `/${index}/_search${query}`,
  body: typeof body === "string" ? body : json(body),
  repeatable: true,
  onPurpose,
}];

/** Errors on purpose: bad JSON, unknown fields, wrong types, limits. */
function errorItem(r: Rng): Item {
  const t = pick(r, [
    "bad_json",
    "unknown_field",
    "unknown_query",
    "wrong_type",
    "window",
    "missing_index",
    "bad_agg",
    "bad_sort",
    "bad_param",
    "bad_size",
    "unknown_endpoint",
    "missing_doc",
  ]);
  switch (t) {
    case "bad_json":
      return search(
        "error:bad_json",
        MULTI,
        pick(r, ['{"query": {', '{"query":}', "[1,2", '{"a" 1}']),
        "",
        true,
      );
    case "unknown_field":
      return search(
        "error:unknown_field",
        MULTI,
        pick(r, [{ qeury: {} }, { query: { match: { title: "x" } }, sizee: 1 }]),
        "",
        true,
      );
    case "unknown_query":
      return search("error:unknown_query", MULTI, { query: { no_such_query: { f: 1 } } }, "", true);
    case "wrong_type":
      return search(
        "error:wrong_type",
        MULTI,
        pick(r, [
          { size: "ten" },
          { query: { term: { count: "abc" } } },
          { query: { range: { when: { gte: "not a date" } } } },
          { from: -1 },
          { query: { match: { title: { query: "x", operator: "xor" } } } },
        ]),
        "",
        true,
      );
    case "window":
      return search("error:window", MULTI, { from: 10000, size: 10 }, "", true);
    case "missing_index":
      return search("error:missing_index", "diff-nope", { query: { match_all: {} } }, "", true);
    case "bad_agg":
      return search(
        "error:bad_agg",
        MULTI,
        pick(r, [
          { aggs: { a: { terms: { field: "title" } } } },
          { aggs: { a: { no_such_agg: {} } } },
          { aggs: { a: { avg: { field: "tag" } } } },
          { aggs: { a: { histogram: { field: "count" } } } },
        ]),
        "",
        true,
      );
    case "bad_sort":
      return search(
        "error:bad_sort",
        MULTI,
        pick(r, [{ sort: [{ title: "asc" }] }, { sort: [{ count: "up" }] }]),
        "",
        true,
      );
    case "bad_param":
      return search(
        "error:bad_param",
        MULTI,
        {},
        pick(r, ["?search_type=nope", "?size=x", "?nonsense=1"]),
        true,
      );
    case "bad_size":
      return search("error:bad_size", MULTI, { size: -5 }, "", true);
    case "unknown_endpoint":
      return [{
        kind: "error:unknown_endpoint",
        method: "GET",
        path: "/_no_such_api",
        repeatable: true,
        onPurpose: true,
      }];
    default:
      return [{
        kind: "error:missing_doc",
        method: "GET",
        path: `/${MULTI}/_doc/nope`,
        repeatable: true,
        onPurpose: true,
      }];
  }
}

/** Endpoints other than search: cluster, cat, index metadata, documents. */
function endpointItem(r: Rng, flavour: Flavour): Item {
  const get = (kind: string, path: string, headers?: Record<string, string>): Item => [{
    kind,
    method: "GET",
    path,
    repeatable: true,
    ...(headers ? { headers } : {}),
  }];
  const idx = pick(r, [ONE, MULTI]);
  const t = pick(r, [
    "health",
    "cat",
    "cat_accept",
    "settings",
    "mapping",
    "get_index",
    "count",
    "doc",
    "mget",
    "source",
    "exists",
    "explain",
    "validate",
    "field_caps",
    "msearch",
    "alias",
  ]);
  switch (t) {
    case "health":
      return get(
        "endpoint:cluster.health",
        pick(r, ["/_cluster/health", `/_cluster/health/${idx}`, "/_cluster/health?level=indices"]),
      );
    case "cat":
      return get(
        "endpoint:cat",
        pick(r, [
          `/_cat/indices/${idx}?format=json&h=index,health,status,pri,rep,docs.count`,
          `/_cat/count/${idx}?format=json&h=count`,
          "/_cat/health?format=json&h=status,node.total,shards,pri,relo,init,unassign",
          `/_cat/shards/${idx}?format=json&h=index,shard,prirep,state,docs`,
          `/_cat/aliases?format=json`,
        ]),
      );
    case "cat_accept":
      return get("endpoint:cat (Accept: application/json)", `/_cat/count/${idx}?h=count`, {
        Accept: "application/json",
      });
    case "settings":
      return get(
        "endpoint:indices.get_settings",
        pick(r, [
          `/${idx}/_settings`,
          `/${idx}/_settings?flat_settings=true`,
          `/${idx}/_settings/index.number_of_*`,
        ]),
      );
    case "mapping":
      return get(
        "endpoint:indices.get_mapping",
        pick(r, [`/${idx}/_mapping`, `/${idx}/_mapping/field/title,count`]),
      );
    case "get_index":
      return get("endpoint:indices.get", `/${idx}`);
    case "count":
      return [{
        kind: "endpoint:count",
        method: "POST",
        path: `/${idx}/_count`,
        body: json({ query: leafQuery(r, flavour)[1] }),
        repeatable: true,
      }];
    case "doc":
      return get(
        "endpoint:get",
        `/${idx}/_doc/${int(r, 0, 60)}${
          pick(r, ["", "?_source_includes=uid,count", "?_source=false", "?stored_fields=uid"])
        }`,
      );
    case "mget":
      return [{
        kind: "endpoint:mget",
        method: "POST",
        path: `/${idx}/_mget`,
        body: json({ ids: [String(int(r, 0, 30)), String(int(r, 0, 30)), "nope"] }),
        repeatable: true,
      }];
    case "source":
      return get("endpoint:get_source", `/${idx}/_source/${int(r, 0, 30)}`);
    case "exists":
      return [{
        kind: "endpoint:exists",
        method: "HEAD",
        path: `/${idx}/_doc/${int(r, 0, 60)}`,
        repeatable: true,
      }];
    case "explain":
      return [{
        kind: "endpoint:explain",
        method: "POST",
        path: `/${ONE}/_explain/${int(r, 0, 30)}`,
        body: json({ query: leafQuery(r, flavour)[1] }),
        repeatable: true,
      }];
    case "validate":
      return [{
        kind: "endpoint:indices.validate_query",
        method: "POST",
        path: `/${idx}/_validate/query`,
        body: json({ query: leafQuery(r, flavour)[1] }),
        repeatable: true,
      }];
    case "field_caps":
      return get(
        "endpoint:field_caps",
        `/${idx}/_field_caps?fields=${pick(r, ["title,count", "*", "owner.*"])}`,
      );
    case "alias":
      return get("endpoint:indices.get_alias", pick(r, ["/_alias", `/${idx}/_alias`]));
    default: {
      const lines = [
        json({ index: idx }),
        json({ query: leafQuery(r, flavour)[1], size: 3, sort: [{ uid: "asc" }] }),
        json({}),
        json({ size: 0 }),
      ];
      return [ndjsonItem("endpoint:msearch", "/_msearch", lines, true)];
    }
  }
}

/** A POST of NDJSON lines (`_bulk`, `_msearch`). */
function ndjsonItem(kind: string, path: string, lines: string[], repeatable: boolean): Step {
  return {
    kind,
    method: "POST",
    path,
    body: lines.join("\n") + "\n",
    contentType: "application/x-ndjson",
    repeatable,
  };
}

/** Writes to the scratch index (each once; their answers carry versions and sequence numbers). */
function writeItem(r: Rng, i: number): Item {
  const id = String(int(r, 0, 9));
  const w = (kind: string, method: string, path: string, body?: unknown): Item => [{
    kind,
    method,
    path,
    ...(body === undefined ? {} : { body: json(body) }),
    repeatable: false,
  }];
  switch (pick(r, ["index", "index", "update", "delete", "create", "bulk", "alias"])) {
    case "index":
      return w(
        "write:index",
        "PUT",
        `/${SCRATCH}/_doc/${id}${pick(r, ["", "?refresh=true", "?op_type=index"])}`,
        { n: i, s: pick(r, WORDS) },
      );
    case "update":
      return w(
        "write:update",
        "POST",
        `/${SCRATCH}/_update/${id}`,
        pick(r, [{ doc: { u: i } }, { doc: { u: i }, doc_as_upsert: true }, {
          upsert: { n: 0 },
          doc: { n: i },
        }]),
      );
    case "delete":
      return w("write:delete", "DELETE", `/${SCRATCH}/_doc/${id}`);
    case "create":
      return w("write:create", "PUT", `/${SCRATCH}/_create/${id}`, { c: i });
    case "alias":
      return w("write:aliases", "POST", "/_aliases", {
        actions: [{
          [pick(r, ["add", "remove"])]: { index: SCRATCH, alias: `diff-alias-${int(r, 0, 2)}` },
        }],
      });
    default: {
      const lines = [
        json({ index: { _index: SCRATCH, _id: id } }),
        json({ b: i }),
        json({ delete: { _index: SCRATCH, _id: String(int(r, 0, 9)) } }),
        json({ update: { _index: SCRATCH, _id: String(int(r, 0, 9)) } }),
        json({ doc: { b2: i } }),
      ];
      return [ndjsonItem("write:bulk", "/_bulk", lines, false)];
    }
  }
}

/** A search with paging: from/size, search_after, point in time, scroll. */
function pagingItem(r: Rng, flavour: Flavour): Item {
  const sort = [{ count: "asc" }, { uid: "asc" }];
  const t = pick(r, ["from", "search_after", "pit", "scroll"]);
  if (t === "from") {
    return search("page:from_size", MULTI, { from: int(r, 0, 30), size: int(r, 0, 10), sort });
  }
  if (t === "search_after") {
    return search("page:search_after", MULTI, {
      size: int(r, 1, 8),
      sort,
      search_after: [pick(r, [0, 1, 3, 13, -1]), `u0${int(r, 0, 4)}${int(r, 0, 9)}`],
    });
  }
  if (t === "pit") {
    const open: Step = flavour === "elasticsearch"
      ? {
        kind: "page:pit open",
        method: "POST",
        path: `/${MULTI}/_pit?keep_alive=1m`,
        repeatable: false,
        capture: { name: "pit", path: "id" },
        plumbing: true,
      }
      : {
        kind: "page:pit open",
        method: "POST",
        path: `/${MULTI}/_search/point_in_time?keep_alive=1m`,
        repeatable: false,
        capture: { name: "pit", path: "pit_id" },
        plumbing: true,
      };
    const page: Step = {
      kind: "page:pit",
      method: "POST",
      path: "/_search",
      body: json({
        size: int(r, 1, 6),
        pit: { id: "$pit", keep_alive: "1m" },
        sort: [{ count: "asc" }, { uid: "asc" }],
        ...(chance(r, 0.5) ? { search_after: [3, "u010"] } : {}),
        ...(chance(r, 0.5) ? { query: leafQuery(r, flavour)[1] } : {}),
      }),
      repeatable: true,
    };
    const close: Step = flavour === "elasticsearch"
      ? {
        kind: "page:pit close",
        method: "DELETE",
        path: "/_pit",
        body: json({ id: "$pit" }),
        repeatable: false,
        plumbing: true,
      }
      : {
        kind: "page:pit close",
        method: "DELETE",
        path: "/_search/point_in_time",
        body: json({ pit_id: ["$pit"] }),
        repeatable: false,
        plumbing: true,
      };
    return [open, page, close];
  }
  const size = int(r, 2, 7);
  return [
    {
      kind: "page:scroll",
      method: "POST",
      path: `/${MULTI}/_search?scroll=1m`,
      body: json({ size, sort }),
      repeatable: false,
      capture: { name: "scroll", path: "_scroll_id" },
    },
    {
      kind: "page:scroll next",
      method: "POST",
      path: "/_search/scroll",
      body: json({ scroll: "1m", scroll_id: "$scroll" }),
      repeatable: false,
    },
    {
      kind: "page:scroll clear",
      method: "DELETE",
      path: "/_search/scroll",
      body: json({ scroll_id: "$scroll" }),
      repeatable: false,
      plumbing: true,
    },
  ];
}

/** The generated requests after {@link setup}: `n` items from the seed. */
export function requests(seed: number, n: number, flavour: Flavour): Item[] {
  const r = prng(seed * 7919 + 17);
  const items: Item[] = [];
  for (let i = 0; i < n; i++) {
    const family = pick(r, [
      "query",
      "query",
      "query",
      "compound",
      "agg",
      "agg",
      "agg",
      "sort",
      "page",
      "highlight",
      "source",
      "filter_path",
      "script",
      "error",
      "error",
      "endpoint",
      "endpoint",
      "write",
      "geo",
    ]);
    switch (family) {
      case "geo":
        items.push(geoItem(r));
        break;
      case "query": {
        const [k, q] = leafQuery(r, flavour);
        items.push(
          search(`query:${k}`, ONE, {
            query: q,
            ...(chance(r, 0.3) ? { size: int(r, 0, 5) } : {}),
          }),
        );
        break;
      }
      case "compound": {
        const [k, q] = compoundQuery(r, flavour);
        items.push(
          search(`query:${k}`, ONE, { query: q, ...(chance(r, 0.3) ? { explain: false } : {}) }),
        );
        break;
      }
      case "agg": {
        const [k, a] = aggregation(r, flavour);
        const body: Record<string, unknown> = { size: 0, aggs: { a } };
        if (chance(r, 0.3)) body.query = leafQuery(r, flavour)[1];
        items.push(search(`agg:${k}`, MULTI, body));
        break;
      }
      case "sort":
        items.push(search("sort", MULTI, {
          sort: sortClause(r),
          size: int(r, 1, 10),
          _source: ["uid"],
          ...(chance(r, 0.3) ? { track_scores: true } : {}),
        }));
        break;
      case "page":
        items.push(pagingItem(r, flavour));
        break;
      case "highlight":
        items.push(search("highlight", ONE, {
          query: { match: { [pick(r, TEXT_FIELDS)]: pick(r, WORDS) } },
          highlight: {
            fields: chance(r, 0.5) ? { title: {}, body: {} } : { "*": {} },
            ...(chance(r, 0.3) ? { pre_tags: ["["], post_tags: ["]"] } : {}),
            ...(chance(r, 0.3) ? { type: pick(r, ["unified", "plain"]) } : {}),
            ...(chance(r, 0.2) ? { number_of_fragments: 0 } : {}),
          },
          _source: false,
        }));
        break;
      case "source":
        items.push(search("source", MULTI, {
          size: 5,
          sort: [{ uid: "asc" }],
          _source: pick(r, [
            false,
            true,
            ["uid", "owner.*"],
            { includes: ["items", "count"], excludes: ["items.qty"] },
            "tag",
            { excludes: ["title", "body"] },
          ]),
          ...(chance(r, 0.3)
            ? {
              fields: pick(r, [["count"], ["when"], [{ field: "when", format: "epoch_millis" }]]),
            }
            : {}),
          ...(chance(r, 0.2) ? { docvalue_fields: ["tag", "count"] } : {}),
        }));
        break;
      case "filter_path":
        items.push(
          search(
            "filter_path",
            MULTI,
            { size: 3, sort: [{ uid: "asc" }], aggs: { t: { terms: { field: "tag" } } } },
            `?filter_path=${
              pick(r, [
                "hits.hits._id",
                "hits.total,aggregations.*.buckets.key",
                "-hits.hits._source",
                "**.key",
                "hits.hits._source.uid,took",
              ])
            }`,
          ),
        );
        break;
      case "script":
        items.push(
          search(
            `script:${pick(r, ["script_score", "script_fields", "script_query"])}`,
            ONE,
            scriptBody(r),
          ),
        );
        break;
      case "error":
        items.push(errorItem(r));
        break;
      case "endpoint":
        items.push(endpointItem(r, flavour));
        break;
      default:
        items.push(writeItem(r, i));
    }
  }
  // The script kind was picked before its body: relabel by what the body holds.
  for (const item of items) {
    for (const s of item) {
      if (s.kind.startsWith("script:") && s.body) {
        const b = JSON.parse(s.body) as Record<string, unknown>;
        s.kind = b.script_fields
          ? "script:script_fields"
          : JSON.stringify(b).includes("script_score")
          ? "script:script_score"
          : "script:script_query";
      }
    }
  }
  return items;
}

/** A point in one of the forms the real engines accept in requests. */
function geoPointForm(r: Rng, lat: number, lon: number): unknown {
  switch (pick(r, ["object", "string", "array", "wkt", "geohash"])) {
    case "object":
      return { lat, lon };
    case "string":
      return `${lat},${lon}`;
    case "array":
      return [lon, lat];
    case "wkt":
      return `POINT (${lon} ${lat})`;
    default:
      return pick(r, ["u173zq", "u09tvw", "dr5reg", "r3gx2f"]);
  }
}

const GEO_ORIGINS: readonly [number, number][] = [[50, 5], [0, 0], [40.7, -74], [-33.9, 151.2], [
  51.5,
  0,
]];

/** Geo queries, aggregations, sorts and fields over `loc`, in the forms the real engines accept. */
function geoItem(r: Rng): Item {
  // Now and then a point off the globe, which validation_method decides about.
  const [lat, lon] = chance(r, 0.08)
    ? pick(r, [[95, 5], [10, 190]] as const)
    : pick(r, GEO_ORIGINS);
  const origin = () => geoPointForm(r, lat, lon);
  const field = () => (chance(r, 0.06) ? "nowhere" : "loc");
  const t = pick(r, [
    "geo_distance",
    "geo_distance",
    "geo_bounding_box",
    "geo_bounding_box",
    "geo_polygon",
    "geo_shape",
    "agg:geo_bounds",
    "agg:geo_centroid",
    "agg:geo_distance",
    "agg:geohash_grid",
    "agg:geotile_grid",
    "sort",
    "sort",
    "fields",
    "bad_point",
  ]);
  const unmapped = (
    q: Record<string, unknown>,
  ) => (chance(r, 0.5) ? { ...q, ignore_unmapped: true } : q);
  switch (t) {
    case "geo_distance": {
      const f = field();
      const q: Record<string, unknown> = {
        distance: pick(r, ["100km", "1000km", "5000mi", "300000", 2500000, "800nmi", "2000000m"]),
        [f]: origin(),
      };
      if (chance(r, 0.3)) q.distance_type = pick(r, ["arc", "plane"]);
      if (chance(r, 0.2)) q.validation_method = pick(r, ["STRICT", "COERCE", "IGNORE_MALFORMED"]);
      if (chance(r, 0.2)) q.boost = 2;
      return search("query:geo_distance", ONE, {
        query: { geo_distance: f === "loc" ? q : unmapped(q) },
        _source: ["uid"],
      });
    }
    case "geo_bounding_box": {
      const f = field();
      const [top, left, bottom, right] = pick(r, [
        [60, 0, 40, 20],
        [55, -10, 45, 15],
        [10, 170, -60, -170],
        [90, -180, -90, 180],
        [45, -80, 30, -70],
      ]);
      const box = pick(r, [
        { top_left: [left, top], bottom_right: [right, bottom] },
        { top_left: { lat: top, lon: left }, bottom_right: { lat: bottom, lon: right } },
        { top_left: `${top},${left}`, bottom_right: `${bottom},${right}` },
        { top, left, bottom, right },
        { top_right: [right, top], bottom_left: [left, bottom] },
        { wkt: `BBOX (${left}, ${right}, ${top}, ${bottom})` },
        { top_left: "u1", bottom_right: "u0" },
      ]);
      const q: Record<string, unknown> = { [f]: box };
      if (chance(r, 0.2)) q.validation_method = pick(r, ["STRICT", "COERCE"]);
      return search("query:geo_bounding_box", ONE, {
        query: { geo_bounding_box: f === "loc" ? q : unmapped(q) },
        _source: ["uid"],
      });
    }
    case "geo_polygon":
      return search("query:geo_polygon", ONE, {
        query: {
          geo_polygon: {
            loc: {
              points: pick(r, [
                [[0, 40], [20, 40], [20, 60], [0, 60]],
                [{ lat: 60, lon: -10 }, { lat: 40, lon: 20 }, { lat: 40, lon: -10 }],
                ["60,-80", "30,-80", "30,-60", "60,-60"],
              ]),
            },
          },
        },
        _source: ["uid"],
      });
    case "geo_shape":
      return search("query:geo_shape", ONE, {
        query: {
          geo_shape: {
            loc: {
              shape: pick(r, [
                { type: "envelope", coordinates: [[0, 60], [20, 40]] },
                { type: "polygon", coordinates: [[[0, 40], [20, 40], [20, 60], [0, 60], [0, 40]]] },
                { type: "envelope", coordinates: [[-180, 0], [180, -90]] },
              ]),
              ...(chance(r, 0.4)
                ? { relation: pick(r, ["intersects", "disjoint", "within"]) }
                : {}),
            },
          },
        },
        _source: ["uid"],
      });
    case "agg:geo_bounds":
      return search("agg:geo_bounds", MULTI, {
        size: 0,
        aggs: {
          a: { geo_bounds: { field: "loc", ...(chance(r, 0.3) ? { wrap_longitude: false } : {}) } },
        },
        ...(chance(r, 0.3) ? { query: { term: { tag: pick(r, TAGS) } } } : {}),
      });
    case "agg:geo_centroid":
      return search("agg:geo_centroid", MULTI, {
        size: 0,
        aggs: chance(r, 0.5)
          ? { a: { geo_centroid: { field: "loc" } } }
          : { a: { terms: { field: "tag" }, aggs: { c: { geo_centroid: { field: "loc" } } } } },
      });
    case "agg:geo_distance": {
      const unit = pick(r, [undefined, "km", "mi", "m"]);
      const scale = unit === "km" ? 1 : unit === "mi" ? 0.621 : 1000;
      return search("agg:geo_distance", MULTI, {
        size: 0,
        aggs: {
          a: {
            geo_distance: {
              field: "loc",
              origin: origin(),
              ...(unit ? { unit } : {}),
              ...(chance(r, 0.3) ? { distance_type: pick(r, ["arc", "plane"]) } : {}),
              ...(chance(r, 0.3) ? { keyed: true } : {}),
              ranges: [
                { to: 500 * scale },
                { from: 500 * scale, to: 5000 * scale },
                { from: 5000 * scale, ...(chance(r, 0.3) ? { key: "far" } : {}) },
              ],
            },
          },
        },
      });
    }
    case "agg:geohash_grid":
    case "agg:geotile_grid": {
      const type = t.slice(4);
      const grid: Record<string, unknown> = {
        field: "loc",
        precision: type === "geohash_grid" ? int(r, 1, 5) : int(r, 0, 8),
      };
      if (chance(r, 0.3)) grid.size = int(r, 1, 4);
      if (chance(r, 0.2)) grid.bounds = { top_left: "60,-20", bottom_right: "30,30" };
      const agg: Record<string, unknown> = { [type]: grid };
      if (chance(r, 0.3)) agg.aggs = { c: { geo_centroid: { field: "loc" } } };
      return search(t, MULTI, { size: 0, aggs: { a: agg } });
    }
    case "sort": {
      const f = field();
      const points = chance(r, 0.2) ? [origin(), geoPointForm(r, -10, 100)] : origin();
      const spec: Record<string, unknown> = { [f]: points };
      if (chance(r, 0.5)) spec.order = pick(r, ["asc", "desc"]);
      if (chance(r, 0.4)) spec.unit = pick(r, ["km", "mi", "m", "nmi", "ft"]);
      if (chance(r, 0.3)) spec.mode = pick(r, ["min", "max", "avg", "median"]);
      if (chance(r, 0.2)) spec.distance_type = pick(r, ["arc", "plane"]);
      if (f !== "loc" && chance(r, 0.7)) spec.ignore_unmapped = true;
      return search("sort:_geo_distance", MULTI, {
        sort: [{ _geo_distance: spec }, { uid: "asc" }],
        size: int(r, 1, 10),
        _source: ["uid"],
      });
    }
    case "fields":
      return search("fields:geo_point", ONE, {
        query: { exists: { field: "loc" } },
        sort: [{ uid: "asc" }],
        size: int(r, 1, 8),
        _source: false,
        ...pick(r, [
          { fields: ["loc"] },
          { fields: [{ field: "loc", format: "wkt" }] },
          { fields: [{ field: "loc", format: "geojson" }] },
          { docvalue_fields: ["loc"] },
        ]),
      });
    default: {
      const bad = pick(r, [{ lat: 91, lon: 0 }, { lat: 0, lon: 181 }, "abc", [1], "1,2,3,4", {
        lat: 1,
      }]);
      return [{
        kind: "error:bad_geo_point",
        method: "PUT",
        // The scratch index: a bad point an engine took would change only the writes after it.
        path: `/${SCRATCH}/_doc/geo-bad`,
        body: json({ loc: bad }),
        repeatable: false,
        onPurpose: true,
      }];
    }
  }
}

function scriptBody(r: Rng): Record<string, unknown> {
  const source = pick(r, [
    "doc['count'].size() == 0 ? 0 : doc['count'].value * 2",
    "params.f * 2",
    "doc['price'].size() > 0 ? doc['price'].value : -1",
  ]);
  const script = { source, lang: "painless", params: { f: 3 } };
  switch (pick(r, ["score", "fields", "query"])) {
    case "score":
      return {
        query: {
          script_score: {
            query: { match_all: {} },
            script: { source: "_score + params.f", params: { f: 1 } },
          },
        },
      };
    case "fields":
      return { size: 3, sort: [{ uid: "asc" }], script_fields: { s: { script } } };
    default:
      return {
        query: {
          bool: {
            filter: {
              script: {
                script: {
                  source: "doc['count'].size() > 0 && doc['count'].value > params.f",
                  params: { f: 3 },
                },
              },
            },
          },
        },
      };
  }
}
