import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

Deno.test("profile: a match of one word is a TermQuery, of several a BooleanQuery", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/t", { mappings: { properties: { title: { type: "text" } } } });
  await call(engine, "PUT", "/t/_doc/1?refresh=true", { title: "time clocks" });
  const type = async (query: string) =>
    (await call(engine, "POST", "/t/_search", {
      profile: true,
      query: { match: { title: query } },
    }))
      .profile.shards[0].searches[0].query[0].type;
  assert.equal(await type("time"), "TermQuery");
  assert.equal(await type("time clocks"), "BooleanQuery");
  engine.close();
});
