// `_analyze` against answers recorded from real OpenSearch 3.8.0 and Elasticsearch 9.5.4.

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { jsonReply } from "../../tests/support/engine_call.ts";

async function analyze(
  engine: Engine,
  body: unknown,
  index = "",
): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await jsonReply(engine, "POST", `${index ? `/${index}` : ""}/_analyze`, body);
  return { status: r.status, body: r.body ?? {} };
}

const tok = (token: string, start: number, end: number, type: string, position: number) => ({
  token,
  start_offset: start,
  end_offset: end,
  type,
  position,
});

Deno.test("_analyze: the standard analyzer's tokens, types and offsets", async () => {
  const engine = new Engine();
  const r = await analyze(engine, { analyzer: "standard", text: "The 3.14 foo_bar 日本" });
  assert.equal(r.status, 200);
  assert.deepEqual(r.body.tokens, [
    tok("the", 0, 3, "<ALPHANUM>", 0),
    tok("3.14", 4, 8, "<NUM>", 1),
    tok("foo_bar", 9, 16, "<ALPHANUM>", 2),
    tok("日", 17, 18, "<IDEOGRAPHIC>", 3),
    tok("本", 18, 19, "<IDEOGRAPHIC>", 4),
  ]);
  // A second value starts one char and 100 positions after the first.
  const two = await analyze(engine, { analyzer: "standard", text: ["a b", "c"] });
  assert.deepEqual(two.body.tokens, [
    tok("a", 0, 1, "<ALPHANUM>", 0),
    tok("b", 2, 3, "<ALPHANUM>", 1),
    tok("c", 4, 5, "<ALPHANUM>", 102),
  ]);
  engine.close();
});

Deno.test("_analyze: OpenSearch's global built-in analyzers leave no gap", async () => {
  const engine = new Engine({ flavour: "opensearch" });
  const r = await analyze(engine, { analyzer: "whitespace", text: ["a b", "c d"] });
  assert.deepEqual((r.body.tokens as Array<{ position: number }>).map((t) => t.position), [
    0,
    1,
    2,
    3,
  ]);
  const custom = await analyze(engine, { tokenizer: "standard", text: ["a b", "c d"] });
  assert.deepEqual((custom.body.tokens as Array<{ position: number }>).map((t) => t.position), [
    0,
    1,
    102,
    103,
  ]);
  engine.close();
});

Deno.test("_analyze: stop keeps positions, unique closes them", async () => {
  const engine = new Engine({ flavour: "opensearch" });
  const stop = await analyze(engine, { analyzer: "stop", text: "The Quick fox" });
  assert.deepEqual(stop.body.tokens, [
    tok("quick", 4, 9, "word", 1),
    tok("fox", 10, 13, "word", 2),
  ]);
  const unique = await analyze(engine, {
    tokenizer: "letter",
    filter: ["uppercase", "reverse", "unique"],
    text: "ab ab cd",
  });
  assert.deepEqual(unique.body.tokens, [tok("BA", 0, 2, "word", 0), tok("DC", 6, 8, "word", 1)]);
  engine.close();
});

Deno.test("_analyze: explain shows each stage; attributes pick the extra ones", async () => {
  const engine = new Engine();
  const named = await analyze(engine, { analyzer: "standard", text: "foo", explain: true });
  assert.deepEqual(named.body, {
    detail: {
      custom_analyzer: false,
      analyzer: {
        name: "standard",
        tokens: [{
          ...tok("foo", 0, 3, "<ALPHANUM>", 0),
          bytes: "[66 6f 6f]",
          positionLength: 1,
          termFrequency: 1,
        }],
      },
    },
  });
  const chain = await analyze(engine, {
    tokenizer: "standard",
    filter: [{ type: "stop", stopwords: ["a"] }],
    text: "a b",
    explain: true,
    attributes: ["keyword"],
  });
  assert.deepEqual(chain.body, {
    detail: {
      custom_analyzer: true,
      charfilters: [],
      tokenizer: {
        name: "standard",
        tokens: [tok("a", 0, 1, "<ALPHANUM>", 0), tok("b", 2, 3, "<ALPHANUM>", 1)],
      },
      tokenfilters: [{ name: "__anonymous__stop", tokens: [tok("b", 2, 3, "<ALPHANUM>", 1)] }],
    },
  });
  engine.close();
});

