// Elasticsearch behaviours users and tooling reach for, against the engine over real HTTP:
// request validation order, profile, terms lookup, combined_fields, stored_fields [] and a
// pipeline aggregation.
import assert from "node:assert/strict";
import { Engine, serve } from "../engine/mod.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

async function withServer(fn: (call: Call) => Promise<void>): Promise<void> {
  const engine = new Engine();
  const server = await serve(engine, { port: 0 });
  const call: Call = async (method, path, body) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { ...(await res.json()), code: res.status };
  };
  try {
    await call("PUT", "/books", {
      mappings: {
        properties: {
          title: { type: "text" },
          blurb: { type: "text" },
          tag: { type: "keyword" },
          year: { type: "long" },
        },
      },
    });
    await call("PUT", "/books/_doc/1", {
      title: "quick fox",
      blurb: "a brown dog",
      tag: "a",
      year: 2001,
    });
    await call("PUT", "/books/_doc/2", { title: "lazy dog", blurb: "quick", tag: "b", year: 2003 });
    await call("PUT", "/books/_doc/3", { title: "other", blurb: "none", tag: "c", year: 2004 });
    await call("PUT", "/lists/_doc/mine?refresh=true", { wanted: { tags: ["a", "c"] } });
    await call("POST", "/books/_refresh");
    await fn(call);
  } finally {
    await server.close();
    engine.close();
  }
}

type Call = (method: string, path: string, body?: unknown) => Promise<Json>;

Deno.test("search validation: parameters are checked before the index is looked up", async () => {
  await withServer(async (call) => {
    const type = await call("POST", "/missing/_search?search_type=nope");
    assert.equal(type.code, 400);
    assert.equal(type.error.type, "illegal_argument_exception");
    assert.equal(type.error.reason, "No search type for [nope]");
    const total = await call("POST", "/missing/_search?rest_total_hits_as_int=true", {
      track_total_hits: 100,
    });
    assert.equal(total.code, 400);
    assert.match(total.error.reason, /rest_total_hits_as_int.*got 100/);
    const after = await call("POST", "/missing/_search?terminate_after=-1");
    assert.equal(after.error.reason, "terminateAfter must be > 0");
    const body = await call("POST", "/missing/_search", { query: { nope: {} } });
    assert.equal(body.error.type, "parsing_exception");
    const ok = await call("POST", "/missing/_search?search_type=dfs_query_then_fetch");
    assert.equal(ok.error.type, "index_not_found_exception");
  });
});

Deno.test("profile: true gives a per-shard query profile with Lucene types", async () => {
  await withServer(async (call) => {
    const res = await call("POST", "/books/_search", {
      profile: true,
      query: {
        bool: { must: [{ term: { tag: "a" } }], filter: [{ range: { year: { gte: 2000 } } }] },
      },
    });
    const shard = res.profile.shards[0];
    assert.equal(shard.index, "books");
    assert.match(shard.id, /^\[.+\]\[books\]\[0\]$/);
    const q = shard.searches[0].query[0];
    assert.equal(q.type, "BooleanQuery");
    assert.deepEqual(q.children.map((c: Json) => c.type), ["TermQuery", "IndexOrDocValuesQuery"]);
    assert.ok(q.time_in_nanos >= 1 && typeof q.breakdown.match === "number");
    assert.equal(shard.searches[0].collector[0].reason, "search_query_phase");
    const plain = await call("POST", "/books/_search", {});
    assert.equal(plain.profile, undefined);
  });
});

Deno.test("terms lookup: values read from another document; a missing one matches nothing", async () => {
  await withServer(async (call) => {
    const ids = async (terms: unknown) => {
      const res = await call("POST", "/books/_search", { query: { terms: { tag: terms } } });
      return res.hits.hits.map((h: Json) => h._id).sort();
    };
    assert.deepEqual(await ids({ index: "lists", id: "mine", path: "wanted.tags" }), ["1", "3"]);
    assert.deepEqual(await ids({ index: "lists", id: "gone", path: "wanted.tags" }), []);
    const noIndex = await call("POST", "/books/_search", {
      query: { terms: { tag: { index: "nope", id: "x", path: "p" } } },
    });
    assert.equal(noIndex.error.type, "index_not_found_exception");
    const noId = await call("POST", "/books/_search", {
      query: { terms: { tag: { index: "lists", path: "p" } } },
    });
    assert.equal(noId.code, 400);
    const count = await call("POST", "/books/_count", {
      query: { terms: { tag: { index: "lists", id: "mine", path: "wanted.tags" } } },
    });
    assert.equal(count.count, 2);
  });
});

