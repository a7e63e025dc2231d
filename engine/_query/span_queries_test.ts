import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

type Json = Reply;

async function corpus(): Promise<[Engine, (q: unknown) => Promise<string[]>]> {
  const engine = new Engine();
  await call(engine, "PUT", "/s", {
    mappings: { properties: { t: { type: "text" }, k: { type: "keyword" }, u: { type: "text" } } },
  });
  const docs = [
    "the quick brown fox jumps",
    "fox quick",
    "quick red fox",
    "a slow brown dog and a quick fox",
  ];
  for (const [i, t] of docs.entries()) await call(engine, "PUT", `/s/_doc/${i}`, { t, k: t, u: t });
  await call(engine, "POST", "/s/_refresh");
  const ids = async (query: unknown) => {
    const res = await call(engine, "POST", "/s/_search", { query });
    if (res.code !== 200) throw new Error(JSON.stringify(res.error));
    return res.hits.hits.map((h: Json) => h._id).sort();
  };
  return [engine, ids];
}

const term = (v: string) => ({ span_term: { t: v } });

Deno.test("span_term, span_or and span_first", async () => {
  const [engine, ids] = await corpus();
  assert.deepEqual(await ids(term("brown")), ["0", "3"]);
  assert.deepEqual(await ids({ span_term: { t: { value: "red", boost: 2 } } }), ["2"]);
  assert.deepEqual(await ids({ span_or: { clauses: [term("red"), term("dog")] } }), ["2", "3"]);
  assert.deepEqual(await ids({ span_first: { match: term("quick"), end: 1 } }), ["2"]);
  assert.deepEqual(await ids({ span_first: { match: term("quick"), end: 2 } }), ["0", "1", "2"]);
  engine.close();
});

Deno.test("span_near: slop and in_order", async () => {
  const [engine, ids] = await corpus();
  const near = (slop: number, in_order: boolean) => ({
    span_near: { clauses: [term("quick"), term("fox")], slop, in_order },
  });
  assert.deepEqual(await ids(near(0, true)), ["3"]);
  assert.deepEqual(await ids(near(1, true)), ["0", "2", "3"]);
  assert.deepEqual(await ids(near(0, false)), ["1", "3"]);
  const nested = {
    span_near: {
      clauses: [{ span_near: { clauses: [term("slow"), term("brown")], slop: 0 } }, term("dog")],
      slop: 0,
      in_order: true,
    },
  };
  assert.deepEqual(await ids(nested), ["3"]);
  engine.close();
});

Deno.test("span_not, span_multi, span_containing and span_within", async () => {
  const [engine, ids] = await corpus();
  const quickFox = {
    span_near: { clauses: [term("quick"), term("fox")], slop: 1, in_order: true },
  };
  assert.deepEqual(
    await ids({ span_not: { include: quickFox, exclude: term("red") } }),
    ["0", "3"],
  );
  assert.deepEqual(
    await ids({ span_not: { include: term("fox"), exclude: term("quick"), pre: 1 } }),
    ["0", "1", "2"],
  );
  assert.deepEqual(
    await ids({ span_not: { include: term("fox"), exclude: term("quick"), post: 1 } }),
    ["0", "2", "3"],
  );
  assert.deepEqual(await ids({ span_multi: { match: { prefix: { t: "bro" } } } }), ["0", "3"]);
  assert.deepEqual(await ids({ span_multi: { match: { wildcard: { t: "d?g" } } } }), ["3"]);
  assert.deepEqual(await ids({ span_multi: { match: { fuzzy: { t: "foz" } } } }), [
    "0",
    "1",
    "2",
    "3",
  ]);
  assert.deepEqual(
    await ids({ span_containing: { big: quickFox, little: term("brown") } }),
    ["0"],
  );
  assert.deepEqual(
    await ids({ span_within: { big: quickFox, little: term("red") } }),
    ["2"],
  );
  engine.close();
});

Deno.test("span errors: non-span clauses, mixed fields, keyword fields, missing parts", async () => {
  const [engine] = await corpus();
  const err = async (query: unknown) => (await call(engine, "POST", "/s/_search", { query })).error;
  const notSpan = await err({ span_near: { clauses: [{ term: { t: "x" } }], slop: 0 } });
  assert.equal(notSpan.type, "parsing_exception");
  assert.match(notSpan.reason, /must be of type span query/);
  const mixed = await err({ span_or: { clauses: [term("x"), { span_term: { u: "y" } }] } });
  assert.match(JSON.stringify(mixed), /Clauses must have same field/);
  const kw = await err({ span_term: { k: "fox quick" } });
  assert.match(JSON.stringify(kw), /without position data/);
  const noEnd = await err({ span_first: { match: term("x") } });
  assert.equal(noEnd.type, "parsing_exception");
  const dist = await err({ span_not: { include: term("a"), exclude: term("b"), dist: 1, pre: 1 } });
  assert.equal(dist.type, "parsing_exception");
  engine.close();
});
