// Explanation trees against the real engines' answers: every expected tree below is the answer of
// Elasticsearch 9.5.4 or OpenSearch 3.8.0 to the same index and request (values to six digits;
// Lucene's tf is a float division the tester compares within 1e-5).

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

const MAPPINGS = {
  properties: {
    title: { type: "text" },
    body: { type: "text" },
    tag: { type: "keyword" },
    count: { type: "integer" },
    ratio: { type: "float" },
    items: { type: "nested", properties: { sku: { type: "keyword" } } },
  },
};
const DOCS = [
  {
    title: "quick brown fox",
    body: "fox river",
    tag: "red",
    count: 5,
    ratio: 0.5,
    items: [{ sku: "s1" }, { sku: "s2" }],
  },
  { title: "lazy dog", tag: "blue", count: 7, ratio: 2.5 },
  {
    title: "quick fox jumps over the fox",
    body: "lazy fox",
    tag: "red",
    count: 1,
    ratio: 1,
    items: [{ sku: "s1" }],
  },
];

async function loaded(flavour: "elasticsearch" | "opensearch"): Promise<Engine> {
  const engine = new Engine({ flavour, log: () => {} });
  await call(engine, "PUT", "/t", {
    settings: { number_of_shards: 1, number_of_replicas: 0 },
    mappings: MAPPINGS,
  });
  const lines = DOCS.flatMap((d, i) => [
    JSON.stringify({ index: { _index: "t", _id: String(i + 1) } }),
    JSON.stringify(d),
  ]);
  await call(engine, "POST", "/_bulk?refresh=true", lines.join("\n") + "\n");
  return engine;
}

/** A tree as indented lines of value and description. */
function lines(e: Reply, depth = 0): string[] {
  return [
    `${" ".repeat(depth)}${Number(e.value.toPrecision(6))} ${e.description}`,
    ...e.details.flatMap((d: Reply) => lines(d, depth + 1)),
  ];
}

const BM25 = (boost: string[]) => (term: string) => [
  ` 0.${
    boost.length ? "507772" : "230805"
  } weight(title:${term} in 2) [PerFieldSimilarity], result of:`,
  `  0.${boost.length ? "507772" : "230805"} score(freq=1.0), computed as boost * idf * tf from:`,
  ...boost,
  "   0.470004 idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:",
  "    2 n, number of documents containing term",
  "    3 N, total number of documents with field",
  "   0.491071 tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:",
  "    1 freq, occurrences of term within document",
  "    1.2 k1, term saturation parameter",
  "    0.75 b, length normalization parameter",
  "    3 dl, length of field",
  "    3.66667 avgdl, average length of field",
];

Deno.test("explain: true on a search: BM25 trees under sum of, with _shard and _node", async () => {
  for (
    const [flavour, top, boost] of [
      // Elasticsearch 9.5.4: LegacyBM25Similarity's boost of 2.2 is printed.
      ["elasticsearch", "1.01554", ["   2.2 boost"]],
      // OpenSearch 3.8.0: BM25Similarity, no boost line.
      ["opensearch", "0.461611", []],
    ] as const
  ) {
    const engine = await loaded(flavour);
    const r = await call(engine, "POST", "/t/_search", {
      size: 1,
      _source: false,
      explain: true,
      query: { match: { title: "quick fox" } },
    });
    const hit = r.hits.hits[0];
    assert.equal(hit._shard, "[t][0]");
    assert.equal(typeof hit._node, "string");
    assert.equal(hit._id, "1");
    assert.deepEqual(lines(hit._explanation), [
      `${top} sum of:`,
      ...BM25([...boost])("quick"),
      ...BM25([...boost])("fox"),
    ]);
    engine.close();
  }
});

Deno.test("_explain: Lucene's descriptions, doc ids counting nested objects, the nested filter", async () => {
  const cases: Array<[string, string, unknown, { es: string[]; os: string[] }]> = [
    ["term on a keyword, no match", "2", { term: { tag: "red" } }, {
      es: ["0 no matching term"],
      // OpenSearch scores a keyword with doc values as a constant; doc 2 is Lucene's doc 3.
      os: ["0 ConstantScore(tag:red) doesn't match id 3"],
    }],
    ["a multi-term query gets the root-document filter", "1", { regexp: { tag: "re.*" } }, {
      es: [
        "1 sum of:",
        " 1 tag:/re.*/",
        " 0 match on required clause, product of:",
        "  0 # clause",
        "  1 FieldExistsQuery [field=_primary_term]",
      ],
      os: [
        "1 sum of:",
        " 1 tag:/re.*/",
        " 0 match on required clause, product of:",
        "  0 # clause",
        "  1 FieldExistsQuery [field=_primary_term]",
      ],
    }],
    ["nested without scores", "3", {
      nested: { path: "items", query: { term: { "items.sku": "s1" } }, score_mode: "none" },
    }, {
      es: [
        "0 Score based on 1 child docs in range from 4 to 4, using score mode None",
        " 0 ConstantScore(items.sku:s1)^0.0",
      ],
      os: [
        "0 Score based on 1 child docs in range from 4 to 4, using score mode None",
        " 0 ConstantScore(items.sku:s1)^0.0",
      ],
    }],
    ["a point range", "2", { range: { count: { gte: 6 } } }, {
      es: ["1 count:[6 TO 2147483647]"],
      os: ["1 Approximate(count:[6 TO 2147483647])"],
    }],
  ];
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = await loaded(flavour);
    for (const [name, id, query, want] of cases) {
      const r = await call(engine, "POST", `/t/_explain/${id}`, { query });
      assert.deepEqual(lines(r.explanation), flavour === "opensearch" ? want.os : want.es, name);
    }
    engine.close();
  }
});

