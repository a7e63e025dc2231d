import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { formatBytes, formatTime } from "./cat_units.ts";
import { exchange } from "../../tests/support/engine_call.ts";

Deno.test("formatBytes writes sizes like Elasticsearch", () => {
  assert.equal(formatBytes(512), "512b");
  assert.equal(formatBytes(4608), "4.5kb");
  assert.equal(formatBytes(3 * 1024 * 1024), "3mb");
  assert.equal(formatBytes(4608, "b"), "4608");
  assert.equal(formatBytes(4608, "kb"), "4");
  assert.equal(formatBytes(4608, "mb"), "0");
  assert.throws(() => formatBytes(1, "kib"), /failed to parse \[bytes\]/);
});

Deno.test("_cat/indices: text with header, column choice, sorting and JSON", async () => {
  const engine = new Engine();
  for (const name of ["b", "a"]) {
    const res = await engine.fetch(`http://e/${name}/_doc/1?refresh=true`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: '{"x":1}',
    });
    await res.body?.cancel();
  }
  const text = await (await engine.fetch("http://e/_cat/indices?v&h=index,docs.count&s=index"))
    .text();
  assert.equal(text, "index docs.count\na              1\nb              1\n");
  const json =
    await (await engine.fetch("http://e/_cat/indices?format=json&h=index,pri&s=index:desc")).json();
  assert.deepEqual(json, [{ index: "b", pri: "1" }, { index: "a", pri: "1" }]);
  engine.close();
});

Deno.test("_cat/count, _cat/aliases and _cat/shards", async () => {
  const engine = new Engine();
  const put = await engine.fetch("http://e/c/_doc/1?refresh=true", {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: '{"x":1}',
  });
  await put.body?.cancel();
  const alias = await engine.fetch("http://e/c/_alias/cc", { method: "PUT" });
  await alias.body?.cancel();
  const count = await (await engine.fetch("http://e/_cat/count/c?format=json&h=count")).json();
  assert.deepEqual(count, [{ count: "1" }]);
  const aliases = await (await engine.fetch("http://e/_cat/aliases?format=json&h=alias,index"))
    .json();
  assert.deepEqual(aliases, [{ alias: "cc", index: "c" }]);
  const shards = await (await engine.fetch("http://e/_cat/shards?format=json&h=prirep,state"))
    .json();
  assert.deepEqual(shards, [{ prirep: "p", state: "STARTED" }, {
    prirep: "r",
    state: "UNASSIGNED",
  }]);
  engine.close();
});

Deno.test("_cat: short column aliases in h and s, and ?help", async () => {
  const engine = new Engine();
  for (const [name, docs] of [["b", 1], ["a", 2]] as const) {
    for (let i = 0; i < docs; i++) {
      const res = await engine.fetch(`http://e/${name}/_doc/${i}?refresh=true`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: '{"x":1}',
      });
      await res.body?.cancel();
    }
  }
  const text = await (await engine.fetch("http://e/_cat/indices?v&h=i,dc&s=dc:desc")).text();
  // Headed by the names asked for, as Elasticsearch does.
  assert.equal(text, "i dc\na  2\nb  1\n");
  const json = await (await engine.fetch("http://e/_cat/health?format=json&h=st,nt")).json();
  assert.deepEqual(Object.keys(json[0]), ["st", "nt"]);
  const sized = await (await engine.fetch("http://e/_cat/indices?h=i,ss&bytes=b&s=i")).text();
  assert.match(sized, /^a +\d+\nb +\d+\n$/);
  const badUnit = await engine.fetch("http://e/_cat/indices?bytes=x");
  assert.equal(badUnit.status, 400);
  await badUnit.body?.cancel();
  const help = await (await engine.fetch("http://e/_cat/indices?help")).text();
  const lines = help.trimEnd().split("\n");
  assert.match(lines[0]!, /^health +\| h +\| current health status$/);
  assert.ok(lines.some((l) => /^docs\.count +\| dc,docsCount +\| available docs$/.test(l)));
  engine.close();
});

Deno.test("formatTime writes durations like Elasticsearch", () => {
  assert.equal(formatTime(0), "0s");
  assert.equal(formatTime(999), "999ms");
  assert.equal(formatTime(42_000), "42s");
  assert.equal(formatTime(5_400_000), "1.5h");
  assert.equal(formatTime(5_460_000), "1.5h");
  assert.equal(formatTime(2 * 86_400_000), "2d");
  assert.equal(formatTime(0.5), "500micros");
  assert.equal(formatTime(5_400_000, "m"), "90");
  assert.equal(formatTime(5_400_000, "d"), "0");
  assert.equal(formatTime(1500, "micros"), "1500000");
  assert.equal(formatTime(1500, "weeks"), "1.5s");
});

