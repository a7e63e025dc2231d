import assert from "node:assert/strict";
import { DataSource } from "../driver/mod.ts";
import { LambdaTemplate } from "./mod.ts";
import { FILTER_SCRIPTS, SCORE_SCRIPTS } from "./vectors.ts";

const lambda = new LambdaTemplate(new DataSource("http://127.0.0.1:9200"));

Deno.test("orderByCosine with conditions: the knn section, conditions as its pre-filter", () => {
  const cmd = lambda.query("vec").eq("cat", "a").orderByCosine("emb", [0.5, 0.5]).toCommand();
  assert.deepEqual(cmd, {
    text: 'POST /{?}/_search {"knn":{"field":"emb","query_vector":?,"k":?,"num_candidates":?,' +
      '"filter":{"bool":{"filter":[{"term":{"cat":?}}]}}},"size":?,"track_total_hits":true}',
    args: ["vec", [0.5, 0.5], 10, 15, "a", 10],
  });
});

Deno.test("k and num_candidates are settable and bound; a page sets k to its end", () => {
  const q = lambda.query("vec").orderByL2("emb", [1, 2]);
  assert.deepEqual(q.knnOptions({ k: 3, numCandidates: 40 }).toCommand(), {
    text: 'POST /{?}/_search {"knn":{"field":"emb","query_vector":?,"k":?,"num_candidates":?},' +
      '"size":?,"track_total_hits":true}',
    args: ["vec", [1, 2], 3, 40, 3],
  });
  assert.deepEqual(q.initPage(5, 2).toCommand().args, ["vec", [1, 2], 15, 23, 10, 5]);
  assert.throws(() => q.knnOptions({ k: 0 }), /k must be an integer from 1 to 10000/);
  assert.throws(
    () => q.knnOptions({ k: 50, numCandidates: 10 }),
    /numCandidates \(10\) cannot be less than k \(50\)/,
  );
});

Deno.test("the OpenSearch dialect: its knn query with the conditions as filter", () => {
  const cmd = lambda.query("vec").gt("n", 3).orderByL2("emb", [1, 2])
    .toCommand({ vectorDialect: "opensearch" });
  assert.deepEqual(cmd, {
    text: 'POST /{?}/_search {"query":{"knn":{"emb":{"vector":?,"k":?,' +
      '"filter":{"bool":{"filter":[{"range":{"n":{"gt":?}}}]}}}}},"size":?,"track_total_hits":true}',
    args: ["vec", [1, 2], 10, 3, 10],
  });
});

Deno.test("the script dialect: script_score over the conditions, metric script a constant", () => {
  for (const [method, metric] of [["orderByL2", "l2"], ["orderByIP", "ip"]] as const) {
    const cmd = lambda.query("vec").eq("cat", "a")[method]("emb", [1, 0]).orderBy("n")
      .toCommand({ vectorDialect: "script" });
    assert.deepEqual(cmd, {
      text: 'POST /{?}/_search {"query":{"script_score":{"query":{"bool":{"must":[' +
        '{"bool":{"filter":[{"term":{"cat":?}}]}}],"filter":[{"exists":{"field":"emb"}}]}},' +
        `"script":{"source":${JSON.stringify(SCORE_SCRIPTS[metric])},"lang":"painless",` +
        '"params":{"vector":?,"field":?}}}},"sort":[{"_score":{"order":"desc"}},' +
        '{"n":{"order":"asc"}}],"size":?,"track_total_hits":true}',
      args: ["vec", "a", [1, 0], "emb", 10],
    });
  }
});

