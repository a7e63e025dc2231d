import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

async function people(): Promise<Engine> {
  const engine = new Engine();
  await call(engine, "PUT", "/people", {
    mappings: {
      properties: {
        group: { type: "keyword" },
        user: {
          type: "nested",
          properties: {
            first: { type: "keyword" },
            last: { type: "keyword" },
            age: { type: "integer" },
            bio: { type: "text" },
            pets: {
              type: "nested",
              properties: { kind: { type: "keyword" }, name: { type: "keyword" } },
            },
          },
        },
        tags: { properties: { name: { type: "keyword" } } },
      },
    },
  });
  await call(engine, "PUT", "/people/_doc/1", {
    group: "fans",
    user: [
      {
        first: "John",
        last: "White",
        age: 30,
        bio: "red fox",
        pets: [{ kind: "cat", name: "Tom" }],
      },
      {
        first: "Alice",
        last: "Smith",
        age: 20,
        bio: "red red red",
        pets: { kind: "dog", name: "Rex" },
      },
    ],
  });
  await call(engine, "PUT", "/people/_doc/2", {
    group: "fans",
    user: {
      first: "John",
      last: "Smith",
      age: 40,
      bio: "blue",
      pets: [{ kind: "dog", name: "Tom" }],
    },
  });
  await call(engine, "PUT", "/people/_doc/3?refresh=true", { group: "none" });
  return engine;
}

const ids = (res: Reply): string[] => res.hits.hits.map((h: Reply) => h._id).sort();

const search = (engine: Engine, query: unknown) =>
  call(engine, "POST", "/people/_search", { query });

const both = {
  bool: { must: [{ term: { "user.first": "John" } }, { term: { "user.last": "Smith" } }] },
};

Deno.test("nested query: both conditions must hold in one object, not across two", async () => {
  const engine = await people();
  assert.deepEqual(ids(await search(engine, { nested: { path: "user", query: both } })), ["2"]);
  // Outside a nested query the objects' fields are not seen at all, as in Elasticsearch.
  assert.deepEqual(ids(await search(engine, both)), []);
  assert.deepEqual(ids(await search(engine, { exists: { field: "user.first" } })), []);
  // A must_not holds per object too: doc 1 has an object that is not John.
  const notJohn = { bool: { must_not: { term: { "user.first": "John" } } } };
  assert.deepEqual(ids(await search(engine, { nested: { path: "user", query: notJohn } })), ["1"]);
  // ... and the negation of the nested query is the complement over documents.
  const noSmithJohn = { bool: { must_not: { nested: { path: "user", query: both } } } };
  assert.deepEqual(ids(await search(engine, noSmithJohn)), ["1", "3"]);
});

Deno.test("nested query: score_mode combines the matching objects' scores", async () => {
  const engine = await people();
  const scoreOf = async (mode?: string) => {
    const res = await search(engine, {
      nested: {
        path: "user",
        query: {
          function_score: { query: { match_all: {} }, field_value_factor: { field: "user.age" } },
        },
        ...(mode ? { score_mode: mode } : {}),
      },
    });
    return Object.fromEntries(res.hits.hits.map((h: Reply) => [h._id, h._score]));
  };
  assert.deepEqual(await scoreOf(), { "1": 25, "2": 40 });
  assert.deepEqual(await scoreOf("avg"), { "1": 25, "2": 40 });
  assert.deepEqual(await scoreOf("sum"), { "1": 50, "2": 40 });
  assert.deepEqual(await scoreOf("max"), { "1": 30, "2": 40 });
  assert.deepEqual(await scoreOf("min"), { "1": 20, "2": 40 });
  assert.deepEqual(await scoreOf("none"), { "1": 0, "2": 0 });
  const bad = await call(engine, "POST", "/people/_search", {
    query: { nested: { path: "user", query: { match_all: {} }, score_mode: "median" } },
  });
  assert.equal(bad.error.root_cause[0].type, "illegal_argument_exception");
  assert.match(bad.error.root_cause[0].reason, /No score mode for child query \[median\] found/);
});

