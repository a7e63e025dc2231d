import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

async function posts(): Promise<Engine> {
  const engine = new Engine();
  await call(engine, "PUT", "/posts", {
    mappings: {
      properties: {
        title: { type: "text" },
        comments: {
          type: "nested",
          properties: { author: { type: "keyword" }, stars: { type: "integer" } },
        },
      },
    },
  });
  await call(engine, "PUT", "/posts/_doc/1", {
    title: "one",
    comments: [
      { author: "ann", stars: 5 },
      { author: "bob", stars: 1 },
      { author: "ann", stars: 2 },
    ],
  });
  await call(engine, "PUT", "/posts/_doc/2?refresh=true", {
    title: "two",
    comments: { author: "bob", stars: 4 },
  });
  return engine;
}

const nested = (query: unknown, innerHits: unknown = {}) => ({
  query: { nested: { path: "comments", query, inner_hits: innerHits } },
});

Deno.test("inner_hits: each hit lists its matching nested objects with _nested offsets", async () => {
  const engine = await posts();
  const res = await call(
    engine,
    "POST",
    "/posts/_search",
    nested({ term: { "comments.author": "ann" } }),
  );
  assert.equal(res.hits.total.value, 1);
  const inner = res.hits.hits[0].inner_hits.comments.hits;
  assert.equal(inner.total.value, 2);
  assert.deepEqual(
    inner.hits.map((h: Reply) => [h._id, h._nested, h._source]),
    [
      ["1", { field: "comments", offset: 0 }, { author: "ann", stars: 5 }],
      ["1", { field: "comments", offset: 2 }, { author: "ann", stars: 2 }],
    ],
  );
});

Deno.test("inner_hits: conditions hold per object, a single object, name, size and from", async () => {
  const engine = await posts();
  // ann with 1 star exists in no single object, though doc 1 holds both values flat.
  const same = await call(
    engine,
    "POST",
    "/posts/_search",
    nested({
      bool: {
        filter: [{ term: { "comments.author": "bob" } }, {
          range: { "comments.stars": { gte: 2 } },
        }],
      },
    }, { name: "good_bob", _source: ["comments.stars"] }),
  );
  const byId = Object.fromEntries(
    same.hits.hits.map((h: Reply) => [h._id, h.inner_hits.good_bob.hits]),
  );
  assert.equal(byId["1"], undefined, "no single object of doc 1 is bob with 2+ stars");
  assert.deepEqual(byId["2"].hits[0]._nested, { field: "comments", offset: 0 });
  assert.deepEqual(byId["2"].hits[0]._source, { stars: 4 });
  const paged = await call(
    engine,
    "POST",
    "/posts/_search",
    nested({ range: { "comments.stars": { gte: 1 } } }, { size: 1, from: 1 }),
  );
  const one = paged.hits.hits.find((h: Reply) => h._id === "1").inner_hits.comments.hits;
  assert.equal(one.total.value, 3);
  assert.equal(one.hits.length, 1);
  assert.equal(one.hits[0]._nested.offset, 1);
});

async function forum(): Promise<Engine> {
  const engine = new Engine();
  await call(engine, "PUT", "/forum", {
    mappings: {
      properties: {
        title: { type: "text" },
        comments: {
          type: "nested",
          properties: {
            text: { type: "text" },
            stars: { type: "integer" },
            votes: { type: "nested", properties: { voter: { type: "keyword" } } },
          },
        },
      },
    },
  });
  await call(engine, "PUT", "/forum/_doc/1?refresh=true", {
    title: "first",
    comments: [
      { text: "quick brown fox", stars: 3, votes: [{ voter: "kim" }, { voter: "lee" }] },
      { text: "lazy dog", stars: 5, votes: [] },
      { text: "quick quick fox", stars: 1, votes: { voter: "kim" } },
    ],
  });
  return engine;
}

Deno.test("inner_hits: sort, track_scores, _source filtering, highlight, docvalue_fields, version", async () => {
  const engine = await forum();
  const res = await call(engine, "POST", "/forum/_search", {
    query: {
      nested: {
        path: "comments",
        query: { match: { "comments.text": "quick" } },
        inner_hits: {
          sort: [{ "comments.stars": "desc" }],
          _source: { includes: ["comments.text"] },
          highlight: { fields: { "comments.text": {} } },
          docvalue_fields: ["comments.stars", "_seq_no"],
          version: true,
          seq_no_primary_term: true,
        },
      },
    },
  });
  assert.equal(res.code, 200, JSON.stringify(res));
  const inner = res.hits.hits[0].inner_hits.comments.hits;
  assert.equal(inner.total.value, 2);
  assert.equal(inner.max_score, null, "sorted by a field without track_scores: no scores");
  const [a, b] = inner.hits;
  assert.deepEqual(Object.keys(a).slice(0, 3), ["_index", "_id", "_nested"]);
  assert.deepEqual([a._nested, b._nested], [
    { field: "comments", offset: 0 },
    { field: "comments", offset: 2 },
  ]);
  assert.deepEqual(a._source, { text: "quick brown fox" });
  assert.deepEqual(a.sort, [3]);
  assert.equal(a._score, null);
  assert.deepEqual(a.highlight, { "comments.text": ["<em>quick</em> brown fox"] });
  assert.deepEqual(a.fields, { "comments.stars": [3], _seq_no: [0] });
  assert.equal(a._version, 1);
  assert.equal(a._seq_no, 0);
  assert.equal(a._primary_term, 1);
  // By score: the object saying quick twice comes first.
  const byScore = await call(engine, "POST", "/forum/_search", {
    query: {
      nested: { path: "comments", query: { match: { "comments.text": "quick" } }, inner_hits: {} },
    },
  });
  const scored = byScore.hits.hits[0].inner_hits.comments.hits;
  assert.deepEqual(scored.hits.map((h: Reply) => h._nested.offset), [2, 0]);
  assert.ok(scored.hits[0]._score > scored.hits[1]._score);
  assert.equal(scored.max_score, scored.hits[0]._score);
});

