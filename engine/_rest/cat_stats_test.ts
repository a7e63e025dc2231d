import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";
import { formatBytes } from "./cat_units.ts";

async function text(engine: Engine, path: string): Promise<string> {
  return await (await engine.fetch(`http://e${path}`)).text();
}

Deno.test("formatBytes cuts to one decimal as Elasticsearch does, never rounding up", () => {
  assert.equal(formatBytes(1023 + 300), "1.2kb"); // 1.29 kb
  assert.equal(formatBytes(2047), "1.9kb");
  assert.equal(formatBytes(1024 ** 5), "1pb");
});

Deno.test("_cat/indices: creation date and stats columns by name or alias, pri siblings, units", async () => {
  const engine = new Engine({ now: () => Date.UTC(2024, 4, 6, 7, 8, 9, 10) });
  await call(engine, "PUT", "/a/_doc/1?refresh=true", { x: 1 });
  await call(engine, "GET", "/a/_doc/1");
  await call(engine, "GET", "/a/_doc/2");
  await call(engine, "POST", "/a/_search", {});
  assert.equal(
    await text(engine, "/_cat/indices/a?h=i,cd,cds"),
    `a ${Date.UTC(2024, 4, 6, 7, 8, 9, 10)} 2024-05-06T07:08:09.010Z\n`,
  );
  const json: Array<Record<string, string>> = await (await engine.fetch(
    "http://e/_cat/indices/a?format=json&h=iito,gto,geto,gmto,sqto,sfto,get.time&time=ms",
  )).json();
  // Each column is headed by the name it was asked by (alias or full name), as Elasticsearch does.
  assert.deepEqual(json, [{
    iito: "1",
    gto: "2",
    geto: "1",
    gmto: "1",
    sqto: "1",
    sfto: "1",
    "get.time": json[0]!["get.time"]!,
  }]);
  assert.match(json[0]!["get.time"]!, /^\d+$/);
  const pri = await (await engine.fetch("http://e/_cat/indices/a?format=json&h=iito&pri")).json();
  assert.deepEqual(pri, [{ iito: "1", "pri.iito": "1" }]);
  const help = await text(engine, "/_cat/indices?help");
  assert.match(help, /^search\.query_total +\| sqto,searchQueryTotal +\| total query phase ops$/m);
  await call(engine, "POST", "/a/_close");
  assert.equal(
    await text(engine, "/_cat/indices/a?h=i,iito,cd"),
    `a  ${Date.UTC(2024, 4, 6, 7, 8, 9, 10)}\n`,
  );
  engine.close();
});

Deno.test("_cat/aliases: expand_wildcards (all by default) leaves hidden indices and aliases out without hidden", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/test", {
    settings: { index: { hidden: true } },
    aliases: { test_alias: { is_hidden: true } },
  });
  await call(engine, "PUT", "/other", { aliases: { seen: {}, unseen: { is_hidden: true } } });
  assert.equal(
    await text(engine, "/_cat/aliases?h=alias,index&s=alias"),
    "seen       other\ntest_alias test\nunseen     other\n",
  );
  assert.equal(await text(engine, "/_cat/aliases?h=alias&expand_wildcards=open,closed"), "seen\n");
  assert.equal(
    await text(engine, "/_cat/aliases?h=alias&s=alias&expand_wildcards=open,hidden"),
    "seen\ntest_alias\nunseen\n",
  );
  await call(engine, "POST", "/other/_close");
  assert.equal(await text(engine, "/_cat/aliases/seen?h=alias,index"), "seen other\n");
  assert.equal(await text(engine, "/_cat/aliases/seen?h=alias&expand_wildcards=open"), "");
  engine.close();
});

Deno.test("_cat/shards: each shard's own documents and stats, hidden indices listed, unassigned replicas last when sorting", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/many", { settings: { number_of_shards: 3, number_of_replicas: 1 } });
  for (let i = 0; i < 12; i++) await call(engine, "PUT", `/many/_doc/${i}`, { n: i });
  await call(engine, "POST", "/many/_refresh");
  await call(engine, "PUT", "/hid", { settings: { number_of_replicas: 0, "index.hidden": true } });
  await call(engine, "PUT", "/hid/_doc/1?refresh=true", { x: 1 });
  const rows: Array<Record<string, string>> = await (await engine.fetch(
    "http://e/_cat/shards?format=json&h=index,shard,prirep,state,docs,iito&s=index,docs:desc",
  )).json();
  assert.deepEqual(rows[0], {
    index: "hid",
    shard: "0",
    prirep: "p",
    state: "STARTED",
    docs: "1",
    iito: "1",
  });
  const primaries = rows.filter((r) => r.index === "many" && r.prirep === "p");
  assert.equal(primaries.length, 3);
  assert.equal(primaries.reduce((n, r) => n + Number(r.docs), 0), 12);
  const replicas = rows.slice(4);
  assert.ok(replicas.every((r) => r.prirep === "r" && r.state === "UNASSIGNED" && r.docs === null));
  const help = await text(engine, "/_cat/shards?help");
  const names = help.trim().split("\n").map((l) => l.split(" ")[0]);
  assert.deepEqual(names.slice(0, 10), [
    "index",
    "shard",
    "prirep",
    "state",
    "docs",
    "store",
    "dataset",
    "ip",
    "id",
    "node",
  ]);
  assert.equal(names.at(-1), "sparse_vector.value_count");
  engine.close();
});

Deno.test("_cat/indices and _stats count Lucene documents: each nested object is one; _count is not", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/n", {
    mappings: {
      properties: {
        r: { type: "nested", properties: { s: { type: "nested" } } },
        o: { type: "object" },
      },
    },
  });
  // 1 + 2 nested r + 3 nested s below them; the plain object o adds none.
  await call(engine, "PUT", "/n/_doc/1?refresh=true", {
    r: [{ s: [{ x: 1 }, { x: 2 }] }, { s: { x: 3 } }],
    o: { y: 1 },
  });
  await call(engine, "PUT", "/n/_doc/2?refresh=true", { o: { y: 2 } });
  assert.equal(await text(engine, "/_cat/indices/n?h=docs.count"), "7\n");
  const stats = await call(engine, "GET", "/n/_stats/docs");
  assert.equal(stats._all.primaries.docs.count, 7);
  assert.equal((await call(engine, "GET", "/n/_count")).count, 2);
  engine.close();
});

Deno.test("an empty index's store holds each shard's commit point, per flavour", async () => {
  // Measured on empty indices: Elasticsearch 9.5.4 227 bytes a shard, OpenSearch 3.8.0 208.
  for (
    const [flavour, one, three] of [["elasticsearch", 227, 681], ["opensearch", 208, 624]] as const
  ) {
    const engine = new Engine({ flavour });
    await call(engine, "PUT", "/one", { settings: { number_of_shards: 1 } });
    await call(engine, "PUT", "/three", {
      settings: { number_of_shards: 3, number_of_replicas: 0 },
    });
    assert.equal(
      await text(engine, "/_cat/indices/one,three?bytes=b&h=i,ss,pri.store.size&s=i"),
      `one   ${one} ${one}\nthree ${three} ${three}\n`,
    );
    const stats = await call(engine, "GET", "/three/_stats/store");
    const all = stats._all as { total: { store: { size_in_bytes: number } } };
    assert.equal(all.total.store.size_in_bytes, three);
    engine.close();
  }
});
