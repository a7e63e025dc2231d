import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { exchange } from "../../tests/support/engine_call.ts";

Deno.test("_reindex copies matching documents, with scripts and op_type=create conflicts", async () => {
  const engine = new Engine();
  const lines = [1, 2, 3].flatMap((n) => [{ index: { _index: "src", _id: String(n) } }, { n }]);
  await exchange(
    engine,
    "POST",
    "/_bulk?refresh=true",
    lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
  );
  const first = await exchange(engine, "POST", "/_reindex?refresh=true", {
    source: { index: "src", query: { range: { n: { gte: 2 } } } },
    dest: { index: "dst" },
    script: { source: "ctx._source.n *= 10" },
  });
  assert.deepEqual([first.body.total, first.body.created, first.body.updated], [2, 2, 0]);
  assert.equal((await exchange(engine, "GET", "/dst/_doc/3")).body._source.n, 30);
  const again = await exchange(engine, "POST", "/_reindex", {
    conflicts: "proceed",
    source: { index: "src" },
    dest: { index: "dst", op_type: "create" },
  });
  assert.deepEqual([again.body.created, again.body.version_conflicts], [1, 2]);
  const missing = await exchange(engine, "POST", "/_reindex", {
    source: { index: "src" },
    dest: {},
  });
  assert.equal(missing.status, 400);
  engine.close();
});

