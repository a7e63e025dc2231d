// The order of a hit's `matched_queries`: the real engines collect the names in a Java HashMap,
// so they come in its iteration order, not in the query's. Expected values are the answers of
// real OpenSearch 3.8.0 and Elasticsearch 9.5.4 to the same searches.

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

async function matched(
  flavour: "elasticsearch" | "opensearch",
  names: string[],
  scored = false,
): Promise<unknown> {
  const engine = new Engine({ flavour });
  await call(engine, "PUT", "/q/_doc/1?refresh=true", { foo: "bar", foo2: "bar2", foo3: "bar3" });
  const fields = ["foo", "foo2", "foo3"];
  const should = names.map((name, i) => ({
    match: { [fields[i]!]: { query: `bar${i === 0 ? "" : i + 1}`, _name: name } },
  }));
  const path = scored ? "/q/_search?include_named_queries_score=true" : "/q/_search";
  const r = await call(engine, "POST", path, { query: { bool: { should } } });
  engine.close();
  return r.hits.hits[0].matched_queries;
}

Deno.test("matched_queries: in Java HashMap order, both flavours", async () => {
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    // both real engines: ["foo2_query","foo_query"]; ["a","b"] whichever clause comes first
    assert.deepEqual(await matched(flavour, ["foo_query", "foo2_query"]), [
      "foo2_query",
      "foo_query",
    ]);
    assert.deepEqual(await matched(flavour, ["b", "a"]), ["a", "b"]);
    const scored = await matched(flavour, ["foo_query", "foo2_query"], true);
    assert.deepEqual(Object.keys(scored as object), ["foo2_query", "foo_query"]);
  }
  // OpenSearch 3.8.0: names in one bucket keep the query's order
  assert.deepEqual(await matched("opensearch", ["zz", "mm", "aa"]), ["zz", "mm", "aa"]);
});
