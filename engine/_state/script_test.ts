import assert from "node:assert/strict";
import { readScript, runScript } from "./script.ts";

function run(source: string, doc: Record<string, unknown>, params: Record<string, unknown> = {}) {
  const ctx: Record<string, unknown> = { _source: doc, op: "index" };
  runScript({ source, params }, ctx);
  return ctx;
}

Deno.test("script: assignments, compound operators, increments", () => {
  const ctx = run(
    "ctx._source.a = params.x; ctx._source.n += 2; ctx._source.c++; ctx._source['s'] = 'v'",
    {
      n: 1,
      c: 0,
    },
    { x: [1] },
  );
  assert.deepEqual(ctx._source, { n: 3, c: 1, a: [1], s: "v" });
});

Deno.test("script: map and list methods, conditionals, ctx.op", () => {
  const ctx = run(
    "ctx._source.putAll(params.m); ctx._source.remove('gone'); ctx._source.tags.add('b'); if (ctx._source.tags.size() > 1) { ctx.op = 'none' }",
    { gone: 1, tags: ["a"] },
    { m: { k: "v" } },
  );
  assert.deepEqual(ctx._source, { tags: ["a", "b"], k: "v" });
  assert.equal(ctx.op, "none");
});

Deno.test("script: anything outside the subset is a script_exception", () => {
  for (
    const bad of [
      "System.exit(0)",
      "ctx._source.__proto__.x = 1",
      "ctx._source.a = ",
      "while (true) {}",
    ]
  ) {
    assert.throws(
      () => run(bad, {}),
      (e: Error & { type?: string }) => e.type === "script_exception",
      bad,
    );
  }
});

Deno.test("readScript: string and object forms, unsupported languages", () => {
  assert.deepEqual(readScript("ctx.op = 'delete'"), { source: "ctx.op = 'delete'", params: {} });
  assert.deepEqual(readScript({ source: "x", params: { a: 1 } }), {
    source: "x",
    params: { a: 1 },
  });
  assert.throws(() => readScript({ source: "x", lang: "groovy" }), /script_lang not supported/);
});
