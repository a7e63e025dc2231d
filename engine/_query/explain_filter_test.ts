import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

type Ex = { value: number; description: string; details: Ex[] };

/** An explanation as indented lines (values to 7 digits), for whole-tree comparisons. */
function lines(e: Ex, depth = 0): string[] {
  const v = Number(e.value.toPrecision(7));
  return [
    `${"  ".repeat(depth)}${v} ${e.description}`,
    ...e.details.flatMap((d) => lines(d, depth + 1)),
  ];
}

// Expected trees: real Elasticsearch 9.5.4 and OpenSearch 3.8.0, `_explain` of document 1.
Deno.test("explain: filter clauses show without scores, a lone filter as a zero constant", async () => {
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = new Engine({ flavour });
    await call(engine, "PUT", "/f", {
      settings: { number_of_shards: 1 },
      mappings: {
        properties: { k: { type: "keyword" }, t: { type: "text" }, n: { type: "long" } },
      },
    });
    await call(engine, "PUT", "/f/_doc/1", { k: "a", t: "x y", n: 5 });
    await call(engine, "PUT", "/f/_doc/2?refresh=true", { k: "b", t: "y", n: 7 });
    const explain = async (query: unknown, id = "1") =>
      lines((await call(engine, "POST", `/f/_explain/${id}`, { query })).explanation as Ex);
    assert.deepEqual(await explain({ bool: { filter: { term: { k: "a" } } } }), [
      "0 ConstantScore(k:a)^0.0",
    ]);
    assert.deepEqual(await explain({ bool: { filter: { match: { t: "x" } }, boost: 2 } }), [
      "0 ConstantScore(t:x)^0.0",
    ]);
    assert.deepEqual(
      await explain({ bool: { filter: [{ term: { k: "a" } }, { match: { t: "x" } }] } }),
      [
        "0 sum of:",
        "  0 match on required clause, product of:",
        "    0 # clause",
        "    1 k:a",
        "  0 match on required clause, product of:",
        "    0 # clause",
        "    1 t:x",
      ],
    );
    const mixed = await explain({
      bool: { filter: { term: { k: "a" } }, must: { match: { t: "y" } } },
    });
    assert.deepEqual(mixed.slice(-3), [
      "  0 match on required clause, product of:",
      "    0 # clause",
      "    1 k:a",
    ]);
    // Elasticsearch folds k1 + 1 into the boost, OpenSearch does not
    assert.equal(mixed[0], flavour === "elasticsearch" ? "0.160443 sum of:" : "0.07292863 sum of:");
    engine.close();
  }
});
