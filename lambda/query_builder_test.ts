import assert from "node:assert/strict";
import { DataSource, IllegalStateError } from "../driver/mod.ts";
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
  assert.deepEqual(paged.total, { value: 10_001, relation: "eq" });
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
