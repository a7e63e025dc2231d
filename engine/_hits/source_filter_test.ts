import assert from "node:assert/strict";
import { applySourceFilter, parseSourceFilter } from "./source_filter.ts";

const src = { a: 1, b: { c: 2, d: 3 }, e: [{ f: 4, g: 5 }], count: 9 };
const none = new URLSearchParams();

Deno.test("_source false drops the source", () => {
  assert.equal(applySourceFilter(src, parseSourceFilter(false, none)), undefined);
  assert.equal(
    applySourceFilter(src, parseSourceFilter(undefined, new URLSearchParams("_source=false"))),
    undefined,
  );
});

Deno.test("_source includes by name, parent and wildcard", () => {
  assert.deepEqual(applySourceFilter(src, parseSourceFilter("a", none)), { a: 1 });
  assert.deepEqual(applySourceFilter(src, parseSourceFilter(["b"], none)), { b: { c: 2, d: 3 } });
  assert.deepEqual(applySourceFilter(src, parseSourceFilter("b.c", none)), { b: { c: 2 } });
  assert.deepEqual(applySourceFilter(src, parseSourceFilter({ includes: ["*.f"] }, none)), {
    e: [{ f: 4 }],
  });
  assert.deepEqual(applySourceFilter(src, parseSourceFilter({ includes: "co*" }, none)), {
    count: 9,
  });
});

Deno.test("_source excludes win over includes", () => {
  assert.deepEqual(
    applySourceFilter(src, parseSourceFilter({ includes: ["b"], excludes: ["b.d"] }, none)),
    { b: { c: 2 } },
  );
  assert.deepEqual(applySourceFilter(src, parseSourceFilter({ excludes: ["b", "e"] }, none)), {
    a: 1,
    count: 9,
  });
});

Deno.test("URL parameters _source, _source_includes and _source_excludes", () => {
  const f = parseSourceFilter(
    undefined,
    new URLSearchParams("_source_includes=b&_source_excludes=b.c"),
  );
  assert.deepEqual(applySourceFilter(src, f), { b: { d: 3 } });
  assert.deepEqual(
    applySourceFilter(src, parseSourceFilter(undefined, new URLSearchParams("_source=a,count"))),
    { a: 1, count: 9 },
  );
});
