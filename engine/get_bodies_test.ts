// Elasticsearch reads request bodies on GET (and DELETE) for every API that takes one; so does
// engine.fetch (the HTTP adapter is tested in serve_test.ts).

import assert from "node:assert/strict";
import { call } from "../tests/support/engine_call.ts";
import { Engine } from "./engine.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

Deno.test("GET and DELETE bodies are honoured by every API that takes one", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/b/_doc/1", '{"n":1,"t":"one"}');
  await call(engine, "PUT", "/b/_doc/2?refresh=true", '{"n":2,"t":"two"}');
  const term = '{"query":{"term":{"n":2}}}';
  assert.deepEqual(
    (await call(engine, "GET", "/b/_search", term)).hits.hits.map((h: Json) => h._id),
    ["2"],
  );
  assert.equal((await call(engine, "GET", "/b/_count", term)).count, 1);
  assert.equal((await call(engine, "GET", "/b/_mget", '{"ids":["1","2"]}')).docs.length, 2);
  const ms = await call(engine, "GET", "/b/_msearch", "{}\n" + term + "\n");
  assert.equal(ms.responses[0].hits.total.value, 1);
  const first = await call(engine, "GET", "/b/_search?scroll=1m", '{"size":1,"sort":["n"]}');
  const page = await call(
    engine,
    "GET",
    "/_search/scroll",
    JSON.stringify({ scroll: "1m", scroll_id: first._scroll_id }),
  );
  assert.equal(page.hits.hits[0]._id, "2");
  const cleared = await call(
    engine,
    "DELETE",
    "/_search/scroll",
    JSON.stringify({ scroll_id: first._scroll_id }),
  );
  assert.equal(cleared.num_freed, 1);
  assert.equal((await call(engine, "GET", "/b/_explain/2", term)).matched, true);
  assert.equal(
    (await call(engine, "GET", "/b/_validate/query", '{"query":{"bogus":{}}}')).valid,
    false,
  );
  const caps = await call(
    engine,
    "GET",
    "/b/_field_caps",
    '{"fields":["*"],"index_filter":{"match_all":{}}}',
  );
  assert.equal(caps.code, 200);
  const pit = await call(engine, "POST", "/b/_pit?keep_alive=1m");
  const inPit = await call(
    engine,
    "GET",
    "/_search",
    JSON.stringify({ pit: { id: pit.id }, query: { term: { n: 1 } } }),
  );
  assert.equal(inPit.hits.hits[0]._id, "1");
  const closed = await call(engine, "DELETE", "/_pit", JSON.stringify({ id: pit.id }));
  assert.equal(closed.succeeded, true);
  engine.close();
});
