import assert from "node:assert/strict";
import { DataSource, IllegalStateError } from "../driver/mod.ts";
import { listMeta } from "../template/mod.ts";
import { LambdaTemplate } from "./lambda_template.ts";

function fakeSearch(total: number, hits: number) {
  const sent: string[] = [];
  const fetch = (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    sent.push(`${init?.method} ${url.pathname}`);
    if (url.pathname.endsWith("/_mapping")) {
      return Promise.resolve(
        Response.json({ u: { mappings: { properties: { a: { type: "keyword" } } } } }),
      );
    }
    return Promise.resolve(Response.json({
      took: 1,
      hits: {
        total: { value: total, relation: "eq" },
        hits: Array.from({ length: hits }, (_, i) => ({ _id: String(i), _source: { a: i } })),
      },
    }));
  };
  return {
    lambda: new LambdaTemplate(new DataSource({ nodes: ["http://es.local"], fetch })),
    sent,
  };
}

Deno.test("an un-paged query that matches more than one request returns fails instead of losing rows", async () => {
  const { lambda } = fakeSearch(10_001, 3);
  await assert.rejects(
    lambda.query("u").queryForList(),
    (e: unknown) =>
      e instanceof IllegalStateError &&
      /matched 10001 documents.*usePage\(\)\/initPage\(\) or iterate with stream\(\)/.test(
        e.message,
      ),
  );
  const paged = await lambda.query("u").initPage(3, 0).queryForList();
  assert.equal(paged.length, 3);
  assert.deepEqual(listMeta(paged).total, { value: 10_001, relation: "eq" });
});

Deno.test("the mapping is read once per index, and again after clearFieldTypes()", async () => {
  const { lambda, sent } = fakeSearch(1, 1);
  await lambda.query("u").eq("a", 1).queryForList();
  await lambda.query("u").in("a", [1]).orderBy("a").queryForMapList();
  await lambda.query("u").match("a", "x").queryForList(); // full text: no mapping needed
  assert.equal(sent.filter((s) => s.endsWith("/_mapping")).length, 1);
  lambda.clearFieldTypes("u");
  await lambda.query("u").eq("a", 1).queryForList();
  assert.equal(sent.filter((s) => s.endsWith("/_mapping")).length, 2);
  const asWritten = new LambdaTemplate(lambda.jdbc, { fieldTypes: "as-written" });
  await asWritten.query("u").eq("a", 1).queryForList();
  assert.equal(sent.filter((s) => s.endsWith("/_mapping")).length, 2);
});

Deno.test("select() with no field returns whole documents again", () => {
  const lambda = fakeSearch(0, 0).lambda;
  const q = lambda.query("u").select("a").select();
  assert.doesNotMatch(q.toCommand().text, /_source/);
});

Deno.test("a field the cached mapping does not know is looked up again (at most once a second)", async () => {
  let properties: Record<string, unknown> = { a: { type: "keyword" } };
  const bodies: string[] = [];
  let mappingReads = 0;
  const fetch = (input: string | URL | Request, init?: RequestInit) => {
    if (new URL(String(input)).pathname.endsWith("/_mapping")) {
      mappingReads++;
      return Promise.resolve(Response.json({ u: { mappings: { properties } } }));
    }
    bodies.push(String(init?.body));
    return Promise.resolve(
      Response.json({ hits: { total: { value: 0, relation: "eq" }, hits: [] } }),
    );
  };
  const lambda = new LambdaTemplate(new DataSource({ nodes: ["http://es.local"], fetch }));
  await lambda.query("u").eq("b", "x").queryForList();
  // Dynamic mapping adds "b" as text with a keyword sub-field.
  properties = { ...properties, b: { type: "text", fields: { keyword: { type: "keyword" } } } };
  await lambda.query("u").eq("b", "x").queryForList();
  assert.equal(mappingReads, 1, "within a second the cache is trusted");
  await new Promise((r) => setTimeout(r, 1100));
  await lambda.query("u").eq("b", "x").queryForList();
  assert.equal(mappingReads, 2);
  assert.match(bodies.at(-1)!, /"term":\{"b\.keyword":"x"\}/);
  await lambda.query("u").eq("b", "x").eq("a", "y").queryForList();
  assert.equal(mappingReads, 2, "known fields do not read it again");
});

Deno.test("an entity with a version field asks for hit versions, and its rows carry them", async () => {
  const { defineEntity } = await import("../template/mod.ts");
  class Doc {
    id = "";
    a = 0;
    rev = "";
  }
  defineEntity(Doc, { index: "u", key: "id", version: "rev" });
  class Ext {
    id = "";
    v = 0;
  }
  defineEntity(Ext, { index: "u", key: "id", fields: { v: { version: "external" } } });
  const { lambda } = fakeSearch(1, 1);
  assert.match(lambda.query(Doc).toCommand().text, /"seq_no_primary_term":true/);
  assert.match(lambda.query(Ext).toCommand().text, /"version":true/);
  assert.doesNotMatch(lambda.query("u").toCommand().text, /seq_no|"version"/);
});

Deno.test("documents as maps: _id then the fields; a __proto__ field stays a field", async () => {
  const answer = '{"took":1,"hits":{"total":{"value":2,"relation":"eq"},"hits":[' +
    '{"_id":"1","_source":{"a":1,"b":{"c":[2]}}},' +
    '{"_id":"2","_source":{"__proto__":{"polluted":true},"a":2}},' +
    '{"_id":"3"}]}}';
  const fetch = (input: string | URL | Request) =>
    Promise.resolve(
      String(input).includes("/_mapping")
        ? Response.json({ u: { mappings: { properties: { a: { type: "long" } } } } })
        : new Response(answer, { headers: { "content-type": "application/json" } }),
    );
  const lambda = new LambdaTemplate(new DataSource({ nodes: ["http://es.local"], fetch }));
  const [plain, proto, bare] = await lambda.query("u").queryForMapList();
  assert.deepEqual(plain, { _id: "1", a: 1, b: { c: [2] } });
  assert.deepEqual(Object.keys(plain!), ["_id", "a", "b"]);
  assert.equal(Object.getPrototypeOf(proto), Object.prototype);
  assert.ok(Object.hasOwn(proto!, "__proto__"));
  assert.deepEqual(Object.getOwnPropertyDescriptor(proto, "__proto__")?.value, { polluted: true });
  assert.equal((proto as { polluted?: unknown }).polluted, undefined);
  assert.deepEqual(bare, { _id: "3" });
});