Deno.test("_cat: time units on uptime, ts=false, health filter on indices", async () => {
  let clock = 1_000_000;
  const engine = new Engine({ now: () => clock });
  const call = (method: string, path: string, body?: unknown) =>
    exchange(engine, method, path, body);
  clock += 5_400_000;
  assert.equal((await call("GET", "/_cat/nodes?h=uptime")).text, "1.5h\n");
  assert.equal((await call("GET", "/_cat/nodes?h=u&time=s")).text, "5400\n");
  const health = (await call("GET", "/_cat/health?format=json&ts=false")).body;
  assert.equal("epoch" in health[0], false);
  assert.equal("timestamp" in health[0], false);
  assert.equal(health[0].cluster, "searchvisitor");
  const count = (await call("GET", "/_cat/count?ts=false&h=epoch,count")).text;
  assert.equal(count, "0\n");
  const withTs = (await call("GET", "/_cat/count?h=epoch,count")).text;
  assert.equal(withTs, `${Math.floor(clock / 1000)} 0\n`);
  await call("PUT", "/g", { settings: { number_of_replicas: 0 } });
  await call("PUT", "/y", { settings: { number_of_replicas: 1 } });
  await call("PUT", "/shut");
  await call("POST", "/shut/_close");
  // A closed index keeps its shards (and its unassigned replica), so it has a health too.
  assert.equal(
    (await call("GET", "/_cat/indices?health=yellow&h=index&s=i")).text,
    "shut\ny\n",
  );
  assert.equal(
    (await call("GET", "/_cat/indices/shut?h=health,status,pri,rep,docs.count")).text,
    "yellow close 1 1\n",
  );
  assert.equal((await call("GET", "/_cat/indices?health=GREEN&h=index&s=i")).text, "g\n");
  assert.equal((await call("GET", "/_cat/indices?health=red&h=index")).text, "");
  const bad = await call("GET", "/_cat/indices?health=blue");
  assert.equal(bad.status, 400);
  const err = bad.body.error;
  assert.equal(err.type, "illegal_argument_exception");
  assert.equal(err.reason, "unknown cluster health status [blue]");
  engine.close();
});

Deno.test("GET /_cat lists each product's _cat APIs under the cat's face", async () => {
  // Real Elasticsearch 9.5.4: 590 bytes of text/plain, "=^.^=\n/_cat/allocation\n/_cat/shards\n…",
  // with /_cat/master, /_cat/circuit_breaker and /_cat/component_templates; real OpenSearch 3.8.0
  // names /_cat/cluster_manager and adds segment_replication and pit_segments.
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = new Engine({ flavour });
    const r = await exchange(engine, "GET", "/_cat");
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("content-type"), "text/plain; charset=UTF-8");
    const lines = r.text.split("\n");
    assert.deepEqual(lines.slice(0, 3), [
      "=^.^=",
      "/_cat/allocation",
      flavour === "opensearch" ? "/_cat/segment_replication" : "/_cat/shards",
    ]);
    assert.equal(lines.includes("/_cat/master"), flavour === "elasticsearch");
    assert.equal(lines.includes("/_cat/cluster_manager"), flavour === "opensearch");
    if (flavour === "elasticsearch") assert.equal(r.text.length, 590);
    else assert.equal(lines.length, 33);
    engine.close();
  }
});

Deno.test("_cat/aliases lists an index's aliases sorted by name", async () => {
  // Real OpenSearch 3.8.0 and Elasticsearch 9.5.4: aliases yy, aa, cc added in that order → aa, cc, yy.
  const engine = new Engine({ flavour: "opensearch" });
  const send = (method: string, path: string, body?: unknown) =>
    engine.fetch(`http://e${path}`, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  await (await send("PUT", "/x")).body?.cancel();
  const actions = ["yy", "aa", "cc"].map((alias) => ({ add: { index: "x", alias } }));
  await (await send("POST", "/_aliases", { actions })).body?.cancel();
  const rows = await (await send("GET", "/_cat/aliases?format=json&h=alias")).json();
  assert.deepEqual(rows, [{ alias: "aa" }, { alias: "cc" }, { alias: "yy" }]);
  engine.close();
});