const FILTER = [
  " 0 match on required clause, product of:",
  "  0 # clause",
  "  1 FieldExistsQuery [field=_primary_term]",
];
const TF = (tf: string, freq: string, dl: string, avgdl: string) => [
  `   ${tf} tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:`,
  `    ${freq}`,
  "    1.2 k1, term saturation parameter",
  "    0.75 b, length normalization parameter",
  `    ${dl} dl, length of field`,
  `    ${avgdl} avgdl, average length of field`,
];
const IDF = (indent: string) => [
  `${indent}0.470004 idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:`,
  `${indent} 2 n, number of documents containing term`,
  `${indent} 3 N, total number of documents with field`,
];

Deno.test("_explain: combined_fields, phrase prefix, fuzzy, float ranges, unmeetable counts", async () => {
  // Each `es` tree is Elasticsearch 9.5.4's answer for doc 3 (Lucene doc 5), `os` OpenSearch
  // 3.8.0's; they differ in the boost line (LegacyBM25Similarity) and the printing of ranges.
  const cases: Array<[string, unknown, { es: string[]; os: string[] }]> = [
    ["a repeated term merges into one boosted clause", {
      combined_fields: { query: "fox fox", fields: ["title", "body"] },
    }, {
      es: [
        "1.30887 sum of:",
        " 1.30887 weight(CombinedFieldQuery((body title)(fox)) in 5), result of:",
        "  1.30887 score(freq=3.0), computed as boost * idf * tf from:",
        "   4.4 boost",
        ...IDF("   "),
        ...TF("0.632911", "3 termFreq=3.0", "8", "5"),
        ...FILTER,
      ],
      os: [
        "0.594941 sum of:",
        " 0.594941 weight(CombinedFieldQuery((body title)(fox)) in 5), result of:",
        "  0.594941 score(freq=3.0), computed as boost * idf * tf from:",
        "   2 boost",
        ...IDF("   "),
        ...TF("0.632911", "3 termFreq=3.0", "8", "5"),
        ...FILTER,
      ],
    }],
    ["the last term of a phrase prefix expands", { match_phrase_prefix: { title: "quick fo" } }, {
      es: [
        "0.745842 sum of:",
        ' 0.745842 weight(title:"quick fox" in 5) [PerFieldSimilarity], result of:',
        "  0.745842 score(freq=1.0), computed as boost * idf * tf from:",
        "   2.2 boost",
        "   0.940007 idf, sum of:",
        ...IDF("    "),
        ...IDF("    "),
        ...TF("0.360656", "1 phraseFreq=1.0", "6", "3.66667"),
        ...FILTER,
      ],
      os: [
        "0.339019 sum of:",
        ' 0.339019 weight(title:"quick fox" in 5) [PerFieldSimilarity], result of:',
        "  0.339019 score(freq=1.0), computed as boost * idf * tf from:",
        "   0.940007 idf, sum of:",
        ...IDF("    "),
        ...IDF("    "),
        ...TF("0.360656", "1 phraseFreq=1.0", "6", "3.66667"),
        ...FILTER,
      ],
    }],
    ["a fuzzy term's one expansion, boosted by its distance", {
      fuzzy: { title: { value: "quikc" } },
    }, {
      es: [
        "0.298337 sum of:",
        " 0.298337 weight(title:quick in 5) [PerFieldSimilarity], result of:",
        "  0.298337 score(freq=1.0), computed as boost * idf * tf from:",
        "   1.76 boost",
        ...IDF("   "),
        ...TF("0.360656", "1 freq, occurrences of term within document", "6", "3.66667"),
        ...FILTER,
      ],
      os: [
        "0.135608 sum of:",
        " 0.135608 weight(title:quick in 5) [PerFieldSimilarity], result of:",
        "  0.135608 score(freq=1.0), computed as boost * idf * tf from:",
        "   0.8 boost",
        ...IDF("   "),
        ...TF("0.360656", "1 freq, occurrences of term within document", "6", "3.66667"),
        ...FILTER,
      ],
    }],
    ["a float range: sortable ints, or the floats", { range: { ratio: { gt: 0.5, lte: 2 } } }, {
      es: ["1 ratio:[1056964609 TO 1073741824]"],
      os: ["1 Approximate(ratio:[0.50000006 TO 2.0])"],
    }],
    ["and with a count of optional clauses", {
      match: { title: { query: "lazy dog", operator: "and", minimum_should_match: 1 } },
    }, {
      es: ["0 SHOULD clause count less than minimumNumberShouldMatch"],
      os: ["0 SHOULD clause count less than minimumNumberShouldMatch"],
    }],
  ];
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = await loaded(flavour);
    for (const [name, query, want] of cases) {
      const r = await call(engine, "POST", "/t/_explain/3", { query });
      assert.deepEqual(lines(r.explanation), flavour === "opensearch" ? want.os : want.es, name);
    }
    // The real engines match nothing there: no optional clause can be counted.
    const none = await call(engine, "POST", "/t/_search", {
      query: { match: { title: { query: "lazy dog", operator: "and", minimum_should_match: 1 } } },
    });
    assert.equal(none.hits.total.value, 0);
    engine.close();
  }
});
