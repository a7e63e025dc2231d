import assert from "node:assert/strict";
import type { BoundCommand, HintValue } from "./command.ts";
import { BindError } from "../errors.ts";
import { applyHints } from "./hints.ts";

function command(
  path: string,
  body: string | undefined,
  hints: Record<string, HintValue>,
  ndjson = false,
): BoundCommand {
  return { method: "POST", path, body, ndjson, hints, text: "", line: 1 };
}

Deno.test("no applicable hint returns the same object", () => {
  const c = command("/i/_search", "{}", { route: "x" });
  assert.equal(applyHints(c), c);
  const doc = command("/i/_doc", '{"a":1}', { overwrite_find_limit: 1 });
  assert.equal(applyHints(doc).body, '{"a":1}');
});

Deno.test("limit and skip replace size/from and create a body when missing (defect 17.12)", () => {
  assert.equal(
    applyHints(command("/i/_search", undefined, { overwrite_find_limit: 5 })).body,
    '{"size":5}',
  );
  const out = applyHints(
    command("/i/_search", '{ "from": 1, "query": {"a": "}, \\"size\\": 1"}, "size": 3 }', {
      overwrite_find_limit: "7",
      overwrite_find_skip: 0,
    }),
  );
  assert.deepEqual(JSON.parse(out.body!), { size: 7, from: 0, query: { a: '}, "size": 1' } });
});

Deno.test("big numbers in the body keep their digits", () => {
  const out = applyHints(
    command("/i/_search", '{"query":{"term":{"n":12345678901234567890}}}', {
      overwrite_find_limit: 1,
    }),
  );
  assert.equal(out.body, '{"size":1,"query":{"term":{"n":12345678901234567890}}}');
});

Deno.test("as_count keeps only query (defect 17.24) and may be switched off", () => {
  const out = applyHints(
    command("/a,b/_search", '{"size":1,"sort":[{"x":"asc"}],"query":{"match_all":{}},"aggs":{}}', {
      overwrite_find_as_count: true,
      overwrite_find_limit: 3,
    }),
  );
  assert.equal(out.path, "/a,b/_count");
  assert.equal(out.body, '{"query":{"match_all":{}}}');
  const noQuery = applyHints(command("/i/_search", '{"size":1}', { overwrite_find_as_count: 1 }));
  assert.equal(noQuery.body, "{}");
  const off = command("/i/_search", "{}", { overwrite_find_as_count: false });
  assert.equal(applyHints(off), off);
});

Deno.test("_msearch: every search line gets size/from", () => {
  const out = applyHints(
    command("/_msearch", '{"index":"a"}\n{"query":{}}\n{}\n{}\n', { overwrite_find_skip: 4 }, true),
  );
  assert.equal(out.body, '{"index":"a"}\n{"from":4,"query":{}}\n{}\n{"from":4}\n');
});

Deno.test("bad limit values are BindErrors naming the hint", () => {
  for (const value of [-1, 1.5, "ten", true, null]) {
    assert.throws(
      () => applyHints(command("/i/_search", "{}", { overwrite_find_limit: value })),
      (error: unknown) =>
        error instanceof BindError && error.argumentName === "overwrite_find_limit" &&
        /non-negative integer/.test(error.message),
    );
  }
});
