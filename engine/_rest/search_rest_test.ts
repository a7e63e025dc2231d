import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { parseQueryString, parseSimpleQueryString } from "../_query/query_string.ts";
import { exchange } from "../../tests/support/engine_call.ts";

function reason(json: Record<string, unknown>): string {
  return String((json.error as { root_cause: { reason: string }[] }).root_cause[0]!.reason);
}

type Hit = { _id: string; matched_queries?: unknown };

function hits(json: Record<string, unknown>): Hit[] {
  return (json.hits as { hits: Hit[] }).hits;
}

Deno.test("?include_named_queries_score without a value returns scores; bad values are refused", async () => {
  const engine = new Engine();
  await exchange(engine, "PUT", "/t/_doc/1?refresh=true", { foo: "bar" });
  const body = {
    query: {
      bool: { should: [{ match: { foo: { query: "bar", _name: "q" } } }] },
    },
  };
  const plain = await exchange(engine, "POST", "/t/_search", body);
  assert.deepEqual(hits(plain.body)[0]!.matched_queries, ["q"]);
  // RestRequest.paramAsBoolean: a bare `?flag` is true.
  const bare = await exchange(engine, "POST", "/t/_search?include_named_queries_score", body);
  assert.equal(bare.status, 200);
  const scored = hits(bare.body)[0]!.matched_queries as Record<string, number>;
  assert.equal(typeof scored.q, "number");
  assert.ok(scored.q! > 0);
  const off = await exchange(engine, "POST", "/t/_search?include_named_queries_score=false", body);
  assert.deepEqual(hits(off.body)[0]!.matched_queries, ["q"]);
  const bad = await exchange(engine, "POST", "/t/_search?include_named_queries_score=yes", body);
  assert.equal(bad.status, 400);
  assert.match(reason(bad.body), /Failed to parse value \[yes\] as only \[true\] or \[false\]/);
  engine.close();
});

Deno.test("index.max_regex_length / max_docvalue_fields_search / max_script_fields apply", async () => {
  const engine = new Engine();
  await exchange(engine, "PUT", "/t", {
    settings: {
      "index.max_regex_length": 5,
      "index.max_docvalue_fields_search": 1,
      "index.max_script_fields": 1,
    },
  });
  await exchange(engine, "PUT", "/t/_doc/1?refresh=true", { foo: "bar" });
  const ok = await exchange(engine, "POST", "/t/_search", { query: { regexp: { foo: "b.r" } } });
  assert.equal(ok.status, 200);
  assert.equal(hits(ok.body).length, 1);
  const long = await exchange(engine, "POST", "/t/_search", {
    query: { regexp: { foo: "b.....r" } },
  });
  assert.equal(long.status, 400);
  assert.match(
    reason(long.body),
    /The length of regex \[7\] used in the Regexp Query request has exceeded the allowed maximum of \[5\]/,
  );
  // mapped fields: Elasticsearch 9.5.4 counts only those (docvalue_limit_test.ts)
  const dv = await exchange(engine, "POST", "/t/_search", {
    docvalue_fields: ["foo", "foo.keyword"],
  });
  assert.equal(dv.status, 400);
  assert.match(reason(dv.body), /too many docvalue_fields\. Must be less than or equal to: \[1\]/);
  const sf = await exchange(engine, "POST", "/t/_search", {
    script_fields: { a: { script: "1" }, b: { script: "1" } },
  });
  assert.equal(sf.status, 400);
  assert.match(reason(sf.body), /too many script_fields\. Must be less than or equal to: \[1\]/);
  // Defaults: 1000 characters of regex.
  await exchange(engine, "PUT", "/d/_doc/1?refresh=true", { foo: "bar" });
  const big = await exchange(engine, "POST", "/d/_search", {
    query: { regexp: { foo: "a".repeat(1001) } },
  });
  assert.equal(big.status, 400);
  assert.match(reason(big.body), /allowed maximum of \[1000\]/);
  const bad = await exchange(engine, "PUT", "/x", { settings: { "index.max_regex_length": "z" } });
  assert.equal(bad.status, 400);
  engine.close();
});

