import assert from "node:assert/strict";
import { DataSource } from "../driver/mod.ts";
import { pageFile, startPlayground } from "./mod.ts";

async function withPlayground(body: (origin: string, url: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "playground-test-" });
  const bundle = new URL(`file://${dir}/app.js`);
  await Deno.writeTextFile(bundle, "document.body.dataset.ready = 'true';\n");
  const playground = await startPlayground({
    port: 0,
    files: { static: new URL("./static/", import.meta.url), bundle },
  });
  try {
    await body(playground.origin, playground.url);
  } finally {
    await playground.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("the page's files are served under /_playground/ and nothing else there", async () => {
  await withPlayground(async (origin, url) => {
    const page = await fetch(url);
    assert.equal(page.headers.get("content-type"), "text/html; charset=utf-8");
    assert.match(await page.text(), /<script type="module" src="\/_playground\/app\.js">/);
    const app = await fetch(`${url}app.js`);
    assert.equal(await app.text(), "document.body.dataset.ready = 'true';\n");
    const sample = await (await fetch(`${url}cities.ndjson`)).text();
    assert.equal(sample.trim().split("\n").length, 1000);
    for (const path of ["nothing.js", "..%2Fmod.ts", "static/index.html", ".hidden.js"]) {
      const res = await fetch(`${url}${path}`);
      assert.equal(res.status, 404, path);
      await res.body?.cancel();
    }
    const root = await fetch(`${origin}/`, { redirect: "manual" });
    assert.equal(root.status, 302);
    assert.equal(root.headers.get("location"), "/_playground/");
  });
});

Deno.test("every other request reaches the engine, whose Origin check stays on", async () => {
  await withPlayground(async (origin) => {
    // The library over fetch on the page's origin, as the page uses it.
    const ds = new DataSource({ nodes: [origin], indexRefresh: true });
    await using conn = await ds.getConnection();
    const stmt = conn.createStatement();
    assert.equal(await stmt.executeUpdate('PUT /p/_doc/1 {"n": 1}'), 1);
    const rs = await stmt.executeQuery('GET /p/_search {"query": {"term": {"n": 1}}}');
    assert.deepEqual(rs.toArray(), [{ _ID: "1", _DOC: '{"n":1}' }]);
    const same = await fetch(`${origin}/p/_count`, { headers: { origin } });
    assert.equal((await same.json()).count, 1);
    const foreign = await fetch(`${origin}/p/_count`, {
      headers: { origin: "http://evil.example" },
    });
    assert.equal(foreign.status, 403);
    assert.match(
      (await foreign.json()).error.reason,
      /cross-origin request from \[http:\/\/evil\.example\]/,
    );
  });
});

Deno.test("a missing bundle is a clear error", async () => {
  await assert.rejects(
    startPlayground({
      files: {
        static: new URL("./static/", import.meta.url),
        bundle: new URL("file:///nonexistent/app.js"),
      },
    }),
    /bundle \/nonexistent\/app\.js is missing; build it with `deno task playground:build`/,
  );
  assert.equal(pageFile("/_playground/"), "index.html");
  assert.equal(pageFile("/_playground/a/b.js"), undefined);
});
