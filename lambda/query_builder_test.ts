import assert from "node:assert/strict";
import { DataSource, IllegalStateError } from "../driver/mod.ts";
import { type BoundTemplate, defineEntity, JdbcTemplate, listMeta } from "../template/mod.ts";
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

/** A fake server recording each search's path and body; `mapping` is what `_mapping` answers. */
function recordingSearch(mapping: Record<string, unknown>) {
  const bodies: string[] = [];
  let mappingReads = 0;
  const state = { mapping };
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    if (url.pathname.endsWith("/_mapping")) {
      mappingReads++;
      return Response.json({ u: { mappings: { properties: state.mapping } } });
    }
    bodies.push(`${url.pathname} ${await new Response(init?.body).text()}`);
    if (url.pathname.endsWith("/_count")) return Response.json({ count: 1 });
    return Response.json({
      took: 1,
      hits: { total: { value: 1, relation: "eq" }, hits: [{ _id: "1", _source: { a: 1 } }] },
    });
  };
  const lambda = new LambdaTemplate(new DataSource({ nodes: ["http://es.local"], fetch }));
  return { lambda, bodies, state, mappingReads: () => mappingReads };
}

Deno.test("a builder run again sends what a fresh compile of it sends, every time", async () => {
  const { lambda, bodies } = recordingSearch({ a: { type: "keyword" }, n: { type: "long" } });
  const fields = await lambda.fieldTypes("u");
  const q = lambda.query("u").eq("a", "x").gt("n", 3).orderBy("n", "desc");
  for (let i = 0; i < 3; i++) await q.queryForList();
  const fresh = lambda.query("u").eq("a", "x").gt("n", 3).orderBy("n", "desc")
    .toCommand({ mapping: fields });
  const body = fresh.text.slice(fresh.text.indexOf(" {") + 1)
    .replace("?", '"x"').replace("?", "3").replace("?", "10000");
  assert.deepEqual(bodies, Array(3).fill(`/u/_search ${body}`));
});

Deno.test("builders of one structure with other values send their own values", async () => {
  const { lambda, bodies } = recordingSearch({ a: { type: "keyword" } });
  const base = lambda.query("u").initPage(5, 0);
  await base.eq("a", "x").queryForList();
  await base.eq("a", "y").queryForList();
  await base.eq("a", 'q"}],"size":1,"x":[{"').queryForList(); // a value is never text
  await base.in("a", ["p", "q"]).queryForList();
  await base.in("a", ["r"]).queryForList();
  const filter = (clause: string) =>
    `/u/_search {"query":{"bool":{"filter":[${clause}]}},"size":5,"track_total_hits":true}`;
  assert.deepEqual(bodies, [
    filter(`{"term":{"a":"x"}}`),
    filter(`{"term":{"a":"y"}}`),
    filter(`{"term":{"a":${JSON.stringify('q"}],"size":1,"x":[{"')}}}`),
    filter(`{"terms":{"a":["p","q"]}}`),
    filter(`{"terms":{"a":["r"]}}`),
  ]);
});

Deno.test("a kept command is not shared by other structures, sizes or mappings", async () => {
  const { lambda, bodies, state, mappingReads } = recordingSearch({ a: { type: "keyword" } });
  const q = lambda.query("u").eq("a", "x");
  await q.queryForList();
  await q.queryForObject(); // size 2, not the list's 10,000
  await q.queryForList();
  await q.ne("a", "x").queryForList();
  await q.select("a").queryForList();
  await q.orderBy("a").queryForList();
  const term = `{"bool":{"filter":[{"term":{"a":"x"}}]}}`;
  const tail = `"size":10000,"track_total_hits":true}`;
  assert.deepEqual(bodies.splice(0), [
    `/u/_search {"query":${term},${tail}`,
    `/u/_search {"query":${term},"size":2,"track_total_hits":true}`,
    `/u/_search {"query":${term},${tail}`,
    `/u/_search {"query":{"bool":{"filter":[{"term":{"a":"x"}},{"bool":{"must_not":[{"term":{"a":"x"}}]}}]}},${tail}`,
    `/u/_search {"query":${term},"_source":["a"],${tail}`,
    `/u/_search {"query":${term},"sort":[{"a":{"order":"asc"}}],${tail}`,
  ]);
  // The mapping read again (now text with a keyword sub-field): the same builder follows it.
  state.mapping = { a: { type: "text", fields: { raw: { type: "keyword" } } } };
  lambda.clearFieldTypes("u");
  await q.queryForList();
  await q.queryForList();
  assert.equal(mappingReads(), 2);
  const raw = `/u/_search {"query":{"bool":{"filter":[{"term":{"a.raw":"x"}}]}},${tail}`;
  assert.deepEqual(bodies, [raw, raw]);
});

