import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

Deno.test("sparse_vector: objects of positive floats index; anything else is refused as Elasticsearch words it", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/sv", { mappings: { properties: { ml: { type: "sparse_vector" } } } });
  for (
    const good of [
      { ml: { dog: 1.5, cat: 0.2 } },
      { ml: { dog: "2.5" } },
      { ml: [{ dog: 1 }, { cat: 2 }] },
      { ml: { dog: null } },
      { ml: null },
    ]
  ) {
    const res = await call(engine, "POST", "/sv/_doc", good);
    assert.equal(res.code, 201, JSON.stringify(good));
  }
  const cases: Array<[unknown, string, string]> = [
    [
      { dog: -1 },
      "illegal_argument_exception",
      "featureValue must be a positive normal float, got: -1.0 for feature dog on field ml which is less than the minimum positive normal float: 1.1754944E-38",
    ],
    [
      { dog: 0 },
      "illegal_argument_exception",
      "featureValue must be a positive normal float, got: 0.0 for feature dog on field ml which is less than the minimum positive normal float: 1.1754944E-38",
    ],
    [{ dog: "abc" }, "number_format_exception", 'For input string: "abc"'],
    [
      { dog: "NaN" },
      "illegal_argument_exception",
      "featureValue must be finite, got: NaN for feature dog on field ml",
    ],
    [
      { dog: [1, 2] },
      "illegal_argument_exception",
      "[sparse_vector] fields take hashes that map a feature to a strictly positive float, but got unexpected token START_ARRAY",
    ],
    [
      { dog: true },
      "illegal_argument_exception",
      "[sparse_vector] fields take hashes that map a feature to a strictly positive float, but got unexpected token VALUE_BOOLEAN",
    ],
    [
      3,
      "illegal_argument_exception",
      "[sparse_vector] fields must be json objects, expected a START_OBJECT but got: VALUE_NUMBER",
    ],
    [
      [1],
      "illegal_argument_exception",
      "[sparse_vector] fields must be json objects, expected a START_OBJECT but got: VALUE_NUMBER",
    ],
  ];
  for (const [value, type, reason] of cases) {
    const res = await call(engine, "PUT", "/sv/_doc/bad", { ml: value });
    assert.equal(res.code, 400, JSON.stringify(value));
    assert.equal(res.error.type, "document_parsing_exception");
    assert.equal(res.error.reason, `[1:2] failed to parse: ${reason}`);
    assert.equal(res.error.caused_by.type, type);
    assert.equal(res.error.caused_by.reason, reason);
  }
  assert.equal((await engine.fetch("http://e/sv/_doc/bad", { method: "HEAD" })).status, 404);
  engine.close();
});
