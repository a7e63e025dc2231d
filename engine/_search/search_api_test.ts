import assert from "node:assert/strict";
import { EngineError } from "../_errors.ts";
import { countApi, findMatches } from "./matches_api.ts";
import { searchApi, searchApiSliced, SearchContexts } from "./search_api.ts";
import { TestIndex } from "../../tests/support/test_index.ts";
import { aggregationSteps, runAggregations } from "../_aggs/aggregations.ts";
import { execContextOf } from "../_query/exec_context.ts";
import { matchLive } from "../_query/query_exec.ts";
import { parseQuery } from "../_query/query_parser.ts";
import { FETCH_ALL } from "../_hits/source_filter.ts";
import {
  type HitOptions,
  RENDER_BLOCK,
  renderHits,
  renderHitsSteps,
} from "../_hits/hits_render.ts";

type Hit = {
  _id: string;
  _score: number | null;
  sort?: unknown[];
  _source?: Record<string, unknown>;
};
type HitsSection = {
  total?: { value: number; relation: string } | number;
  max_score: number | null;
  hits: Hit[];
};

const mappings = {
  properties: {
    name: { type: "text", fields: { keyword: { type: "keyword" } } },
    n: { type: "long" },
    tag: { type: "keyword" },
  },
};

function index(count = 30): TestIndex {
  const docs: Record<string, Record<string, unknown>> = {};
  for (let i = 1; i <= count; i++) {
    docs[String(i)] = i % 5 === 0
      ? { name: `doc ${i}`, tag: "t" + (i % 3) }
      : { name: `doc ${i}`, n: i, tag: "t" + (i % 3) };
  }
  return new TestIndex("idx", mappings).put(docs);
}

function search(
  body?: Record<string, unknown>,
  params = "",
  idx = index(),
): Record<string, unknown> {
  return searchApi(new SearchContexts(), [idx.target()], body, new URLSearchParams(params));
}

const hitsOf = (res: Record<string, unknown>) => res.hits as HitsSection;
const idsOf = (res: Record<string, unknown>) => hitsOf(res).hits.map((h) => h._id);

function throwsEngine(
  fn: () => unknown,
  status: number,
  type: string,
  reason: RegExp,
): EngineError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof EngineError, String(e));
    assert.equal(e.status, status);
    assert.equal(e.type, type);
    const text = JSON.stringify(e.toBody());
    assert.match(text, reason);
    return e;
  }
  assert.fail("expected an EngineError");
}

Deno.test("response has Elasticsearch 8 shape with default size 10", () => {
  const res = search({ query: { match_all: {} } });
  assert.deepEqual(Object.keys(res), ["took", "timed_out", "_shards", "hits"]);
  assert.deepEqual(res._shards, { total: 1, successful: 1, skipped: 0, failed: 0 });
  const hits = hitsOf(res);
  assert.deepEqual(hits.total, { value: 30, relation: "eq" });
  assert.equal(hits.max_score, 1);
  assert.equal(hits.hits.length, 10);
  assert.deepEqual(Object.keys(hits.hits[0]!), ["_index", "_id", "_score", "_source"]);
});

Deno.test("from and size page through hits; size 0 returns none", () => {
  assert.deepEqual(idsOf(search({ from: 2, size: 3, sort: ["n"] })), ["3", "4", "6"]);
  assert.deepEqual(idsOf(search({ sort: ["n"] }, "from=2&size=3")), ["3", "4", "6"]);
  const res = search({ size: 0 });
  assert.deepEqual(hitsOf(res).hits, []);
  assert.equal(hitsOf(res).max_score, null);
});

Deno.test("sort by field: order, missing, unmapped_type, multiple keys, _score null", () => {
  const asc = search({ sort: [{ n: "asc" }], size: 30 });
  assert.deepEqual(idsOf(asc).slice(0, 3), ["1", "2", "3"]);
  assert.deepEqual(idsOf(asc).slice(-7), ["29", "5", "10", "15", "20", "25", "30"], "missing last");
  assert.equal(hitsOf(asc).max_score, null);
  assert.equal(hitsOf(asc).hits[0]!._score, null);
  assert.deepEqual(hitsOf(asc).hits[0]!.sort, [1]);
  const first = search({ sort: [{ n: { order: "desc", missing: "_first" } }], size: 7 });
  assert.deepEqual(idsOf(first), ["5", "10", "15", "20", "25", "30", "29"]);
  const multi = search({ sort: [{ tag: "desc" }, { "name.keyword": "asc" }], size: 3 });
  assert.deepEqual(hitsOf(multi).hits.map((h) => h.sort), [["t2", "doc 11"], ["t2", "doc 14"], [
    "t2",
    "doc 17",
  ]]);
  const unmapped = search({ sort: [{ nope: { unmapped_type: "long" } }, "_doc"], size: 2 });
  assert.deepEqual(idsOf(unmapped), ["1", "2"]);
  const tracked = search({ sort: ["n"], track_scores: true, size: 1 });
  assert.equal(hitsOf(tracked).hits[0]!._score, 1);
  assert.deepEqual(idsOf(search(undefined, "sort=n:desc&size=2")), ["29", "28"]);
});

