import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

async function events(): Promise<Engine> {
  const engine = new Engine();
  await call(engine, "PUT", "/ev", { mappings: { properties: { at: { type: "date" } } } });
  await call(engine, "PUT", "/ev/_doc/a", { at: "2024-07-01T21:30:00Z" }); // 23:30 in Paris
  await call(engine, "PUT", "/ev/_doc/b", { at: "2024-07-01T22:30:00Z" }); // 00:30 on 2 July in Paris
  await call(engine, "PUT", "/ev/_doc/c?refresh=true", { at: "2024-07-02T12:00:00Z" });
  return engine;
}

const ids = (res: Reply): string[] => res.hits.hits.map((h: Reply) => h._id).sort();

Deno.test("range time_zone: dates without an offset are local, with one they are kept", async () => {
  const engine = await events();
  const search = (range: Record<string, unknown>) =>
    call(engine, "POST", "/ev/_search", { query: { range: { at: range } } });
  assert.deepEqual(ids(await search({ gte: "2024-07-02", time_zone: "Europe/Paris" })), ["b", "c"]);
  assert.deepEqual(ids(await search({ gte: "2024-07-02" })), ["c"]);
  assert.deepEqual(
    ids(await search({ gte: "2024-07-02T00:00:00Z", time_zone: "Europe/Paris" })),
    ["c"],
  );
  assert.deepEqual(
    ids(await search({ lte: "2024-07-01T23:45:00", time_zone: "+02:00" })),
    ["a"],
  );
});

Deno.test("range time_zone: now/d rounds on the zone's local day", async () => {
  const engine = await events();
  // Rounding 2024-07-02T10:00Z to the day in Paris: 2 July 00:00+02:00 = 1 July 22:00Z.
  const res = await call(engine, "POST", "/ev/_search", {
    query: {
      range: {
        at: {
          gte: "2024-07-02T10:00:00Z||/d",
          lte: "2024-07-02T10:00:00Z||/d",
          time_zone: "Europe/Paris",
        },
      },
    },
  });
  assert.deepEqual(ids(res), ["b", "c"]);
  const utc = await call(engine, "POST", "/ev/_search", {
    query: { range: { at: { gte: "2024-07-02T10:00:00Z||/d", lte: "2024-07-02T10:00:00Z||/d" } } },
  });
  assert.deepEqual(ids(utc), ["c"]);
  const now = await call(engine, "POST", "/ev/_search", {
    query: { range: { at: { gte: "now-100y/d", time_zone: "America/New_York" } } },
  });
  assert.deepEqual(ids(now), ["a", "b", "c"]);
});

Deno.test("query_string time_zone and unknown zones", async () => {
  const engine = await events();
  const qs = await call(engine, "POST", "/ev/_search", {
    query: { query_string: { query: "at:[2024-07-02 TO *]", time_zone: "Europe/Paris" } },
  });
  assert.deepEqual(ids(qs), ["b", "c"]);
  const bad = await call(engine, "POST", "/ev/_search", {
    query: { range: { at: { gte: "2024-07-02", time_zone: "Europe/Atlantis" } } },
  });
  assert.equal(bad.code, 400);
  assert.equal(bad.error.root_cause[0].type, "zone_rules_exception");
  assert.equal(bad.error.root_cause[0].reason, "Unknown time-zone ID: Europe/Atlantis");
});
