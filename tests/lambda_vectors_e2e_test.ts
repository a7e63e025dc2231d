// LambdaTemplate's vector orders and conditions end to end on every backend of the behaviour suite
// that has vectors (tests/README.md), in every
// dialect (knn section, OpenSearch knn query, script_score), checked against exact JS rankings.
import assert from "node:assert/strict";
import { type BackendScope, backendTest, suiteIndex } from "./support/backend.ts";
import { DataSource, UnsupportedFeatureError } from "../driver/mod.ts";
import { Engine } from "../engine/mod.ts";
import { LambdaTemplate, type VectorDialect } from "../lambda/mod.ts";
import { cosine, dot, exactTopK, l2, randomVectors } from "./support/vectors.ts";

const N = 120;
const DIMS = 6;
const VECTORS = randomVectors(N, DIMS, 42);
const BYTES = randomVectors(N, 4, 7).map((v) => v.map((x) => Math.round(x * 127)));
const CATS = ["red", "green", "blue"];

const LV = suiteIndex("lv");

/** Elasticsearch's vectors (and painless, which script_score orders and thresholds use). */
const ES_VECTORS = {
  requires: ["knn-section", "painless"],
  embedded: { flavour: "elasticsearch" },
} as const;
/** OpenSearch's k-NN plugin (knn_vector, the knn query and knn_score). */
const OS_VECTORS = { requires: ["knn-query"], embedded: { flavour: "opensearch" } } as const;

async function setup(t: BackendScope, dialect: VectorDialect) {
  const flavour = t.info.flavour;
  const lambda = new LambdaTemplate(t.dataSource(), { vectorDialect: dialect });
  // Exact rankings are compared: Elasticsearch must not quantise (its default for dense_vector).
  const flat = { index_options: { type: "flat" } };
  const properties = flavour === "opensearch"
    ? {
      emb: { type: "knn_vector", dimension: DIMS, method: { name: "hnsw", space_type: "l2" } },
      ip: {
        type: "knn_vector",
        dimension: DIMS,
        method: { name: "hnsw", space_type: "innerproduct" },
      },
    }
    : {
      emb: { type: "dense_vector", dims: DIMS, similarity: "cosine", ...flat },
      ip: { type: "dense_vector", dims: DIMS, similarity: "max_inner_product", ...flat },
      bits: {
        type: "dense_vector",
        dims: 4,
        element_type: "byte",
        similarity: "l2_norm",
        ...flat,
      },
    };
  await lambda.jdbc.execute(`PUT /${LV} ?`, [{
    mappings: { properties: { ...properties, cat: { type: "keyword" }, n: { type: "integer" } } },
  }]);
  await lambda.insert(LV).applyMap(VECTORS.map((emb, i) => ({
    _id: String(i),
    emb,
    ip: emb,
    ...(flavour === "opensearch" ? {} : { bits: BYTES[i] }),
    cat: CATS[i % 3],
    n: i,
  }))).executeSumResult();
  return { lambda };
}

const Q = randomVectors(3, DIMS, 9);

function exact(
  by: (v: readonly number[]) => number,
  k: number,
  keep: (i: number) => boolean = () => true,
  vectors: readonly (readonly number[])[] = VECTORS,
): string[] {
  const ids = vectors.map((_, i) => i).filter(keep);
  return exactTopK(ids.map((i) => vectors[i]!), by, k).map((j) => String(ids[j]));
}

const ids = (rows: Record<string, unknown>[]) => rows.map((r) => r._id);

/** The ids the mixed condition of the tests below selects, computed by hand. */
function mixedWanted(q: readonly number[]): string[] {
  return VECTORS.map((_, i) => i).filter((i) => {
    const v = VECTORS[i]!;
    return (1 - cosine(q, v) <= 0.6 && i % 3 === 1) || (dot(q, v) >= 1.2 && i >= 60);
  }).map(String);
}

