import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

async function docs(): Promise<Engine> {
  const engine = new Engine();
  await call(engine, "PUT", "/t", {
    mappings: { properties: { str: { type: "keyword" }, num: { type: "long" } } },
  });
  const all = [{ str: "abc", num: 1 }, { str: "abc", num: 2 }, { str: "bcd", num: 1 }, {}];
  for (const [i, d] of all.entries()) await call(engine, "PUT", `/t/_doc/${i}`, d);
  await call(engine, "POST", "/t/_refresh");
  return engine;
}

async function terms(engine: Engine, body: Reply): Promise<Reply> {
  const r = await call(engine, "POST", "/t/_search", { size: 0, aggs: { a: { terms: body } } });
  return r.code === 200 ? r.aggregations.a : r;
}

const pairs = (r: Reply): unknown[] => r.buckets.map((b: Reply) => [b.key, b.doc_count]);

Deno.test("terms: missing puts docs without the field in a bucket of that value", async () => {
  const engine = await docs();
  assert.deepEqual(pairs(await terms(engine, { field: "str", missing: "zzz" })), [
    ["abc", 2],
    ["bcd", 1],
    ["zzz", 1],
  ]);
  assert.deepEqual(pairs(await terms(engine, { field: "num", missing: 9 })), [
    [1, 2],
    [2, 1],
    [9, 1],
  ]);
  engine.close();
});

Deno.test("terms: show_term_doc_count_error adds the per-bucket error", async () => {
  const engine = await docs();
  const r = await terms(engine, { field: "str", show_term_doc_count_error: true });
  assert.deepEqual(r.buckets[0], { key: "abc", doc_count: 2, doc_count_error_upper_bound: 0 });
  assert.equal(
    (await terms(engine, { field: "str" })).buckets[0].doc_count_error_upper_bound,
    undefined,
  );
  engine.close();
});

Deno.test("terms: size and order direction checked as the parser checks them", async () => {
  const engine = await docs();
  const zero = await terms(engine, { field: "str", size: 0 });
  assert.equal(zero.code, 400);
  assert.equal(zero.error.type, "x_content_parse_exception");
  assert.equal(zero.error.reason, "[terms] failed to parse field [size]");
  assert.equal(zero.error.caused_by.reason, "[size] must be greater than 0. Found [0] in [a]");
  const dir = await terms(engine, { field: "str", order: { _count: "up" } });
  assert.equal(dir.code, 400);
  assert.equal(dir.error.root_cause[0].type, "parsing_exception");
  assert.equal(dir.error.root_cause[0].reason, "Unknown order direction [up]");
  const noField = await terms(engine, { size: 1 });
  assert.equal(noField.code, 400);
  assert.equal(
    noField.error.root_cause[0].reason,
    "Required one of fields [field, script], but none were specified.",
  );
  engine.close();
});

Deno.test("terms: include and exclude as values or Lucene regular expressions", async () => {
  const engine = await docs();
  assert.deepEqual(pairs(await terms(engine, { field: "str", include: "a.*" })), [["abc", 2]]);
  assert.deepEqual(pairs(await terms(engine, { field: "str", exclude: ["abc"] })), [["bcd", 1]]);
  // A pattern that backtracks badly in JavaScript runs in bounded time on the automaton.
  const slow = await terms(engine, { field: "str", include: "(a+)+b" });
  assert.deepEqual(pairs(slow), []);
  const partition = await terms(engine, {
    field: "str",
    include: { partition: 0, num_partitions: 2 },
  });
  assert.equal(partition.code, 400);
  assert.match(partition.error.root_cause[0].reason, /partitions/);
  engine.close();
});

Deno.test("terms: min_doc_count 0 lists every term of the field, empty ones with a count of 0", async () => {
  const engine = await docs();
  const r = await call(engine, "POST", "/t/_search", {
    size: 0,
    query: { term: { str: "bcd" } },
    aggs: {
      a: {
        terms: { field: "str", min_doc_count: 0 },
        aggs: { n: { value_count: { field: "num" } } },
      },
    },
  });
  assert.deepEqual(
    r.aggregations.a.buckets.map((b: Reply) => [b.key, b.doc_count, b.n.value]),
    [["bcd", 1, 1], ["abc", 0, 0]],
  );
  engine.close();
});

