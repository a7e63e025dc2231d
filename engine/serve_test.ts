import assert from "node:assert/strict";
import { Engine } from "./engine.ts";
import { serve } from "./serve.ts";
import { listen as listenNode } from "./serve_node.ts";

Deno.test("serve() listens on loopback with a free port and closes", async () => {
  const engine = new Engine();
  const server = await serve(engine);
  assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.ok(server.port > 0);
  const res = await fetch(`${server.url}/_cluster/health`);
  assert.equal((await res.json()).status, "green");
  await server.close();
  engine.close();
});

Deno.test("the node:http adapter carries methods, bodies, statuses and headers", async () => {
  const engine = new Engine();
  const server = await listenNode(engine.fetch, { port: 0, hostname: "127.0.0.1" });
  const base = `http://127.0.0.1:${server.port}`;
  const put = await fetch(`${base}/n/_doc/1`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ a: 1 }),
  });
  assert.equal(put.status, 201);
  assert.equal(put.headers.get("x-elastic-product"), "Elasticsearch");
  assert.equal((await put.json()).result, "created");
  const head = await fetch(`${base}/n/_doc/2`, { method: "HEAD" });
  assert.equal(head.status, 404);
  await head.body?.cancel();
  await server.close();
  engine.close();
});