Deno.test("sort by _score: desc reports max_score, asc does not", () => {
  const desc = search({ query: { match: { name: "doc" } }, sort: [{ _score: "desc" }], size: 2 });
  assert.equal(typeof hitsOf(desc).max_score, "number");
  // a longer sort reports none in Elasticsearch 9.5.4 (max_score_sorted_test.ts)
  const more = search({
    query: { match: { name: "doc" } },
    sort: [{ _score: "desc" }, { _doc: "desc" }],
    size: 2,
  });
  assert.equal(hitsOf(more).max_score, null);
  const asc = search({ query: { match: { name: "doc" } }, sort: [{ _score: "asc" }], size: 2 });
  assert.equal(hitsOf(asc).max_score, null);
});

Deno.test("sorting on unmapped or text fields fails like Elasticsearch", () => {
  throwsEngine(
    () => search({ sort: ["nope"] }),
    400,
    "search_phase_execution_exception",
    /No mapping found for \[nope\] in order to sort on/,
  );
  throwsEngine(
    () => search({ sort: ["name"] }),
    400,
    "search_phase_execution_exception",
    /Text fields are not optimised/,
  );
});

Deno.test("max_result_window and negative from", () => {
  throwsEngine(
    () => search(undefined, "from=10000"),
    400,
    "search_phase_execution_exception",
    /Result window is too large, from \+ size must be less than or equal to: \[10000\] but was \[10010\]\. See the scroll api/,
  );
  throwsEngine(
    () => search(undefined, "from=-2"),
    400,
    "illegal_argument_exception",
    /\[from\] parameter cannot be negative/,
  );
  throwsEngine(
    () => search(undefined, "scroll=5m&size=10010"),
    400,
    "search_phase_execution_exception",
    /Batch size is too large/,
  );
});

Deno.test("track_total_hits: default 10000, exact, threshold, false, as int", () => {
  const big = index(10).put(
    Object.fromEntries(Array.from({ length: 10050 }, (_, i) => [`x${i}`, { n: i }])),
  );
  assert.deepEqual(hitsOf(search({ size: 0 }, "", big)).total, { value: 10000, relation: "gte" });
  assert.deepEqual(hitsOf(search({ size: 0, track_total_hits: true }, "", big)).total, {
    value: 10060,
    relation: "eq",
  });
  assert.deepEqual(hitsOf(search({ size: 0, track_total_hits: 5 })).total, {
    value: 5,
    relation: "gte",
  });
  assert.equal(hitsOf(search({ size: 0, track_total_hits: false })).total, undefined);
  assert.equal(hitsOf(search({ size: 0 }, "rest_total_hits_as_int=true", big)).total, 10060);
});

Deno.test("search_after continues after the last sort values", () => {
  const page1 = search({ sort: [{ n: "asc" }], size: 3 });
  const last = hitsOf(page1).hits[2]!.sort!;
  assert.deepEqual(idsOf(search({ sort: [{ n: "asc" }], size: 3, search_after: last })), [
    "4",
    "6",
    "7",
  ]);
  throwsEngine(
    () => search({ sort: [{ n: "asc" }], search_after: [1, 2] }),
    400,
    "search_phase_execution_exception",
    /search_after has 2 value\(s\) but sort has 1/,
  );
});

Deno.test("_source filtering and version/seq_no options", () => {
  const res = search({
    _source: ["tag"],
    version: true,
    seq_no_primary_term: true,
    size: 1,
    sort: ["n"],
  });
  const hit = hitsOf(res).hits[0] as Record<string, unknown>;
  assert.deepEqual(hit._source, { tag: "t1" });
  assert.equal(hit._version, 1);
  assert.equal(hit._primary_term, 1);
  assert.equal(typeof hit._seq_no, "number");
  assert.equal(hitsOf(search({ _source: false, size: 1 })).hits[0]!._source, undefined);
});

Deno.test("aggregations: terms with sub-aggs and metrics", () => {
  const res = search({
    size: 0,
    aggs: {
      tags: { terms: { field: "tag", size: 2 }, aggs: { top: { max: { field: "n" } } } },
      lo: { min: { field: "n" } },
      hi: { max: { field: "n" } },
      mean: { avg: { field: "n" } },
      total: { sum: { field: "n" } },
      cnt: { value_count: { field: "n" } },
      distinct: { cardinality: { field: "tag" } },
      none: { avg: { field: "missing" } },
    },
  });
  const aggs = res.aggregations as Record<string, Record<string, unknown>>;
  assert.deepEqual(aggs.tags, {
    doc_count_error_upper_bound: 0,
    sum_other_doc_count: 10,
    buckets: [{ key: "t0", doc_count: 10, top: { value: 27 } }, {
      key: "t1",
      doc_count: 10,
      top: { value: 28 },
    }],
  });
  assert.deepEqual(aggs.lo, { value: 1 });
  assert.deepEqual(aggs.hi, { value: 29 });
  assert.deepEqual(aggs.total, { value: 360 });
  assert.deepEqual(aggs.mean, { value: 15 });
  assert.deepEqual(aggs.cnt, { value: 24 });
  assert.deepEqual(aggs.distinct, { value: 3 });
  assert.deepEqual(aggs.none, { value: null });
  throwsEngine(
    () => search({ aggs: { x: { bogus: {} } } }),
    400,
    "parsing_exception",
    /Unknown aggregation type \[bogus\]/,
  );
});

