import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

Deno.test("_explain with q: the id still picks the document (404 when it does not exist)", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/t", { mappings: { properties: { title: { type: "text" } } } });
  await call(engine, "PUT", "/t/_doc/1", { title: "time clocks" });
  await call(engine, "PUT", "/t/_doc/2?refresh=true", { title: "other" });
  const hit = await call(engine, "GET", "/t/_explain/1?q=title:time");
  assert.equal(hit.code, 200);
  assert.equal(hit.matched, true);
  assert.ok(hit.explanation.value > 0);
  const other = await call(engine, "GET", "/t/_explain/2?q=title:time");
  assert.deepEqual([other.code, other.matched], [200, false]);
  const missing = await call(engine, "GET", "/t/_explain/3?q=title:time");
  assert.deepEqual(missing, { _index: "t", _id: "3", matched: false, code: 404 });
  engine.close();
});
