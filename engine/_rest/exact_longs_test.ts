// Whole numbers beyond 2^53 through the engine's REST surface: queries, sorting, aggregations
// and the way replies write them.
import assert from "node:assert/strict";
import { Engine } from "../engine.ts";

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
  const call = async (method: string, path: string, body?: string) => {
    const res = await engine.fetch(
      new Request(`http://engine${path}`, {
        method,
        body,
        headers: { "content-type": "application/x-ndjson" },
      }),
    );
    return await res.text();
  };
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
  const src = await call(
    "POST",
    "/ids/_search?filter_path=hits.hits._source.n",
    '{"query": {"ids": {"values": ["c"]}}}',
  );
  assert.equal(src, '{"hits":{"hits":[{"_source":{"n":9007199254740993}}]}}');
  engine.close();
});
