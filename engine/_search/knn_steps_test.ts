import assert from "node:assert/strict";
import { EngineError } from "../_errors.ts";
import { searchApi, searchApiSliced, SearchContexts } from "./search_api.ts";
import { TestIndex } from "../../tests/support/test_index.ts";
import { randomVectors } from "../../tests/support/vectors.ts";
import { withVectorDefaults } from "../_index/vectors.ts";
import type { SearchTarget } from "../_index/search_target.ts";
import { execContextOf } from "../_query/exec_context.ts";
import { knnBlock, knnTopK, knnTopKSteps } from "../_query/knn.ts";
import type { QueryOf } from "../_query/query_nodes.ts";

const DIMS = 384;
const SEGMENT = 6_000;
const SEGMENTS = 3;

const vector = (type?: string) =>
  withVectorDefaults({
    type: "dense_vector",
    dims: DIMS,
    similarity: "cosine",
    ...(type ? { index_options: { type } } : {}),
  });

const mappings = {
  properties: {
    f: { type: "dense_vector", dims: DIMS, similarity: "cosine" },
    l2: { type: "dense_vector", dims: DIMS, similarity: "l2_norm" },
    i8: vector("int8_hnsw"),
    bbq: vector("bbq_hnsw"),
    n: { type: "long" },
    tag: { type: "keyword" },
  },
};

const vectors = randomVectors(SEGMENT * SEGMENTS, DIMS, 11);
const queries = randomVectors(3, DIMS, 12);

/** Three segments of vectors (each wider than a block of the scan), every 7th doc deleted. */
function vectorIndex(): TestIndex {
  const idx = new TestIndex("vec", mappings);
  for (let s = 0; s < SEGMENTS; s++) {
    const docs: Record<string, Record<string, unknown>> = {};
    for (let i = s * SEGMENT; i < (s + 1) * SEGMENT; i++) {
      const v = vectors[i]!;
      docs[String(i)] = { f: v, l2: v, i8: v, bbq: v, n: i % 1000, tag: "t" + (i % 3) };
    }
    idx.put(docs);
  }
  const deleted: Record<string, null> = {};
  for (let i = 0; i < SEGMENT * SEGMENTS; i += 7) deleted[String(i)] = null;
  return idx.put(deleted);
}

const index = vectorIndex();
const target = index.target();

Deno.test("the index spans several segments, each wider than a block of the kNN scan", () => {
  assert.equal(target.snapshot.views.length, SEGMENTS);
  assert.ok(knnBlock(DIMS) * 1.4 < SEGMENT, `block ${knnBlock(DIMS)}`);
});

Deno.test("a kNN scan pauses between blocks of each segment and answers as in one go", () => {
  const ctx = execContextOf(target, 0);
  for (const field of ["f", "i8", "bbq"]) {
    const q: QueryOf<"knn"> = {
      kind: "knn",
      field,
      vector: queries[0]!,
      k: 10,
      numCandidates: 10,
      filter: null,
      boost: 1,
    };
    const steps = knnTopKSteps(q, ctx, null);
    let pauses = 0;
    let step = steps.next();
    while (!step.done) {
      pauses++;
      step = steps.next();
    }
    // Two blocks a segment at least: a pause inside each segment and one between segments.
    assert.ok(pauses >= 2 * SEGMENTS - 1, `${field}: ${pauses} pauses`);
    const whole = knnTopK(q, ctx, null);
    assert.equal(step.value.docs.length, 10);
    assert.deepEqual([...step.value.docs], [...whole.docs]);
    assert.deepEqual([...step.value.scores!], [...whole.scores!]);
  }
});

