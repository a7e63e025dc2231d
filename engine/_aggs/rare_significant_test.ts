import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

/** Twelve crimes: the transport police see mostly bike thefts, the met mostly other thefts. */
async function crimes(): Promise<Engine> {
  const engine = new Engine();
  await call(engine, "PUT", "/c", {
    mappings: { properties: { force: { type: "keyword" }, type: { type: "keyword" } } },
  });
  const rows: [string, string, number][] = [
    ["btp", "bike", 3],
    ["btp", "theft", 1],
    ["met", "bike", 1],
    ["met", "theft", 5],
    ["met", "fraud", 2],
  ];
  let id = 0;
  for (const [force, type, n] of rows) {
    for (let i = 0; i < n; i++) await call(engine, "PUT", `/c/_doc/${id++}`, { force, type });
  }
  await call(engine, "POST", "/c/_refresh");
  return engine;
}

async function search(engine: Engine, body: Reply): Promise<Reply> {
  return await call(engine, "POST", "/c/_search", { size: 0, ...body });
}

Deno.test("rare_terms: terms in at most max_doc_count docs, rarest first; bounds checked", async () => {
  const engine = await crimes();
  const two = await search(engine, {
    aggs: { r: { rare_terms: { field: "type", max_doc_count: 2 } } },
  });
  assert.deepEqual(two.aggregations.r, { buckets: [{ key: "fraud", doc_count: 2 }] });
  const five = await search(engine, {
    aggs: { r: { rare_terms: { field: "type", max_doc_count: 5, exclude: ["fraud"] } } },
  });
  assert.deepEqual(five.aggregations.r.buckets, [{ key: "bike", doc_count: 4 }]);
  const tooMany = await search(engine, {
    aggs: { r: { rare_terms: { field: "type", max_doc_count: 101 } } },
  });
  assert.equal(tooMany.code, 400);
  assert.equal(
    tooMany.error.caused_by.reason,
    "[max_doc_count] must be smaller than or equal to [100]. Found [101] in [r]",
  );
  engine.close();
});

Deno.test("significant_terms: JLH against the whole index; shape and min_doc_count", async () => {
  const engine = await crimes();
  const r = await search(engine, {
    query: { term: { force: "btp" } },
    aggs: { s: { significant_terms: { field: "type" } } },
  });
  // bike: 3 of 4 foreground docs against 4 of 12 overall.
  const sub = 3 / 4;
  const sup = 4 / 12;
  assert.deepEqual(r.aggregations.s, {
    doc_count: 4,
    bg_count: 12,
    buckets: [{ key: "bike", doc_count: 3, score: (sub - sup) * (sub / sup), bg_count: 4 }],
  });
  // theft is less frequent in the foreground than overall: never significant.
  const all = await search(engine, {
    query: { term: { force: "btp" } },
    aggs: { s: { significant_terms: { field: "type", min_doc_count: 1 } } },
  });
  assert.deepEqual(all.aggregations.s.buckets.map((b: Reply) => b.key), ["bike"]);
  engine.close();
});

Deno.test("significant_terms: other heuristics, background_filter, per parent bucket", async () => {
  const engine = await crimes();
  const fg = { query: { term: { force: "btp" } } };
  const pct = await search(engine, {
    ...fg,
    aggs: { s: { significant_terms: { field: "type", min_doc_count: 1, percentage: {} } } },
  });
  assert.deepEqual(pct.aggregations.s.buckets.map((b: Reply) => [b.key, b.score]), [
    ["bike", 3 / 4],
    ["theft", 1 / 6],
  ]);
  const chi = await search(engine, {
    ...fg,
    aggs: { s: { significant_terms: { field: "type", chi_square: {} } } },
  });
  // n11=3, n10=1, n01=1, n00=7 (the background holds the foreground).
  assert.equal(chi.aggregations.s.buckets[0].score, 12 * (3 * 7 - 1 * 1) ** 2 / (4 * 4 * 8 * 8));
  const filtered = await search(engine, {
    ...fg,
    aggs: {
      s: {
        significant_terms: {
          field: "type",
          background_filter: { terms: { type: ["bike", "theft"] } },
        },
      },
    },
  });
  assert.equal(filtered.aggregations.s.bg_count, 10);
  const perForce = await search(engine, {
    aggs: {
      f: {
        terms: { field: "force" },
        aggs: { s: { significant_terms: { field: "type", min_doc_count: 2 } } },
      },
    },
  });
  const byForce = Object.fromEntries(
    perForce.aggregations.f.buckets.map((
      b: Reply,
    ) => [b.key, b.s.buckets.map((t: Reply) => t.key)]),
  );
  // theft: 5/8 against 6/12 scores 0.15625; fraud: 2/8 against 2/12 scores 0.125.
  assert.deepEqual(byForce, { met: ["theft", "fraud"], btp: ["bike"] });
  const bad = await search(engine, {
    aggs: { s: { significant_terms: { field: "type", script_heuristic: {} } } },
  });
  assert.equal(bad.code, 400);
  engine.close();
});
