import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

// Eighty documents, `tags,cat,n,nested items`; loaded in this order into a three-shard index with
// a nested field (st1) and a one-shard index without (st2). Every expected answer below is what
// Elasticsearch 9.5.4 and OpenSearch 3.8.0 gave for the same documents (2026-12-02).
const ROWS = [
  "blue,c,3,3",
  "z,c,0,2",
  "Red,c,0,3",
  "Red,c,5,0",
  "a b,a,0,0",
  "a b,c,1,0",
  "blue,c,0,0",
  "q,a,5,1",
  "q,b,3,0",
  "yellow,a,1,0",
  "yellow,b,4,0",
  "green,c,0,2",
  "x,a,3,3",
  "black-white,c,2,0",
  "x,a,0,0",
  "red,c,5,0",
  "x|yellow,b,5,2",
  "z,b,0,2",
  "Red,b,3,2",
  "yellow,b,1,2",
  "a b|Red,a,1,3",
  "x,c,6,1",
  "q,c,2,1",
  "q,c,4,0",
  "q,b,3,2",
  "red,a,1,0",
  "z,a,0,0",
  "black-white,a,4,0",
  "blue,b,5,0",
  "green,b,6,0",
  "blue,c,0,0",
  "blue,a,4,0",
  "blue,c,5,0",
  "green,b,5,1",
  "Red,c,4,1",
  "Red,a,6,0",
  "q,b,3,1",
  "x,a,2,0",
  "black-white,a,2,2",
  "Red,c,3,0",
  "black-white,c,6,0",
  "a b,c,6,0",
  "black-white,c,0,0",
  "green,a,5,0",
  "z,c,3,0",
  "x,b,5,0",
  "red,c,6,3",
  "a b|Red,a,6,2",
  "z,b,2,0",
  "black-white,c,3,0",
  "q,c,1,0",
  "x,a,6,1",
  "x,c,4,0",
  "q,c,4,0",
  "q,a,0,1",
  "q,a,0,3",
  "Red,b,5,0",
  "q|Red,c,5,0",
  "Red|x,b,1,2",
  "Red,a,3,0",
  "blue,c,5,2",
  "x|Red,a,5,0",
  "Red,c,1,0",
  "a b,b,1,2",
  "q,b,3,2",
  "yellow,a,4,0",
  "green,b,0,1",
  "blue,b,6,0",
  "blue,c,4,0",
  "yellow,c,0,0",
  "red,a,5,1",
  "green,a,3,0",
  "yellow,a,4,0",
  "green,b,1,2",
  "q,a,6,0",
  "yellow,a,2,1",
  "q,c,1,2",
  "a b,b,5,0",
  "q,c,2,0",
  "blue,b,3,0",
];

async function setup(flavour: "elasticsearch" | "opensearch"): Promise<Engine> {
  const engine = new Engine({ flavour });
  const props = { tag: { type: "keyword" }, n: { type: "integer" }, cat: { type: "keyword" } };
  await call(engine, "PUT", "/st1", {
    settings: { number_of_shards: 3 },
    mappings: {
      properties: { ...props, items: { type: "nested", properties: { s: { type: "keyword" } } } },
    },
  });
  await call(engine, "PUT", "/st2", {
    mappings: { properties: { ...props, f: { type: "double" } } },
  });
  const lines = (index: string) =>
    ROWS.flatMap((row, id) => {
      const [tags, cat, n, items] = row.split(",");
      const tag = tags!.includes("|") ? tags!.split("|") : tags;
      const doc: Reply = { tag, n: Number(n), cat, f: 0.5 };
      if (index === "st1" && Number(items) > 0) {
        doc.items = Array.from({ length: Number(items) }, () => ({ s: "k" }));
      }
      return [JSON.stringify({ index: { _index: index, _id: String(id) } }), JSON.stringify(doc)];
    });
  await call(
    engine,
    "POST",
    "/_bulk?refresh=true",
    [...lines("st1"), ...lines("st2")].join("\n") + "\n",
  );
  return engine;
}