Deno.test("terms: order by a path through a single-bucket sub-aggregation", async () => {
  const engine = await docs();
  const r = await terms(engine, { field: "str", order: [{ "f>top": "asc" }] });
  assert.equal(r.code, 400); // no sub-aggregation named f
  const res = await call(engine, "POST", "/t/_search", {
    size: 0,
    aggs: {
      a: {
        terms: { field: "str", order: [{ "f>top": "asc" }] },
        aggs: {
          f: { filter: { range: { num: { gte: 1 } } }, aggs: { top: { max: { field: "num" } } } },
        },
      },
    },
  });
  assert.deepEqual(res.aggregations.a.buckets.map((b: Reply) => [b.key, b.f.top.value]), [
    ["bcd", 1],
    ["abc", 2],
  ]);
  const byCount = await call(engine, "POST", "/t/_search", {
    size: 0,
    aggs: {
      a: {
        terms: { field: "str", order: { "f>_count": "asc" } },
        aggs: { f: { filter: { term: { num: 2 } } } },
      },
    },
  });
  assert.deepEqual(byCount.aggregations.a.buckets.map((b: Reply) => b.key), ["bcd", "abc"]);
  engine.close();
});

Deno.test("terms over every doc of a segment, of part of it and after deletes count the same way", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/t", {
    mappings: { properties: { tag: { type: "keyword" }, n: { type: "integer" } } },
  });
  const expected = new Map<string, { count: number; sum: number }>();
  const lines: string[] = [];
  for (let i = 0; i < 60; i++) {
    const tag = `t${(i * 7) % 5}`;
    lines.push(JSON.stringify({ index: { _id: String(i) } }), JSON.stringify({ tag, n: i }));
  }
  await call(engine, "POST", "/t/_bulk?refresh=true", lines.join("\n") + "\n");
  const tally = (keep: (i: number) => boolean) => {
    expected.clear();
    for (let i = 0; i < 60; i++) {
      if (!keep(i)) continue;
      const e = expected.get(`t${(i * 7) % 5}`) ?? { count: 0, sum: 0 };
      e.count++;
      e.sum += i;
      expected.set(`t${(i * 7) % 5}`, e);
    }
    return [...expected].sort((a, b) => b[1].count - a[1].count || (a[0] < b[0] ? -1 : 1))
      .map(([k, e]) => [k, e.count, e.sum]);
  };
  const run = async (query: Reply) => {
    const r = await call(engine, "POST", "/t/_search", {
      size: 0,
      query,
      aggs: { a: { terms: { field: "tag" }, aggs: { s: { sum: { field: "n" } } } } },
    });
    return r.aggregations.a.buckets.map((b: Reply) => [b.key, b.doc_count, b.s.value]);
  };
  assert.deepEqual(await run({ match_all: {} }), tally(() => true));
  assert.deepEqual(await run({ range: { n: { gte: 10 } } }), tally((i) => i >= 10));
  await call(engine, "DELETE", "/t/_doc/3?refresh=true");
  assert.deepEqual(await run({ match_all: {} }), tally((i) => i !== 3));
  engine.close();
});

Deno.test("terms: a missing value a date or boolean field cannot read fails on the shards", async () => {
  // Real Elasticsearch 9.5.4 and OpenSearch 3.8.0 answer both with 400, every shard failed.
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = new Engine({ flavour });
    await call(engine, "PUT", "/m", {
      mappings: {
        properties: { day: { type: "date", format: "yyyy-MM-dd" }, flag: { type: "boolean" } },
      },
    });
    await call(engine, "PUT", "/m/_doc/1?refresh=true", { day: "2020-01-01", flag: true });
    const day = await call(engine, "POST", "/m/_search", {
      size: 0,
      aggs: { a: { terms: { field: "day", missing: "N/A" } } },
    });
    const why = "failed to parse date field [N/A] with format [yyyy-MM-dd]";
    assert.equal(day.code, 400);
    assert.deepEqual(day.error, {
      root_cause: [{ type: "parse_exception", reason: `${why}: [${why}]` }],
      type: "search_phase_execution_exception",
      reason: "all shards failed",
      phase: "query",
      grouped: true,
      failed_shards: (day.error as { failed_shards: unknown }).failed_shards,
      caused_by: {
        type: "parse_exception",
        reason: `${why}: [${why}]`,
        caused_by: {
          type: "illegal_argument_exception",
          reason: why,
          caused_by: {
            type: "date_time_parse_exception",
            reason: "Text 'N/A' could not be parsed",
          },
        },
      },
    });
    for (const missing of ["N/A", "yes"]) {
      const flag = await call(engine, "POST", "/m/_search", {
        size: 0,
        aggs: { a: { terms: { field: "flag", missing } } },
      });
      assert.equal(flag.code, 400);
      const cause = (flag.error as { caused_by: { type: string; reason: string } }).caused_by;
      assert.equal(cause.type, "illegal_argument_exception");
      assert.equal(
        cause.reason,
        `Cannot parse boolean [${missing}], expected either [true] or [false]`,
      );
    }
    const ok = await call(engine, "POST", "/m/_search", {
      size: 0,
      aggs: { a: { terms: { field: "flag", missing: "false" } } },
    });
    assert.equal(ok.code, 200);
    engine.close();
  }
});
