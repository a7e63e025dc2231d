import assert from "node:assert/strict";
import { applySourceFilter, documentSourceFilter, parseSourceFilter } from "./source_filter.ts";
import { Engine } from "../engine.ts";

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

Deno.test("the document APIs join _source with _source_includes / _source_excludes", () => {
  assert.deepEqual(documentSourceFilter(false, ["a"], []), {
    fetch: false,
    includes: [],
    excludes: [],
  });
  assert.deepEqual(documentSourceFilter("a, b.*", ["c"], ["d"]), {
    fetch: true,
    includes: ["c", "a", "b.*"],
    excludes: ["d"],
  });
  assert.deepEqual(documentSourceFilter({ includes: "x,y", excludes: ["z"] }, [], []), {
    fetch: true,
    includes: ["x,y"],
    excludes: ["z"],
  });
  assert.deepEqual(documentSourceFilter(true, [], []), FETCH_ALL_SHAPE);
});

const FETCH_ALL_SHAPE = { fetch: true, includes: [], excludes: [] };

Deno.test("GET filters _source like search does, inside arrays of objects too", async () => {
  const engine = new Engine();
  try {
    const put = await engine.fetch("http://e/d/_doc/1?refresh=true", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ a: [{ b: 1, c: 2 }, { b: 3, c: 4 }], t: "x" }),
    });
    assert.equal(put.status, 201);
    const get = await engine.fetch("http://e/d/_doc/1?_source_excludes=a.b");
    assert.deepEqual((await get.json())._source, { a: [{ c: 2 }, { c: 4 }], t: "x" });
    const search = await engine.fetch("http://e/d/_search?_source_excludes=a.b");
    assert.deepEqual((await search.json()).hits.hits[0]._source, {
      a: [{ c: 2 }, { c: 4 }],
      t: "x",
    });
    const only = await engine.fetch("http://e/d/_source/1?_source_includes=a.c");
    assert.deepEqual(await only.json(), { a: [{ c: 2 }, { c: 4 }] });
  } finally {
    engine.close();
  }
});