async function sig(engine: Engine, index: string, body: Reply): Promise<Reply> {
  const r = await call(engine, "POST", `/${index}/_search`, { size: 0, ...body });
  assert.equal(r.code, 200, JSON.stringify(r));
  return r.aggregations;
}

/** `[key, doc_count, bg_count]` of each bucket, in order. */
const rows = (agg: Reply) => agg.buckets.map((b: Reply) => [b.key, b.doc_count, b.bg_count]);

const CAT_A = { term: { cat: "a" } };

Deno.test("significant_terms: per-shard counts, Elasticsearch's background of top-level docs", async () => {
  const engine = await setup("elasticsearch");
  const a = (await sig(engine, "st1", {
    query: CAT_A,
    aggs: { a: { significant_terms: { field: "tag", min_doc_count: 1 } } },
  })).a;
  assert.equal(a.doc_count, 26);
  assert.equal(a.bg_count, 80); // nested objects are not background documents
  assert.deepEqual(rows(a), [
    ["x", 5, 10],
    ["yellow", 4, 8],
    ["green", 2, 3],
    ["red", 2, 3],
    ["a b", 3, 6],
    ["z", 1, 2], // only the shards holding z in the foreground count its background
    ["Red", 5, 14],
    ["black-white", 2, 6],
  ]);
  assert.equal(a.buckets[0].score, 0.10355029585798818);
  assert.equal(a.buckets[6].score, 0.019019442096365198);
  // A shard_size below size is kept: each shard returns one term.
  const small = (await sig(engine, "st1", {
    query: CAT_A,
    aggs: { a: { significant_terms: { field: "tag", min_doc_count: 1, size: 2, shard_size: 1 } } },
  })).a;
  assert.deepEqual(rows(small), [["yellow", 3, 5], ["a b", 2, 3]]);
  // Equal scores come out in the order of Elasticsearch's paged hash map and priority queue.
  const pct = (await sig(engine, "st2", {
    query: CAT_A,
    aggs: { a: { significant_terms: { field: "tag", min_doc_count: 1, percentage: {} } } },
  })).a;
  assert.deepEqual(pct.buckets.slice(0, 3).map((b: Reply) => [b.key, b.score]), [
    ["x", 0.5],
    ["red", 0.5],
    ["yellow", 0.5],
  ]);
  engine.close();
});

Deno.test("significant_terms: OpenSearch's background is Lucene's maxDoc, nested objects too", async () => {
  const engine = await setup("opensearch");
  const a = (await sig(engine, "st1", {
    query: CAT_A,
    aggs: { a: { significant_terms: { field: "tag", min_doc_count: 1 } } },
  })).a;
  assert.equal(a.bg_count, 139); // 80 documents and 59 nested objects
  assert.deepEqual(rows(a), [
    ["a b", 3, 3],
    ["yellow", 4, 6],
    ["black-white", 2, 2],
    ["x", 5, 10],
    ["red", 2, 3],
    ["Red", 5, 14],
    ["q", 4, 12],
    ["z", 1, 2],
    ["green", 2, 7],
    ["blue", 1, 3],
  ]);
  assert.equal(a.buckets[0].score, 0.5014792899408284);
  const small = (await sig(engine, "st1", {
    query: CAT_A,
    aggs: { a: { significant_terms: { field: "tag", min_doc_count: 1, size: 2, shard_size: 1 } } },
  })).a;
  assert.deepEqual(rows(small), [["a b", 3, 3], ["yellow", 3, 4]]);
  // Ties in java.util.HashMap's order: yellow and x share a bucket, yellow met first.
  const pct = (await sig(engine, "st2", {
    query: CAT_A,
    aggs: { a: { significant_terms: { field: "tag", min_doc_count: 1, percentage: {} } } },
  })).a;
  assert.deepEqual(pct.buckets.slice(0, 3).map((b: Reply) => b.key), ["yellow", "x", "red"]);
  // Under a terms bucket only the shards holding the bucket's docs count their background.
  const per = await sig(engine, "st1", {
    query: { range: { n: { lte: 2 } } },
    aggs: {
      c: {
        terms: { field: "cat" },
        aggs: { a: { significant_terms: { field: "tag", min_doc_count: 1 } } },
      },
    },
  });
  assert.deepEqual(
    per.c.buckets.map((b: Reply) => [b.key, b.a.doc_count, b.a.bg_count]),
    [["c", 14, 139], ["a", 11, 139], ["b", 7, 107]],
  );
  engine.close();
});

