import assert from "node:assert/strict";
import { Engine } from "../engine.ts";

async function call(engine: Engine, method: string, path: string, body?: unknown) {
  const res = await engine.fetch(`http://e${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

Deno.test("_reindex copies matching documents, with scripts and op_type=create conflicts", async () => {
  const engine = new Engine();
  const lines = [1, 2, 3].flatMap((n) => [{ index: { _index: "src", _id: String(n) } }, { n }]);
  await call(
    engine,
    "POST",
    "/_bulk?refresh=true",
    lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
  );
  const first = await call(engine, "POST", "/_reindex?refresh=true", {
    source: { index: "src", query: { range: { n: { gte: 2 } } } },
    dest: { index: "dst" },
    script: { source: "ctx._source.n *= 10" },
  });
  assert.deepEqual([first.body.total, first.body.created, first.body.updated], [2, 2, 0]);
  assert.equal((await call(engine, "GET", "/dst/_doc/3")).body._source.n, 30);
  const again = await call(engine, "POST", "/_reindex", {
    conflicts: "proceed",
    source: { index: "src" },
    dest: { index: "dst", op_type: "create" },
  });
  assert.deepEqual([again.body.created, again.body.version_conflicts], [1, 2]);
  const missing = await call(engine, "POST", "/_reindex", { source: { index: "src" }, dest: {} });
  assert.equal(missing.status, 400);
  engine.close();
});

Deno.test("_reindex request parsing: unknown fields, size and max_docs, _source filter, op_type", async () => {
  const engine = new Engine();
  const post = async (path: string, body: unknown) => {
    const res = await engine.fetch(`http://engine${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { code: res.status, ...(await res.json()) };
  };
  for (let i = 0; i < 5; i++) await post(`/src/_doc/${i}`, { a: i, b: { c: i, d: "x" } });
  await post("/src/_refresh", {});
  const top = await post("/_reindex", { source: { index: "src" }, dest: { index: "d" }, nope: 1 });
  assert.equal(top.code, 400);
  assert.equal(top.error.type, "x_content_parse_exception");
  assert.equal(top.error.reason, "[reindex] unknown field [nope]");
  const inDest = await post("/_reindex", { source: { index: "src" }, dest: { index: "d", x: 1 } });
  assert.equal(inDest.error.reason, "[dest] unknown field [x]");
  const badOp = await post("/_reindex", {
    source: { index: "src" },
    dest: { index: "d", op_type: "upsert" },
  });
  assert.equal(badOp.error.type, "illegal_argument_exception");
  // Top-level size caps the copy; source.size is only the batch size.
  const capped = await post("/_reindex?refresh=true", {
    size: 2,
    source: { index: "src", size: 1, _source: ["a", "b.c"] },
    dest: { index: "d" },
  });
  assert.equal(capped.total, 2);
  const copied = await post("/d/_search", {});
  assert.deepEqual(copied.hits.hits[0]._source, {
    a: copied.hits.hits[0]._source.a,
    b: { c: copied.hits.hits[0]._source.a },
  });
  const both = await post("/_reindex", {
    size: 1,
    max_docs: 2,
    source: { index: "src" },
    dest: { index: "e" },
  });
  assert.equal(both.code, 400);
  const all = await post("/_reindex?refresh=true", {
    source: { index: "src", _source: { excludes: ["b"] } },
    dest: { index: "d", op_type: "create" },
    conflicts: "proceed",
  });
  assert.equal(all.created, 3);
  assert.equal(all.version_conflicts, 2);
  engine.close();
});

Deno.test("by-query bodies are read as a search source: unknown keys and bad queries refused", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/q/_doc/1?refresh=true", { a: 1 });
  const unknown = await call(engine, "POST", "/q/_delete_by_query", {
    query: { match_all: {} },
    nope: 1,
  });
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.error.type, "parsing_exception");
  assert.equal(unknown.body.error.reason, "Unknown key for a VALUE_NUMBER in [nope].");
  const badQuery = await call(engine, "POST", "/q/_update_by_query", { query: { nope: {} } });
  assert.equal(badQuery.body.error.type, "parsing_exception");
  const count = await call(engine, "GET", "/q/_count");
  assert.equal(count.body.count, 1);
  const ok = await call(engine, "POST", "/q/_update_by_query?refresh=true", {
    max_docs: 1,
    conflicts: "proceed",
    query: { term: { a: 1 } },
    script: { source: "ctx._source.a += 1" },
  });
  assert.equal(ok.body.updated, 1);
  engine.close();
});