Deno.test("orderByHamming is always an exact script_score; a mismatched similarity too", () => {
  const hamming = lambda.query("vec").orderByHamming("bits", [1, 2]).toCommand();
  assert.match(hamming.text, /"script_score"/);
  assert.match(hamming.text, /hamming\(params\.vector, params\.field\)/);
  const mapping = new Map([["emb", { type: "dense_vector", similarity: "cosine" }]]);
  assert.match(
    lambda.query("vec").orderByL2("emb", [1, 2]).toCommand({ mapping }).text,
    /"script_score"/,
  );
  assert.match(
    lambda.query("vec").orderByCosine("emb", [1, 2]).toCommand({ mapping }).text,
    /^POST \/\{\?\}\/_search \{"knn"/,
  );
});

Deno.test("vectorBy*: a script filter whose vector, field and threshold are all arguments", () => {
  const q = lambda.query("vec").vectorByL2("emb", [1, 2], 0.75).or().vectorByIP("emb", [3, 4], 9.5)
    .not((g) => g.vectorByCosine("emb", [5, 6], 0.125));
  const cmd = q.toCommand();
  const filter = (metric: "l2" | "cosine" | "ip") =>
    `{"script":{"script":{"source":${
      JSON.stringify(FILTER_SCRIPTS[metric])
    },"lang":"painless","params":{"vector":?,"field":?,"threshold":?}}}}`;
  assert.equal(
    cmd.text,
    `POST /{?}/_search {"query":{"bool":{"should":[${filter("l2")},{"bool":{"filter":[${
      filter("ip")
    },{"bool":{"must_not":[${filter("cosine")}]}}]}}],"minimum_should_match":1}},` +
      `"size":?,"track_total_hits":true}`,
  );
  assert.deepEqual(cmd.args, [
    "vec",
    [1, 2],
    "emb",
    0.75,
    [3, 4],
    "emb",
    9.5,
    [5, 6],
    "emb",
    0.125,
    10000,
  ]);
  // No value reaches the text; no script source holds a placeholder.
  for (const v of ["0.75", "9.5", "0.125", "[1,2]"]) assert.ok(!cmd.text.includes(v));
  for (const s of [...Object.values(FILTER_SCRIPTS), ...Object.values(SCORE_SCRIPTS)]) {
    assert.ok(!s.includes("?"), s);
  }
});

Deno.test("vector arguments are checked where they are given", () => {
  const q = lambda.query("vec");
  assert.throws(() => q.orderByL2("emb", []), /orderByL2\("emb"\): the vector is empty/);
  assert.throws(
    () => q.orderByCosine("emb", [1, NaN]),
    /orderByCosine\("emb"\): element 1 \(NaN\) is not a finite number/,
  );
  assert.throws(
    () => q.vectorByL2("emb", [1], Infinity),
    /vectorByL2\("emb"\): the threshold must be a finite number/,
  );
  assert.throws(
    () => q.orderByL2("emb", [1]).orderByIP("emb", [1]),
    /already ordered by vector similarity/,
  );
  // Typed arrays are taken as plain numbers.
  assert.deepEqual(
    q.orderByL2("emb", new Float32Array([0.5, 0.25])).toCommand().args[1],
    [0.5, 0.25],
  );
});

Deno.test("OpenSearch: an exact order (space mismatch, Hamming) uses its knn_score script", () => {
  const mapping = new Map([["emb", { type: "knn_vector", similarity: "l2" }]]);
  const cmd = lambda.query("vec").eq("cat", "a").orderByCosine("emb", [1, 0])
    .toCommand({ mapping, vectorDialect: "opensearch" });
  assert.deepEqual(cmd, {
    text: 'POST /{?}/_search {"query":{"script_score":{"query":{"bool":{"must":[' +
      '{"bool":{"filter":[{"term":{"cat":?}}]}}],"filter":[{"exists":{"field":"emb"}}]}},' +
      '"script":{"source":"knn_score","lang":"knn","params":{"field":?,"query_value":?,' +
      '"space_type":?}}}},"size":?,"track_total_hits":true}',
    args: ["vec", "a", "emb", [1, 0], "cosinesimil", 10],
  });
  const ip = lambda.query("vec").orderByIP("emb", [1, 0]).toCommand({
    mapping,
    vectorDialect: "opensearch",
  });
  assert.deepEqual(ip.args, ["vec", "emb", [1, 0], "innerproduct", 10]);
});

Deno.test("vectorBy* for OpenSearch: knn_score in script_score, the threshold's score bound", () => {
  const cmd = lambda.query("vec").vectorByL2("emb", [1, 2], 3).toCommand({
    vectorDialect: "opensearch",
  });
  assert.deepEqual(cmd, {
    text: 'POST /{?}/_search {"query":{"bool":{"filter":[{"script_score":{"query":{"exists":' +
      '{"field":"emb"}},"script":{"source":"knn_score","lang":"knn","params":{"field":?,' +
      '"query_value":?,"space_type":?}},"min_score":?}}]}},"size":?,"track_total_hits":true}',
    args: ["vec", "emb", [1, 2], "l2", 0.1, 10000],
  });
});
