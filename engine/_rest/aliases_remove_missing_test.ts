// `POST /_aliases` removing aliases nobody holds. Expected values are the answers of real
// Elasticsearch 9.5.4 and OpenSearch 3.8.0 to the same requests (an index `probe-al` without
// aliases; `resource.id` is a string for one name, a list for more).

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

const REMOVALS: Array<Record<string, unknown>> = [
  { aliases: ["x1", "x2"] },
  { aliases: ["x1", "x2"], must_exist: true },
  { aliases: ["x1", "x2"], must_exist: false },
  { alias: "x1", must_exist: false },
];

async function answers(flavour: "elasticsearch" | "opensearch"): Promise<unknown[]> {
  const engine = new Engine({ flavour });
  await call(engine, "PUT", "/probe-al");
  const out: unknown[] = [];
  for (const remove of REMOVALS) {
    const res = await call(engine, "POST", "/_aliases", {
      actions: [{ remove: { index: "probe-al", ...remove } }],
    });
    out.push(
      res.code === 200 ? res.code : [res.code, res.error.reason, res.error["resource.id"]],
    );
  }
  engine.close();
  return out;
}

Deno.test("removing absent aliases: Elasticsearch fails whatever must_exist says", async () => {
  assert.deepEqual(await answers("elasticsearch"), [
    [404, "aliases [x1, x2] missing", ["x1", "x2"]],
    [404, "aliases [x1] missing", "x1"],
    [404, "aliases [x1, x2] missing", ["x1", "x2"]],
    [404, "aliases [x1] missing", "x1"],
  ]);
});

Deno.test("removing absent aliases: OpenSearch passes silently with must_exist false", async () => {
  assert.deepEqual(await answers("opensearch"), [
    [404, "aliases [x1, x2] missing", ["x1", "x2"]],
    [404, "aliases [x1, x2] missing", ["x1", "x2"]],
    200,
    200,
  ]);
});
