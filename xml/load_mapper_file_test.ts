import assert from "node:assert/strict";
import { loadMapperFile } from "./load_mapper_file.ts";
import { MapperLoadError, XmlSyntaxError } from "./errors.ts";

const FILE = '<mapper namespace="users"><select id="all">POST /users/_search</select></mapper>';

Deno.test("loadMapperFile: through an injected fetch; the URL names the file", async () => {
  const seen: string[] = [];
  const fetch = (input: RequestInfo | URL) => {
    seen.push(String(input));
    return Promise.resolve(new Response(FILE));
  };
  const file = await loadMapperFile(new URL("https://example.com/m/users.xml"), { fetch });
  assert.deepEqual(seen, ["https://example.com/m/users.xml"]);
  assert.equal(file.file, "https://example.com/m/users.xml");
  assert.equal(file.statements.get("all")?.render({}).text, "POST /users/_search");
});

Deno.test("loadMapperFile: a relative string resolves against options.base; a loader replaces fetch", async () => {
  const file = await loadMapperFile("users.xml", {
    base: "file:///app/mappers/",
    loader: (url) => Promise.resolve(url.href === "file:///app/mappers/users.xml" ? FILE : ""),
  });
  assert.equal(file.file, "file:///app/mappers/users.xml");
});

Deno.test("loadMapperFile: a file: URL through Deno's fetch", async () => {
  const path = await Deno.makeTempFile({ suffix: ".xml" });
  try {
    await Deno.writeTextFile(path, FILE);
    const file = await loadMapperFile(new URL(`file://${path}`));
    assert.equal(file.namespace, "users");
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("loadMapperFile: failures are MapperLoadErrors with the cause; credentials are redacted", async () => {
  const notFound = () => Promise.resolve(new Response("no", { status: 404 }));
  await assert.rejects(
    loadMapperFile("https://user:secret@example.com/x.xml", { fetch: notFound }),
    (e: unknown) =>
      e instanceof MapperLoadError && /HTTP 404/.test(e.message) && !e.message.includes("secret") &&
      e.file === "https://***@example.com/x.xml",
  );
  const boom = new TypeError("network down");
  await assert.rejects(
    loadMapperFile("https://example.com/x.xml", { fetch: () => Promise.reject(boom) }),
    (e: unknown) => e instanceof MapperLoadError && e.cause === boom,
  );
  await assert.rejects(
    loadMapperFile("file:///x.xml", { fetch: () => Promise.reject(new TypeError("scheme")) }),
    (e: unknown) => e instanceof MapperLoadError && /pass a loader/.test(e.message),
  );
  await assert.rejects(
    loadMapperFile("relative.xml"),
    (e: unknown) => e instanceof MapperLoadError && /import\.meta\.url/.test(e.message),
  );
  let pulled = 0;
  const endless = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      controller.enqueue(new TextEncoder().encode("<a>".repeat(1000)));
    },
  });
  await assert.rejects(
    loadMapperFile("https://example.com/endless.xml", {
      fetch: () => Promise.resolve(new Response(endless)),
      maxLength: 100_000,
    }),
    (e: unknown) => e instanceof MapperLoadError && /larger than 100000/.test(e.message),
  );
  assert.ok(pulled < 100, `stopped reading after ${pulled} chunks`);
  await assert.rejects(
    loadMapperFile("mem:/big.xml", {
      loader: () => Promise.resolve("x".repeat(101)),
      maxLength: 100,
    }),
    (e: unknown) => e instanceof MapperLoadError && /larger than 100/.test(e.message),
  );
});

Deno.test("loadMapperFile: problems in the text name the URL", async () => {
  await assert.rejects(
    loadMapperFile("mem:/bad.xml", { loader: () => Promise.resolve("<mapper namespace='n'>") }),
    (e: unknown) => e instanceof XmlSyntaxError && e.file === "mem:/bad.xml",
  );
});
