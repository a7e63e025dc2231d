// Hit metadata, typed reads and exact integers through the driver and the template. Part of the
// behaviour suite: the embedded engine, or the cluster named by ES_URL (tests/README.md).
import assert from "node:assert/strict";
import { ColumnTypeError, DataSource } from "../driver/mod.ts";
import { type BackendScope, backendTest, suiteIndex } from "./support/backend.ts";
import { JdbcTemplate, listMeta } from "../template/mod.ts";

const SHOP = suiteIndex("shop");
const IDS = suiteIndex("ids");

async function setup(t: BackendScope) {
  const ds = t.dataSource();
  const jdbc = new JdbcTemplate(ds);
  await jdbc.execute(
    `PUT /${SHOP} {"mappings": {"properties": {"name": {"type": "text"}, "price": {"type": "double"}, "sold": {"type": "date"}, "reviews": {"type": "nested"}}}}`,
  );
  await jdbc.executeUpdate(`POST /${SHOP}/_bulk?refresh=true
{"index": {"_id": "a"}}
{"name": "red apple", "price": 1.5, "sold": "2024-05-01T10:00:00Z", "reviews": [{"stars": 5}, {"stars": 2}]}
{"index": {"_id": "b"}}
{"name": "green apple", "price": 2, "sold": 0, "reviews": [{"stars": 4}]}
`);
  return { ds, jdbc };
}

backendTest(
  "ResultSet hit getters: score, sort, highlight, named queries, version and seq_no",
  async (t) => {
    const { ds } = await setup(t);
    await using conn = await ds.getConnection();
    const rs = await conn.createStatement().executeQuery(`POST /${SHOP}/_search {
    "query": {"bool": {"must": [{"match": {"name": {"query": "apple", "_name": "apple"}}}],
      "should": [{"nested": {"path": "reviews", "query": {"range": {"reviews.stars": {"gte": 4}}},
        "inner_hits": {"name": "good"}}}]}},
    "sort": [{"price": "desc"}, "_score"], "track_scores": true,
    "highlight": {"fields": {"name": {}}}, "seq_no_primary_term": true, "version": true}`);
    assert.ok(rs.next());
    assert.equal(rs.getString("_ID"), "b");
    assert.equal(rs.getIndex(), SHOP);
    assert.equal(rs.getSortValues()?.[0], 2);
    assert.ok(rs.getScore()! > 0);
    assert.deepEqual(rs.getMatchedQueries(), ["apple"]);
    assert.deepEqual(rs.getHighlight("name"), ["green <em>apple</em>"]);
    assert.deepEqual(rs.getHighlight("price"), []);
    assert.deepEqual([rs.getVersion(), rs.getSeqNo(), rs.getPrimaryTerm()], [1, 1, 1]);
    const goodB = rs.getInnerHits("good");
    assert.equal(goodB.rowCount, 1);
    assert.ok(goodB.next());
    assert.deepEqual(JSON.parse(goodB.getString("_DOC")!), { stars: 4 });
    assert.ok(rs.next());
    assert.equal(rs.getString("_ID"), "a");
    const goodA = rs.getInnerHits("good");
    assert.equal(goodA.rowCount, 1, "only the 5-star review of a is an inner hit");
    assert.ok(goodA.next());
    assert.deepEqual(JSON.parse(goodA.getString("_DOC")!), { stars: 5 });
    // GET and _mget rows carry their metadata too.
    const got = await conn.createStatement().executeQuery(`GET /${SHOP}/_doc/a`);
    got.next();
    assert.deepEqual([got.getSeqNo(), got.getPrimaryTerm(), got.getVersion()], [0, 1, 1]);
    const mget = await conn.createStatement().executeQuery(
      `POST /${SHOP}/_mget {"ids": ["b", "a"]}`,
    );
    mget.next();
    assert.equal(mget.getHit().id, "b");
    assert.equal(mget.getSeqNo(), 1);
    // Rows that are not hits give nulls.
    const count = await conn.createStatement().executeQuery(`POST /${SHOP}/_count`);
    count.next();
    assert.equal(count.getScore(), null);
  },
);

backendTest(
  "typed getters read what fits and name the column, row and remedy otherwise",
  async (t) => {
    const { ds } = await setup(t);
    await using conn = await ds.getConnection();
    const rs = await conn.createStatement().executeQuery(`GET /_cat/indices/${SHOP}`);
    rs.next();
    // Lucene documents: 2 documents and their 3 nested reviews.
    assert.equal(rs.getInt("docs.count"), 5);
    assert.equal(rs.getLong("docs.count"), 5n);
    assert.equal(rs.getDouble("docs.count"), 5);
    assert.throws(
      () => rs.getInt("index"),
      (e: unknown) =>
        e instanceof ColumnTypeError && e.column === "index" && e.row === 1 &&
        e.message.includes(`holds "${SHOP}", which is not an int: read it with getString`),
    );
    assert.throws(() => rs.getDate("index"), /not a date/);
    assert.throws(() => rs.getBoolean("index"), ColumnTypeError);
  },
);