Deno.test("query errors: unknown query, malformed query, unknown body key", () => {
  throwsEngine(
    () => search({ query: { foo: {} } }),
    400,
    "parsing_exception",
    /unknown query \[foo\]/,
  );
  throwsEngine(
    () => search({ query: { term: { a: 1, b: 2 } } }),
    400,
    "parsing_exception",
    /\[term\] query doesn't support multiple fields/,
  );
  throwsEngine(
    () => search({ query: { match_all: {}, term: { a: 1 } } }),
    400,
    "parsing_exception",
    /malformed query/,
  );
  throwsEngine(
    () => search({ query: { bool: { must: [], nope: 1 } } }),
    400,
    "parsing_exception",
    /\[bool\] query does not support \[nope\]/,
  );
  throwsEngine(
    () => search({ bogus: 1 }),
    400,
    "parsing_exception",
    /Unknown key for a VALUE_NUMBER in \[bogus\]/,
  );
  throwsEngine(
    () => search({ query: { term: { n: "abc" } } }),
    400,
    "search_phase_execution_exception",
    /For input string/,
  );
});

Deno.test("multiple targets merge by score and by sort", () => {
  const a = new TestIndex("a", mappings).put({
    "1": { name: "apple pie", n: 3 },
    "2": { name: "banana", n: 1 },
  });
  const b = new TestIndex("b", mappings).put({ "1": { name: "apple apple", n: 2 } });
  const res = searchApi(
    new SearchContexts(),
    [a.target(), b.target()],
    { sort: ["n"] },
    new URLSearchParams(),
  );
  const hits = hitsOf(res).hits as unknown as { _index: string; _id: string }[];
  assert.deepEqual(hits.map((h) => `${h._index}/${h._id}`), ["a/2", "b/1", "a/1"]);
  assert.deepEqual(res._shards, { total: 2, successful: 2, skipped: 0, failed: 0 });
  const q = searchApi(new SearchContexts(), [a.target(), b.target()], {
    query: { match: { name: "apple" } },
  }, new URLSearchParams());
  assert.equal(hitsOf(q).hits.length, 2);
});

Deno.test("q parameter uses query_string syntax", () => {
  assert.deepEqual(idsOf(search(undefined, "q=n:7")), ["7"]);
  assert.deepEqual(idsOf(search(undefined, "q=tag:t1 AND n:[1 TO 5]&sort=n")), ["1", "4"]);
});

Deno.test("countApi counts and rejects other body keys", () => {
  const idx = index();
  assert.deepEqual(
    countApi([idx.target()], { query: { term: { tag: "t1" } } }, new URLSearchParams()),
    {
      count: 10,
      _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
    },
  );
  assert.equal(countApi([idx.target()], undefined, new URLSearchParams("q=tag:t2")).count, 10);
  throwsEngine(
    () => countApi([idx.target()], { size: 1 }, new URLSearchParams()),
    400,
    "parsing_exception",
    /request does not support \[size\]/,
  );
});

Deno.test("findMatches returns live docs for by-query APIs", () => {
  const idx = index(5);
  idx.put({ "2": null });
  const found = findMatches([idx.target()], { range: { n: { lte: 3 } } });
  assert.deepEqual(found.map((m) => [m.index, m.doc.id]), [["idx", "1"], ["idx", "3"]]);
  assert.throws(() => findMatches([idx.target()], { nope: {} }), /unknown query/);
});

Deno.test("named queries report matched_queries, with scores on request", () => {
  const body = {
    query: {
      bool: {
        should: [
          { match: { name: { query: "doc", _name: "any" } } },
          { term: { n: { value: 7, _name: "seven" } } },
        ],
      },
    },
    sort: ["n"],
    size: 7,
  };
  const res = search(body);
  const hits = hitsOf(res).hits as unknown as { _id: string; matched_queries: unknown }[];
  // real ES 9.5.4 and OS 3.8.0: ["seven","any"] (Java HashMap order, not the query's)
  assert.deepEqual(hits[5]!.matched_queries, ["seven", "any"]);
  assert.deepEqual(hits[0]!.matched_queries, ["any"]);
  const scored = search(body, "include_named_queries_score=true");
  const m = (hitsOf(scored).hits[5] as unknown as { matched_queries: Record<string, number> })
    .matched_queries;
  assert.ok(m.any! > 0 && m.seven === 1);
});

Deno.test("docvalue_fields and fields return per-hit values", () => {
  const res = search({
    docvalue_fields: ["n", { field: "tag", format: "x" }, { field: "n", format: "#.0" }],
    fields: ["name"],
    sort: ["n"],
    size: 1,
  });
  const hit = hitsOf(res).hits[0] as unknown as { fields: Record<string, unknown[]> };
  assert.deepEqual(hit.fields, { name: ["doc 1"], n: ["1.0"], tag: ["t1"] });
  const plain = search(undefined, "docvalue_fields=n&sort=n&size=1");
  assert.deepEqual((hitsOf(plain).hits[0] as unknown as { fields: unknown }).fields, { n: [1] });
});