for (const dialect of ["auto", "knn", "script"] as const) {
  // The knn section answers these; the script dialect needs painless.
  const requires = dialect === "script"
    ? ["knn-section", "painless"] as const
    : ["knn-section"] as const;
  backendTest(
    `lambda vectors on Elasticsearch (${dialect}): orders match exact rankings`,
    { ...ES_VECTORS, requires },
    async (t) => {
      const { lambda } = await setup(t, dialect);
      for (const q of Q) {
        // Cosine on a cosine field, with a condition: the k nearest red docs.
        const red = await lambda.query(LV).eq("cat", "red").orderByCosine("emb", q)
          .queryForMapList();
        assert.deepEqual(ids(red), exact((v) => cosine(q, v), 10, (i) => i % 3 === 0));
        // Inner product on a max_inner_product field, paged: page 2 of 5.
        const page = await lambda.query(LV).gt("n", 10).orderByIP("ip", q).initPage(5, 1)
          .queryForMapList();
        assert.deepEqual(ids(page), exact((v) => dot(q, v), 10, (i) => i > 10).slice(5));
      }
    },
  );
  backendTest(
    `lambda vectors on Elasticsearch (${dialect}): L2 on a cosine field is exact`,
    ES_VECTORS,
    async (t) => {
      const { lambda } = await setup(t, dialect);
      for (const q of Q) {
        // L2 on the cosine field: answered exactly by script_score whatever the dialect.
        const near = await lambda.query(LV).orderByL2("emb", q).knnOptions({ k: 7 })
          .queryForMapList();
        assert.deepEqual(ids(near), exact((v) => -l2(q, v), 7));
      }
    },
  );
}

backendTest("lambda vectors: orderByHamming over byte vectors", ES_VECTORS, async (t) => {
  const { lambda } = await setup(t, "auto");
  const q = BYTES[5]!;
  const hamming = (v: readonly number[]) =>
    -v.reduce((s, x, i) => {
      let bits = (x ^ q[i]!) & 0xff;
      let c = 0;
      for (; bits; bits &= bits - 1) c++;
      return s + c;
    }, 0);
  const rows = await lambda.query(LV).orderByHamming("bits", q).knnOptions({ k: 5 })
    .queryForMapList();
  assert.equal(rows[0]!._id, "5");
  assert.deepEqual(ids(rows), exact(hamming, 5, undefined, BYTES));
});