Deno.test("significant_terms: a floating point field fails its shards", async () => {
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = await setup(flavour);
    const r = await call(engine, "POST", "/st2/_search", {
      size: 0,
      aggs: { a: { significant_terms: { field: "f" } } },
    });
    assert.equal(r.code, 500);
    assert.equal(r.error.type, "search_phase_execution_exception");
    assert.deepEqual(r.error.root_cause, [{
      type: "unsupported_operation_exception",
      reason: "No support for examining floating point numerics",
    }]);
    engine.close();
  }
});

Deno.test("significant_terms: gnd, mutual_information and chi_square as the real engines score", async () => {
  const expected = {
    elasticsearch: {
      gnd: [["x", 0.4525589682530748], ["yellow", 0.44356392208764234], [
        "a b",
        0.43444248876288044,
      ]],
      mi: [["x", 0.01360658570431006], ["yellow", 0.010557434967544658], [
        "a b",
        0.007686977197607317,
      ]],
      chi: [["a b", 0.7628734901462174], ["Red", 0.26853146853146853], ["x", 0.26853146853146853]],
    },
    opensearch: {
      gnd: [["a b", 0.5695137209163711], ["yellow", 0.5512314746278671], ["x", 0.5345037613611471]],
      mi: [["a b", 0.05372917277816016], ["yellow", 0.03644943548834592], [
        "x",
        0.02848456004598358,
      ]],
      chi: [["a b", 2.707692307692308], ["yellow", 1.5003415189461702], [
        "Red",
        0.26853146853146853,
      ]],
    },
  };
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = await setup(flavour);
    const run = async (h: Reply) =>
      (await sig(engine, "st1", {
        query: CAT_A,
        aggs: { a: { significant_terms: { field: "tag", size: 3, ...h } } },
      })).a.buckets.map((b: Reply) => [b.key, b.score]);
    assert.deepEqual(await run({ gnd: {} }), expected[flavour].gnd);
    assert.deepEqual(
      await run({ mutual_information: { include_negatives: true } }),
      expected[flavour].mi,
    );
    const chi = await run({
      chi_square: { background_is_superset: false },
      background_filter: { term: { cat: "b" } },
    });
    assert.deepEqual(chi, expected[flavour].chi);
    engine.close();
  }
});

Deno.test("significant_terms: a background filter nested objects pass counts them on OpenSearch", async () => {
  // Elasticsearch 9.5.4 filters the background to top-level documents; OpenSearch 3.8.0 counts
  // the filter over every Lucene document, the 59 nested objects included.
  for (const [flavour, size] of [["elasticsearch", 80], ["opensearch", 139]] as const) {
    const engine = await setup(flavour);
    for (const filter of [{ match_all: {} }, { bool: { must_not: { term: { cat: "zzz" } } } }]) {
      const a = (await sig(engine, "st1", {
        query: CAT_A,
        aggs: { a: { significant_terms: { field: "tag", background_filter: filter } } },
      })).a;
      assert.equal(a.bg_count, size, `${flavour} ${JSON.stringify(filter)}`);
    }
    const b = (await sig(engine, "st1", {
      query: CAT_A,
      aggs: {
        a: { significant_terms: { field: "tag", background_filter: { term: { cat: "b" } } } },
      },
    })).a;
    assert.equal(b.bg_count, 22);
    engine.close();
  }
});
