import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

async function seeded(flavour: "elasticsearch" | "opensearch"): Promise<Engine> {
  const engine = new Engine({ flavour });
  await call(engine, "PUT", "/s/_doc/1?refresh=true", { n: 1 });
  await call(engine, "PUT", "/s/_doc/2?refresh=true", { n: 2 });
  return engine;
}

Deno.test("size, from and terminate_after in a body are read as the real engines read ints", async () => {
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = await seeded(flavour);
    // Real Elasticsearch 9.5.4 and OpenSearch 3.8.0 both take these: a number is truncated, a
    // string is read as a double first.
    for (const size of [1.5, " 1 ", "1.5", "1e0", 1.9]) {
      const r = await call(engine, "POST", "/s/_search", { size });
      assert.equal(r.code, 200, `size ${JSON.stringify(size)}`);
      assert.equal(r.hits.hits.length, 1);
    }
    // Both: {"error":{"root_cause":[{"type":"number_format_exception","reason":"For input
    // string: \"ten\""}],"type":"number_format_exception","reason":"For input string:
    // \"ten\""},"status":400}; the empty string's reason is "empty String".
    for (
      const [body, reason] of [
        [{ size: "ten" }, 'For input string: "ten"'],
        [{ from: "x" }, 'For input string: "x"'],
        [{ terminate_after: "x" }, 'For input string: "x"'],
        [{ size: "0x10" }, 'For input string: "0x10"'],
        [{ size: "" }, "empty String"],
      ] as const
    ) {
      const r = await call(engine, "POST", "/s/_search", body);
      assert.deepEqual(
        [r.code, r.error.type, r.error.reason],
        [400, "number_format_exception", reason],
      );
    }
    // Both: "illegal_argument_exception", "Value [3000000000] is out of range for an integer".
    const far = await call(engine, "POST", "/s/_search", { size: "3000000000" });
    assert.deepEqual([far.code, far.error.type], [400, "illegal_argument_exception"]);
    assert.equal(far.error.reason, "Value [3000000000] is out of range for an integer");
    // Elasticsearch: x_content_parse_exception caused by input_coercion_exception; OpenSearch:
    // input_coercion_exception ("Numeric value (3000000000) out of range of `int` …").
    const big = await call(engine, "POST", "/s/_search", { size: 3000000000 });
    assert.equal(big.code, 400);
    assert.equal(
      big.error.type,
      flavour === "opensearch" ? "input_coercion_exception" : "x_content_parse_exception",
    );
    assert.equal(big.error.caused_by.type, "input_coercion_exception");
    // Both: {"error":{"root_cause":[…],"type":"parsing_exception","reason":"Unknown key for a
    // VALUE_NULL in [size].","line":1,"col":9},"status":400} (START_ARRAY, START_OBJECT alike).
    for (
      const [size, token] of [[null, "VALUE_NULL"], [[1], "START_ARRAY"], [{}, "START_OBJECT"]]
    ) {
      const r = await call(engine, "POST", "/s/_search", { size });
      assert.deepEqual(
        [r.code, r.error.type, r.error.reason, r.error.line, r.error.col],
        [400, "parsing_exception", `Unknown key for a ${token} in [size].`, 1, 9],
      );
    }
    engine.close();
  }
});

Deno.test("an int URL parameter that is not one names the parameter, caused by the number", async () => {
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = await seeded(flavour);
    // Real Elasticsearch 9.5.4 and OpenSearch 3.8.0: {"error":{"root_cause":[{"type":
    // "illegal_argument_exception","reason":"Failed to parse int parameter [size] with value
    // [1.5]"}],"type":"illegal_argument_exception","reason":"Failed to parse int parameter [size]
    // with value [1.5]","caused_by":{"type":"number_format_exception","reason":"For input string:
    // \"1.5\""}},"status":400}
    for (const v of ["x", "1.5"]) {
      const r = await call(engine, "POST", `/s/_search?size=${v}`, {});
      assert.deepEqual(
        [r.code, r.error.type, r.error.root_cause[0].type, r.error.caused_by.type],
        [
          400,
          "illegal_argument_exception",
          "illegal_argument_exception",
          "number_format_exception",
        ],
      );
      assert.equal(r.error.caused_by.reason, `For input string: "${v}"`);
    }
    engine.close();
  }
});
