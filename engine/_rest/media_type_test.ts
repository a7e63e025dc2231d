import assert from "node:assert/strict";
import { Engine } from "../engine.ts";

const v = (n: number) => `application/vnd.elasticsearch+json; compatible-with=${n}`;

Deno.test("Elasticsearch 9 (the default) answers compatible-with 7, 8 and 9 in the same media type", async () => {
  const engine = new Engine();
  for (const n of [7, 8, 9]) {
    const res = await engine.fetch("http://e/", {
      headers: { accept: v(n), "content-type": v(n) },
    });
    assert.equal(res.status, 200);
    assert.equal(
      res.headers.get("content-type"),
      `application/vnd.elasticsearch+json;compatible-with=${n}`,
    );
    assert.equal(res.headers.get("x-elastic-product"), "Elasticsearch");
    await res.body?.cancel();
  }
  const plain = await engine.fetch("http://e/");
  assert.equal(plain.headers.get("content-type"), "application/json; charset=UTF-8");
  await plain.body?.cancel();
  const res = await engine.fetch("http://e/", { headers: { accept: v(6), "content-type": v(6) } });
  assert.equal(res.status, 400);
  const body = await res.json();
  assert.match(body.error.caused_by.reason, /must be either version 9 or 8, but found 6/);
  engine.close();
});

Deno.test("Elasticsearch 8, when selected, accepts compatible-with 7 and 8 and refuses 9", async () => {
  const engine = new Engine({ version: "8.15.0" });
  for (const n of [7, 8]) {
    const res = await engine.fetch("http://e/", {
      headers: { accept: v(n), "content-type": v(n) },
    });
    assert.equal(res.status, 200);
    await res.body?.cancel();
  }
  const res = await engine.fetch("http://e/", { headers: { accept: v(9), "content-type": v(9) } });
  assert.equal(res.status, 400);
  const body = await res.json();
  assert.equal(body.error.type, "media_type_header_exception");
  assert.match(body.error.caused_by.reason, /must be either version 8 or 7, but found 9/);
  engine.close();
});

Deno.test("OpenSearch refuses Elasticsearch vendor content types with 406", async () => {
  const engine = new Engine({ flavour: "opensearch" });
  const res = await engine.fetch("http://e/x/_search", {
    method: "POST",
    headers: { "content-type": v(8) },
    body: "{}",
  });
  assert.equal(res.status, 406);
  assert.equal((await res.json()).error, `Content-Type header [${v(8)}] is not supported`);
  engine.close();
});
