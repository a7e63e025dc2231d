import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

async function readings(): Promise<Engine> {
  const engine = new Engine();
  await call(engine, "PUT", "/r", {
    mappings: {
      properties: {
        t: { type: "date" },
        uuid: { type: "keyword" },
        name: { type: "keyword" },
        metric: { type: "long" },
      },
    },
  });
  const docs = [
    ["2021-10-01", 1, "first", "0002"],
    ["2021-10-02", 2, "first", "0002"],
    ["2021-10-01", 1, "second", "0001"],
    ["2021-10-02", 3, "second", "0001"],
    ["2021-10-01", 1, "third", "0003"],
    ["2021-10-02", 1, "third", "0003"],
    [null, 9, "late", "0004"],
  ] as const;
  for (const [i, [t, metric, name, uuid]] of docs.entries()) {
    await call(engine, "PUT", `/r/_doc/${i}`, { ...(t ? { t } : {}), metric, name, uuid });
  }
  await call(engine, "POST", "/r/_refresh");
  return engine;
}

const top = { sort: { t: "desc" }, metrics: [{ field: "metric" }, { field: "name" }] };

Deno.test("top_metrics: the metrics of the first document by sort; docs without a sort value skipped", async () => {
  const engine = await readings();
  const r = await call(engine, "POST", "/r/_search", {
    size: 0,
    aggs: { last: { top_metrics: { ...top, size: 2 } } },
  });
  assert.deepEqual(r.aggregations.last.top.map((t: Reply) => t.sort), [
    ["2021-10-02T00:00:00.000Z"],
    ["2021-10-02T00:00:00.000Z"],
  ]);
  assert.deepEqual(r.aggregations.last.top[0].metrics, { metric: 2, name: "first" });
  const big = await call(engine, "POST", "/r/_search", {
    aggs: { last: { top_metrics: { ...top, size: 11 } } },
  });
  assert.equal(big.code, 400);
  assert.match(big.error.root_cause[0].reason, /index.top_metrics_max_size/);
  engine.close();
});

Deno.test("top_metrics: terms ordered by a numeric or a keyword top metric; unknown metric refused", async () => {
  const engine = await readings();
  const keys = async (order: Reply): Promise<unknown> => {
    const r = await call(engine, "POST", "/r/_search", {
      size: 0,
      query: { exists: { field: "t" } },
      aggs: { hits: { terms: { field: "uuid", order }, aggs: { hit: { top_metrics: top } } } },
    });
    return r.code === 200 ? r.aggregations.hits.buckets.map((b: Reply) => b.key) : r;
  };
  assert.deepEqual(await keys({ "hit.name": "desc" }), ["0003", "0001", "0002"]);
  assert.deepEqual(await keys({ "hit.name": "asc" }), ["0002", "0001", "0003"]);
  assert.deepEqual(await keys({ "hit.metric": "desc" }), ["0001", "0002", "0003"]);
  const unknown = (await keys({ "hit.unknown": "desc" })) as Reply;
  assert.equal(unknown.code, 400);
  assert.match(JSON.stringify(unknown.error), /unknown metric \[unknown\]/);
  engine.close();
});