Deno.test("_analyze: a field's analyzer, an index's custom analyzer and normalizer", async () => {
  const engine = new Engine();
  const res = await engine.fetch("http://e/az", {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      settings: {
        analysis: {
          analyzer: { my: { type: "custom", tokenizer: "standard", filter: ["lowercase", "st"] } },
          filter: { st: { type: "stop", stopwords: ["the"] } },
          normalizer: { norm: { type: "custom", filter: ["lowercase"] } },
        },
      },
      mappings: {
        properties: {
          k: { type: "keyword" },
          t: { type: "text", analyzer: "simple" },
          n: { type: "long" },
        },
      },
    }),
  });
  await res.body?.cancel();
  assert.deepEqual((await analyze(engine, { field: "k", text: "Foo Bar" }, "az")).body.tokens, [
    tok("Foo Bar", 0, 7, "word", 0),
  ]);
  assert.deepEqual((await analyze(engine, { field: "t", text: "Foo 42" }, "az")).body.tokens, [
    tok("foo", 0, 3, "word", 0),
  ]);
  assert.deepEqual(
    (await analyze(engine, { analyzer: "my", text: "The Foo the bar" }, "az")).body.tokens,
    [tok("foo", 4, 7, "<ALPHANUM>", 1), tok("bar", 12, 15, "<ALPHANUM>", 3)],
  );
  assert.deepEqual((await analyze(engine, { normalizer: "norm", text: "BaR" }, "az")).body.tokens, [
    tok("bar", 0, 3, "word", 0),
  ]);
  const numeric = await analyze(engine, { field: "n", text: "12" }, "az");
  assert.equal(numeric.status, 400);
  assert.match(String(JSON.stringify(numeric.body)), /only supported on tokenized fields/);
  engine.close();
});

Deno.test("_analyze: refusals name what is wrong", async () => {
  const engine = new Engine();
  const type = async (
    body: unknown,
  ) => ((await analyze(engine, body)).body.error as { type: string; reason: string });
  assert.equal((await type({})).reason, "Validation Failed: 1: text is missing;");
  assert.equal(
    (await type({ analyzer: "standard", tokenizer: "standard", text: "a" })).reason,
    "Validation Failed: 1: cannot define extra components on a named analyzer;",
  );
  assert.equal(
    (await type({ analyzer: "nope", text: "a" })).reason,
    "failed to find global analyzer [nope]",
  );
  assert.equal((await type({ text: "a", foo: 1 })).type, "x_content_parse_exception");
  assert.equal(
    (await type({ text: "a", normalizer: "lowercase" })).reason,
    "Validation Failed: 1: index is required if normalizer is specified;",
  );
  assert.match((await type({ tokenizer: "ngram", text: "a" })).reason, /not supported/);
  engine.close();
});

Deno.test("_analyze: names of JavaScript members are unknown names, never code", async () => {
  const engine = new Engine();
  const cases: Array<[unknown, string]> = [
    [{ tokenizer: "toString", text: "a" }, "failed to find global tokenizer under [toString]"],
    [
      { tokenizer: "standard", filter: ["constructor"], text: "a" },
      "failed to find global filter under [constructor]",
    ],
    [{ analyzer: "__proto__", text: "a" }, "failed to find global analyzer [__proto__]"],
    [
      { tokenizer: { type: "hasOwnProperty" }, text: "a" },
      "Unknown tokenizer type [hasOwnProperty] for [__anonymous__hasOwnProperty]",
    ],
    [
      { tokenizer: "standard", filter: [{ type: "valueOf" }], text: "a" },
      "Unknown filter type [valueOf] for [__anonymous__valueOf]",
    ],
  ];
  for (const [body, reason] of cases) {
    const res = await analyze(engine, body);
    assert.equal(res.status, 400, JSON.stringify(body));
    const error = res.body.error as { type: string; reason: string };
    assert.equal(error.type, "illegal_argument_exception");
    assert.equal(error.reason, reason);
  }
});