Deno.test("a builder run again hands the driver the same frozen command object", async () => {
  const { lambda } = recordingSearch({ a: { type: "keyword" } });
  const commands: unknown[] = [];
  const jdbc = new JdbcTemplate(lambda.jdbc.source);
  const query = jdbc.query.bind(jdbc) as (...args: unknown[]) => unknown;
  Object.assign(jdbc, {
    query: (...args: unknown[]) => {
      commands.push(args[0]);
      return query(...args);
    },
  });
  const recording = new LambdaTemplate(jdbc);
  const q = recording.query("u").eq("a", "x");
  await q.queryForList();
  await q.queryForList();
  await q.queryForMapList();
  await recording.query("u").eq("a", "x").queryForList(); // another builder: its own compile
  const mappingRead = commands.shift() as BoundTemplate; // the first read asked for the mapping
  assert.equal(mappingRead.text, "GET /{?}/_mapping");
  assert.equal(commands.length, 4);
  assert.equal(commands[1], commands[0]);
  assert.equal(commands[2], commands[0]);
  assert.notEqual(commands[3], commands[0]);
  assert.deepEqual(commands[3], commands[0]);
  const kept = commands[0] as BoundTemplate;
  assert.ok(Object.isFrozen(kept) && Object.isFrozen(kept.args));
  assert.deepEqual(kept.args, ["u", "x", 10_000]);
});

Deno.test("an entity read keeps the index's vector fields in its kept command", async () => {
  const { lambda, bodies } = recordingSearch({
    a: { type: "keyword" },
    emb: { type: "dense_vector", dims: 2 },
  });
  class U {
    a = "";
  }
  defineEntity(U, { index: "u" });
  const q = lambda.query(U).eq("a", "x");
  await q.queryForList();
  await q.queryForList();
  const body =
    `/u/_search {"query":{"bool":{"filter":[{"term":{"a":"x"}}]}},"_source":["*","emb"],"size":10000,"track_total_hits":true}`;
  assert.deepEqual(bodies, [body, body]);
});

Deno.test("queryForCount keeps its _count too, and binds each builder's values", async () => {
  const { lambda, bodies } = recordingSearch({ a: { type: "keyword" } });
  const q = lambda.query("u").eq("a", "x");
  await q.queryForCount();
  await q.queryForCount();
  await lambda.query("u").eq("a", "y").queryForCount();
  await lambda.query("u").ne("a", "y").queryForCount();
  await lambda.query("u").queryForCount();
  assert.deepEqual(bodies, [
    `/u/_count {"query":{"bool":{"filter":[{"term":{"a":"x"}}]}}}`,
    `/u/_count {"query":{"bool":{"filter":[{"term":{"a":"x"}}]}}}`,
    `/u/_count {"query":{"bool":{"filter":[{"term":{"a":"y"}}]}}}`,
    `/u/_count {"query":{"bool":{"filter":[{"bool":{"must_not":[{"term":{"a":"y"}}]}}]}}}`,
    `/u/_count {"query":{"match_all":{}}}`,
  ]);
});
