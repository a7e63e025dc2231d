import assert from "node:assert/strict";
import { readWarnings } from "./_executor.ts";
import { DataSource } from "../jdbc/data_source.ts";
import { FakeEs } from "../../tests/support/fake_es.ts";

Deno.test("Warning headers become messages", () => {
  const headers = new Headers();
  headers.append(
    "warning",
    '299 Elasticsearch-8.15.0-abc "[types removal] Specifying types, is deprecated."',
  );
  headers.append("warning", '299 Elasticsearch-8.15.0-abc "say \\"hi\\""');
  assert.deepEqual(readWarnings(headers), [
    "[types removal] Specifying types, is deprecated.",
    'say "hi"',
  ]);
  assert.deepEqual(readWarnings(new Headers()), []);
  assert.deepEqual(readWarnings(new Headers({ warning: "odd" })), ["odd"]);
});

Deno.test("a result set carries the response's warnings", async () => {
  const fake = new FakeEs().on((req) =>
    req.path.endsWith("_search")
      ? Response.json({ hits: { hits: [] } }, {
        headers: { warning: '299 Elasticsearch-8.15.0 "deprecated thing"' },
      })
      : undefined
  );
  const conn = await new DataSource({ nodes: ["http://h:9200"], fetch: fake.fetch })
    .getConnection();
  const stmt = conn.createStatement();
  assert.deepEqual((await stmt.executeQuery("POST /i/_search")).warnings, ["deprecated thing"]);
  assert.deepEqual((await stmt.executeQuery("POST /i/_count")).warnings, []);
});
