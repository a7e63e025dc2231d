// Field names are data: `__proto__`, `constructor`, `toString`, `hasOwnProperty` are fields like any
// other, never the prototype or members of JavaScript objects.

import assert from "node:assert/strict";
import { Engine } from "./engine.ts";
import { exchange } from "../tests/support/engine_call.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

const NAMES = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];

function doc(value: string): string {
  return `{${NAMES.map((n) => `"${n}":"${value}"`).join(",")},"n":1}`;
}

Deno.test("field names that are JavaScript members are indexed, searched, sorted and aggregated", async () => {
  const engine = new Engine();
  assert.equal((await exchange(engine, "PUT", "/f/_doc/1", doc("alpha"))).status, 201);
  assert.equal((await exchange(engine, "PUT", "/f/_doc/2", doc("beta"))).status, 201);
  assert.equal(
    (await exchange(engine, "PUT", "/f/_doc/3?refresh=true", `{"other":"x"}`)).status,
    201,
  );
  const mapping = (await exchange(engine, "GET", "/f/_mapping")).body.f.mappings.properties;
  for (const name of NAMES) {
    assert.ok(Object.hasOwn(mapping, name), `${name} is mapped`);
    assert.equal(mapping[name].type, "text");
    const match = await exchange(
      engine,
      "POST",
      "/f/_search",
      `{"query":{"match":{"${name}":"beta"}}}`,
    );
    assert.equal(match.status, 200, name);
    assert.deepEqual(match.body.hits.hits.map((h: Json) => h._id), ["2"], name);
    const exists = await exchange(
      engine,
      "POST",
      "/f/_search",
      `{"query":{"exists":{"field":"${name}"}}}`,
    );
    assert.equal(exists.body.hits.total.value, 2, `exists ${name}`);
    const sorted = await exchange(
      engine,
      "POST",
      "/f/_search",
      `{"query":{"exists":{"field":"${name}"}},"sort":[{"${name}.keyword":"desc"}],"aggs":{"${name}":{"terms":{"field":"${name}.keyword"}}}}`,
    );
    assert.equal(sorted.status, 200, JSON.stringify(sorted.body));
    assert.deepEqual(sorted.body.hits.hits.map((h: Json) => h._id), ["2", "1"]);
    const buckets = sorted.body.aggregations[name].buckets.map((b: Json) => b.key);
    assert.deepEqual(buckets, ["alpha", "beta"]);
  }
  const got = await exchange(engine, "GET", "/f/_doc/1?_source_includes=__proto__,constructor");
  assert.deepEqual(Object.keys(got.body._source).sort(), ["__proto__", "constructor"]);
  assert.equal(got.body._source.constructor, "alpha");
  engine.close();
});

Deno.test("partial updates and scripts write such field names as data", async () => {
  const engine = new Engine();
  await exchange(engine, "PUT", "/u/_doc/1", `{"a":1}`);
  const upd = await exchange(
    engine,
    "POST",
    "/u/_update/1",
    `{"doc":{"__proto__":{"polluted":1},"constructor":"c"}}`,
  );
  assert.equal(upd.status, 200, JSON.stringify(upd.body));
  const script = await exchange(
    engine,
    "POST",
    "/u/_update/1",
    `{"script":{"source":"ctx._source.toString = 'ts'; ctx._source.put('hasOwnProperty', 2)"}}`,
  );
  assert.equal(script.status, 200, JSON.stringify(script.body));
  const got = (await exchange(engine, "GET", "/u/_doc/1")).body._source;
  assert.deepEqual(got.__proto__, { polluted: 1 });
  assert.equal(Object.getPrototypeOf(got), Object.prototype);
  assert.equal(got.constructor, "c");
  assert.equal(got.toString, "ts");
  assert.equal(got.hasOwnProperty, 2);
  assert.equal(({} as Json).polluted, undefined);
  engine.close();
});
