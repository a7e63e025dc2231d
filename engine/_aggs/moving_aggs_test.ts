import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

/** Hourly values 1, 2, (none), 4, 3. */
async function hours(): Promise<Engine> {
  const engine = new Engine();
  await call(engine, "PUT", "/h", {
    mappings: { properties: { t: { type: "date" }, v: { type: "long" } } },
  });
  const rows: [string, number][] = [["00", 1], ["01", 2], ["03", 4], ["04", 3]];
  for (const [i, [h, v]] of rows.entries()) {
    await call(engine, "PUT", `/h/_doc/${i}`, { t: `2022-01-01T${h}:00:00Z`, v });
  }
  await call(engine, "POST", "/h/_refresh");
  return engine;
}

async function pipe(engine: Engine, pipeline: Reply, minDocCount = 0): Promise<Reply> {
  return await call(engine, "POST", "/h/_search", {
    size: 0,
    aggs: {
      t: {
        date_histogram: { field: "t", fixed_interval: "1h", min_doc_count: minDocCount },
        aggs: { v: { avg: { field: "v" } }, p: pipeline },
      },
    },
  });
}

const values = (r: Reply): unknown[] => r.aggregations.t.buckets.map((b: Reply) => b.p?.value);

Deno.test("serial_diff: difference with the value lag buckets before; gaps break the chain", async () => {
  const engine = await hours();
  assert.deepEqual(values(await pipe(engine, { serial_diff: { buckets_path: "v" } })), [
    undefined,
    1,
    undefined,
    undefined,
    -1,
  ]);
  assert.deepEqual(values(await pipe(engine, { serial_diff: { buckets_path: "v", lag: 2 } }, 1)), [
    undefined,
    undefined,
    3,
    1,
  ]);
  const bad = await pipe(engine, { serial_diff: { buckets_path: "v", lag: 0 } });
  assert.equal(bad.code, 400);
  assert.match(JSON.stringify(bad.error), /\[lag\] must be a positive integer: \[p\]/);
  engine.close();
});

Deno.test("moving_fn: MovingFunctions over the earlier values of a window, shift, empty windows null", async () => {
  const engine = await hours();
  const max = await pipe(engine, {
    moving_fn: { buckets_path: "v", window: 2, script: "MovingFunctions.max(values)" },
  });
  // Windows skip the empty hour: [], [1], -, [1, 2], [2, 4].
  assert.deepEqual(values(max), [null, 1, undefined, 2, 4]);
  const avg = await pipe(engine, {
    moving_fn: {
      buckets_path: "v",
      window: 2,
      shift: 1,
      script: "return MovingFunctions.unweightedAvg(values)",
    },
  });
  assert.deepEqual(values(avg), [1, 1.5, undefined, 3, 3.5]);
  const sum = await pipe(engine, {
    moving_fn: {
      buckets_path: "v",
      window: 10,
      script: "MovingFunctions.sum(values) + values.length",
    },
  });
  assert.deepEqual(values(sum), [0, 2, undefined, 5, 10]);
  engine.close();
});

Deno.test("moving_fn and serial_diff: window checked, histogram parent required", async () => {
  const engine = await hours();
  const bad = await pipe(engine, {
    moving_fn: { buckets_path: "v", window: -1, script: "MovingFunctions.max(values)" },
  });
  assert.equal(bad.code, 400);
  assert.match(JSON.stringify(bad.error), /\[window\] must be a positive, non-zero integer\./);
  const top = await call(engine, "POST", "/h/_search", {
    aggs: {
      a: { avg: { field: "v" } },
      m: { moving_fn: { buckets_path: "a", window: 1, script: "MovingFunctions.max(values)" } },
    },
  });
  assert.equal(top.code, 400);
  assert.match(
    top.error.root_cause[0].reason,
    /moving_fn aggregation \[m\] must have a histogram, date_histogram or auto_date_histogram as parent but doesn't have a parent/,
  );
  const underTerms = await call(engine, "POST", "/h/_search", {
    aggs: {
      t: { terms: { field: "v" }, aggs: { d: { serial_diff: { buckets_path: "_count" } } } },
    },
  });
  assert.equal(underTerms.code, 400);
  engine.close();
});