backendTest(
  "lambda vectors on OpenSearch: its knn query, the field's space ranks",
  OS_VECTORS,
  async (t) => {
    const { lambda } = await setup(t, "auto");
    const q = Q[0]!;
    const command = lambda.query(LV).orderByL2("emb", q).toCommand({
      vectorDialect: "opensearch",
    });
    assert.match(command.text, /"query":\{"knn":\{"emb":\{"vector":\?/);
    const rows = await lambda.query(LV).ne("cat", "blue").orderByL2("emb", q)
      .queryForMapList();
    assert.deepEqual(ids(rows), exact((v) => -l2(q, v), 10, (i) => i % 3 !== 2));
    const ip = await lambda.query(LV).orderByIP("ip", q).knnOptions({ k: 4 })
      .queryForMapList();
    assert.deepEqual(ids(ip), exact((v) => dot(q, v), 4));
    // Cosine on an l2 space: exact script_score.
    const cos = await lambda.query(LV).orderByCosine("emb", q).queryForMapList();
    assert.deepEqual(ids(cos), exact((v) => cosine(q, v), 10));
  },
);

backendTest(
  "lambda vectorBy*: thresholds combine with every other condition",
  ES_VECTORS,
  async (t) => {
    const { lambda } = await setup(t, "auto");
    const q = Q[1]!;
    const within = (i: number) => l2(q, VECTORS[i]!) <= 1.5;
    const count = await lambda.query(LV).vectorByL2("emb", q, 1.5).queryForCount();
    assert.equal(count, VECTORS.filter((_, i) => within(i)).length);
    assert.ok(count > 0 && count < N);
    const mixed = await lambda.query(LV)
      .vectorByCosine("emb", q, 0.6).eq("cat", "green")
      .or((g) => g.vectorByIP("ip", q, 1.2).not((n) => n.lt("n", 60)))
      .queryForMapList();
    const want = mixedWanted(q);
    assert.deepEqual(ids(mixed).sort(), want.sort());
    // Conditions and an order together: the nearest among those within the threshold.
    const ordered = await lambda.query(LV).vectorByL2("emb", q, 1.5).orderByL2("emb", q)
      .knnOptions({ k: 50 }).queryForMapList();
    assert.deepEqual(ids(ordered), exact((v) => -l2(q, v), 50, within));
  },
);

backendTest("lambda vectorBy* in update and delete by query", {
  ...ES_VECTORS,
  requires: [...ES_VECTORS.requires, "by-query"],
}, async (t) => {
  const { lambda } = await setup(t, "auto");
  const q = Q[2]!;
  const far = VECTORS.filter((v) => l2(q, v) > 2).length;
  assert.ok(far > 0 && far < N);
  assert.equal(
    await lambda.update(LV).not((g) => g.vectorByL2("emb", q, 2)).updateTo("cat", "far")
      .doUpdate(),
    far,
  );
  assert.equal(await lambda.query(LV).eq("cat", "far").queryForCount(), far);
  assert.equal(await lambda.delete(LV).eq("cat", "far").doDelete(), far);
  assert.equal(await lambda.query(LV).queryForCount(), N - far);
});

backendTest(
  "lambda vectorBy* on OpenSearch: knn_score with a bound min_score, same answers",
  OS_VECTORS,
  async (t) => {
    const { lambda } = await setup(t, "auto");
    const q = Q[1]!;
    const q1 = lambda.query(LV).vectorByL2("emb", q, 1.5);
    assert.equal(await q1.queryForCount(), VECTORS.filter((v) => l2(q, v) <= 1.5).length);
    const mixed = await lambda.query(LV)
      .vectorByCosine("emb", q, 0.6).eq("cat", "green")
      .or((g) => g.vectorByIP("ip", q, 1.2).not((n) => n.lt("n", 60)))
      .queryForMapList();
    const want = mixedWanted(q);
    assert.deepEqual(ids(mixed).sort(), want.sort());
    assert.ok(want.length > 0);
  },
);

/** A setup whose `GET /` is refused with `status`, with or without Elasticsearch's product header. */
async function refusedRoot(status: number, header: boolean) {
  const engine = new Engine({ flavour: "elasticsearch" });
  const roots: string[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    const res = await engine.fetch(url, init);
    const headers = new Headers(res.headers);
    if (header) headers.set("x-elastic-product", "Elasticsearch");
    else headers.delete("x-elastic-product");
    if (new URL(url).pathname === "/") {
      roots.push(`${init.method} /`);
      return Response.json({ error: "Incorrect HTTP method for uri [/]", status }, {
        status,
        headers,
      });
    }
    return new Response(res.body, { status: res.status, headers });
  };
  const lambda = new LambdaTemplate(new DataSource({ nodes: ["http://es.local"], fetch }));
  await lambda.jdbc.execute("PUT /lv ?", [{
    mappings: { properties: { emb: { type: "dense_vector", dims: DIMS, similarity: "cosine" } } },
  }]);
  await lambda.insert("lv").applyMap(VECTORS.map((emb, i) => ({ _id: String(i), emb })))
    .executeSumResult();
  return { engine, lambda, roots };
}

for (const status of [405, 403]) {
  Deno.test(`lambda vectors: GET / refused (${status}) on Elasticsearch — the product header says knn, no GET / sent`, async () => {
    const { engine, lambda, roots } = await refusedRoot(status, true);
    const q = Q[0]!;
    for (let i = 0; i < 2; i++) {
      const rows = await lambda.query("lv").orderByCosine("emb", q).queryForMapList();
      assert.deepEqual(ids(rows), exact((v) => cosine(q, v), 10));
    }
    assert.deepEqual(roots, [], "never asked: the answers before named the product");
    engine.close();
  });
}

Deno.test("lambda vectors: GET / refused without a product header — an error naming vectorDialect", async () => {
  const { engine, lambda } = await refusedRoot(405, false);
  await assert.rejects(
    lambda.query("lv").orderByCosine("emb", Q[0]!).queryForMapList(),
    (e: unknown) =>
      e instanceof UnsupportedFeatureError && /vectorDialect/.test(e.message) &&
      /HTTP 405/.test(e.message),
  );
  // With the option set, nothing is asked and the query runs.
  const set = new LambdaTemplate(lambda.jdbc, { vectorDialect: "knn" });
  const rows = await set.query("lv").orderByCosine("emb", Q[0]!).queryForMapList();
  assert.equal(rows.length, 10);
  engine.close();
});
