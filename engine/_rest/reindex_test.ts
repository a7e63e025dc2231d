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
