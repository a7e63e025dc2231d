// Exact `long` and `unsigned_long` values beyond 2^53 end to end: the driver binds and reads
// bigints, the backend queries, sorts and aggregates them exactly. Part of the behaviour suite: the
// embedded engine, or the cluster named by ES_URL (tests/README.md).
import assert from "node:assert/strict";
import { type BackendScope, backendTest, suiteIndex } from "./support/backend.ts";
import { JdbcTemplate } from "../template/mod.ts";

const IDS = suiteIndex("ids");
const UPD = suiteIndex("upd");
const COPY = suiteIndex("copy");
const COPY2 = suiteIndex("copy2");

const TWO_53 = 2n ** 53n;
const LONG_MAX = 2n ** 63n - 1n;
const VALUES: [string, bigint | null][] = [
  ["a", TWO_53 - 1n],
  ["b", TWO_53],
  ["c", TWO_53 + 1n],
  ["d", TWO_53 + 2n],
  ["e", LONG_MAX - 1n],
  ["f", LONG_MAX],
  ["g", -LONG_MAX - 1n],
  ["h", -TWO_53 - 1n],
  ["i", 42n],
  ["j", null], // no value: sorts last as Long.MAX_VALUE
];

async function setup(t: BackendScope) {
  const ds = t.dataSource();
  const jdbc = new JdbcTemplate(ds);
  await jdbc.execute(
    `PUT /${IDS} {"mappings": {"properties": {"id": {"type": "long"}, "tag": {"type": "keyword"}}}}`,
  );
  // The literals are written with their exact digits (a bigint interpolates as its digits).
  let bulk = `POST /${IDS}/_bulk?refresh=true\n`;
  for (const [tag, id] of VALUES) {
    bulk += `{"index": {"_id": "${tag}"}}\n`;
    bulk += id === null ? `{"tag": "${tag}"}\n` : `{"tag": "${tag}", "id": ${id}}\n`;
  }
  await jdbc.executeUpdate(bulk);
  return { ds, jdbc };
}

const tagsOf = (rows: { _ID?: unknown }[]) => rows.map((r) => String(r._ID)).sort();

backendTest(
  "term, terms and range with bound bigints select exactly the right documents",
  async (t) => {
    const { jdbc } = await setup(t);
    for (const [tag, id] of VALUES) {
      if (id === null) continue;
      const rows = await jdbc.queryForList(`POST /${IDS}/_search {"query": {"term": {"id": ?}}}`, [
        id,
      ]);
      assert.deepEqual(tagsOf(rows), [tag], `term ${id}`);
    }
    const terms = await jdbc.queryForList(`POST /${IDS}/_search {"query": {"terms": {"id": ?}}}`, [
      [TWO_53 + 1n, LONG_MAX - 1n, 7n],
    ]);
    assert.deepEqual(tagsOf(terms), ["c", "e"]);
    const range = (gt: bigint, lt: bigint) =>
      jdbc.queryForList(`POST /${IDS}/_search {"query": {"range": {"id": {"gt": ?, "lt": ?}}}}`, [
        gt,
        lt,
      ]);
    assert.deepEqual(tagsOf(await range(TWO_53, LONG_MAX)), ["c", "d", "e"]);
    assert.deepEqual(tagsOf(await range(TWO_53 - 1n, TWO_53 + 2n)), ["b", "c"]);
    assert.deepEqual(tagsOf(await range(-LONG_MAX - 1n, 0n)), ["h"]);
  },
);

