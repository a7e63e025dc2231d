import assert from "node:assert/strict";
import { DataSource } from "../../driver/mod.ts";
import { Engine } from "../../engine/mod.ts";
import { chartsFor, renderChart } from "./charts.ts";

async function search(body: object): Promise<unknown> {
  const engine = new Engine();
  try {
    const ds = new DataSource({
      nodes: ["http://engine"],
      fetch: engine.fetch,
      indexRefresh: true,
    });
    await using conn = await ds.getConnection();
    const stmt = conn.createStatement();
    await stmt.execute(
      'PUT /t {"mappings": {"properties": {"c": {"type": "keyword"}, "n": {"type": "long"}, "d": {"type": "date"}}}}',
    );
    const docs = [["a", 1, "2026-01-05"], ["a", 2, "2026-01-20"], ["b", 12, "2026-02-03"], [
      "c",
      25,
      "2026-03-30",
    ]];
    const lines = docs.map(([c, n, d]) => `{"index": {}}\n${JSON.stringify({ c, n, d })}`).join(
      "\n",
    );
    await stmt.execute(`POST /t/_bulk?refresh=true\n${lines}\n`);
    await stmt.execute(`GET /t/_search\n${JSON.stringify(body)}`);
    return stmt.getResultSet()!.raw;
  } finally {
    engine.close();
  }
}

Deno.test("terms, histogram, date_histogram and range answers of the engine become charts", async () => {
  const body = {
    size: 0,
    aggs: {
      by: { terms: { field: "c" } },
      hist: { histogram: { field: "n", interval: 10 } },
      months: { date_histogram: { field: "d", calendar_interval: "month", format: "yyyy-MM" } },
      bands: { range: { field: "n", ranges: [{ to: 10 }, { from: 10 }] } },
      avg: { avg: { field: "n" } },
    },
  };
  const charts = chartsFor(body, await search(body));
  assert.deepEqual(charts.map((c) => [c.name, c.kind, c.labels, c.series[0]!.values]), [
    ["by", "bar", ["a", "b", "c"], [2, 1, 1]],
    ["hist", "line", ["0", "10", "20"], [2, 1, 1]],
    ["months", "line", ["2026-01", "2026-02", "2026-03"], [2, 1, 1]],
    ["bands", "bar", ["*-10.0", "10.0-*"], [2, 2]],
  ]);
});

Deno.test("a bucket aggregation under another is drawn as grouped bars", async () => {
  const body = {
    size: 0,
    aggs: {
      bands: {
        range: { field: "n", ranges: [{ to: 10 }, { from: 10 }] },
        aggs: { c: { terms: { field: "c" } } },
      },
    },
  };
  const [chart] = chartsFor(body, await search(body));
  assert.equal(chart!.type, "range › terms");
  assert.deepEqual(chart!.labels, ["*-10.0", "10.0-*"]);
  assert.deepEqual(chart!.series, [
    { name: "a", values: [2, 0] },
    { name: "b", values: [0, 1] },
    { name: "c", values: [0, 1] },
  ]);
  const svg = renderChart(chart!);
  assert.equal(svg.match(/<rect class="bar"/g)?.length, 6);
  assert.equal(svg.match(/class="legend"/g)?.length, 3);
});

Deno.test("keyed buckets and knn scores", () => {
  const keyed = chartsFor(
    { aggs: { r: { range: { field: "n", keyed: true, ranges: [{ to: 1 }] } } } },
    { aggregations: { r: { buckets: { "*-1.0": { to: 1, doc_count: 4 } } } } },
  );
  assert.deepEqual(keyed[0]!.labels, ["*-1.0"]);
  assert.deepEqual(keyed[0]!.series[0]!.values, [4]);
  const [knn] = chartsFor(
    { knn: { field: "v", query_vector: [0], k: 2 } },
    { hits: { hits: [{ _id: "x", _score: 0.9 }, { _id: "y", _score: 0.4 }] } },
  );
  assert.deepEqual([knn!.labels, knn!.series[0]!.values], [["x", "y"], [0.9, 0.4]]);
  assert.deepEqual(chartsFor(undefined, {}), []);
});

Deno.test("a line chart has a point per bucket; labels are escaped and shortened", () => {
  const svg = renderChart({
    name: "h",
    type: "histogram",
    kind: "line",
    labels: ["<script>", "a very long label indeed"],
    series: [{ name: "doc_count", values: [1, 0] }],
  });
  assert.equal(svg.match(/class="point"/g)?.length, 2);
  assert.ok(!svg.includes("<script>"));
  assert.ok(svg.includes(">a very long…</text>"));
});