Deno.test("nested query: boost, unmapped and non-nested paths, ignore_unmapped", async () => {
  const engine = await people();
  const boosted = await search(engine, {
    nested: { path: "user", query: { match_all: {} }, score_mode: "sum", boost: 2 },
  });
  assert.deepEqual(boosted.hits.hits.map((h: Reply) => [h._id, h._score]), [["1", 4], ["2", 2]]);
  const missing = await call(engine, "POST", "/people/_search", {
    query: { nested: { path: "nope", query: { match_all: {} } } },
  });
  assert.equal(missing.error.root_cause[0].type, "query_shard_exception");
  assert.match(
    missing.error.root_cause[0].reason,
    /failed to create query: \[nested\] failed to find nested object under path \[nope\]/,
  );
  const plain = await call(engine, "POST", "/people/_search", {
    query: { nested: { path: "tags", query: { match_all: {} }, ignore_unmapped: true } },
  });
  assert.match(
    plain.error.root_cause[0].reason,
    /nested object under path \[tags\] is not of nested type/,
  );
  const ignored = await search(engine, {
    bool: {
      should: [
        { nested: { path: "nope", query: { match_all: {} }, ignore_unmapped: true } },
        { term: { group: "none" } },
      ],
    },
  });
  assert.deepEqual(ids(ignored), ["3"]);
});

Deno.test("nested query: multi-level paths and nested inside nested", async () => {
  const engine = await people();
  // A dog named Tom lives only in doc 2; doc 1 has a cat Tom and a dog Rex.
  const dogTom = {
    bool: { must: [{ term: { "user.pets.kind": "dog" } }, { term: { "user.pets.name": "Tom" } }] },
  };
  assert.deepEqual(ids(await search(engine, { nested: { path: "user.pets", query: dogTom } })), [
    "2",
  ]);
  const inside = {
    nested: {
      path: "user",
      query: {
        bool: {
          must: [
            { term: { "user.first": "Alice" } },
            { nested: { path: "user.pets", query: { term: { "user.pets.name": "Rex" } } } },
          ],
        },
      },
    },
  };
  assert.deepEqual(ids(await search(engine, inside)), ["1"]);
  // John owns no Rex: the pet must belong to the same user.
  const johnRex = structuredClone(inside);
  johnRex.nested.query.bool.must[0] = { term: { "user.first": "John" } };
  assert.deepEqual(ids(await search(engine, johnRex)), []);
});

Deno.test("nested query: full-text scoring per object, deletes and updates seen", async () => {
  const engine = await people();
  const res = await search(engine, {
    nested: { path: "user", query: { match: { "user.bio": "red" } }, score_mode: "max" },
  });
  assert.deepEqual(ids(res), ["1"]);
  assert.ok(res.hits.hits[0]._score > 0);
  await call(engine, "PUT", "/people/_doc/2?refresh=true", {
    user: [{ first: "Zed", last: "Smith" }, { first: "John", last: "Doe" }],
  });
  assert.deepEqual(ids(await search(engine, { nested: { path: "user", query: both } })), []);
  await call(engine, "DELETE", "/people/_doc/1?refresh=true");
  const john = { nested: { path: "user", query: { term: { "user.first": "John" } } } };
  assert.deepEqual(ids(await search(engine, john)), ["2"]);
});

Deno.test("nested fields: include_in_root and include_in_parent copy them flat into outer scopes", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/flat", {
    mappings: {
      properties: {
        user: {
          type: "nested",
          include_in_root: true,
          properties: {
            first: { type: "keyword" },
            last: { type: "keyword" },
            pets: {
              type: "nested",
              include_in_parent: true,
              properties: { name: { type: "keyword" } },
            },
          },
        },
      },
    },
  });
  await call(engine, "PUT", "/flat/_doc/1?refresh=true", {
    user: [{ first: "John", last: "White", pets: { name: "Rex" } }, {
      first: "Alice",
      last: "Smith",
    }],
  });
  const search = (query: unknown) => call(engine, "POST", "/flat/_search", { query });
  // Copied into the root, the values match flat (across objects), as include_in_root does in ES.
  const flat = {
    bool: { must: [{ term: { "user.first": "John" } }, { term: { "user.last": "Smith" } }] },
  };
  assert.deepEqual(ids(await search(flat)), ["1"]);
  assert.deepEqual(ids(await search({ nested: { path: "user", query: flat } })), []);
  // The pets' names are copied into their user's scope, not to the root.
  const rex = { term: { "user.pets.name": "Rex" } };
  assert.deepEqual(ids(await search({ nested: { path: "user", query: rex } })), ["1"]);
  assert.deepEqual(ids(await search(rex)), []);
});
