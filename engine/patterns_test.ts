// Patterns from users (regexp, wildcard, query_string) over REST: escapes honoured, linear time,
// Elasticsearch's 400s for patterns that are too long or too complex.

import assert from "node:assert/strict";
import { call } from "../tests/support/engine_call.ts";
import { Engine } from "./engine.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

async function seeded(): Promise<Engine> {
  const engine = new Engine();
  await call(engine, "PUT", "/p", { mappings: { properties: { k: { type: "keyword" } } } });
  const docs = { 1: "a*b", 2: "axb", 3: "a?c", 4: "abc", 5: "a".repeat(5000) };
  for (const [id, k] of Object.entries(docs)) await call(engine, "PUT", `/p/_doc/${id}`, { k });
  await call(engine, "POST", "/p/_refresh");
  return engine;
}

const ids = (r: Json): string[] => r.hits.hits.map((h: Json) => h._id).sort();

Deno.test("wildcard: a backslash makes the next character literal, also in the prefix", async () => {
  const engine = await seeded();
  const escaped = await call(engine, "POST", "/p/_search", {
    query: { wildcard: { k: { value: "a\\*b" } } },
  });
  assert.deepEqual(ids(escaped), ["1"]);
  const q = await call(engine, "POST", "/p/_search", {
    query: { wildcard: { k: "a\\?*" } },
  });
  assert.deepEqual(ids(q), ["3"]);
  const plain = await call(engine, "POST", "/p/_search", { query: { wildcard: { k: "a?b" } } });
  assert.deepEqual(ids(plain), ["1", "2"]);
  const qs = await call(engine, "POST", "/p/_search", {
    query: { query_string: { query: "k:a\\*b" } },
  });
  assert.deepEqual(ids(qs), ["1"]);
  engine.close();
});

Deno.test("regexp: catastrophic patterns answer at once, and Lucene syntax applies", async () => {
  const engine = await seeded();
  for (const value of ["(a+)+b", "(a|aa)*c", "(a*)*b", "(.*a){20}x"]) {
    const r = await call(engine, "POST", "/p/_search", { query: { regexp: { k: { value } } } });
    assert.equal(r.code, 200, value);
    assert.deepEqual(ids(r), [], value);
  }
  const r = await call(engine, "POST", "/p/_search", {
    query: { regexp: { k: { value: "a.+&.+c", flags: "INTERSECTION" } } },
  });
  assert.deepEqual(ids(r), ["3", "4"]);
  const qs = await call(engine, "POST", "/p/_search", {
    query: { query_string: { query: "k:/a[*x]b/" } },
  });
  assert.deepEqual(ids(qs), ["1", "2"]);
  engine.close();
});

Deno.test("regexp: bad, too long and too complex patterns are Elasticsearch's 400s", async () => {
  const engine = await seeded();
  const bad = await call(engine, "POST", "/p/_search", { query: { regexp: { k: "(ab" } } });
  assert.equal(bad.code, 400);
  assert.equal(bad.error.root_cause[0].type, "query_shard_exception");
  const long = await call(engine, "POST", "/p/_search", {
    query: { regexp: { k: "a".repeat(1001) } },
  });
  assert.equal(long.code, 400);
  assert.match(JSON.stringify(long.error), /index.max_regex_length/);
  const complex = await call(engine, "POST", "/p/_search", {
    query: { regexp: { k: { value: "(.*a.{30})", max_determinized_states: 100 } } },
  });
  assert.equal(complex.code, 400);
  assert.match(JSON.stringify(complex.error), /too_complex_to_determinize_exception/);
  const flags = await call(engine, "POST", "/p/_search", {
    query: { regexp: { k: { value: "a", flags: "NOPE" } } },
  });
  assert.equal(flags.code, 400);
  engine.close();
});

Deno.test("regexp: a request's patterns share one determinization budget", async () => {
  const engine = await seeded();
  const costly = Array.from({ length: 16 }, (_, i) => ({
    regexp: { k: `[ab]*a[ab]{12}x${i}` },
  }));
  const r = await call(engine, "POST", "/p/_search", { query: { bool: { should: costly } } });
  assert.equal(r.code, 400);
  assert.match(JSON.stringify(r.error), /too_complex_to_determinize_exception/);
  const again = await call(engine, "POST", "/p/_search", {
    query: { bool: { should: costly.slice(0, 2) } },
  });
  assert.equal(again.code, 200, "a few are fine");
  engine.close();
});
