// The official Elasticsearch and OpenSearch clients against the engine over HTTP (test-only deps).
import assert from "node:assert/strict";
import { Client as EsClient, errors as esErrors } from "npm:@elastic/elasticsearch@9";
import { Client as Es8Client } from "npm:@elastic/elasticsearch@8";
import { Client as OsClient } from "npm:@opensearch-project/opensearch@3";
import { Engine, serve } from "../engine/mod.ts";

const sanitize = { sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "official @elastic/elasticsearch 9 client: index, bulk, search, update, delete, 409",
  ...sanitize,
  fn: async () => {
    const engine = new Engine();
    const server = await serve(engine, { port: 0 });
    const client = new EsClient({ node: server.url });
    try {
      const info = await client.info();
      assert.equal(info.version.number, "9.5.4");
      await client.indices.create({
        index: "people",
        mappings: { properties: { name: { type: "keyword" } } },
      });
      assert.equal(await client.indices.exists({ index: "people" }), true);
      const bulk = await client.bulk({
        refresh: true,
        operations: [
          { index: { _index: "people", _id: "1" } },
          { name: "alice", age: 30 },
          { index: { _index: "people", _id: "2" } },
          { name: "bob", age: 40 },
        ],
      });
      assert.equal(bulk.errors, false);
      const found = await client.search<{ name: string }>({
        index: "people",
        query: { term: { name: "bob" } },
      });
      assert.equal(found.hits.hits[0]!._source?.name, "bob");
      const updated = await client.update({
        index: "people",
        id: "1",
        doc: { age: 31 },
        refresh: true,
      });
      assert.equal(updated.result, "updated");
      const doc = await client.get<{ age: number }>({ index: "people", id: "1" });
      assert.equal(doc._source?.age, 31);
      await assert.rejects(
        client.create({ index: "people", id: "1", document: { name: "again" } }),
        (e: unknown) => e instanceof esErrors.ResponseError && e.statusCode === 409,
      );
      const deleted = await client.delete({ index: "people", id: "2", refresh: true });
      assert.equal(deleted.result, "deleted");
      const count = await client.count({ index: "people" });
      assert.equal(count.count, 1);
    } finally {
      await client.close();
      await server.close();
      engine.close();
    }
  },
});

Deno.test({
  name:
    "official @opensearch-project/opensearch 3 client: index, bulk, search, update, delete, 409",
  ...sanitize,
  fn: async () => {
    const engine = new Engine({ flavour: "opensearch" });
    const server = await serve(engine, { port: 0 });
    const client = new OsClient({ node: server.url });
    try {
      const info = await client.info();
      assert.equal(info.body.version.distribution, "opensearch");
      await client.indices.create({
        index: "people",
        body: { mappings: { properties: { name: { type: "keyword" } } } },
      });
      const bulk = await client.bulk({
        refresh: true,
        body: [
          { index: { _index: "people", _id: "1" } },
          { name: "alice", age: 30 },
          { index: { _index: "people", _id: "2" } },
          { name: "bob", age: 40 },
        ],
      });
      assert.equal(bulk.body.errors, false);
      const found = await client.search({
        index: "people",
        body: { query: { term: { name: "alice" } } },
      });
      assert.equal(found.body.hits.hits[0]!._id, "1");
      const updated = await client.update({
        index: "people",
        id: "1",
        body: { doc: { age: 31 } },
        refresh: true,
      });
      assert.equal(updated.body.result, "updated");
      await assert.rejects(
        client.create({ index: "people", id: "1", body: { name: "again" } }),
        (e: unknown) => (e as { statusCode?: number }).statusCode === 409,
      );
      const deleted = await client.delete({ index: "people", id: "2", refresh: true });
      assert.equal(deleted.body.result, "deleted");
      const count = await client.count({ index: "people" });
      assert.equal(count.body.count, 1);
    } finally {
      await client.close();
      await server.close();
      engine.close();
    }
  },
});

Deno.test({
  name: "official @elastic/elasticsearch 8 client: against the default engine and against 8.x",
  ...sanitize,
  fn: async () => {
    for (const version of [undefined, "8.15.0"]) {
      const engine = new Engine(version ? { version } : {});
      const server = await serve(engine, { port: 0 });
      const client = new Es8Client({ node: server.url });
      try {
        const info = await client.info();
        assert.equal(info.version.number, version ?? "9.5.4");
        await client.index({ index: "p", id: "1", document: { name: "alice" }, refresh: true });
        const found = await client.search({ index: "p", query: { match: { name: "alice" } } });
        assert.equal(found.hits.hits[0]?._id, "1");
      } finally {
        await client.close();
        await server.close();
        engine.close();
      }
    }
  },
});

Deno.test({
  name: "official @elastic/elasticsearch 9 client: scroll and point in time over HTTP",
  ...sanitize,
  fn: async () => {
    const engine = new Engine();
    const server = await serve(engine, { port: 0 });
    const client = new EsClient({ node: server.url });
    try {
      await client.bulk({
        refresh: true,
        operations: [{ index: { _index: "s", _id: "1" } }, { n: 1 }, {
          index: { _index: "s", _id: "2" },
        }, {
          n: 2,
        }],
      });
      const first = await client.search({ index: "s", scroll: "1m", size: 1, sort: ["n"] });
      const next = await client.scroll({ scroll_id: first._scroll_id!, scroll: "1m" });
      assert.equal(next.hits.hits[0]?._id, "2");
      await client.clearScroll({ scroll_id: first._scroll_id! });
      const pit = await client.openPointInTime({ index: "s", keep_alive: "1m" });
      const inPit = await client.search({ pit: { id: pit.id }, size: 10 });
      assert.equal(inPit.hits.hits.length, 2);
      await client.closePointInTime({ id: pit.id });
    } finally {
      await client.close();
      await server.close();
      engine.close();
    }
  },
});