Deno.test("bucket aggregations: histogram, date_histogram and range", () => {
  const idx = new TestIndex("h", { properties: { n: { type: "long" }, at: { type: "date" } } }).put(
    {
      a: { n: 1, at: "2024-01-05" },
      b: { n: 7, at: "2024-01-20" },
      c: { n: 12, at: "2024-03-02" },
    },
  );
  const res = search(
    {
      size: 0,
      aggs: {
        h: { histogram: { field: "n", interval: 5 } },
        d: {
          date_histogram: { field: "at", calendar_interval: "month" },
          aggs: { top: { max: { field: "n" } } },
        },
        r: {
          range: { field: "n", ranges: [{ to: 5 }, { from: 5, to: 10 }, { from: 10, key: "big" }] },
        },
      },
    },
    "",
    idx,
  );
  const aggs = res.aggregations as Record<string, { buckets: Record<string, unknown>[] }>;
  assert.deepEqual(aggs.h!.buckets, [{ key: 0, doc_count: 1 }, { key: 5, doc_count: 1 }, {
    key: 10,
    doc_count: 1,
  }]);
  assert.deepEqual(
    aggs.d!.buckets.map((b) => [b.key_as_string, b.doc_count, (b.top as { value: number }).value]),
    [
      ["2024-01-01T00:00:00.000Z", 2, 7],
      ["2024-02-01T00:00:00.000Z", 0, null],
      ["2024-03-01T00:00:00.000Z", 1, 12],
    ],
  );
  assert.deepEqual(aggs.r!.buckets, [
    { key: "*-5.0", to: 5, doc_count: 1 },
    { key: "5.0-10.0", from: 5, to: 10, doc_count: 1 },
    { key: "big", from: 10, doc_count: 1 },
  ]);
});

Deno.test("missing long values sort as Long.MAX/MIN_VALUE and round-trip through search_after", () => {
  const res = search({ sort: [{ n: "asc" }], size: 30 });
  const last = hitsOf(res).hits[29]!;
  assert.equal(last.sort![0], 9223372036854775807n);
  const after = search({
    sort: [{ n: "asc" }],
    size: 30,
    search_after: hitsOf(res).hits[24]!.sort,
  });
  assert.deepEqual(idsOf(after), []);
  const first = search({ sort: [{ n: { order: "asc", missing: "_first" } }], size: 1 });
  assert.deepEqual(hitsOf(first).hits[0]!.sort, [-9223372036854775808n]);
  const custom = search({ sort: [{ n: { order: "asc", missing: 6 } }], size: 6 });
  assert.deepEqual(idsOf(custom), ["1", "2", "3", "4", "5", "6"]);
});

Deno.test("terms aggregation ordered by a sub-aggregation metric", () => {
  const res = search({
    size: 0,
    aggs: {
      tags: {
        terms: { field: "tag", order: { top: "asc" } },
        aggs: { top: { max: { field: "n" } } },
      },
    },
  });
  const buckets =
    (res.aggregations as { tags: { buckets: { key: string; top: { value: number } }[] } }).tags
      .buckets;
  assert.deepEqual(buckets.map((b) => [b.key, b.top.value]), [["t0", 27], ["t1", 28], ["t2", 29]]);
  throwsEngine(
    () => search({ size: 0, aggs: { t: { terms: { field: "tag", order: { nope: "asc" } } } } }),
    400,
    "search_phase_execution_exception",
    /Unknown aggregation \[nope\]/,
  );
});

Deno.test("highlight marks query terms in source text", () => {
  const idx = new TestIndex("hl", {
    properties: { body: { type: "text" }, tag: { type: "keyword" } },
  }).put({
    a: { body: "The quick brown fox jumps over the lazy dog", tag: "fox" },
    b: { body: "word ".repeat(40) + "fox " + "word ".repeat(40), tag: "x" },
  });
  const res = search(
    {
      query: { bool: { should: [{ match: { body: "Fox lazy" } }, { term: { tag: "fox" } }] } },
      highlight: { fields: { body: {}, tag: {} } },
    },
    "",
    idx,
  );
  const hits = hitsOf(res).hits as unknown as {
    _id: string;
    highlight: Record<string, string[]>;
  }[];
  const a = hits.find((h) => h._id === "a")!;
  assert.deepEqual(a.highlight, {
    body: ["The quick brown <em>fox</em> jumps over the <em>lazy</em> dog"],
    tag: ["<em>fox</em>"],
  });
  const b = hits.find((h) => h._id === "b")!;
  assert.equal(b.highlight.body!.length, 1);
  assert.ok(b.highlight.body![0]!.includes("<em>fox</em>") && b.highlight.body![0]!.length < 130);
  const custom = search(
    {
      query: { match: { body: "dog" } },
      highlight: {
        pre_tags: ["["],
        post_tags: ["]"],
        fields: [{ "b*": { number_of_fragments: 0 } }],
      },
    },
    "",
    idx,
  );
  assert.deepEqual((hitsOf(custom).hits[0] as unknown as { highlight: unknown }).highlight, {
    body: ["The quick brown fox jumps over the lazy [dog]"],
  });
});