Deno.test("stepped kNN searches answer byte for byte what the one-go searches answer", async () => {
  const [a, b] = queries;
  const bodies: Record<string, unknown>[] = [];
  for (const field of ["f", "l2", "i8", "bbq"]) {
    bodies.push(
      { knn: { field, query_vector: a, k: 10, num_candidates: 50 }, _source: false },
      {
        knn: { field, query_vector: b, k: 5, num_candidates: 20, filter: { term: { tag: "t1" } } },
        query: { range: { n: { lt: 300 } } },
        size: 20,
        _source: false,
      },
      { query: { knn: { field, query_vector: a, k: 30, num_candidates: 100 } }, fields: ["n"] },
      {
        query: {
          knn: {
            field,
            query_vector: b,
            num_candidates: 40,
            filter: { range: { n: { gte: 500 } } },
          },
        },
        _source: false,
        size: 50,
      },
    );
  }
  bodies.push(
    {
      knn: [
        { field: "f", query_vector: a, k: 10, num_candidates: 10, similarity: 0.55 },
        { field: "i8", query_vector: b, k: 10, num_candidates: 30 },
        {
          field: "bbq",
          query_vector: a,
          k: 10,
          num_candidates: 30,
          rescore_vector: { oversample: 0 },
        },
      ],
      size: 30,
      _source: false,
    },
    {
      knn: {
        field: "i8",
        query_vector: a,
        k: 8,
        num_candidates: 40,
        rescore_vector: { oversample: 2 },
      },
      _source: false,
    },
  );
  // knn clauses of bools (hybrid searches), found ahead in steps.
  const knn = (field: string, k: number, v = a) => ({
    knn: { field, query_vector: v, k, num_candidates: 40 },
  });
  bodies.push(
    { query: { bool: { should: [knn("f", 10), { range: { n: { gte: 990 } } }] } }, size: 30 },
    {
      query: {
        bool: {
          must: [knn("i8", 20, b)],
          filter: [{ term: { tag: "t0" } }],
          must_not: [knn("bbq", 5, b)],
        },
      },
      _source: false,
    },
    {
      query: {
        bool: {
          should: [
            { bool: { must: [knn("l2", 10)], should: [{ term: { tag: "t2" } }] } },
            { bool: { filter: [knn("f", 10, b), { match_none: {} }] } },
          ],
        },
      },
      _source: false,
    },
  );
  // knn clauses under the other compound queries that run their clauses in the same context.
  bodies.push(
    { query: { constant_score: { filter: knn("f", 10), boost: 2 } }, _source: false },
    {
      query: { dis_max: { queries: [knn("i8", 10), knn("l2", 5, b)], tie_breaker: 0.3 } },
      _source: false,
    },
    {
      query: {
        function_score: {
          query: knn("f", 20, b),
          functions: [{ filter: knn("bbq", 10), weight: 3 }],
          boost_mode: "sum",
        },
      },
      _source: false,
    },
    {
      query: {
        boosting: { positive: knn("l2", 20), negative: knn("f", 5), negative_boost: 0.5 },
      },
      _source: false,
    },
    {
      query: {
        bool: {
          should: [{ constant_score: { filter: knn("i8", 10, b) } }, { term: { tag: "t3" } }],
        },
      },
      _source: false,
    },
  );
  const copy: SearchTarget = { ...target, index: "copy" };
  for (const targets of [[target], [{ ...target, shards: 3 }], [target, copy]]) {
    for (const [i, body] of bodies.entries()) {
      const label = `body ${i} on ${targets.length} target(s), ${targets[0]!.shards ?? 1} shard(s)`;
      const whole = searchApi(new SearchContexts(), targets, body, new URLSearchParams());
      const sliced = await searchApiSliced(
        new SearchContexts(),
        targets,
        { body, params: new URLSearchParams() },
        0,
      );
      delete whole.took;
      delete sliced.took;
      const hits = (whole.hits as { hits: unknown[] }).hits;
      assert.ok(hits.length > 0, label);
      assert.equal(JSON.stringify(sliced), JSON.stringify(whole), label);
    }
  }
});

/** One turn of the event loop (a message to itself), as a request arriving later would get. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      port2.close();
      resolve();
    };
    port2.postMessage(null);
  });
}

Deno.test("a short sliced search sent after a long kNN search finishes first", async () => {
  const small = new TestIndex("small", { properties: { tag: { type: "keyword" } } })
    .put({ a: { tag: "x" } })
    .target();
  for (
    const body of [
      { knn: { field: "f", query_vector: queries[0], k: 10, num_candidates: 10 } },
      { knn: { field: "bbq", query_vector: queries[2], k: 10, num_candidates: 10 } },
      { query: { knn: { field: "i8", query_vector: queries[1], k: 10 } } },
      {
        query: {
          bool: {
            should: [
              { knn: { field: "f", query_vector: queries[1], k: 10 } },
              { term: { tag: "t1" } },
            ],
          },
        },
      },
    ]
  ) {
    const done: string[] = [];
    const long = searchApiSliced(
      new SearchContexts(),
      [target],
      { body, params: new URLSearchParams() },
      0,
    ).then(() => done.push("long"));
    // The short request arrives once the long search is under way: at the first turn it gives.
    await nextTurn();
    const short = searchApiSliced(
      new SearchContexts(),
      [small],
      { body: { query: { term: { tag: "x" } } }, params: new URLSearchParams() },
      0,
    ).then(() => done.push("short"));
    await Promise.all([long, short]);
    assert.deepEqual(done, ["short", "long"], Object.keys(body)[0]);
  }
});

Deno.test("a failing knn clause of a bool fails the stepped search as the one-go search", async () => {
  const body = {
    query: {
      bool: {
        must: [{ term: { tag: "t1" } }],
        should: [{ knn: { field: "n", query_vector: queries[0], k: 10 } }],
      },
    },
  };
  let whole: unknown;
  try {
    searchApi(new SearchContexts(), [target], body, new URLSearchParams());
  } catch (err) {
    whole = err;
  }
  let sliced: unknown;
  try {
    await searchApiSliced(new SearchContexts(), [target], {
      body,
      params: new URLSearchParams(),
    }, 0);
  } catch (err) {
    sliced = err;
  }
  assert.ok(whole instanceof EngineError && sliced instanceof EngineError);
  assert.match(JSON.stringify(whole.extra), /only supported on \[dense_vector\] fields/);
  assert.equal(sliced.type, whole.type);
  assert.equal(sliced.status, whole.status);
  assert.equal(JSON.stringify(sliced.extra), JSON.stringify(whole.extra));
});
