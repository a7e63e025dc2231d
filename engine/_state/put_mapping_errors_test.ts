import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

Deno.test("put mapping: an unparsable mapping is wrapped as on index creation", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/m");
  const bad = await call(engine, "PUT", "/m/_mapping", { properties: { x: { type: "nope" } } });
  assert.equal(bad.code, 400);
  assert.equal(bad.error.type, "mapper_parsing_exception");
  assert.equal(
    bad.error.reason,
    "Failed to parse mapping: No handler for type [nope] declared on field [x]",
  );
  assert.deepEqual(bad.error.caused_by, {
    type: "mapper_parsing_exception",
    reason: "No handler for type [nope] declared on field [x]",
  });
  assert.equal(bad.error.root_cause[0].reason, "No handler for type [nope] declared on field [x]");
  const root = await call(engine, "PUT", "/m/_mapping", { odd: 1 });
  assert.equal(
    root.error.reason,
    "Failed to parse mapping: Root mapping definition has unsupported parameters:  [odd : 1]",
  );
});

Deno.test("put mapping: conflicts and type names are not wrapped", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/m", { mappings: { properties: { x: { type: "keyword" } } } });
  const conflict = await call(engine, "PUT", "/m/_mapping", {
    properties: { x: { type: "long" } },
  });
  assert.equal(conflict.error.type, "illegal_argument_exception");
  assert.equal(conflict.error.reason, "mapper [x] cannot be changed from type [keyword] to [long]");
  const typed = await call(engine, "PUT", "/m/_mapping", { _doc: { properties: {} } });
  assert.equal(typed.error.reason, "Types cannot be provided in put mapping requests");
});

Deno.test("mapping errors carry one 'Failed to parse mapping' prefix", async () => {
  const engine = new Engine();
  const bad = { properties: { v: { type: "dense_vector", dims: 0 } } };
  const inner = "The number of dimensions should be in the range [1, 4096] but was [0]";
  const created = await call(engine, "PUT", "/v", { mappings: bad });
  assert.equal(created.error.reason, `Failed to parse mapping: ${inner}`);
  assert.equal(created.error.caused_by.reason, inner);
  await call(engine, "PUT", "/w");
  const put = await call(engine, "PUT", "/w/_mapping", bad);
  assert.equal(put.error.reason, `Failed to parse mapping: ${inner}`);
});

Deno.test("an empty field name in a mapping, per flavour", async () => {
  // real ES 9.5.4: mapper_parsing_exception caused by illegal_argument_exception on index creation
  // and put mapping, a blank name refused too; real OS 3.8.0: mapper_parsing_exception ("Failed to
  // parse mapping [_doc]: name cannot be empty string") on creation, a bare
  // illegal_argument_exception on put mapping, and a blank name accepted
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = new Engine({ flavour });
    const created = await call(engine, "PUT", "/e1", {
      mappings: { properties: { "": { type: "keyword" } } },
    });
    assert.equal(created.error.type, "mapper_parsing_exception");
    assert.equal(created.error.caused_by.type, "illegal_argument_exception");
    await call(engine, "PUT", "/e2");
    const put = await call(engine, "PUT", "/e2/_mapping", {
      properties: { "": { type: "keyword" } },
    });
    const blank = await call(engine, "PUT", "/e2/_mapping", {
      properties: { a: { properties: { " ": { type: "keyword" } } } },
    });
    if (flavour === "opensearch") {
      assert.equal(
        created.error.reason,
        "Failed to parse mapping [_doc]: name cannot be empty string",
      );
      assert.deepEqual(put.error.root_cause, [
        { type: "illegal_argument_exception", reason: "name cannot be empty string" },
      ]);
      assert.equal(put.error.type, "illegal_argument_exception");
      assert.equal(blank.code, 200);
    } else {
      assert.equal(put.error.type, "mapper_parsing_exception");
      assert.equal(blank.code, 400);
      assert.equal(blank.error.type, "mapper_parsing_exception");
    }
    engine.close();
  }
});
