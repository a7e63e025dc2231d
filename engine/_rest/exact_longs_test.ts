// Whole numbers beyond 2^53 through the engine's REST surface: queries, sorting, aggregations
// and the way replies write them.
import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { exchange } from "../../tests/support/engine_call.ts";

const VALUES: Record<string, string> = {
  a: "9007199254740991",
  b: "9007199254740992",
  c: "9007199254740993",
  d: "9007199254740994",
  e: "9223372036854775806",
  f: "9223372036854775807",
  g: "-9223372036854775808",
  h: "42",
};

async function setup(): Promise<
  { engine: Engine; call: (m: string, p: string, b?: string) => Promise<string> }
> {
  const engine = new Engine();
  // The reply as text: its integers are compared to the digit.
  const call = async (method: string, path: string, body?: string) =>
    (await exchange(engine, method, path, body)).text;
  await call(
    "PUT",
    "/ids",
    '{"mappings": {"properties": {"n": {"type": "long"}, "u": {"type": "unsigned_long"}, "k": {"type": "keyword"}, "d": {"type": "double"}}}}',
  );
  let bulk = "";
  for (const [id, v] of Object.entries(VALUES)) {
    bulk += `{"index": {"_id": "${id}"}}\n{"n": ${v}, "k": ${v}, "d": ${v}}\n`;
  }
  bulk += '{"index": {"_id": "u1"}}\n{"u": 18446744073709551615}\n';
  bulk += '{"index": {"_id": "u2"}}\n{"u": 18446744073709551614}\n';
  await call("POST", "/ids/_bulk?refresh=true", bulk);
  return { engine, call };
}

const ids = (text: string): string[] =>
  [...text.matchAll(/"_id":"([^"]+)"/g)].map((m) => m[1]!).sort();

Deno.test("range bounds near 2^53 and 2^63 − 1 select exactly, on long and unsigned_long", async () => {
  const { engine, call } = await setup();
  const range = async (field: string, bounds: string) =>
    ids(await call("POST", "/ids/_search", `{"query": {"range": {"${field}": ${bounds}}}}`));
  assert.deepEqual(await range("n", '{"gt": 9007199254740992}'), ["c", "d", "e", "f"]);
  assert.deepEqual(await range("n", '{"gte": 9007199254740993, "lte": 9007199254740993}'), ["c"]);
  assert.deepEqual(await range("n", '{"gt": 9007199254740991, "lt": 9007199254740994}'), [
    "b",
    "c",
  ]);
  assert.deepEqual(await range("n", '{"gte": 9223372036854775807}'), ["f"]);
  assert.deepEqual(await range("n", '{"lt": "9223372036854775807", "gt": 42}'), [
    "a",
    "b",
    "c",
    "d",
    "e",
  ]);
  assert.deepEqual(await range("n", '{"lte": -9223372036854775808}'), ["g"]);
  assert.deepEqual(await range("u", '{"gt": 18446744073709551614}'), ["u1"]);
  // _count, _msearch and _delete_by_query read their queries exactly too.
  const term = '{"query": {"term": {"n": 9007199254740993}}}';
  assert.match(await call("POST", "/ids/_count", term), /"count":1\b/);
  const ms = await call("POST", "/ids/_msearch", `{}\n${term}\n`);
  assert.deepEqual(ids(ms), ["c"]);
  assert.match(await call("POST", "/ids/_delete_by_query?refresh=true", term), /"deleted":1\b/);
  assert.deepEqual(await range("n", '{"gte": 9007199254740992, "lte": 9007199254740994}'), [
    "b",
    "d",
  ]);
  engine.close();
});

Deno.test("keyword terms keep a big literal's digits; double fields stay doubles", async () => {
  const { engine, call } = await setup();
  const hits = async (query: string) =>
    ids(await call("POST", "/ids/_search", `{"query": ${query}}`));
  assert.deepEqual(await hits('{"term": {"k": 9007199254740993}}'), ["c"]);
  assert.deepEqual(await hits('{"term": {"k": "9007199254740993"}}'), ["c"]);
  // A double cannot tell 2^53 from 2^53 + 1: Elasticsearch matches both as well.
  assert.deepEqual(await hits('{"term": {"d": 9007199254740993}}'), ["b", "c"]);
  engine.close();
});