Deno.test("filters aggregation with named, anonymous and other buckets", () => {
  const res = search({
    size: 0,
    aggs: {
      named: {
        filters: {
          filters: { low: { range: { n: { lt: 5 } } }, t1: { term: { tag: "t1" } } },
          other_bucket_key: "rest",
        },
      },
      list: { filters: { filters: [{ term: { tag: "t0" } }] } },
    },
  });
  const aggs = res.aggregations as Record<string, { buckets: unknown }>;
  assert.deepEqual(aggs.named!.buckets, {
    low: { doc_count: 4 },
    t1: { doc_count: 10 },
    rest: { doc_count: 18 },
  });
  assert.deepEqual(aggs.list!.buckets, [{ doc_count: 10 }]);
});

Deno.test("top_hits under terms returns the best docs per bucket", () => {
  const res = search({
    query: { match: { name: "doc" } },
    size: 0,
    aggs: {
      tags: {
        terms: { field: "tag", size: 1 },
        aggs: { best: { top_hits: { size: 2, sort: [{ n: "desc" }], _source: ["n"] } } },
      },
    },
  });
  const bucket = (res.aggregations as { tags: { buckets: { best: { hits: HitsSection } }[] } }).tags
    .buckets[0]!;
  assert.deepEqual(bucket.best.hits.total, { value: 10, relation: "eq" });
  assert.deepEqual(bucket.best.hits.hits.map((h) => [h._id, h._source, h.sort]), [[
    "27",
    { n: 27 },
    [27],
  ], ["24", { n: 24 }, [24]]]);
  const scored = search({
    query: { match: { name: "doc" } },
    size: 0,
    aggs: { best: { top_hits: { size: 1 } } },
  });
  const top = (scored.aggregations as { best: { hits: HitsSection } }).best.hits;
  assert.ok((top.max_score ?? 0) > 0 && top.hits[0]!._score === top.max_score);
});

Deno.test("date formats from the mapping shape key_as_string and docvalue_fields", () => {
  const idx = new TestIndex("f", {
    properties: { at: { type: "date", format: "dd/MM/yyyy||epoch_millis" } },
  }).put({
    a: { at: "05/01/2024" },
    b: { at: "20/03/2024" },
  });
  const res = search(
    {
      query: { range: { at: { gte: "01/02/2024" } } },
      docvalue_fields: ["at"],
      aggs: {
        m: { date_histogram: { field: "at", calendar_interval: "month" } },
        last: { max: { field: "at" } },
      },
    },
    "",
    idx,
  );
  assert.deepEqual(idsOf(res), ["b"]);
  assert.deepEqual((hitsOf(res).hits[0] as unknown as { fields: unknown }).fields, {
    at: ["20/03/2024"],
  });
  const aggs = res.aggregations as {
    m: { buckets: { key_as_string: string }[] };
    last: { value_as_string: string };
  };
  assert.deepEqual(aggs.m.buckets.map((b) => b.key_as_string), ["01/03/2024"]);
  assert.equal(aggs.last.value_as_string, "20/03/2024");
});

Deno.test("collapse keeps the best hit per field value", () => {
  const res = search({ sort: [{ n: "desc" }], collapse: { field: "tag" } });
  const hits = hitsOf(res).hits as unknown as { _id: string; fields: Record<string, unknown[]> }[];
  assert.deepEqual(hits.map((h) => [h._id, h.fields.tag![0]]), [["29", "t2"], ["28", "t1"], [
    "27",
    "t0",
  ]]);
  assert.deepEqual(hitsOf(res).total, { value: 30, relation: "eq" });
});

Deno.test("extended_stats computes variance and deviation", () => {
  const idx = new TestIndex("e", { properties: { n: { type: "long" } } }).put({
    a: { n: 2 },
    b: { n: 4 },
    c: { n: 6 },
  });
  const res = search({ size: 0, aggs: { s: { extended_stats: { field: "n" } } } }, "", idx);
  const s = (res.aggregations as { s: Record<string, unknown> }).s;
  assert.equal(s.count, 3);
  assert.equal(s.avg, 4);
  assert.equal(s.sum_of_squares, 56);
  assert.ok(Math.abs((s.variance as number) - 8 / 3) < 1e-12);
  assert.equal(s.variance_sampling, 4);
  assert.equal(s.std_deviation_sampling, 2);
});

Deno.test("indices_boost multiplies the scores of one index", () => {
  const a = new TestIndex("a", mappings).put({ "1": { name: "apple" } });
  const b = new TestIndex("b", mappings).put({ "1": { name: "apple" } });
  const res = searchApi(new SearchContexts(), [a.target(), b.target()], {
    query: { match: { name: "apple" } },
    indices_boost: [{ b: 2 }],
  }, new URLSearchParams());
  const hits = hitsOf(res).hits as unknown as { _index: string; _score: number }[];
  assert.equal(hits[0]!._index, "b");
  assert.ok(Math.abs(hits[0]!._score - hits[1]!._score * 2) < 1e-6);
});