Deno.test("combined_fields: one query over several fields, highlighted in each", async () => {
  await withServer(async (call) => {
    const res = await call("POST", "/books/_search", {
      query: {
        combined_fields: { query: "quick dog", fields: ["title", "blurb"], operator: "and" },
      },
      highlight: { fields: { title: {}, blurb: {} } },
    });
    const hits = res.hits.hits;
    assert.deepEqual(hits.map((h: Json) => h._id).sort(), ["1", "2"]);
    const one = hits.find((h: Json) => h._id === "1");
    assert.deepEqual(one.highlight, {
      title: ["<em>quick</em> fox"],
      blurb: ["a brown <em>dog</em>"],
    });
    const bad = await call("POST", "/books/_search", {
      query: { combined_fields: { query: "x", fields: ["title"], type: "phrase" } },
    });
    assert.equal(bad.error.type, "parsing_exception");
  });
});

Deno.test("stored_fields: [] keeps _id and drops _source", async () => {
  await withServer(async (call) => {
    const res = await call("POST", "/books/_search", {
      stored_fields: [],
      query: { ids: { values: ["1"] } },
    });
    assert.equal(res.hits.hits[0]._id, "1");
    assert.equal(res.hits.hits[0]._source, undefined);
  });
});

Deno.test("sort: values in the sort's date format; missing sentinels per numeric type", async () => {
  await withServer(async (call) => {
    await call("PUT", "/m", {
      mappings: {
        properties: {
          d: { type: "date" },
          i: { type: "integer" },
          l: { type: "long" },
          f: { type: "double" },
        },
      },
    });
    await call("PUT", "/m/_doc/1", { d: "2024-03-01T00:00:00Z", i: 1, l: 1, f: 1.5 });
    await call("PUT", "/m/_doc/2?refresh=true", {});
    const sorted = async (sort: unknown) =>
      (await call("POST", "/m/_search", { sort })).hits.hits.map((h: Json) => h.sort[0]);
    // A doc without the date sorts last by its sentinel, written as null in a format.
    assert.deepEqual(await sorted([{ d: { order: "asc", format: "yyyy-MM-dd" } }]), [
      "2024-03-01",
      null,
    ]);
    assert.deepEqual(await sorted([{ d: "asc" }]), [1709251200000, 9223372036854775807]);
    assert.deepEqual(await sorted([{ i: "asc" }]), [1, 2147483647]);
    assert.deepEqual(await sorted([{ i: "desc" }]), [1, -2147483648]);
    assert.deepEqual(await sorted([{ f: "asc" }]), [1.5, "Infinity"]);
    assert.deepEqual(await sorted([{ f: { order: "asc", missing: "_first" } }]), [
      "-Infinity",
      1.5,
    ]);
    // A formatted value reads back as search_after.
    const after = await call("POST", "/m/_search", {
      sort: [{ d: { order: "asc", format: "yyyy-MM-dd" } }],
      search_after: ["2024-03-01"],
    });
    assert.deepEqual(after.hits.hits.map((h: Json) => h._id), ["2"]);
  });
});

Deno.test("terminate_after: each shard stops after n docs in index order; terminated_early", async () => {
  await withServer(async (call) => {
    const res = await call("POST", "/books/_search?terminate_after=2", {
      sort: [{ year: "desc" }],
      aggs: { n: { value_count: { field: "year" } } },
    });
    assert.equal(res.terminated_early, true);
    assert.equal(res.hits.total.value, 2);
    // The first two docs indexed (2001 and 2003), not the two latest years.
    assert.deepEqual(res.hits.hits.map((h: Json) => h._source.year), [2003, 2001]);
    assert.equal(res.aggregations.n.value, 2);
    const roomy = await call("POST", "/books/_search", { terminate_after: 10 });
    assert.equal(roomy.terminated_early, false);
    assert.equal(roomy.hits.total.value, 3);
    const plain = await call("POST", "/books/_search", {});
    assert.equal(plain.terminated_early, undefined);
  });
});