backendTest(
  "sorting orders exactly, sort values are exact, search_after round-trips page by page",
  async (t) => {
    const { ds } = await setup(t);
    const ascending = [...VALUES].sort(([, x], [, y]) =>
      x === null ? 1 : y === null ? -1 : x < y ? -1 : x > y ? 1 : 0
    );
    await using conn = await ds.getConnection();
    for (const order of ["asc", "desc"] as const) {
      // A missing value sorts last either way (as Long.MAX_VALUE or Long.MIN_VALUE); ties by tag.
      const expected = order === "asc"
        ? ascending
        : [...ascending.slice(0, -1).reverse(), ascending.at(-1)!];
      const seen: [string, unknown][] = [];
      let after: unknown[] | null = null;
      for (let page = 0; page < 10 && seen.length < VALUES.length; page++) {
        const sort = `[{"id": "${order}"}, {"tag": "asc"}]`;
        const stmt = conn.prepareStatement(
          after === null
            ? `POST /${IDS}/_search {"size": 3, "sort": ${sort}}`
            : `POST /${IDS}/_search {"size": 3, "sort": ${sort}, "search_after": ?}`,
        );
        if (after !== null) stmt.setObject(1, after);
        const rs = await stmt.executeQuery();
        let rows = 0;
        while (rs.next()) {
          rows++;
          after = rs.getSortValues() as unknown[];
          seen.push([rs.getString("_ID")!, after[0]]);
        }
        if (rows === 0) break;
      }
      assert.deepEqual(
        seen,
        expected.map((
          [tag, id],
        ) => [tag, id === null ? (order === "asc" ? LONG_MAX : -LONG_MAX - 1n) : normal(id)]),
        order,
      );
    }
    // The hit stream (point in time + search_after) walks the same order.
    const streamed: string[] = [];
    for await (
      const row of conn.stream(`POST /${IDS}/_search {"sort": [{"id": "asc"}]}`, [], {
        pageSize: 4,
      })
    ) {
      streamed.push(String(row._ID));
    }
    assert.deepEqual(streamed.slice(0, -2), ascending.slice(0, -2).map(([tag]) => tag));
    assert.deepEqual(streamed.slice(-2).sort(), ["f", "j"]); // Long.MAX_VALUE ties with a missing value
  },
);

/** A value as the driver reads it: a number while safe, else a bigint. */
function normal(v: bigint): number | bigint {
  return v >= -(TWO_53 - 1n) && v <= TWO_53 - 1n ? Number(v) : v;
}

backendTest(
  "terms aggregation keys are exact; min and max are doubles, as Elasticsearch writes them",
  async (t) => {
    const { ds } = await setup(t);
    await using conn = await ds.getConnection();
    const rs = await conn.createStatement().executeQuery(
      `POST /${IDS}/_search {"size": 0, "aggs": {"ids": {"terms": {"field": "id", "size": 20, "order": {"_key": "asc"}}}, "top": {"max": {"field": "id"}}, "low": {"min": {"field": "id"}}, "n": {"cardinality": {"field": "id"}}}}`,
    );
    const aggs = rs.aggregations!;
    const keys = (aggs.ids!.buckets as { key: unknown; doc_count: number }[]).map((b) => b.key);
    const sorted = VALUES.flatMap(([, id]) => (id === null ? [] : [id])).sort((x, y) =>
      x < y ? -1 : x > y ? 1 : 0
    );
    assert.deepEqual(keys, sorted.map(normal));
    assert.equal(aggs.top!.value, Number(LONG_MAX));
    assert.equal(typeof aggs.top!.value, "number");
    assert.equal(aggs.low!.value, -(2 ** 63));
    assert.equal(aggs.n!.value, 9);
  },
);

backendTest("unsigned_long: term, range, sort and terms keys up to 2^64 − 1", {
  requires: ["unsigned_long"],
}, async (t) => {
  const { jdbc, ds } = await setup(t);
  await jdbc.execute(`PUT /${IDS}/_mapping {"properties": {"u": {"type": "unsigned_long"}}}`);
  const max = 2n ** 64n - 1n;
  await jdbc.executeUpdate(
    `POST /${IDS}/_bulk?refresh=true\n{"index": {"_id": "u1"}}\n{"u": ${max}}\n` +
      `{"index": {"_id": "u2"}}\n{"u": ${max - 1n}}\n{"index": {"_id": "u3"}}\n{"u": ${
        2n ** 63n
      }}\n`,
  );
  const rows = await jdbc.queryForList(`POST /${IDS}/_search {"query": {"term": {"u": ?}}}`, [
    max - 1n,
  ]);
  assert.deepEqual(tagsOf(rows), ["u2"]);
  const above = await jdbc.queryForList(
    `POST /${IDS}/_search {"query": {"range": {"u": {"gte": ?}}}}`,
    [
      2n ** 63n,
    ],
  );
  assert.deepEqual(tagsOf(above), ["u1", "u2", "u3"]);
  await using conn = await ds.getConnection();
  const rs = await conn.createStatement().executeQuery(
    `POST /${IDS}/_search {"query": {"exists": {"field": "u"}}, "sort": [{"u": "desc"}], "aggs": {"u": {"terms": {"field": "u"}}}}`,
  );
  const sorts: unknown[] = [];
  while (rs.next()) sorts.push(rs.getSortValues()![0]);
  assert.deepEqual(sorts, [max, max - 1n, 2n ** 63n]);
  const keys = (rs.aggregations!.u!.buckets as { key: unknown }[]).map((b) => b.key).sort();
  assert.deepEqual(keys, [max, max - 1n, 2n ** 63n].sort());
});