Deno.test("replies write exact values exactly and doubles as doubles", async () => {
  const { engine, call } = await setup();
  const sorted = await call(
    "POST",
    "/ids/_search?filter_path=hits.hits.sort,hits.hits.fields",
    '{"sort": [{"n": "desc"}], "size": 2, "docvalue_fields": ["n"], "_source": false}',
  );
  assert.equal(
    sorted,
    '{"hits":{"hits":[{"fields":{"n":[9223372036854775807]},"sort":[9223372036854775807]},{"fields":{"n":[9223372036854775806]},"sort":[9223372036854775806]}]}}',
  );
  const aggs = JSON.parse(
    (await call(
      "POST",
      "/ids/_search",
      '{"size": 0, "aggs": {"max": {"max": {"field": "n"}}, "distinct": {"cardinality": {"field": "n"}}}}',
    )).replace(/"value":([-\d.e+]+)/g, '"value":"$1"'),
  );
  // min/max/sum report doubles, as Elasticsearch does (`9.223372036854776E18`).
  assert.equal(aggs.aggregations.max.value, "9.223372036854776e+18");
  assert.equal(aggs.aggregations.distinct.value, "8"); // 2^53 and 2^53 + 1 are two values
  const fields = await call(
    "POST",
    "/ids/_search?filter_path=hits.hits.fields",
    '{"query": {"ids": {"values": ["c"]}}, "fields": ["n"], "_source": false}',
  );
  assert.equal(fields, '{"hits":{"hits":[{"fields":{"n":[9007199254740993]}}]}}');
  // Metric values are written as doubles even beside exact keys and verbatim sources.
  const nested = await call(
    "POST",
    "/ids/_search?size=0",
    '{"query": {"ids": {"values": ["c"]}}, "aggs": {"t": {"terms": {"field": "n"}, "aggs": {"top": {"top_hits": {"_source": ["n"]}}, "m": {"max": {"field": "n"}}}}}}',
  );
  assert.match(nested, /"key":9007199254740993,/);
  // A filtered source is rebuilt from its object (doubles), but its integers stay integers.
  assert.match(nested, /"_source":\{"n":9007199254740992\}/);
  assert.match(nested, /"m":\{"value":9\.007199254740992e\+15\}/);
  // A changed source is written from its object: an integer stays an integer, never a double.
  await call("POST", "/ids/_update/d?refresh=true", '{"doc": {"extra": 1}}');
  assert.match(
    await call("GET", "/ids/_doc/d"),
    /"_source":\{"n":9007199254740994,"k":9007199254740994,"d":9007199254740994,"extra":1\}/,
  );
  assert.match(
    await call(
      "POST",
      "/ids/_search?size=0",
      '{"aggs": {"m": {"top_hits": {"sort": [{"n": "desc"}], "size": 1, "_source": ["n"]}}}, "query": {"ids": {"values": ["d"]}}}',
    ),
    /"_source":\{"n":9007199254740994\}/,
  );
  const src = await call(
    "POST",
    "/ids/_search?filter_path=hits.hits._source.n",
    '{"query": {"ids": {"values": ["c"]}}}',
  );
  assert.equal(src, '{"hits":{"hits":[{"_source":{"n":9007199254740993}}]}}');
  engine.close();
});

