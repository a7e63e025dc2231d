import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

const DOCS = [
  { title: "fox", body: "fox dog dog" },
  { title: "dog", body: "cat" },
  { title: "cat fox", body: "fox" },
  { title: "bird", body: "dog fox cat bird" },
  { title: "dog dog", body: "bird" },
];

async function scores(query: Reply): Promise<Array<[string, number]>> {
  const engine = new Engine({ flavour: "opensearch" });
  await call(engine, "PUT", "/t", {
    mappings: { properties: { title: { type: "text" }, body: { type: "text" } } },
  });
  for (const [i, doc] of DOCS.entries()) await call(engine, "PUT", `/t/_doc/${i + 1}`, doc);
  await call(engine, "POST", "/t/_refresh");
  const res = await call(engine, "POST", "/t/_search", { query });
  engine.close();
  return res.hits.hits.map((h: Reply) => [h._id, h._score]);
}

// Expected values: real OpenSearch 3.8.0 on the same five documents in a one-shard index.
Deno.test("cross_fields blends each term's document frequency over its fields", async () => {
  assert.deepEqual(
    await scores({
      multi_match: { query: "fox dog", fields: ["title", "body"], type: "cross_fields" },
    }),
    [["1", 0.68310374], ["5", 0.48830923], ["4", 0.4562791], ["2", 0.45060888], [
      "3",
      0.30799803,
    ]],
  );
});

Deno.test("cross_fields and combined_fields score a repeated term twice", async () => {
  assert.deepEqual(
    await scores({
      multi_match: { query: "fox fox", fields: ["title^2", "body"], type: "cross_fields" },
    }),
    [["3", 0.61599606], ["1", 0.59228665], ["4", 0.3477397]],
  );
  assert.deepEqual(
    await scores({ combined_fields: { query: "dog dog", fields: ["title", "body"] } }),
    [["5", 1.1317847], ["1", 1.0425898], ["2", 0.957104], ["4", 0.6673976]],
  );
});

const MIXED = [
  { uid: "u1", title: "stone", tag: "blue", count: 1 },
  { uid: "u2", title: "river stone", body: "stone stone", tag: "red" },
  { uid: "u3", title: "river", body: "fox", tag: "stone" },
  { uid: "u4", title: "fox", body: "fox" },
];

async function mixedScores(
  flavour: "elasticsearch" | "opensearch",
  mm: Reply,
): Promise<Array<[string, number]>> {
  const engine = new Engine({ flavour });
  await call(engine, "PUT", "/m", {
    settings: { number_of_shards: 1 },
    mappings: {
      properties: {
        uid: { type: "keyword" },
        title: { type: "text", fields: { raw: { type: "keyword" } } },
        body: { type: "text" },
        tag: { type: "keyword" },
        count: { type: "integer" },
      },
    },
  });
  for (const [i, doc] of MIXED.entries()) await call(engine, "PUT", `/m/_doc/${i + 1}`, doc);
  await call(engine, "POST", "/m/_refresh");
  const res = await call(engine, "POST", "/m/_search", { query: { multi_match: mm } });
  engine.close();
  return res.hits.hits.map((h: Reply) => [h._id, h._score]);
}