Deno.test("date_range aggregation with date math and formatted keys", () => {
  const idx = new TestIndex("dr", { properties: { at: { type: "date" } } }).put({
    a: { at: "2020-06-01" },
    b: { at: "2023-06-01" },
  });
  const res = search(
    {
      size: 0,
      aggs: {
        r: {
          date_range: { field: "at", ranges: [{ to: "2021-01-01" }, { from: "2021-01-01||+1y" }] },
        },
      },
    },
    "",
    idx,
  );
  const buckets = (res.aggregations as { r: { buckets: Record<string, unknown>[] } }).r.buckets;
  assert.deepEqual(buckets.map((b) => [b.key, b.doc_count]), [
    ["*-2021-01-01T00:00:00.000Z", 1],
    ["2022-01-01T00:00:00.000Z-*", 1],
  ]);
  assert.equal(buckets[1]!.from_as_string, "2022-01-01T00:00:00.000Z");
});

Deno.test("terms aggregation include and exclude", () => {
  const res = search({
    size: 0,
    aggs: {
      a: { terms: { field: "tag", include: "t[12]" } },
      b: { terms: { field: "tag", exclude: ["t0", "t2"] } },
    },
  });
  const aggs = res.aggregations as Record<string, { buckets: { key: string }[] }>;
  assert.deepEqual(aggs.a!.buckets.map((b) => b.key), ["t1", "t2"]);
  assert.deepEqual(aggs.b!.buckets.map((b) => b.key), ["t1"]);
});

// Real Elasticsearch 9.5.4 on the same four values: linear at p × (n - 1).
Deno.test("percentiles aggregation interpolates between values", () => {
  const idx = new TestIndex("p", { properties: { n: { type: "long" } } }).put({
    a: { n: 1 },
    b: { n: 2 },
    c: { n: 3 },
    d: { n: 4 },
  });
  const res = search(
    { size: 0, aggs: { p: { percentiles: { field: "n", percents: [1, 50, 99] } } } },
    "",
    idx,
  );
  assert.deepEqual((res.aggregations as { p: unknown }).p, {
    values: { "1.0": 1.03, "50.0": 2.5, "99.0": 3.9699999999999998 },
  });
});

Deno.test("script_fields: each hit gets the script's value under fields, and no _source", () => {
  const script = {
    source: "doc['n'].size() == 0 ? -1 : doc['n'].value * params.f",
    params: { f: 2 },
  };
  const res = search({ size: 2, sort: ["n"], script_fields: { twice: { script } } });
  const hits = hitsOf(res).hits as Array<Hit & { fields?: Record<string, unknown> }>;
  assert.deepEqual(hits.map((h) => h.fields), [{ twice: [2] }, { twice: [4] }]);
  assert.equal(hits[0]!._source, undefined);
  const both = hitsOf(
    search({ size: 1, sort: ["n"], _source: ["n"], script_fields: { twice: { script } } }),
  );
  assert.deepEqual(both.hits[0]!._source, { n: 1 });
  const missing = hitsOf(
    search({ size: 1, sort: [{ n: "desc" }], script_fields: { twice: { script } } }),
  );
  assert.deepEqual((missing.hits[0] as { fields?: unknown }).fields, { twice: [58] });
});

Deno.test("a time-sliced search lets other work run between its phases and answers the same", async () => {
  const a = index(30);
  const b = new TestIndex("idx2", mappings).put({ x: { name: "doc x", n: 99, tag: "t0" } });
  const body = {
    query: { match: { name: "doc" } },
    aggs: { tags: { terms: { field: "tag" } }, top: { max: { field: "n" } } },
  };
  const targets = [a.target(), b.target()];
  const whole = searchApi(new SearchContexts(), targets, body, new URLSearchParams());
  const events: string[] = [];
  // Other work queued as messages (a turn of the event loop each): each runs only at a turn the
  // search gave up. The first one writes: the search's targets are snapshots, so its answer does
  // not change.
  const { port1, port2 } = new MessageChannel();
  port1.onmessage = () => {
    if (events.length === 0) a.put({ "1": null, "2": null });
    events.push("other work");
    if (events.length < 10) port2.postMessage(null);
    else {
      port1.close();
      port2.close();
    }
  };
  port2.postMessage(null);
  const params = new URLSearchParams();
  const pending = searchApiSliced(new SearchContexts(), targets, { body, params }, 0).then(
    (r) => {
      events.push("search done");
      return r;
    },
  );
  const sliced = await pending;
  port1.close();
  port2.close();
  const turns = events.indexOf("search done");
  assert.ok(turns >= 2, `only ${turns} turns of other work ran during the search`);
  delete whole.took;
  delete sliced.took;
  assert.deepEqual(sliced, whole);
  assert.equal(hitsOf(sliced).total && (hitsOf(sliced).total as { value: number }).value, 31);
});

/** An index with more matches than two blocks of a stepped query, every 9th document deleted. */
function bigIndex(): TestIndex {
  const docs: Record<string, Record<string, unknown> | null> = {};
  for (let i = 0; i < 70_000; i++) {
    docs[String(i)] = {
      name: ["doc a", "doc b", "a b", "doc"][i % 4] + (i % 1000 === 0 ? " rare" : ""),
      n: i % 977,
      tag: "t" + (i % 5),
    };
  }
  const idx = new TestIndex("big", mappings).put(docs);
  const deleted: Record<string, null> = {};
  for (let i = 0; i < 70_000; i += 9) deleted[String(i)] = null;
  return idx.put(deleted);
}