Deno.test("_reindex request parsing: unknown fields, size and max_docs, _source filter, op_type", async () => {
  const engine = new Engine();
  const post = async (path: string, body: unknown) => {
    const res = await engine.fetch(`http://engine${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { code: res.status, ...(await res.json()) };
  };
  for (let i = 0; i < 5; i++) await post(`/src/_doc/${i}`, { a: i, b: { c: i, d: "x" } });
  await post("/src/_refresh", {});
  const top = await post("/_reindex", { source: { index: "src" }, dest: { index: "d" }, nope: 1 });
  assert.equal(top.code, 400);
  assert.equal(top.error.type, "x_content_parse_exception");
  assert.equal(top.error.reason, "[reindex] unknown field [nope]");
  const inDest = await post("/_reindex", { source: { index: "src" }, dest: { index: "d", x: 1 } });
  assert.equal(inDest.error.reason, "[dest] unknown field [x]");
  const badOp = await post("/_reindex", {
    source: { index: "src" },
    dest: { index: "d", op_type: "upsert" },
  });
  assert.equal(badOp.error.type, "illegal_argument_exception");
  // Top-level size caps the copy; source.size is only the batch size.
  const capped = await post("/_reindex?refresh=true", {
    size: 2,
    source: { index: "src", size: 1, _source: ["a", "b.c"] },
    dest: { index: "d" },
  });
  assert.equal(capped.total, 2);
  const copied = await post("/d/_search", {});
  assert.deepEqual(copied.hits.hits[0]._source, {
    a: copied.hits.hits[0]._source.a,
    b: { c: copied.hits.hits[0]._source.a },
  });
  const both = await post("/_reindex", {
    size: 1,
    max_docs: 2,
    source: { index: "src" },
    dest: { index: "e" },
  });
  assert.equal(both.code, 400);
  const all = await post("/_reindex?refresh=true", {
    source: { index: "src", _source: { excludes: ["b"] } },
    dest: { index: "d", op_type: "create" },
    conflicts: "proceed",
  });
  assert.equal(all.created, 3);
  assert.equal(all.version_conflicts, 2);
  engine.close();
});

Deno.test("by-query bodies are read as a search source: unknown keys and bad queries refused", async () => {
  const engine = new Engine();
  await exchange(engine, "PUT", "/q/_doc/1?refresh=true", { a: 1 });
  const unknown = await exchange(engine, "POST", "/q/_delete_by_query", {
    query: { match_all: {} },
    nope: 1,
  });
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.error.type, "parsing_exception");
  assert.equal(unknown.body.error.reason, "Unknown key for a VALUE_NUMBER in [nope].");
  const badQuery = await exchange(engine, "POST", "/q/_update_by_query", { query: { nope: {} } });
  assert.equal(badQuery.body.error.type, "parsing_exception");
  const count = await exchange(engine, "GET", "/q/_count");
  assert.equal(count.body.count, 1);
  const ok = await exchange(engine, "POST", "/q/_update_by_query?refresh=true", {
    max_docs: 1,
    conflicts: "proceed",
    query: { term: { a: 1 } },
    script: { source: "ctx._source.a += 1" },
  });
  assert.equal(ok.body.updated, 1);
  engine.close();
});

Deno.test("_reindex dest.routing: keep, discard, =value, and unsupported commands", async () => {
  const engine = new Engine();
  await exchange(engine, "PUT", "/src/_doc/1?routing=r1&refresh=true", { a: 1 });
  const routingIn = async (index: string): Promise<unknown> =>
    (await exchange(engine, "GET", `/${index}/_search`)).body.hits.hits[0]._routing;
  for (
    const [index, routing, expected] of [
      ["kept", undefined, "r1"],
      ["kept2", "keep", "r1"],
      ["dropped", "discard", undefined],
      ["set", "=blue", "blue"],
    ] as const
  ) {
    const dest = routing === undefined ? { index } : { index, routing };
    const res = await exchange(engine, "POST", "/_reindex?refresh=true", {
      source: { index: "src" },
      dest,
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.created, 1);
    assert.equal(await routingIn(index), expected, index);
  }
  const bad = await exchange(engine, "POST", "/_reindex", {
    source: { index: "src" },
    dest: { index: "other", routing: "sideways" },
  });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.type, "illegal_argument_exception");
  assert.equal(bad.body.error.reason, "Unsupported routing command");
  engine.close();
});

Deno.test("_reindex: timeout and wait_for_active_shards checked; auto_create_index and require_alias", async () => {
  const engine = new Engine();
  await exchange(engine, "PUT", "/src/_doc/1?refresh=true", { a: 1 });
  const body = { source: { index: "src" }, dest: { index: "copy" } };
  const cases: Array<[string, string]> = [
    [
      "timeout=abc",
      "failed to parse setting [timeout] with value [abc] as a time value: unit is missing or unrecognized",
    ],
    ["wait_for_active_shards=some", "cannot parse ActiveShardCount[some]"],
    ["wait_for_active_shards=-3", "shard count cannot be a negative value"],
  ];
  for (const [query, reason] of cases) {
    const res = await exchange(engine, "POST", `/_reindex?${query}`, body);
    assert.equal(res.status, 400, query);
    assert.equal(res.body.error.type, "illegal_argument_exception");
    assert.equal(res.body.error.reason, reason);
  }
  const fine = await exchange(
    engine,
    "POST",
    "/_reindex?timeout=2m&wait_for_active_shards=all",
    body,
  );
  assert.equal(fine.status, 200);
  assert.equal(fine.body.created, 1);
  const alias = await exchange(engine, "POST", "/_reindex?require_alias=true", body);
  assert.equal(alias.status, 404);
  assert.equal(
    alias.body.error.reason,
    "no such index [copy] and [require_alias] request flag is [true] and [copy] is not an alias",
  );
  await exchange(engine, "PUT", "/_cluster/settings", {
    persistent: { "action.auto_create_index": false },
  });
  // Refused before reading, even when no document matches.
  const missing = await exchange(engine, "POST", "/_reindex", {
    source: { index: "src", query: { match_none: {} } },
    dest: { index: "absent" },
  });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error.type, "index_not_found_exception");
  assert.equal(
    missing.body.error.reason,
    "no such index [absent] and [action.auto_create_index] is [false]",
  );
  const existing = await exchange(engine, "POST", "/_reindex?refresh=true", body);
  assert.equal(existing.status, 200);
  assert.equal(existing.body.updated, 1);
  engine.close();
});
