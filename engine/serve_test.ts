import assert from "node:assert/strict";
import { Engine, rawHandler } from "./engine.ts";
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

Deno.test("serve: answers declare their length (not chunked), as Elasticsearch does", async () => {
  const engine = new Engine();
  const server = await serve(engine);
  try {
    const { request } = await import("node:http");
    const head = await new Promise<Record<string, unknown>>((resolve, reject) => {
      request(`${server.url}/_cluster/health`, (res) => {
        res.resume();
        resolve(res.headers);
      }).on("error", reject).end();
    });
    assert.equal(head["transfer-encoding"], undefined);
    assert.match(String(head["content-length"]), /^\d+$/);
  } finally {
    await server.close();
    engine.close();
  }
});

Deno.test("serve: an answer of non-ASCII text declares its length in UTF-8 bytes", async () => {
  const engine = new Engine();
  const server = await serve(engine);
  try {
    const doc = { title: "Grüße, 東京 🌸" };
    await fetch(`${server.url}/i/_doc/1?refresh=true`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(doc),
    }).then((r) => r.body?.cancel());
    const res = await fetch(`${server.url}/i/_doc/1`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    assert.equal(res.headers.get("content-length"), String(bytes.byteLength));
    assert.deepEqual(JSON.parse(new TextDecoder().decode(bytes))._source, doc);
  } finally {
    await server.close();
    engine.close();
  }
});

Deno.test("serve: idle keep-alive connections stay open far longer than node's 5 s", async () => {
  const engine = new Engine();
  const server = await serve(engine);
  try {
    const { request } = await import("node:http");
    const head = await new Promise<Record<string, unknown>>((resolve, reject) => {
      request(`${server.url}/_cluster/health`, { headers: { connection: "keep-alive" } }, (res) => {
        res.resume();
        resolve(res.headers);
      }).on("error", reject).end();
    });
    // node:http announces its idle timeout; 5 s (its default) races clients that reuse a socket.
    const timeout = Number(/timeout=(\d+)/.exec(String(head["keep-alive"]))?.[1]);
    assert.ok(timeout >= 3600, `keep-alive: ${head["keep-alive"]}`);
  } finally {
    await server.close();
    engine.close();
  }
});

Deno.test("the node:http adapter carries methods, bodies, statuses and headers", async () => {
  const engine = new Engine();
  const raw = rawHandler(engine);
  const server = await listenNode((r, method, target) => raw(r, method, undefined, target), {
    port: 0,
    hostname: "127.0.0.1",
    maxBodyBytes: 1 << 20,
  });
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

/** Sends raw HTTP/1.1 bytes and returns the status line's code and the body. */
async function rawHttp(port: number, head: string, body: Uint8Array | string = ""): Promise<
  { status: number; headers: string; body: string }
> {
  const { connect } = await import("node:net");
  const payload = typeof body === "string" ? new TextEncoder().encode(body) : body;
  return await new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.write(head.replace(/\n/g, "\r\n") + "\r\n");
      socket.write(payload);
    });
    const chunks: Uint8Array[] = [];
    socket.on("data", (c: Uint8Array) => chunks.push(c));
    socket.on("error", reject);
    socket.on("end", () => {
      const text = new TextDecoder().decode(
        chunks.reduce((a, c) => {
          const out = new Uint8Array(a.length + c.length);
          out.set(a);
          out.set(c, a.length);
          return out;
        }, new Uint8Array()),
      );
      const [headers = "", rest = ""] = text.split("\r\n\r\n", 2);
      resolve({ status: Number(headers.split(" ")[1]), headers, body: rest });
    });
  });
}

Deno.test("serve: bodies sent with GET are read, content-length and chunked alike", async () => {
  const engine = new Engine();
  const server = await serve(engine);
  await fetch(`${server.url}/g/_doc/1?refresh=true`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: '{"n":1}',
  }).then((r) => r.body?.cancel());
  await fetch(`${server.url}/g/_doc/2?refresh=true`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: '{"n":2}',
  }).then((r) => r.body?.cancel());
  const query = '{"query":{"term":{"n":2}}}';
  const sized = await rawHttp(
    server.port,
    `GET /g/_count HTTP/1.1\nHost: 127.0.0.1\nContent-Type: application/json\nContent-Length: ${query.length}\nConnection: close\n`,
    query,
  );
  assert.equal(sized.status, 200);
  assert.match(sized.body, /"count":1/);
  const chunked = await rawHttp(
    server.port,
    `GET /g/_search HTTP/1.1\nHost: 127.0.0.1\nContent-Type: application/json\nTransfer-Encoding: chunked\nConnection: close\n`,
    `${query.length.toString(16)}\r\n${query}\r\n0\r\n\r\n`,
  );
  assert.equal(chunked.status, 200);
  assert.match(chunked.body, /"total":\{"value":1/);
  const viaFetch = await engine.fetch("http://e/g/_count", {
    method: "GET",
    headers: { "content-type": "application/json" },
    body: query,
  });
  assert.equal((await viaFetch.json()).count, 1, "engine.fetch honours GET bodies too");
  await server.close();
  engine.close();
});