Deno.test("a time-sliced search pauses inside long loops and answers byte for byte the same", async () => {
  const big = bigIndex().target();
  const bodies = [
    { query: { match: { name: "doc a" } }, track_total_hits: true },
    { query: { match: { name: "doc a" } }, track_total_hits: true, from: 5, size: 20 },
    { query: { match: { name: "doc b" } }, sort: [{ n: "desc" }, "_score"], size: 15 },
    { query: { match: { name: "a b" } }, sort: ["n"], search_after: [500], size: 5 },
    { query: { match: { name: "doc a" } }, post_filter: { term: { tag: "t2" } } },
    { size: 0, aggs: { tags: { terms: { field: "tag" } }, top: { max: { field: "n" } } } },
    { query: { match_all: {} }, sort: [{ n: "asc" }], size: 3 },
    {
      query: { match: { name: "doc a" } },
      size: 300,
      highlight: { fields: { name: {} } },
      fields: ["n", "tag"],
      docvalue_fields: ["n"],
    },
  ];
  // One shard, and three: each shard's query runs in steps of its own.
  for (const targets of [[big], [{ ...big, shards: 3 }]]) {
    for (const body of bodies) {
      const whole = searchApi(new SearchContexts(), targets, body, new URLSearchParams());
      const sliced = await searchApiSliced(
        new SearchContexts(),
        targets,
        { body: body, params: new URLSearchParams() },
        0,
      );
      delete whole.took;
      delete sliced.took;
      assert.equal(JSON.stringify(sliced), JSON.stringify(whole), JSON.stringify(body));
    }
  }
});

Deno.test("a short sliced search started after a long one finishes first", async () => {
  const targets = [bigIndex().target()];
  const done: string[] = [];
  const long = searchApiSliced(
    new SearchContexts(),
    targets,
    {
      body: { query: { match: { name: "doc a" } }, track_total_hits: true },
      params: new URLSearchParams(),
    },
    0,
  ).then(() => done.push("long"));
  const short = searchApiSliced(
    new SearchContexts(),
    targets,
    { body: { query: { term: { name: "rare" } } }, params: new URLSearchParams() },
    0,
  ).then(() => done.push("short"));
  await Promise.all([long, short]);
  assert.deepEqual(done, ["short", "long"]);
});

Deno.test("an aggregation-only search counts the docs a search showing hits counts", () => {
  const idx = index(40);
  const aggs = {
    tags: { terms: { field: "tag" }, aggs: { top: { max: { field: "n" } } } },
    best: { top_hits: { size: 2 } },
  };
  const queries = [
    { match_all: {} },
    { match: { name: "doc 7" } },
    { bool: { should: [{ match: { name: "7" } }], filter: [{ term: { tag: "t1" } }] } },
    { bool: { should: [{ match: { name: "7" } }, { match: { name: "8" } }] } },
    {
      function_score: {
        query: { match: { name: "doc 7" } },
        functions: [{ field_value_factor: { field: "n", missing: 1 } }],
        min_score: 3,
      },
    },
    { constant_score: { filter: { range: { n: { gte: 10 } } }, boost: 2 } },
    { fuzzy: { name: { value: "dox", max_expansions: 1 } } },
  ];
  // One shard, and three (each shard matching on its own, as with scores).
  const targets = [idx.target(), { ...idx.target(), shards: 3 }];
  const run = (body: Record<string, unknown>, t: number) =>
    searchApi(new SearchContexts(), [targets[t]!], body, new URLSearchParams());
  for (const [query, t] of queries.flatMap((q) => [[q, 0], [q, 1]] as const)) {
    const shown = run({ query, aggs, size: 3, track_total_hits: true }, t);
    const none = run({ query, aggs, size: 0, track_total_hits: true }, t);
    const label = `${JSON.stringify(query)} on target ${t}`;
    assert.deepEqual(hitsOf(none).total, hitsOf(shown).total, label);
    assert.deepEqual(none.aggregations, shown.aggregations, label);
    assert.equal(hitsOf(none).max_score, null, label);
  }
  // top_hits reads scores: they are there in an aggregation-only search too.
  const res = search({ query: { match: { name: "doc 7" } }, aggs, size: 0 }, "", idx);
  const best = (res.aggregations as { best: { hits: HitsSection } }).best.hits;
  assert.ok(best.hits.every((h) => typeof h._score === "number" && h._score > 0));
});

const LONG_AGGS = {
  tags: {
    terms: { field: "tag" },
    aggs: { ns: { terms: { field: "n", size: 3 } }, top: { max: { field: "n" } } },
  },
  ns: { terms: { field: "n", size: 5, order: { _key: "desc" } } },
  many: { terms: { field: "n", size: 400, min_doc_count: 2 } },
  sum: { sum: { field: "n" } },
  best: { max_bucket: { buckets_path: "tags>top" } },
  names: { terms: { field: "name.keyword" }, aggs: { ns: { terms: { field: "n", size: 2 } } } },
};

