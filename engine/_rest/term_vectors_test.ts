// `_termvectors` and `_mtermvectors` against the answers of real Elasticsearch 9.5.4 and
// OpenSearch 3.8.0 (the same on both: one shard, three documents, no deletions).

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

async function seeded(flavour: "elasticsearch" | "opensearch"): Promise<Engine> {
  const engine = new Engine({ flavour });
  await call(engine, "PUT", "/tv", {
    settings: { number_of_shards: 1, number_of_replicas: 0 },
    mappings: {
      properties: {
        text: { type: "text", term_vector: "with_positions_offsets" },
        title: { type: "text", fields: { raw: { type: "keyword" } } },
        n: { type: "integer" },
        tag: { type: "keyword" },
      },
    },
  });
  await call(engine, "PUT", "/tv/_doc/1", {
    text: "The quick brown fox is brown.",
    title: ["Quick fox", "lazy dog"],
    n: 3,
    tag: "a",
  });
  await call(engine, "PUT", "/tv/_doc/2", { text: "brown cow", title: "the cow", n: 4, tag: "b" });
  await call(engine, "PUT", "/tv/_doc/3?refresh=true", {
    text: "a brown dog",
    title: "dog days",
    tag: "a",
  });
  return engine;
}

const tok = (position: number, start_offset: number, end_offset: number) => ({
  position,
  start_offset,
  end_offset,
});

Deno.test("_termvectors: the fields with stored term vectors, computed from the document", async () => {
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = await seeded(flavour);
    const { code, took: _took, ...r } = await call(engine, "GET", "/tv/_termvectors/1");
    assert.equal(code, 200);
    assert.deepEqual(r, {
      _index: "tv",
      _id: "1",
      _version: 1,
      found: true,
      term_vectors: {
        text: {
          field_statistics: { sum_doc_freq: 10, doc_count: 3, sum_ttf: 11 },
          terms: {
            brown: { term_freq: 2, tokens: [tok(2, 10, 15), tok(5, 23, 28)] },
            fox: { term_freq: 1, tokens: [tok(3, 16, 19)] },
            is: { term_freq: 1, tokens: [tok(4, 20, 22)] },
            quick: { term_freq: 1, tokens: [tok(1, 4, 9)] },
            the: { term_freq: 1, tokens: [tok(0, 0, 3)] },
          },
        },
      },
    });
    engine.close();
  }
});

Deno.test("_termvectors: named fields, term statistics, values apart by the position gap", async () => {
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = await seeded(flavour);
    // A number field has no terms to report.
    const r = await call(
      engine,
      "GET",
      "/tv/_termvectors/1?fields=title,n,tag&term_statistics=true",
    );
    assert.deepEqual(r.term_vectors, {
      title: {
        field_statistics: { sum_doc_freq: 8, doc_count: 3, sum_ttf: 8 },
        terms: {
          dog: { doc_freq: 2, ttf: 2, term_freq: 1, tokens: [tok(103, 15, 18)] },
          fox: { doc_freq: 1, ttf: 1, term_freq: 1, tokens: [tok(1, 6, 9)] },
          lazy: { doc_freq: 1, ttf: 1, term_freq: 1, tokens: [tok(102, 10, 14)] },
          quick: { doc_freq: 1, ttf: 1, term_freq: 1, tokens: [tok(0, 0, 5)] },
        },
      },
      tag: {
        field_statistics: { sum_doc_freq: 3, doc_count: 3, sum_ttf: 3 },
        terms: { a: { doc_freq: 2, ttf: 2, term_freq: 1, tokens: [tok(0, 0, 1)] } },
      },
    });
    // A wildcard takes the multi-field too; positions=false leaves the offsets.
    const wild = await call(engine, "GET", "/tv/_termvectors/2?fields=title*&positions=false");
    assert.deepEqual(wild.term_vectors["title.raw"], {
      field_statistics: { sum_doc_freq: 4, doc_count: 3, sum_ttf: 4 },
      terms: { "the cow": { term_freq: 1, tokens: [{ start_offset: 0, end_offset: 7 }] } },
    });
    const bare = await call(
      engine,
      "GET",
      "/tv/_termvectors/3?fields=title&offsets=false&field_statistics=false",
    );
    assert.deepEqual(bare.term_vectors, {
      title: {
        terms: {
          days: { term_freq: 1, tokens: [{ position: 1 }] },
          dog: { term_freq: 1, tokens: [{ position: 0 }] },
        },
      },
    });
    const { code: _c, took: _t, ...missing } = await call(engine, "GET", "/tv/_termvectors/9");
    assert.deepEqual(missing, { _index: "tv", _id: "9", _version: 0, found: false });
    engine.close();
  }
});

Deno.test("_termvectors of a document in the request: its mapped string fields", async () => {
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = await seeded(flavour);
    // The unmapped field is left out; the statistics are the shard's.
    const { code: _c, took: _t, ...r } = await call(engine, "POST", "/tv/_termvectors", {
      doc: { title: "new fox", other: "zzz" },
    });
    assert.deepEqual(r, {
      _index: "tv",
      _version: 0,
      found: true,
      term_vectors: {
        title: {
          field_statistics: { sum_doc_freq: 8, doc_count: 3, sum_ttf: 8 },
          terms: {
            fox: { term_freq: 1, tokens: [tok(1, 4, 7)] },
            new: { term_freq: 1, tokens: [tok(0, 0, 3)] },
          },
        },
        "title.raw": {
          field_statistics: { sum_doc_freq: 4, doc_count: 3, sum_ttf: 4 },
          terms: { "new fox": { term_freq: 1, tokens: [tok(0, 0, 7)] } },
        },
      },
    });
    engine.close();
  }
});

Deno.test("_mtermvectors: docs or ids, an error in its place, a list field is refused", async () => {
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = await seeded(flavour);
    const r = await call(engine, "POST", "/tv/_mtermvectors", {
      docs: [{ _id: "1", fields: ["tag"] }, { _id: "9" }, { _index: "nope", _id: "1" }],
    });
    assert.equal(r.docs.length, 3);
    assert.deepEqual(r.docs[0].term_vectors.tag.terms, {
      a: { term_freq: 1, tokens: [tok(0, 0, 1)] },
    });
    assert.equal(r.docs[1].found, false);
    assert.deepEqual(
      [r.docs[2]._index, r.docs[2]._id, r.docs[2].error.type],
      ["nope", "1", "index_not_found_exception"],
    );
    const ids = await call(engine, "POST", "/tv/_mtermvectors?fields=tag", { ids: ["1", "2"] });
    assert.deepEqual(
      ids.docs.map((d: { _id: string; term_vectors: { tag: { terms: object } } }) => [
        d._id,
        Object.keys(d.term_vectors.tag.terms),
      ]),
      [["1", ["a"]], ["2", ["b"]]],
    );
    // Real Elasticsearch 9.5.4: {"error":{"root_cause":[{"type":"parse_exception","reason":"no
    // parameter named [fields] and type ARRAY"}],…},"status":400}
    const refused = await call(engine, "POST", "/tv/_mtermvectors", {
      ids: ["1"],
      fields: ["tag"],
    });
    assert.deepEqual([refused.code, refused.error.type], [400, "parse_exception"]);
    engine.close();
  }
});
