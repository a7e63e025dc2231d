import assert from "node:assert/strict";
import { filterPath } from "./filter_path.ts";

const body = {
  took: 3,
  hits: {
    total: { value: 2 },
    hits: [{ _id: "1", _source: { a: 1, b: 2 } }, { _id: "2", _source: { a: 3 } }],
  },
};

Deno.test("filter_path keeps the named paths, through arrays", () => {
  assert.deepEqual(filterPath(body, "hits.hits._id,took"), {
    took: 3,
    hits: { hits: [{ _id: "1" }, { _id: "2" }] },
  });
  assert.deepEqual(filterPath(body, "hits.*.value"), { hits: { total: { value: 2 } } });
  assert.deepEqual(filterPath(body, "**.a"), {
    hits: { hits: [{ _source: { a: 1 } }, { _source: { a: 3 } }] },
  });
  assert.deepEqual(filterPath(body, "nothing"), {});
});

Deno.test("filter_path exclusions", () => {
  assert.deepEqual(filterPath(body, "-hits"), { took: 3 });
  assert.deepEqual(filterPath({ a: { b: 1, c: 2 } }, "-a.b"), { a: { c: 2 } });
});
