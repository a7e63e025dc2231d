// APIs clients call that the engine added: _explain, _validate/query, _tasks, _rethrottle, _cat/nodes,
// cluster health parameters; and the one route table they live in.

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { expandPath, ROUTES } from "./routes.ts";
import { call, exchange } from "../../tests/support/engine_call.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

Deno.test("_explain: matched with a score, not matched, missing; GET with a body", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/e/_doc/1?refresh=true", { t: "quick fox" });
  const hit = await call(engine, "GET", "/e/_explain/1", { query: { match: { t: "fox" } } });
  assert.equal(hit.code, 200);
  assert.equal(hit.matched, true);
  assert.ok(hit.explanation.value > 0);
  const miss = await call(engine, "POST", "/e/_explain/1", { query: { match: { t: "dog" } } });
  assert.equal(miss.matched, false);
  const missing = await call(engine, "POST", "/e/_explain/9", { query: { match_all: {} } });
  assert.equal(missing.code, 404);
  const bad = await call(engine, "POST", "/e/_explain/1", { size: 1 });
  assert.equal(bad.code, 400);
  engine.close();
});

Deno.test("_validate/query: valid and invalid queries, with explain", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/v");
  const good = await call(engine, "GET", "/v/_validate/query", { query: { match_all: {} } });
  assert.equal(good.valid, true);
  const bad = await call(engine, "POST", "/v/_validate/query?explain=true", {
    query: { nope: {} },
  });
  assert.equal(bad.code, 200);
  assert.equal(bad.valid, false);
  assert.match(bad.error, /nope/);
  engine.close();
});

Deno.test("_tasks, _rethrottle in three forms, _cat/nodes, cluster health parameters", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/t/_doc/1?refresh=true", { a: 1 });
  assert.deepEqual((await call(engine, "GET", "/_tasks")).nodes, {});
  assert.deepEqual((await call(engine, "GET", "/_tasks?group_by=none")).tasks, []);
  const started = await call(engine, "POST", "/t/_delete_by_query?wait_for_completion=false", {
    query: { match_all: {} },
  });
  const task = started.task as string;
  for (const api of ["_delete_by_query", "_update_by_query", "_reindex"]) {
    const r = await call(engine, "POST", `/${api}/${task}/_rethrottle?requests_per_second=10`);
    assert.equal(r.code, 200, api);
  }
  const unknown = await call(
    engine,
    "POST",
    "/_reindex/node:999/_rethrottle?requests_per_second=1",
  );
  assert.equal(unknown.code, 404);
  const noRate = await call(engine, "POST", `/_reindex/${task}/_rethrottle`);
  assert.equal(noRate.code, 400);
  const nodes = await exchange(engine, "GET", "/_cat/nodes?format=json");
  assert.equal(nodes.body[0].name, "searchvisitor");
  const health = await call(
    engine,
    "GET",
    "/_cluster/health?level=indices&wait_for_status=yellow&wait_for_nodes=1&timeout=1s",
  );
  assert.equal(health.code, 200);
  assert.ok(health.indices.t);
  const typo = await call(engine, "GET", "/_cluster/health?levle=indices");
  assert.equal(typo.code, 400);
  assert.match(typo.error.reason, /did you mean \[level\]/);
  engine.close();
});

Deno.test("route table: optional parts expand, every route names its parameters", () => {
  assert.deepEqual(expandPath("/{index?}/_search"), ["/_search", "/{index}/_search"]);
  assert.deepEqual(expandPath("/"), ["/"]);
  for (const r of ROUTES) {
    assert.ok(r.api.length > 0);
    assert.ok(Array.isArray(r.params));
  }
  assert.ok(ROUTES.some((r) => r.path === "/{index}/_explain/{id}"));
});

Deno.test("ES|QL: POST /_query is a 400 that says ES|QL is not supported, not a 405", async () => {
  for (const engine of [new Engine(), new Engine({ flavour: "opensearch" })]) {
    for (const path of ["/_query", "/_query/async", "/_query?format=json"]) {
      const r = await call(engine, "POST", path, { query: "FROM logs | LIMIT 10" });
      assert.equal(r.code, 400, path);
      assert.equal(r.error.type, "illegal_argument_exception");
      assert.match(r.error.reason, /ES\|QL is not supported/);
      assert.match(r.error.root_cause[0].reason, /_search/);
    }
    // the API takes POST only, as in Elasticsearch: GET is a 405 that names it
    const wrongMethod = await call(engine, "GET", "/_query");
    assert.equal(wrongMethod.code, 405);
    assert.match(wrongMethod.error, /allowed: \[POST\]/);
    engine.close();
  }
});
