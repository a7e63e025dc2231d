// Aggregations read through JdbcTemplate on every backend of the suite: paging every composite bucket
// with after_key, and the newer bucket aggregations as an application reads them.
import assert from "node:assert/strict";
import { type BackendScope, backendTest, suiteIndex } from "./support/backend.ts";
import { JdbcTemplate, listMeta } from "../template/mod.ts";

const SALES = suiteIndex("sales");

async function sales(t: BackendScope): Promise<{ jdbc: JdbcTemplate }> {
  const jdbc = new JdbcTemplate(t.dataSource());
  await jdbc.execute(
    `PUT /${SALES} {"mappings": {"properties": {"shop": {"type": "keyword"}, "day": {"type": "date"}, "amount": {"type": "long"}}}}`,
  );
  const rows: [string, string, number][] = [];
  for (let i = 0; i < 30; i++) {
    rows.push([`shop${i % 7}`, `2024-01-${String((i % 5) + 1).padStart(2, "0")}`, i]);
  }
  for (const [shop, day, amount] of rows) {
    await jdbc.execute(`POST /${SALES}/_doc #{doc}`, { doc: { shop, day, amount } });
  }
  await jdbc.execute(`POST /${SALES}/_refresh`);
  return { jdbc };
}

backendTest(
  "composite: an application pages through every (shop, day) bucket with after_key",
  async (t) => {
    const { jdbc } = await sales(t);
    const seen: string[] = [];
    let total = 0;
    let after: unknown = null;
    for (let page = 0; page < 100; page++) {
      const afterPart = after === null ? "" : ', "after": #{after}';
      const rows = await jdbc.queryForList(
        `POST /${SALES}/_search {"size": 0, "aggs": {"by": {"composite": {"size": 4, "sources": [
        {"shop": {"terms": {"field": "shop"}}},
        {"day": {"date_histogram": {"field": "day", "calendar_interval": "1d", "format": "yyyy-MM-dd"}}}
      ]${afterPart}}, "aggs": {"sum": {"sum": {"field": "amount"}}}}}}`,
        { after },
      );
      const by = listMeta(rows).aggregations?.by;
      const buckets = (by?.buckets ?? []) as {
        key: { shop: string; day: string };
        doc_count: number;
      }[];
      if (buckets.length === 0) break;
      for (const b of buckets) {
        seen.push(`${b.key.shop}/${b.key.day}`);
        total += b.doc_count;
      }
      after = (by as { after_key?: unknown }).after_key;
    }
    // 7 shops x 5 days, every pair met once (i % 7, i % 5 cycle together over 35 values).
    assert.equal(seen.length, 30);
    assert.equal(new Set(seen).size, 30);
    assert.deepEqual(seen, [...seen].sort());
    assert.equal(total, 30);
  },
);

backendTest("multi_terms, rare_terms and significant_terms read like terms", {
  requires: ["multi_terms"],
}, async (t) => {
  const { jdbc } = await sales(t);
  const rows = await jdbc.queryForList(
    `POST /${SALES}/_search {"size": 0, "query": {"term": {"shop": "shop0"}}, "aggs": {
      "pairs": {"multi_terms": {"terms": [{"field": "shop"}, {"field": "day"}], "size": 2}},
      "rare": {"rare_terms": {"field": "shop", "max_doc_count": 5}},
      "days": {"significant_terms": {"field": "day", "min_doc_count": 1}}
    }}`,
  );
  const aggs = listMeta(rows).aggregations!;
  const pairs = aggs.pairs?.buckets as { key: unknown[]; key_as_string: string }[];
  assert.equal(pairs.length, 2);
  assert.equal(pairs[0]!.key[0], "shop0");
  assert.match(pairs[0]!.key_as_string, /^shop0\|2024-01-0\d/);
  assert.deepEqual((aggs.rare?.buckets as { key: string }[]).map((b) => b.key), ["shop0"]);
  const days = aggs.days as { doc_count: number; bg_count: number };
  assert.deepEqual([days.doc_count, days.bg_count], [5, 30]);
});
