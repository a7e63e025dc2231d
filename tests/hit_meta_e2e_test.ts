// Hit metadata, typed reads and exact integers through the driver and the template, against the
// embedded engine (in-process fetch).
import assert from "node:assert/strict";
import { ColumnTypeError, DataSource } from "../driver/mod.ts";
import { Engine } from "../engine/mod.ts";
import { JdbcTemplate } from "../template/mod.ts";

async function setup() {
  const engine = new Engine();
  const ds = new DataSource({ nodes: ["http://engine"], fetch: engine.fetch });
  const jdbc = new JdbcTemplate(ds);
  await jdbc.execute(
    'PUT /shop {"mappings": {"properties": {"name": {"type": "text"}, "price": {"type": "double"}, "sold": {"type": "date"}, "reviews": {"type": "nested"}}}}',
  );
  await jdbc.executeUpdate(`POST /shop/_bulk?refresh=true
{"index": {"_id": "a"}}
{"name": "red apple", "price": 1.5, "sold": "2024-05-01T10:00:00Z", "reviews": [{"stars": 5}, {"stars": 2}]}
{"index": {"_id": "b"}}
{"name": "green apple", "price": 2, "sold": 0, "reviews": [{"stars": 4}]}
`);
  return { engine, ds, jdbc };
}

Deno.test("ResultSet hit getters: score, sort, highlight, named queries, version and seq_no", async () => {
  const { engine, ds } = await setup();
  await using conn = await ds.getConnection();
  const rs = await conn.createStatement().executeQuery(`POST /shop/_search {
    "query": {"bool": {"must": [{"match": {"name": {"query": "apple", "_name": "apple"}}}],
      "should": [{"nested": {"path": "reviews", "query": {"range": {"reviews.stars": {"gte": 4}}},
        "inner_hits": {"name": "good"}}}]}},
    "sort": [{"price": "desc"}, "_score"], "track_scores": true,
    "highlight": {"fields": {"name": {}}}, "seq_no_primary_term": true, "version": true}`);
  assert.ok(rs.next());
  assert.equal(rs.getString("_ID"), "b");
  assert.equal(rs.getIndex(), "shop");
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
  const got = await conn.createStatement().executeQuery("GET /shop/_doc/a");
  got.next();
  assert.deepEqual([got.getSeqNo(), got.getPrimaryTerm(), got.getVersion()], [0, 1, 1]);
  const mget = await conn.createStatement().executeQuery('POST /shop/_mget {"ids": ["b", "a"]}');
  mget.next();
  assert.equal(mget.getHit().id, "b");
  assert.equal(mget.getSeqNo(), 1);
  // Rows that are not hits give nulls.
  const count = await conn.createStatement().executeQuery("POST /shop/_count");
  count.next();
  assert.equal(count.getScore(), null);
  engine.close();
});

Deno.test("typed getters read what fits and name the column, row and remedy otherwise", async () => {
  const { engine, ds } = await setup();
  await using conn = await ds.getConnection();
  const rs = await conn.createStatement().executeQuery("GET /_cat/indices/shop");
  rs.next();
  assert.equal(rs.getInt("docs.count"), 2);
  assert.equal(rs.getLong("docs.count"), 2n);
  assert.equal(rs.getDouble("docs.count"), 2);
  assert.throws(
    () => rs.getInt("index"),
    (e: unknown) =>
      e instanceof ColumnTypeError && e.column === "index" && e.row === 1 &&
      /holds "shop", which is not an int: read it with getString/.test(e.message),
  );
  assert.throws(() => rs.getDate("index"), /not a date/);
  assert.throws(() => rs.getBoolean("index"), ColumnTypeError);
  engine.close();
});