Deno.test("a literal beyond 2^53 anywhere in a search body is a value or a 400, never a crash", async () => {
  const { engine, call } = await setup();
  const big = "9223372036854775807";
  const bodies = [
    `{"query": {"match": {"n": ${big}}}}`,
    `{"query": {"term": {"d": ${big}}}}`,
    `{"query": {"range": {"d": {"gt": ${big}}}}}`,
    `{"query": {"multi_match": {"query": ${big}, "fields": ["n", "k"]}}}`,
    `{"query": {"function_score": {"weight": ${big}}}}`,
    `{"query": {"constant_score": {"filter": {"match_all": {}}, "boost": ${big}}}}`,
    `{"aggs": {"h": {"histogram": {"field": "n", "interval": ${big}}}}}`,
    `{"aggs": {"r": {"range": {"field": "n", "ranges": [{"from": ${big}}]}}}}`,
    `{"aggs": {"t": {"terms": {"field": "n", "missing": ${big}, "include": [${big}]}}}}`,
    `{"aggs": {"m": {"max": {"field": "n", "missing": ${big}}}}}`,
    `{"sort": [{"d": {"missing": ${big}}}], "search_after": [${big}]}`,
    `{"sort": [{"n": {"missing": ${big}}}], "collapse": {"field": "n"}}`,
    `{"size": ${big}}`,
    `{"track_total_hits": ${big}, "min_score": ${big}}`,
  ];
  for (const body of bodies) {
    const res = await engine.fetch(
      new Request("http://engine/ids/_search", {
        method: "POST",
        body,
        headers: { "content-type": "application/json" },
      }),
    );
    assert.ok(res.status === 200 || res.status === 400, `${res.status} for ${body}`);
    await res.text();
  }
  // A boost is a float: a big literal is accepted as one.
  assert.match(
    await call("POST", "/ids/_search", `{"query": {"match_all": {"boost": ${big}}}}`),
    /"max_score":9\.?22/,
  );
  engine.close();
});

Deno.test("an update's reply carries the updated source exactly (get._source, bulk items too)", async () => {
  const { engine, call } = await setup();
  await call("PUT", "/u/_doc/1", '{"id": 9007199254740993, "n": 1}');
  const updated = await call("POST", "/u/_update/1?_source=true", '{"doc": {"n": 2}}');
  assert.match(updated, /"_source":\{"id":9007199254740993,"n":2\}/);
  const upserted = await call(
    "POST",
    "/u/_update/2?_source=true",
    '{"scripted_upsert": true, "script": {"source": "ctx._source.v = params.v", "params": {"v": 18446744073709551615}}, "upsert": {"id": 9007199254740993}}',
  );
  assert.match(upserted, /"_source":\{"id":9007199254740993,"v":18446744073709551615\}/);
  const bulk = await call(
    "POST",
    "/u/_bulk?_source=true",
    '{"update": {"_id": "1"}}\n{"doc": {"n": 3}}\n',
  );
  assert.match(bulk, /"_source":\{"id":9007199254740993,"n":3\}/);
  // A body given as the `source` query parameter is read exactly too.
  const body = encodeURIComponent('{"doc": {"w": 18446744073709551615}}');
  await call("POST", `/u/_update/1?source_content_type=application/json&source=${body}`);
  assert.match(
    await call("GET", "/u/_doc/1"),
    /"_source":\{"id":9007199254740993,"n":3,"w":18446744073709551615\}/,
  );
  engine.close();
});

Deno.test("a bulk-indexed source is given back byte for byte by GET, before and after refresh", async () => {
  const engine = new Engine();
  const text = '{ "b" : 1,"a":[ 1.50, 9007199254740993 ] }';
  const bulk = await engine.fetch("http://e/kb/_bulk", {
    method: "POST",
    headers: { "content-type": "application/x-ndjson" },
    body: `{"index":{"_id":"1"}}\n${text}\n`,
  });
  assert.equal(bulk.status, 200);
  await bulk.body?.cancel();
  for (const path of ["/kb/_doc/1", "/kb/_doc/1?refresh=true", "/kb/_doc/1?realtime=false"]) {
    const got = await (await engine.fetch(`http://e${path}`)).text();
    assert.ok(got.includes(`"_source":${text}`), `${path}: ${got}`);
  }
  engine.close();
});