// Expected values: real Elasticsearch 9.5.4 and OpenSearch 3.8.0 on the same four documents.
Deno.test("cross_fields groups text and keyword fields by analyzer, a dis_max of the groups", async () => {
  const star = { query: "stone", fields: ["*"], type: "cross_fields" };
  const and = { query: "river stone", fields: ["*"], type: "cross_fields", operator: "and" };
  const tie = {
    query: "river stone",
    fields: ["title", "title.raw", "tag"],
    type: "cross_fields",
    tie_breaker: 0.3,
  };
  // the query's own analyzer puts every field in one group
  const one = {
    query: "stone",
    fields: ["title^2", "tag"],
    type: "cross_fields",
    analyzer: "standard",
  };
  assert.deepEqual(await mixedScores("elasticsearch", star), [
    ["1", 1.2039728],
    ["3", 0.9808291],
    ["2", 0.55654144],
  ]);
  assert.deepEqual(await mixedScores("elasticsearch", and), [["2", 1.2039728]]);
  assert.deepEqual(await mixedScores("elasticsearch", tie), [
    ["2", 1.5378977],
    ["1", 0.7549127],
    ["3", 0.7549127],
  ]);
  assert.deepEqual(await mixedScores("elasticsearch", one), [
    ["1", 1.5098253],
    ["2", 1.1130829],
    ["3", 0.13353139],
  ]);
  // OpenSearch scores a keyword term with doc values as its boost
  assert.deepEqual(await mixedScores("opensearch", star), [["1", 1], ["3", 1], ["2", 0.25297338]]);
  assert.deepEqual(await mixedScores("opensearch", and), [["2", 1]]);
  assert.deepEqual(await mixedScores("opensearch", tie), [
    ["2", 1.1517841],
    ["1", 0.34314215],
    ["3", 0.34314215],
  ]);
  assert.deepEqual(await mixedScores("opensearch", one), [
    ["3", 1],
    ["1", 0.6862843],
    ["2", 0.50594676],
  ]);
});

async function keywordScores(
  flavour: "elasticsearch" | "opensearch",
  query: Reply,
): Promise<Array<[string, number]>> {
  const engine = new Engine({ flavour });
  await call(engine, "PUT", "/k", {
    mappings: {
      properties: {
        title: { type: "text", fields: { raw: { type: "keyword" } } },
        body: { type: "text" },
        tag: { type: "keyword" },
        n: { type: "integer" },
      },
    },
  });
  const docs = [
    { title: "lazy", tag: "x", n: 1 },
    { title: "lazy dog", tag: "lazy", n: 2 },
    { title: "dog", tag: "y", n: 3 },
    { title: "cat", body: "lazy cat", tag: "y" },
  ];
  for (const [i, doc] of docs.entries()) await call(engine, "PUT", `/k/_doc/${i + 1}`, doc);
  await call(engine, "POST", "/k/_refresh");
  const res = await call(engine, "POST", "/k/_search", { query: { multi_match: query } });
  engine.close();
  return res.hits.hits.map((h: Reply) => [h._id, h._score]);
}

// Expected values: real Elasticsearch 9.5.4 and OpenSearch 3.8.0, the same four documents in a
// one-shard index (`_validate/query?explain`: ES `blended(terms:[title.raw:lazy, tag:lazy])`,
// OS `(ConstantScore(title.raw:lazy) | ConstantScore(tag:lazy))`).

Deno.test("cross_fields searches keyword fields as a group of their own", async () => {
  const star = { query: "lazy", fields: ["*"], type: "cross_fields" };
  assert.deepEqual(await keywordScores("elasticsearch", star), [
    ["1", 1.2039728],
    ["2", 1.2039728],
    ["4", 0.2876821],
  ]);
  assert.deepEqual(await keywordScores("opensearch", star), [
    ["1", 1],
    ["2", 1],
    ["4", 0.13076457],
  ]);
  const words = {
    query: "lazy dog",
    fields: ["title", "title.raw", "tag^2"],
    type: "cross_fields",
  };
  assert.deepEqual(await keywordScores("elasticsearch", words), [
    ["2", 1.2039728],
    ["1", 0.7549127],
    ["3", 0.7549127],
  ]);
  assert.deepEqual(await keywordScores("opensearch", words), [
    ["2", 1],
    ["1", 0.34314215],
    ["3", 0.34314215],
  ]);
  const tie = {
    query: "lazy",
    fields: ["title", "title.raw^3", "tag^2"],
    type: "cross_fields",
    tie_breaker: 0.5,
  };
  assert.deepEqual(await keywordScores("elasticsearch", tie), [["1", 3.9893749], ["2", 2.6862164]]);
  assert.deepEqual(await keywordScores("opensearch", tie), [["1", 3.171571], ["2", 2.1264868]]);
});