Deno.test("template: queryForHits and streamHits carry metadata with entities; lists carry aggregations and raw", async () => {
  const { engine, jdbc } = await setup();
  class Product {
    name = "";
    price = 0;
  }
  const hits = await jdbc.queryForHits(
    'POST /shop/_search {"sort": [{"price": "asc"}], "aggs": {"top": {"max": {"field": "price"}}}}',
    {},
    Product,
  );
  assert.ok(hits[0]!.doc instanceof Product);
  assert.deepEqual(hits.map((h) => [h.id, h.doc.price, h.sort]), [["a", 1.5, [1.5]], ["b", 2, [
    2,
  ]]]);
  assert.equal(hits.aggregations?.top?.value, 2);
  assert.equal((hits.raw as { hits: { hits: unknown[] } }).hits.hits.length, 2);
  const rows = await jdbc.queryForList('POST /shop/_search {"size": 0}');
  assert.ok(rows.raw !== undefined);
  const streamed = [];
  for await (const hit of jdbc.streamHits('POST /shop/_search {"sort": [{"price": "desc"}]}', {})) {
    streamed.push([hit.doc._ID, hit.index, hit.sort?.[0]]);
  }
  assert.deepEqual(streamed, [["b", "shop", 2], ["a", "shop", 1.5]]);
  engine.close();
});

Deno.test("exact integers: a long beyond 2^53 in a response stays exact in _DOC, getJson, getLong and sort values", async () => {
  // The engine stores numbers as doubles, so this response is the one a real cluster sends.
  const text = '{"took":1,"hits":{"total":{"value":1,"relation":"eq"},"hits":[' +
    '{"_index":"ids","_id":"1","_score":null,"_source":{"id":9007199254740993,"n":1},"sort":[18446744073709551615]}]}}';
  const ds = new DataSource({
    nodes: ["http://es"],
    fetch: () => Promise.resolve(new Response(text)),
  });
  await using conn = await ds.getConnection();
  const rs = await conn.createStatement().executeQuery("POST /ids/_search");
  rs.next();
  assert.equal(rs.getString("_DOC"), '{"id":9007199254740993,"n":1}');
  assert.deepEqual(rs.getJson("_DOC"), { id: 9007199254740993n, n: 1 });
  assert.deepEqual(rs.getSortValues(), [18446744073709551615n]);
  const jdbc = new JdbcTemplate(ds);
  class Id {
    id = 0n;
    n = 0;
  }
  const [one] = await jdbc.queryForList("POST /ids/_search", [], Id);
  assert.equal(one!.id, 9007199254740993n);
  const rows = await jdbc.queryForList("POST /ids/_search");
  assert.equal(rows[0]!._DOC, '{"id":9007199254740993,"n":1}');
});

Deno.test("exact integers end to end: the engine keeps _source byte for byte; the driver reads it exactly", async () => {
  const engine = new Engine();
  const jdbc = new JdbcTemplate(new DataSource({ nodes: ["http://engine"], fetch: engine.fetch }));
  const source = '{"id": 9007199254740993, "counter": 18446744073709551615, "ratio": 1.0}';
  await jdbc.executeUpdate(`PUT /ids/_doc/1?refresh=true ${source}`);
  await jdbc.executeUpdate(
    'POST /ids/_bulk?refresh=true\n{"index": {"_id": "2"}}\n{"id": -9223372036854775808}\n',
  );
  const raw = await engine.fetch("http://engine/ids/_source/1");
  // The driver sends bodies compact; the engine gives back exactly what it was sent.
  assert.equal(
    await raw.text(),
    '{"id":9007199254740993,"counter":18446744073709551615,"ratio":1.0}',
  );
  const rows = await jdbc.queryForList("POST /ids/_search");
  const byId = new Map(rows.map((r) => [r._ID, r._DOC]));
  assert.equal(byId.get("1"), '{"id":9007199254740993,"counter":18446744073709551615,"ratio":1}');
  assert.equal(byId.get("2"), '{"id":-9223372036854775808}');
  class Big {
    id = 0n;
    counter = 0n;
  }
  const one = await jdbc.queryForObject("GET /ids/_doc/1", [], Big);
  assert.equal(one!.id, 9007199254740993n);
  assert.equal(one!.counter, 18446744073709551615n);
  engine.close();
});