Deno.test("index.max_terms_count limits terms queries in _search, _count, lookups and _validate", async () => {
  await withServer(async (call) => {
    const terms = { query: { terms: { tag: ["a", "b", "c"] } } };
    assert.equal((await call("POST", "/books/_count", terms)).count, 3);
    const put = await call("PUT", "/books/_settings", { index: { max_terms_count: 2 } });
    assert.equal(put.code, 200);
    const reason =
      "The number of terms [3] used in the Terms Query request has exceeded the allowed maximum of [2]. This maximum can be set by changing the [index.max_terms_count] index level setting.";
    for (const path of ["/books/_search", "/books/_count"]) {
      const res = await call("POST", path, terms);
      assert.equal(res.code, 400, path);
      assert.equal(res.error.type, "search_phase_execution_exception");
      assert.equal(res.error.root_cause[0].type, "illegal_argument_exception");
      assert.equal(res.error.root_cause[0].reason, reason);
    }
    await call("PUT", "/lists/_doc/three?refresh=true", { wanted: { tags: ["a", "b", "c"] } });
    const lookup = await call("POST", "/books/_search", {
      query: { terms: { tag: { index: "lists", id: "three", path: "wanted.tags" } } },
    });
    assert.equal(lookup.code, 400);
    assert.equal(lookup.error.root_cause[0].reason, reason);
    const validate = await call("POST", "/books/_validate/query?explain=true", terms);
    assert.equal(validate.valid, false);
    assert.equal(validate.error, `illegal_argument_exception: ${reason}`);
    const two = await call("POST", "/books/_count", { query: { terms: { tag: ["a", "b"] } } });
    assert.equal(two.count, 2);
  });
});

Deno.test("index creation: an unparsable mapping fails with 'Failed to parse mapping: …'", async () => {
  await withServer(async (call) => {
    const res = await call("PUT", "/broken", { mappings: { properties: { f: { type: "nope" } } } });
    assert.equal(res.code, 400);
    const inner = "No handler for type [nope] declared on field [f]";
    assert.equal(res.error.type, "mapper_parsing_exception");
    assert.equal(res.error.reason, `Failed to parse mapping: ${inner}`);
    assert.deepEqual(res.error.caused_by, { type: "mapper_parsing_exception", reason: inner });
    assert.deepEqual(res.error.root_cause, [{ type: "mapper_parsing_exception", reason: inner }]);
    const root = await call("PUT", "/broken", { mappings: { odd: 1 } });
    assert.equal(
      root.error.reason,
      "Failed to parse mapping: Root mapping definition has unsupported parameters:  [odd : 1]",
    );
    assert.equal((await call("GET", "/broken")).code, 404);
  });
});

Deno.test("alias APIs honour ignore_unavailable, allow_no_indices and expand_wildcards", async () => {
  await withServer(async (call) => {
    await call("PUT", "/shelf", { aliases: { reading: {} } });
    await call("PUT", "/attic", { aliases: { reading: {} } });
    await call("POST", "/attic/_close");
    const missing = await call("GET", "/nowhere/_alias");
    assert.equal(missing.code, 404);
    assert.equal(missing.error.type, "index_not_found_exception");
    const ignored = await call("GET", "/nowhere,shelf/_alias?ignore_unavailable=true");
    assert.deepEqual(Object.keys(ignored).filter((k) => k !== "code"), ["shelf"]);
    assert.equal((await call("GET", "/zz*/_alias")).code, 200);
    assert.equal((await call("GET", "/zz*/_alias?allow_no_indices=false")).code, 404);
    const keys = async (path: string): Promise<string[]> =>
      Object.keys(await call("GET", path)).filter((k) => k !== "code").sort();
    assert.deepEqual(await keys("/*/_alias/reading"), ["attic", "shelf"]);
    assert.deepEqual(await keys("/*/_alias/reading?expand_wildcards=open"), ["shelf"]);
    assert.deepEqual(await keys("/*/_alias/reading?expand_wildcards=closed"), ["attic"]);
    const bad = await call("GET", "/_alias/reading?expand_wildcards=sideways");
    assert.equal(bad.code, 400);
    assert.equal(bad.error.reason, "No valid expand wildcard value [sideways]");
    const flag = await call("GET", "/_alias/reading?ignore_unavailable=maybe");
    assert.equal(flag.code, 400);
    assert.equal(flag.error.reason, "Could not convert [ignore_unavailable] to boolean");
    assert.equal(
      flag.error.caused_by.reason,
      "Failed to parse value [maybe] as only [true] or [false] are allowed.",
    );
    const gone = await call("DELETE", "/nowhere,shelf/_alias/reading?ignore_unavailable=true");
    assert.equal(gone.code, 200);
    assert.deepEqual(await keys("/shelf/_alias"), ["shelf"]);
    assert.deepEqual((await call("GET", "/shelf/_alias")).shelf.aliases, {});
  });
});
