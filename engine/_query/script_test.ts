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

Deno.test("script: a value that contains itself is refused, the document stays readable", () => {
  const status = (e: { status?: number; type?: string }) =>
    e.status === 400 && e.type === "illegal_argument_exception";
  assert.throws(() => run("ctx._source.l = []; ctx._source.l.add(ctx._source.l)", {}), status);
  assert.throws(() => run("ctx._source.x = ctx._source", {}), status);
  assert.throws(() => run("ctx._source.m = [:]; ctx._source.m.put('me', ctx._source)", {}), status);
  const shared = run("ctx._source.a = [1]; ctx._source.b = ctx._source.a", {});
  assert.deepEqual(shared._source, { a: [1], b: [1] }, "a shared value is not a cycle");
});

Deno.test("script: size is bounded and list writes stay in range", () => {
  const big = "ctx._source.a = 1;".repeat(4000);
  assert.throws(() => run(big, {}), /exceeded max allowed inline script size in bytes \[65535\]/);
  const outOfBounds = (e: { toCause(): unknown }) =>
    /out of bounds/.test(JSON.stringify(e.toCause()));
  assert.throws(
    () => run("ctx._source.l = [1]; ctx._source.l.length = 1000000000", {}),
    outOfBounds,
  );
  assert.throws(() => run("ctx._source.l = [1]; ctx._source.l[5] = 2", {}), outOfBounds);
});