Deno.test("aggregations in steps pause inside long counts and answer byte for byte the same", async () => {
  const targets = [bigIndex().target()];
  const bodies = [
    { size: 0, aggs: LONG_AGGS },
    { size: 0, query: { match: { name: "doc a" } }, aggs: LONG_AGGS },
    { size: 2, query: { match: { name: "a" } }, aggs: LONG_AGGS },
    {
      size: 0,
      query: { term: { tag: "t3" } },
      aggs: { ns: { terms: { field: "n", size: 2000 } } },
    },
    {
      size: 0,
      aggs: { tags: { terms: { field: "tag" }, aggs: { best: { top_hits: { size: 1 } } } } },
    },
  ];
  for (const body of bodies) {
    const whole = searchApi(new SearchContexts(), targets, body, new URLSearchParams());
    const sliced = await searchApiSliced(
      new SearchContexts(),
      targets,
      { body, params: new URLSearchParams() },
      0,
    );
    delete whole.took;
    delete sliced.took;
    assert.equal(JSON.stringify(sliced), JSON.stringify(whole), JSON.stringify(body));
  }
  // The counts are those of the documents as written (every 9th deleted).
  const res = searchApi(new SearchContexts(), targets, bodies[0]!, new URLSearchParams());
  const byN = new Map<number, number>();
  const byTag = new Map<string, number>();
  for (let i = 0; i < 70_000; i++) {
    if (i % 9 === 0) continue;
    byN.set(i % 977, (byN.get(i % 977) ?? 0) + 1);
    byTag.set("t" + (i % 5), (byTag.get("t" + (i % 5)) ?? 0) + 1);
  }
  type Buckets = { buckets: Array<{ key: unknown; doc_count: number }> };
  const aggs = res.aggregations as Record<string, Buckets>;
  const pairs = (b: Buckets) => b.buckets.map((x) => [x.key, x.doc_count]);
  assert.deepEqual(pairs(aggs.ns!), [976, 975, 974, 973, 972].map((k) => [k, byN.get(k)]));
  const many = [...byN].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 400);
  assert.deepEqual(pairs(aggs.many!), many);
  const tags = [...byTag].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  assert.deepEqual(pairs(aggs.tags!), tags);
  // The counting itself pauses: a keyword's postings by chunks, a number's values by doc blocks.
  const target = targets[0]!;
  const ctx = execContextOf(target, 0);
  const inputs = [{ ctx, docs: matchLive(parseQuery({ match_all: {} }), ctx, "filter").docs }];
  // 62,222 live docs: two blocks of a number's values; LONG_AGGS pauses between aggregations too.
  for (const [aggs, least] of [[{ ns: { terms: { field: "n" } } }, 1], [LONG_AGGS, 4]] as const) {
    const steps = aggregationSteps(aggs, inputs, { max: 65_536, emptyReportsTwice: true });
    let pauses = 0;
    let step = steps.next();
    while (!step.done) {
      pauses++;
      step = steps.next();
    }
    assert.ok(pauses >= least, `${Object.keys(aggs)} paused ${pauses} times`);
    assert.deepEqual(step.value, runAggregations(aggs, inputs));
  }
});

Deno.test("short sliced searches started after a long aggregation finish while it runs", async () => {
  const targets = [bigIndex().target()];
  // The query is one step (a term's docs); the aggregations are the long part.
  const body = { size: 0, query: { term: { tag: "t3" } }, aggs: LONG_AGGS };
  let longDone = false;
  const long = searchApiSliced(new SearchContexts(), targets, {
    body,
    params: new URLSearchParams(),
  }, 0).then(() => longDone = true);
  // One short search after another, for as long as the aggregation runs.
  let shortDone = 0;
  const shorts = (async () => {
    while (!longDone) {
      await searchApiSliced(new SearchContexts(), targets, {
        body: { query: { term: { name: "rare" } }, size: 5 },
        params: new URLSearchParams(),
      }, 0);
      if (!longDone) shortDone++;
    }
  })();
  await Promise.all([long, shorts]);
  assert.ok(shortDone >= 3, `${shortDone} short searches finished during the aggregation`);
});

Deno.test("hits render in steps of a few hits, as renderHits renders them", () => {
  const idx = index(40);
  const target = idx.target();
  const page = Array.from({ length: 30 }, (_, i) => ({ t: 0, doc: i, score: 1 + i, sort: null }));
  const options = {
    source: FETCH_ALL,
    scores: true,
    sort: false,
    version: true,
    seqNoPrimaryTerm: false,
    storedFieldsNone: false,
    docvalueFields: [],
    fields: [{ field: "n" }],
    highlight: {
      request: {
        fields: [{ pattern: "name", fragmentSize: 100, fragments: 5 }],
        pre: "<em>",
        post: "</em>",
      },
      query: parseQuery({ match: { name: "doc" } }),
    },
  } as unknown as HitOptions;
  const header = { total: { value: 30, relation: "eq" }, maxScore: 30 };
  const steps = renderHitsSteps(page, [target], header, options);
  let pauses = 0;
  let step = steps.next();
  while (!step.done) {
    pauses++;
    step = steps.next();
  }
  assert.equal(pauses, Math.ceil(30 / RENDER_BLOCK) - 1);
  const whole = renderHits(page, [target], header, options);
  assert.equal(JSON.stringify(step.value), JSON.stringify(whole));
  assert.equal((whole.hits as unknown[]).length, 30);
});