// Write paths that rebuild a source (partial update, upsert, scripts, by-query, reindex, bulk
// update) keep every integer beyond 2^53 exact, whether or not the write touches its field.
const BIG = TWO_53 + 1n; // 9007199254740993: the nearest double is 2^53
const HUGE = LONG_MAX - 1n;

async function updateSetup(t: BackendScope) {
  const ds = t.dataSource();
  const jdbc = new JdbcTemplate(ds);
  await jdbc.execute(`PUT /${UPD} {"mappings": {"properties": {"id": {"type": "long"}}}}`);
  await jdbc.executeUpdate(`PUT /${UPD}/_doc/1?refresh=true {"id": ${BIG}, "n": 1}`);
  /** The stored `_source` of a document, read exactly, and whether `id` finds it by term. */
  const read = async (index: string, id: string) => {
    await using conn = await ds.getConnection();
    const rs = await conn.createStatement().executeQuery(
      `POST /${index}/_search {"query": {"ids": {"values": ["${id}"]}}}`,
    );
    assert.ok(rs.next(), `${index}/${id} exists`);
    const doc = rs.getJson("_DOC") as Record<string, unknown>;
    const byTerm = await jdbc.queryForList(
      `POST /${index}/_search {"query": {"term": {"id": ?}}}`,
      [doc.id as bigint],
    );
    return { doc, text: rs.getString("_DOC"), found: tagsOf(byTerm).includes(id) };
  };
  return { jdbc, read };
}

backendTest(
  "_update with a partial doc keeps untouched and merged longs exact, and sees exact changes",
  async (t) => {
    const { jdbc, read } = await updateSetup(t);
    await jdbc.executeUpdate(`POST /${UPD}/_update/1?refresh=true {"doc": {"n": 2}}`);
    assert.deepEqual(await read(`${UPD}`, "1"), {
      doc: { id: BIG, n: 2 },
      text: `{"id":${BIG},"n":2}`,
      found: true,
    });
    await jdbc.executeUpdate(`POST /${UPD}/_update/1?refresh=true {"doc": {"o": {"h": ${HUGE}}}}`);
    assert.deepEqual((await read(`${UPD}`, "1")).doc, { id: BIG, n: 2, o: { h: HUGE } });
    // 2^53 and 2^53 + 1 are the same double: the change is still seen, not taken for a noop.
    const n = await jdbc.executeUpdate(
      `POST /${UPD}/_update/1?refresh=true {"doc": {"id": ${TWO_53}}}`,
    );
    assert.equal(n, 1);
    assert.deepEqual((await read(`${UPD}`, "1")).doc, { id: TWO_53, n: 2, o: { h: HUGE } });
  },
);

backendTest("_update with doc_as_upsert creates and merges with exact longs", async (t) => {
  const { jdbc, read } = await updateSetup(t);
  await jdbc.executeUpdate(
    `POST /${UPD}/_update/2?refresh=true {"doc": {"id": ${HUGE}, "n": 0}, "doc_as_upsert": true}`,
  );
  assert.deepEqual(await read(`${UPD}`, "2"), {
    doc: { id: HUGE, n: 0 },
    text: `{"id":${HUGE},"n":0}`,
    found: true,
  });
  await jdbc.executeUpdate(
    `POST /${UPD}/_update/1?refresh=true {"doc": {"n": 7}, "doc_as_upsert": true}`,
  );
  assert.deepEqual((await read(`${UPD}`, "1")).doc, { id: BIG, n: 7 });
});

backendTest(
  "_update with upsert creates exactly, then its script keeps the long it does not touch",
  { requires: ["painless"] },
  async (t) => {
    const { jdbc, read } = await updateSetup(t);
    const command =
      `POST /${UPD}/_update/3?refresh=true {"script": {"source": "ctx._source.n += 1"}, "upsert": {"id": ${BIG}, "n": 0}}`;
    await jdbc.executeUpdate(command);
    assert.deepEqual(await read(`${UPD}`, "3"), {
      doc: { id: BIG, n: 0 },
      text: `{"id":${BIG},"n":0}`,
      found: true,
    });
    await jdbc.executeUpdate(command);
    assert.deepEqual(await read(`${UPD}`, "3"), {
      doc: { id: BIG, n: 1 },
      text: `{"id":${BIG},"n":1}`,
      found: true,
    });
  },
);