Deno.test("inner_hits: multi-level paths and inner hits inside inner hits", async () => {
  const engine = await forum();
  const direct = await call(engine, "POST", "/forum/_search", {
    query: {
      nested: {
        path: "comments.votes",
        query: { term: { "comments.votes.voter": "kim" } },
        inner_hits: {},
      },
    },
  });
  const votes = direct.hits.hits[0].inner_hits["comments.votes"].hits;
  assert.equal(votes.total.value, 2);
  assert.deepEqual(votes.hits.map((h: Reply) => [h._nested, h._source]), [
    [{ field: "comments", offset: 0, _nested: { field: "votes", offset: 0 } }, { voter: "kim" }],
    [{ field: "comments", offset: 2, _nested: { field: "votes", offset: 0 } }, { voter: "kim" }],
  ]);
  const tree = await call(engine, "POST", "/forum/_search", {
    query: {
      nested: {
        path: "comments",
        inner_hits: { name: "c" },
        query: {
          nested: {
            path: "comments.votes",
            query: { term: { "comments.votes.voter": "lee" } },
            inner_hits: { name: "v" },
          },
        },
      },
    },
  });
  const c = tree.hits.hits[0].inner_hits.c.hits;
  assert.equal(c.total.value, 1);
  assert.deepEqual(c.hits[0]._nested, { field: "comments", offset: 0 });
  const v = c.hits[0].inner_hits.v.hits;
  assert.deepEqual(v.hits.map((h: Reply) => [h._nested, h._source]), [
    [{ field: "comments", offset: 0, _nested: { field: "votes", offset: 1 } }, { voter: "lee" }],
  ]);
  assert.equal(tree.hits.hits[0].inner_hits.v, undefined);
});

Deno.test("inner_hits: a name used twice and a window past max_inner_result_window are refused", async () => {
  const engine = await forum();
  const twice = await call(engine, "POST", "/forum/_search", {
    query: {
      bool: {
        should: [1, 2].map((stars) => ({
          nested: {
            path: "comments",
            query: { term: { "comments.stars": stars } },
            inner_hits: { name: "same" },
          },
        })),
      },
    },
  });
  assert.equal(twice.code, 400);
  assert.equal(twice.error.root_cause[0].type, "illegal_argument_exception");
  assert.equal(
    twice.error.root_cause[0].reason,
    "[inner_hits] already contains an entry for key [same]",
  );
  const wide = await call(
    engine,
    "POST",
    "/forum/_search",
    nested({ match_all: {} }, { from: 95, size: 6 }),
  );
  assert.equal(wide.code, 400);
  assert.match(
    wide.error.root_cause[0].reason,
    /^Inner result window is too large, the inner hit definition's \[comments\]'s from \+ size must be less than or equal to: \[100\] but was \[101\]/,
  );
  await call(engine, "PUT", "/forum/_settings", { index: { max_inner_result_window: 200 } });
  const allowed = await call(
    engine,
    "POST",
    "/forum/_search",
    nested({ match_all: {} }, { from: 95, size: 6 }),
  );
  assert.equal(allowed.code, 200, JSON.stringify(allowed));
  assert.equal(allowed.hits.hits[0].inner_hits.comments.hits.total.value, 3);
});

Deno.test("inner_hits: named queries inside the nested query are matched per object", async () => {
  const engine = await forum();
  const res = await call(engine, "POST", "/forum/_search", {
    query: {
      nested: {
        path: "comments",
        query: {
          bool: {
            should: [
              { match: { "comments.text": { query: "fox", _name: "fox" } } },
              { range: { "comments.stars": { gte: 5, _name: "five" } } },
            ],
          },
        },
        inner_hits: { sort: [{ "comments.stars": "asc" }] },
      },
    },
  });
  assert.equal(res.code, 200, JSON.stringify(res));
  assert.equal(res.hits.hits[0].matched_queries, undefined, "names inside nested stay per object");
  const inner = res.hits.hits[0].inner_hits.comments.hits.hits;
  assert.deepEqual(inner.map((h: Reply) => [h._nested.offset, h.matched_queries]), [
    [2, ["fox"]],
    [0, ["fox"]],
    [1, ["five"]],
  ]);
});