backendTest(
  "template: queryForHits and streamHits carry metadata with entities; lists carry aggregations and raw",
  async (t) => {
    const { jdbc } = await setup(t);
    class Product {
      name = "";
      price = 0;
    }
    const hits = await jdbc.queryForHits(
      `POST /${SHOP}/_search {"sort": [{"price": "asc"}], "aggs": {"top": {"max": {"field": "price"}}}}`,
      {},
      Product,
    );
    assert.ok(hits[0]!.doc instanceof Product);
    assert.deepEqual(hits.map((h) => [h.id, h.doc.price, h.sort]), [["a", 1.5, [1.5]], ["b", 2, [
      2,
    ]]]);
    assert.equal(listMeta(hits).aggregations?.top?.value, 2);
    assert.equal((listMeta(hits).raw as { hits: { hits: unknown[] } }).hits.hits.length, 2);
    const rows = await jdbc.queryForList(`POST /${SHOP}/_search {"size": 0}`);
    assert.ok(listMeta(rows).raw !== undefined);
    const streamed = [];
    for await (
      const hit of jdbc.streamHits(`POST /${SHOP}/_search {"sort": [{"price": "desc"}]}`, {})
    ) {
      streamed.push([hit.doc._ID, hit.index, hit.sort?.[0]]);
    }
    assert.deepEqual(streamed, [["b", `${SHOP}`, 2], ["a", `${SHOP}`, 1.5]]);
  },
);

Deno.test("exact integers: a long beyond 2^53 in a response stays exact in _DOC, getJson, getLong and sort values", async () => {
  // The engine stores numbers as doubles, so this response is the one a real cluster sends.
  const text = '{"took":1,"hits":{"total":{"value":1,"relation":"eq"},"hits":[' +
    `{"_index":"${IDS}","_id":"1","_score":null,"_source":{"id":9007199254740993,"n":1},"sort":[18446744073709551615]}]}}`;
  const ds = new DataSource({
    nodes: ["http://es"],
    fetch: () => Promise.resolve(new Response(text)),
  });
  await using conn = await ds.getConnection();
  const rs = await conn.createStatement().executeQuery(`POST /${IDS}/_search`);
  rs.next();
  assert.equal(rs.getString("_DOC"), '{"id":9007199254740993,"n":1}');
  assert.deepEqual(rs.getJson("_DOC"), { id: 9007199254740993n, n: 1 });
  assert.deepEqual(rs.getSortValues(), [18446744073709551615n]);
  const jdbc = new JdbcTemplate(ds);
  class Id {
    id = 0n;
    n = 0;
  }
  const [one] = await jdbc.queryForList(`POST /${IDS}/_search`, [], Id);
  assert.equal(one!.id, 9007199254740993n);
  const rows = await jdbc.queryForList(`POST /${IDS}/_search`);
  assert.equal(rows[0]!._DOC, '{"id":9007199254740993,"n":1}');
});

backendTest(
  "exact integers end to end: the engine keeps _source byte for byte; the driver reads it exactly",
  async (t) => {
    const jdbc = new JdbcTemplate(t.dataSource());
    // Mapped explicitly: dynamic mapping of an integer beyond long differs (Elasticsearch maps a
    // float, OpenSearch refuses the document).
    await jdbc.execute(
      `PUT /${IDS} {"mappings": {"properties": {"id": {"type": "long"}, "counter": {"type": "double"}}}}`,
    );
    const source = '{"id": 9007199254740993, "counter": 18446744073709551615, "ratio": 1.0}';
    await jdbc.executeUpdate(`PUT /${IDS}/_doc/1?refresh=true ${source}`);
    await jdbc.executeUpdate(
      `POST /${IDS}/_bulk?refresh=true\n{"index": {"_id": "2"}}\n{"id": -9223372036854775808}\n`,
    );
    const raw = await fetch(`${t.url}/${IDS}/_source/1`, { headers: t.headers });
    // The driver sends bodies compact; the engine gives back exactly what it was sent.
    assert.equal(
      await raw.text(),
      '{"id":9007199254740993,"counter":18446744073709551615,"ratio":1.0}',
    );
    const rows = await jdbc.queryForList(`POST /${IDS}/_search`);
    const byId = new Map(rows.map((r) => [r._ID, r._DOC]));
    assert.equal(byId.get("1"), '{"id":9007199254740993,"counter":18446744073709551615,"ratio":1}');
    assert.equal(byId.get("2"), '{"id":-9223372036854775808}');
    class Big {
      id = 0n;
      counter = 0n;
    }
    const one = await jdbc.queryForObject(`GET /${IDS}/_doc/1`, [], Big);
    assert.equal(one!.id, 9007199254740993n);
    assert.equal(one!.counter, 18446744073709551615n);
  },
);
