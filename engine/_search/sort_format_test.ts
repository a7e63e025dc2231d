import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { exchange } from "../../tests/support/engine_call.ts";

async function text(engine: Engine, method: string, path: string, body?: unknown): Promise<string> {
  return (await exchange(engine, method, path, body)).text;
}

async function stamps(type: string, format: string, a: string, b: string): Promise<Engine> {
  const engine = new Engine();
  await text(engine, "PUT", "/t", { mappings: { properties: { ts: { type, format } } } });
  await text(engine, "PUT", "/t/_doc/1", { ts: a });
  await text(engine, "PUT", "/t/_doc/2", { other: 1 });
  await text(engine, "PUT", "/t/_doc/3?refresh=true", { ts: b });
  return engine;
}

const sorted = (engine: Engine, sort: unknown): Promise<string> =>
  text(engine, "POST", "/t/_search?filter_path=hits.hits._id,hits.hits.sort", { sort: [sort] });

Deno.test("sort format: a doc without the date sorts by its sentinel but is written as null", async () => {
  const engine = await stamps(
    "date",
    "yyyy-MM-dd HH:mm:ss.SSS",
    "2021-10-13 00:30:04.828",
    "2021-06-11 04:30:04.828",
  );
  const f = "strict_date_optional_time_nanos";
  assert.equal(
    await sorted(engine, { ts: { order: "desc", format: f, missing: "_last" } }),
    '{"hits":{"hits":[{"_id":"1","sort":["2021-10-13T00:30:04.828Z"]},{"_id":"3","sort":["2021-06-11T04:30:04.828Z"]},{"_id":"2","sort":[null]}]}}',
  );
  assert.equal(
    await sorted(engine, { ts: { order: "asc", format: "epoch_millis", missing: "_first" } }),
    '{"hits":{"hits":[{"_id":"2","sort":[null]},{"_id":"3","sort":["1623385804828"]},{"_id":"1","sort":["1634085004828"]}]}}',
  );
  // Without a format the sentinel itself is written, exactly.
  assert.equal(
    await sorted(engine, { ts: "asc" }),
    '{"hits":{"hits":[{"_id":"3","sort":[1623385804828]},{"_id":"1","sort":[1634085004828]},{"_id":"2","sort":[9223372036854775807]}]}}',
  );
  engine.close();
});

Deno.test("sort format: date_nanos values keep their microseconds", async () => {
  const engine = await stamps(
    "date_nanos",
    "yyyy-MM-dd HH:mm:ss.SSSSSS",
    "2021-10-13 00:30:04.828123",
    "2021-06-11 04:30:04.828456",
  );
  assert.equal(
    await sorted(engine, {
      ts: { order: "asc", format: "strict_date_optional_time_nanos", missing: "_last" },
    }),
    '{"hits":{"hits":[{"_id":"3","sort":["2021-06-11T04:30:04.828456Z"]},{"_id":"1","sort":["2021-10-13T00:30:04.828123Z"]},{"_id":"2","sort":[null]}]}}',
  );
  engine.close();
});