Deno.test("serve: http.max_content_length holds for chunked bodies and after gzip", async () => {
  const engine = new Engine();
  const server = await serve(engine, { maxContentLength: 64 * 1024 });
  const big = "x".repeat(200 * 1024);
  const chunked = await rawHttp(
    server.port,
    `POST /g/_doc HTTP/1.1\nHost: 127.0.0.1\nContent-Type: application/json\nTransfer-Encoding: chunked\nConnection: close\n`,
    `${(big.length + 8).toString(16)}\r\n{"a":"${big}"}\r\n0\r\n\r\n`,
  );
  assert.equal(chunked.status, 413);
  const zeros = new TextEncoder().encode(`{"a":"${"0".repeat(1024 * 1024)}"}`);
  const gz = new Uint8Array(
    await new Response(new Blob([zeros]).stream().pipeThrough(new CompressionStream("gzip")))
      .arrayBuffer(),
  );
  assert.ok(gz.length < 64 * 1024, "the bomb itself is small");
  const bomb = await fetch(`${server.url}/g/_doc`, {
    method: "POST",
    headers: { "content-type": "application/json", "content-encoding": "gzip" },
    body: gz,
  });
  assert.equal(bomb.status, 413);
  assert.equal((await bomb.json()).error.type, "content_too_long");
  await server.close();
  engine.close();
});

Deno.test("serve: foreign Host headers and cross-origin browser requests are refused", async () => {
  const engine = new Engine();
  const server = await serve(engine, { cors: ["http://allowed.test"] });
  const rebind = await rawHttp(server.port, `GET / HTTP/1.1\nHost: evil.test\nConnection: close\n`);
  assert.equal(rebind.status, 403);
  assert.match(rebind.body, /security_exception/);
  const local = await rawHttp(
    server.port,
    `GET / HTTP/1.1\nHost: localhost:1\nConnection: close\n`,
  );
  assert.equal(local.status, 200);
  const simplePost = await fetch(`${server.url}/x/_doc`, {
    method: "POST",
    headers: { origin: "http://evil.test", "content-type": "text/plain" },
    body: "{}",
  });
  assert.equal(simplePost.status, 403);
  await simplePost.body?.cancel();
  const allowed = await fetch(server.url, { headers: { origin: "http://allowed.test" } });
  assert.equal(allowed.status, 200);
  assert.equal(allowed.headers.get("access-control-allow-origin"), "http://allowed.test");
  await allowed.body?.cancel();
  await server.close();
  engine.close();
});

Deno.test("serve: credentials are checked on every request with Elasticsearch's 401", async () => {
  const engine = new Engine();
  const server = await serve(engine, {
    auth: { username: "elastic", password: "s3cret", apiKeys: ["kid:kval"] },
  });
  const none = await fetch(server.url);
  assert.equal(none.status, 401);
  assert.match(none.headers.get("www-authenticate") ?? "", /Basic realm="security"/);
  const body = await none.json();
  assert.equal(body.error.type, "security_exception");
  assert.match(body.error.reason, /missing authentication credentials for REST request \[\/\]/);
  const wrong = await fetch(server.url, {
    headers: { authorization: `Basic ${btoa("elastic:no")}` },
  });
  assert.equal(wrong.status, 401);
  assert.doesNotMatch(await wrong.text(), /s3cret|elastic:no/);
  const basic = await fetch(server.url, {
    headers: { authorization: `Basic ${btoa("elastic:s3cret")}` },
  });
  assert.equal(basic.status, 200);
  await basic.body?.cancel();
  const key = await fetch(server.url, { headers: { authorization: `ApiKey ${btoa("kid:kval")}` } });
  assert.equal(key.status, 200);
  await key.body?.cancel();
  await server.close();
  await assert.rejects(serve(engine, { hostname: "0.0.0.0" }), /not a loopback address/);
  engine.close();
});

Deno.test("serve: headers are read as a web Headers reads them, with or without a Request", async () => {
  // A bodiless request whose headers web Headers take as they are is answered without building
  // a Request; one with a value they would rewrite (a trailing tab) takes a real Request. Both
  // read the same headers: the opaque id is echoed, the compatible-with version answered.
  const engine = new Engine();
  const server = await serve(engine);
  try {
    const { request } = await import("node:http");
    const ask = (headers: Record<string, string>) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        request(`${server.url}/_cluster/health`, { headers }, (res) => {
          res.resume();
          resolve(res.headers);
        }).on("error", reject).end();
      });
    const accept = "application/vnd.elasticsearch+json;compatible-with=8";
    for (const opaque of ["id 1", "id 2\t"]) {
      const head = await ask({ "X-Opaque-Id": opaque, Accept: accept });
      assert.equal(head["x-opaque-id"], opaque.trim());
      assert.equal(head["content-type"], `${accept}`);
    }
  } finally {
    await server.close();
    engine.close();
  }
});
