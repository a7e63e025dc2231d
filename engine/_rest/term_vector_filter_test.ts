// The term vectors `filter` against answers recorded from Elasticsearch 9.5.4: a one-shard index
// `tvf` holding "bb dd ff", "dd ff" and "ff" (document frequencies 1, 2 and 3), documents of the
// request scored against it.

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { jsonReply as json } from "../../tests/support/engine_call.ts";

async function seeded(): Promise<Engine> {
  const engine = new Engine();
  await json(engine, "PUT", "/tvf", {
    settings: { number_of_shards: 1, number_of_replicas: 0 },
    mappings: { properties: { t: { type: "text" } } },
  });
  for (const [id, t] of [["1", "bb dd ff"], ["2", "dd ff"], ["3", "ff"]]) {
    await json(engine, "PUT", `/tvf/_doc/${id}`, { t });
  }
  await json(engine, "POST", "/tvf/_refresh");
  return engine;
}

/** The kept terms of field `t` and their scores. */
async function kept(engine: Engine, t: string, filter: Record<string, unknown>) {
  const body = { doc: { t }, positions: false, offsets: false, filter };
  const r = await json(engine, "POST", "/tvf/_termvectors", body);
  const terms = r.body.term_vectors.t.terms as Record<string, { score: number }>;
  return Object.fromEntries(Object.entries(terms).map(([k, v]) => [k, v.score]));
}

const close = (got: Record<string, number>, want: Record<string, number>) => {
  assert.deepEqual(Object.keys(got), Object.keys(want));
  for (const k of Object.keys(want)) assert.ok(Math.abs(got[k]! - want[k]!) < 1e-6, k);
};

Deno.test("filter: the best tf-idf terms, with the shard's lookups for terms it lacks", async () => {
  const engine = await seeded();
  try {
    const all = { max_num_terms: 10 };
    // aa lies before the shard's first term (left out); cc and ee take the next term's
    // frequency (dd, ff); gg, past the last, the one the previous lookup stood on.
    close(await kept(engine, "aa bb cc dd ee ff gg", all), {
      bb: 1.6931472,
      cc: 1.287682,
      dd: 1.287682,
      ee: 1,
      ff: 1,
      gg: 1,
    });
    close(await kept(engine, "aa ab bb", all), { bb: 1.6931472 });
    close(await kept(engine, "cc gg", all), { cc: 1.287682, gg: 1.287682 });
    close(await kept(engine, "gg", all), {});
    close(await kept(engine, "bb gg", all), { bb: 1.6931472, gg: 1.6931472 });
    close(await kept(engine, "dd gg hh", all), { dd: 1.287682, gg: 1.287682, hh: 1.287682 });
    // the queue keeps the two highest scores: ff twice (2.0) and bb (1.69)
    close(await kept(engine, "ff ff dd bb", { max_num_terms: 2 }), { bb: 1.6931472, ff: 2 });
    close(await kept(engine, "bb dd", { max_num_terms: 2, min_word_length: 3 }), {});
    close(await kept(engine, "bb dd ff ff", { max_term_freq: 1 }), { bb: 1.6931472, dd: 1.287682 });
    close(await kept(engine, "bb dd ff ff", { max_doc_freq: 2 }), { bb: 1.6931472, dd: 1.287682 });
  } finally {
    engine.close();
  }
});

Deno.test("filter: a stored document, an empty shard, and bad settings", async () => {
  const engine = await seeded();
  try {
    const stored = await json(engine, "POST", "/tvf/_termvectors/1", { fields: ["t"], filter: {} });
    const terms = stored.body.term_vectors.t.terms;
    assert.deepEqual(Object.keys(terms), ["bb", "dd", "ff"]);
    assert.deepEqual(Object.keys(terms.bb), ["term_freq", "tokens", "score"]);
    assert.equal(terms.ff.score, 1);
    // A shard without the field's terms scores the document's own: one document, each term once.
    await json(engine, "PUT", "/tve", {
      settings: { number_of_shards: 1 },
      mappings: { properties: { t: { type: "text" } } },
    });
    const own = await json(engine, "POST", "/tve/_termvectors", {
      doc: { t: "aa bb aa cc" },
      filter: { max_num_terms: 2 },
    });
    const scores = Object.entries(
      own.body.term_vectors.t.terms as Record<string, { score: number }>,
    )
      .map(([k, v]) => [k, v.score]);
    assert.deepEqual(scores, [["aa", 2], ["bb", 1]]);
    const bogus = await json(engine, "POST", "/tvf/_termvectors", {
      doc: { t: "bb" },
      filter: { bogus: 1 },
    });
    assert.equal(bogus.status, 400);
    assert.equal(bogus.body.error.type, "parse_exception");
    assert.equal(
      bogus.body.error.reason,
      "failed to parse term vectors request. the field [bogus] is not valid for filter parameter for term vector request",
    );
    const nan = await json(engine, "POST", "/tvf/_termvectors", {
      doc: { t: "bb" },
      filter: { max_num_terms: "x" },
    });
    assert.equal(nan.status, 400);
    assert.equal(nan.body.error.type, "number_format_exception");
    assert.equal(nan.body.error.reason, 'For input string: "x"');
  } finally {
    engine.close();
  }
});