backendTest("_update with a script keeps untouched longs exact and assigns exact params", {
  requires: ["painless"],
}, async (t) => {
  const { jdbc, read } = await updateSetup(t);
  await jdbc.executeUpdate(
    `POST /${UPD}/_update/1?refresh=true {"script": {"source": "ctx._source.n += params.k", "params": {"k": 4}}}`,
  );
  assert.deepEqual((await read(`${UPD}`, "1")).doc, { id: BIG, n: 5 });
  await jdbc.executeUpdate(
    `POST /${UPD}/_update/1?refresh=true {"script": {"source": "ctx._source.big = params.v", "params": {"v": ${HUGE}}}}`,
  );
  assert.deepEqual(await read(`${UPD}`, "1"), {
    doc: { id: BIG, n: 5, big: HUGE },
    text: `{"id":${BIG},"n":5,"big":${HUGE}}`,
    found: true,
  });
});

backendTest("_update_by_query with a script keeps untouched longs exact", {
  requires: ["by-query", "painless"],
}, async (t) => {
  const { jdbc, read } = await updateSetup(t);
  await jdbc.executeUpdate(
    `POST /${UPD}/_update_by_query?refresh=true {"script": {"source": "ctx._source.n = 9"}}`,
  );
  assert.deepEqual(await read(`${UPD}`, "1"), {
    doc: { id: BIG, n: 9 },
    text: `{"id":${BIG},"n":9}`,
    found: true,
  });
});

backendTest("_reindex copies longs exactly, with and without a script", {
  requires: ["reindex", "painless"],
}, async (t) => {
  const { jdbc, read } = await updateSetup(t);
  await jdbc.executeUpdate(
    `POST /_reindex?refresh=true {"source": {"index": "${UPD}"}, "dest": {"index": "${COPY}"}}`,
  );
  assert.deepEqual(await read(`${COPY}`, "1"), {
    doc: { id: BIG, n: 1 },
    text: `{"id":${BIG},"n":1}`,
    found: true,
  });
  await jdbc.executeUpdate(
    `POST /_reindex?refresh=true {"source": {"index": "${UPD}"}, "dest": {"index": "${COPY2}"}, "script": {"source": "ctx._source.n = 2"}}`,
  );
  assert.deepEqual((await read(`${COPY2}`, "1")).doc, { id: BIG, n: 2 });
});

backendTest("_bulk update actions keep longs exact", async (t) => {
  const { jdbc, read } = await updateSetup(t);
  await jdbc.executeUpdate(
    `POST /${UPD}/_bulk?refresh=true\n{"update": {"_id": "1"}}\n{"doc": {"n": 3}}\n` +
      `{"update": {"_id": "4"}}\n{"doc": {"id": ${HUGE}}, "doc_as_upsert": true}\n`,
  );
  assert.deepEqual(await read(`${UPD}`, "1"), {
    doc: { id: BIG, n: 3 },
    text: `{"id":${BIG},"n":3}`,
    found: true,
  });
  assert.deepEqual(await read(`${UPD}`, "4"), {
    doc: { id: HUGE },
    text: `{"id":${HUGE}}`,
    found: true,
  });
});

backendTest("_update_by_query and _reindex select by an exact long in their query", {
  requires: ["by-query", "reindex", "painless"],
}, async (t) => {
  const { jdbc, read } = await updateSetup(t);
  // 2^53 and 2^53 + 1 are the same double: only an exact query tells the two documents apart.
  await jdbc.executeUpdate(`PUT /${UPD}/_doc/2?refresh=true {"id": ${TWO_53}, "n": 1}`);
  const updated = await jdbc.executeUpdate(
    `POST /${UPD}/_update_by_query?refresh=true {"query": {"term": {"id": ?}}, "script": {"source": "ctx._source.n = params.n", "params": {"n": ?}}}`,
    [BIG, 8],
  );
  assert.equal(updated, 1);
  assert.deepEqual((await read(`${UPD}`, "1")).doc, { id: BIG, n: 8 });
  assert.deepEqual((await read(`${UPD}`, "2")).doc, { id: TWO_53, n: 1 });
  await jdbc.executeUpdate(
    `POST /_reindex?refresh=true {"source": {"index": "${UPD}", "query": {"term": {"id": ?}}}, "dest": {"index": "${COPY}"}}`,
    [TWO_53],
  );
  const copied = await jdbc.queryForList(`POST /${COPY}/_search`);
  assert.deepEqual(tagsOf(copied), ["2"]);
});