Deno.test("query_string /regex/ terms are regexp queries, limited by index.max_regex_length", async () => {
  assert.deepEqual(parseQueryString({ query: "foo:/b.r/" }), {
    kind: "regexp",
    field: "foo",
    value: "b.r",
    boost: 1,
    caseInsensitive: false,
  });
  const spaced = parseQueryString({ query: "/a (b) c\\/d/^2", default_field: "f" });
  assert.equal(spaced.kind, "bool");
  assert.deepEqual((spaced as { must: readonly unknown[] }).must[0], {
    kind: "regexp",
    field: "f",
    value: "a (b) c\\/d",
    boost: 1,
    caseInsensitive: false,
  });
  // simple_query_string has no regex syntax: `/b.r/` is text.
  assert.equal(parseSimpleQueryString({ query: "/b.r/" }).kind, "multi_match");
  const engine = new Engine();
  await exchange(engine, "PUT", "/t", { settings: { "index.max_regex_length": 5 } });
  await exchange(engine, "PUT", "/t/_doc/1?refresh=true", { foo: "bar" });
  const found = await exchange(engine, "POST", "/t/_search", {
    query: { query_string: { query: "/b.r/" } },
  });
  assert.equal(found.status, 200);
  assert.deepEqual(hits(found.body).map((h) => h._id), ["1"]);
  const long = await exchange(engine, "POST", "/t/_search", {
    query: { query_string: { query: "/(b|c)ar.*/" } },
  });
  assert.equal(long.status, 400);
  assert.match(JSON.stringify(long.body), /The length of regex \[9\]/);
  engine.close();
});

Deno.test("DELETE /_search/scroll answers 404 when nothing was freed", async () => {
  const engine = new Engine();
  await exchange(engine, "PUT", "/t/_doc/1?refresh=true", { foo: "bar" });
  const unknown = await exchange(engine, "DELETE", "/_search/scroll", { scroll_id: ["nope"] });
  assert.equal(unknown.status, 404);
  assert.deepEqual(unknown.body, { succeeded: true, num_freed: 0 });
  const none = await exchange(engine, "DELETE", "/_search/scroll/_all");
  assert.equal(none.status, 404);
  assert.deepEqual(none.body, { succeeded: true, num_freed: 0 });
  const page = await exchange(engine, "POST", "/t/_search?scroll=1m", { size: 1 });
  const id = page.body._scroll_id as string;
  const freed = await exchange(engine, "DELETE", "/_search/scroll", { scroll_id: id });
  assert.equal(freed.status, 200);
  assert.deepEqual(freed.body, { succeeded: true, num_freed: 1 });
  const again = await exchange(engine, "DELETE", `/_search/scroll/${encodeURIComponent(id)}`);
  assert.equal(again.status, 404);
  assert.deepEqual(again.body, { succeeded: true, num_freed: 0 });
  engine.close();
});

Deno.test("search: a bad sort order and a body opening an array fail as the real engines do", async () => {
  const engine = new Engine();
  await exchange(engine, "PUT", "/s/_doc/1?refresh=true", { n: 1 });
  const short = await exchange(engine, "POST", "/s/_search", { sort: [{ n: "up" }] });
  assert.equal(short.status, 400);
  assert.equal((short.body.error as { type: string }).type, "illegal_argument_exception");
  assert.match(reason(short.body), /SortOrder\.UP$/);
  const inObject = await exchange(engine, "POST", "/s/_search", { sort: [{ n: { order: "up" } }] });
  const error = inObject.body.error as { type: string; caused_by: { type: string } };
  assert.equal(error.type, "x_content_parse_exception");
  assert.equal(error.caused_by.type, "illegal_argument_exception");
  const res = await engine.fetch("http://e/s/_search", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: " [1,2",
  });
  const array = await res.json() as { error: Record<string, unknown> };
  assert.equal(res.status, 400);
  assert.deepEqual(
    [array.error.type, array.error.reason, array.error.line, array.error.col],
    ["parsing_exception", "Expected [START_OBJECT] but found [START_ARRAY]", 1, 2],
  );
  engine.close();
});

Deno.test("_msearch: a body must end with a newline, as the real engines read it", async () => {
  // Real Elasticsearch 9.5.4 and OpenSearch 3.8.0, for `{}\n{"query":{"match_all":{}}}` and for
  // anything after the last newline (`{}\n{}\n  `): {"error":{"root_cause":[{"type":
  // "illegal_argument_exception","reason":"The msearch request must be terminated by a newline
  // [\n]"}],"type":"illegal_argument_exception",…},"status":400}
  const engine = new Engine();
  await exchange(engine, "PUT", "/m/_doc/1?refresh=true", { a: 1 });
  for (const body of ['{}\n{"query":{"match_all":{}}}', "{}\n{}\n  ", "{}"]) {
    const r = await exchange(engine, "POST", "/m/_msearch", body);
    assert.equal(r.status, 400);
    assert.equal(r.body.error.type, "illegal_argument_exception");
    assert.equal(reason(r.body), "The msearch request must be terminated by a newline [\n]");
  }
  const fine = await exchange(engine, "POST", "/m/_msearch", '{}\n{"query":{"match_all":{}}}\n');
  assert.equal(fine.body.responses[0].hits.total.value, 1);
  engine.close();
});
