import assert from "node:assert/strict";
import { Engine } from "../engine.ts";

Deno.test("unknown query parameters are refused like Elasticsearch, with a suggestion", async () => {
  const engine = new Engine();
  const res = await engine.fetch("http://e/i/_doc/1?refersh=true", {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  assert.equal(res.status, 400);
  const body = await res.json();
  assert.equal(body.error.type, "illegal_argument_exception");
  assert.equal(
    body.error.reason,
    "request [/i/_doc/1] contains unrecognized parameter: [refersh] -> did you mean [refresh]?",
  );
  const ok = await engine.fetch("http://e/i/_doc/1?refresh=true&pretty&filter_path=result", {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  assert.equal(await ok.text(), '{\n  "result": "created"\n}\n');
  engine.close();
});
