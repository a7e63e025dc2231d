import assert from "node:assert/strict";
import { DataSource } from "./data_source.ts";
import { FakeEs } from "../../tests/support/fake_es.ts";
import { ConnectionError, ResponseError } from "../errors.ts";

const SECRETS = /s3cret|hunter2|tok-xyz|key-abc/;

function assertHidden(value: unknown): void {
  assert.doesNotMatch(String(value), SECRETS);
  assert.doesNotMatch(JSON.stringify(value) ?? "", SECRETS);
  assert.doesNotMatch(Deno.inspect(value), SECRETS);
}

Deno.test("credentials from the URL are sent as Basic auth and never shown", async () => {
  const fake = new FakeEs();
  const ds = new DataSource("jdbc:dbvisitor:elastic://h1:9200?user=u&password=s3cret", {
    fetch: fake.fetch,
  });
  assertHidden(ds);
  assert.equal(String(ds), "DataSource(http://h1:9200)");
  assert.equal(JSON.parse(JSON.stringify(ds)).auth, "basic");
  const conn = await ds.getConnection();
  await conn.createStatement().execute("GET /");
  assert.equal(fake.requests[0]!.headers.get("authorization"), `Basic ${btoa("u:s3cret")}`);
});

Deno.test("credentials in an http URL or node list, apiKey and bearer options", async () => {
  const fake = new FakeEs();
  const ds = new DataSource("http://u:hunter2@es:9201", { fetch: fake.fetch });
  assertHidden(ds);
  assert.deepEqual(ds.nodes, ["http://es:9201"]);
  await (await ds.getConnection()).createStatement().execute("GET /");
  assert.equal(fake.requests[0]!.headers.get("authorization"), `Basic ${btoa("u:hunter2")}`);
  assert.equal(fake.requests[0]!.url, "http://es:9201/");

  const api = new DataSource({
    nodes: ["http://es:9200"],
    auth: { apiKey: "key-abc" },
    fetch: fake.fetch,
  });
  assertHidden(api);
  await (await api.getConnection()).createStatement().execute("GET /");
  assert.equal(fake.requests[1]!.headers.get("authorization"), "ApiKey key-abc");

  const bearer = new DataSource({
    nodes: ["http://es:9200"],
    auth: { bearer: "tok-xyz" },
    headers: { authorization: "x", "x-trace": "1" },
    fetch: fake.fetch,
  });
  assertHidden(bearer);
  await (await bearer.getConnection()).createStatement().execute("GET /");
  assert.equal(fake.requests[2]!.headers.get("authorization"), "Bearer tok-xyz");
  assert.equal(fake.requests[2]!.headers.get("x-trace"), "1");
  assert.throws(() => new DataSource({ nodes: ["http://h"], auth: { bearer: "" } }), TypeError);
  assert.throws(() => new DataSource({ nodes: [] }), TypeError);
});

Deno.test("errors never carry credentials", async () => {
  const refused = new DataSource("http://u:s3cret@es:9200", {
    fetch: () => Promise.reject(new TypeError("connection refused")),
    maxRetries: 1,
    retryBaseDelayMs: 1,
  });
  const conn = await refused.getConnection();
  const error = await conn.createStatement().execute("GET /").catch((e) => e);
  assert.ok(error instanceof ConnectionError);
  assertHidden(error);
  assert.doesNotMatch(String(error.stack), SECRETS);

  const denied = new DataSource("jdbc:dbvisitor:elastic://h?user=u&password=s3cret", {
    fetch: () => Promise.resolve(new Response("unauthorized", { status: 401 })),
  });
  const e401 = await (await denied.getConnection()).createStatement().execute("GET /").catch((e) =>
    e
  );
  assert.ok(e401 instanceof ResponseError);
  assertHidden(e401);
});

Deno.test("options from the URL: timeoutMs, maxRetries, indexRefresh, compression", async () => {
  const fake = new FakeEs();
  const ds = new DataSource(
    "jdbc:dbvisitor:elastic://h?indexRefresh=true&timeoutMs=1234&maxRetries=5&compression=true",
    { fetch: fake.fetch },
  );
  assert.deepEqual(JSON.parse(JSON.stringify(ds)), {
    nodes: ["http://h:9200"],
    timeoutMs: 1234,
    maxRetries: 5,
    compression: true,
    indexRefresh: true,
  });
  await (await ds.getConnection()).createStatement().executeUpdate('PUT /i/_doc/1 {"a": 1}');
  assert.equal(fake.requests[0]!.path, "/i/_doc/1?refresh=true");
  assert.equal(fake.requests[0]!.headers.get("content-encoding"), "gzip");
  assert.equal(fake.requests[0]!.body, '{"a":1}');
});

Deno.test("serverInfo is read once per data source and retried after a failure", async () => {
  const fake = new FakeEs();
  let fail = true;
  fake.on((req) =>
    req.path === "/" && fail ? (fail = false, new Response("no", { status: 500 })) : undefined
  );
  const ds = new DataSource({ nodes: ["http://h:9200"], fetch: fake.fetch });
  const a = await ds.getConnection();
  await assert.rejects(a.serverInfo(), ResponseError);
  assert.deepEqual(await a.serverInfo(), { flavour: "elasticsearch", version: "8.15.0", major: 8 });
  const b = await ds.getConnection();
  await b.serverInfo();
  assert.equal(fake.requests.length, 2);
});

Deno.test("the console shows no credentials of a data source, connection or transport", async () => {
  const ds = new DataSource("http://u:s3cret@es:9200", { headers: { "x-api": "key-abc" } });
  const conn = await ds.getConnection();
  for (const value of [ds, conn, ds.transport, conn.createStatement()]) {
    assert.doesNotMatch(Deno.inspect(value, { depth: 10, showHidden: true }), SECRETS);
  }
  assert.doesNotMatch(JSON.stringify(ds), SECRETS);
  assert.deepEqual(JSON.parse(JSON.stringify(ds)).headers, ["x-api"]);
});

Deno.test("a cloudId gives the node", async () => {
  const fake = new FakeEs();
  const ds = new DataSource({
    cloudId: `dep:${btoa("eu.cloud.es.io$es9$kb9")}`,
    auth: { apiKey: "key-abc" },
    fetch: fake.fetch,
  });
  assert.deepEqual(ds.nodes, ["https://es9.eu.cloud.es.io:443"]);
  await (await ds.getConnection()).serverInfo();
  assert.equal(fake.requests[0]!.url, "https://es9.eu.cloud.es.io:443/");
});

Deno.test("every transport tuning option is kept and shown by toJSON, unset ones are left out", () => {
  const tuning = {
    timeoutMs: 1_000,
    requestTimeoutMs: 5_000,
    maxRetries: 1,
    retryBaseDelayMs: 5,
    maxRetryDelayMs: 50,
    maxResponseBytes: 1024,
    deadNodeBaseMs: 10,
    deadNodeMaxMs: 100,
  };
  const ds = new DataSource({ nodes: ["http://es:9200"], ...tuning });
  assert.deepEqual(ds.toJSON(), {
    nodes: ["http://es:9200"],
    ...tuning,
    compression: false,
    indexRefresh: false,
    auth: undefined,
    headers: undefined,
  });
  assert.equal("timeoutMs" in new DataSource({ nodes: ["http://es:9200"] }).toJSON(), false);
});

Deno.test("connection-string properties split on & only: a ; is part of the password, and no error shows half of it", async () => {
  for (
    const url of [
      "jdbc:dbvisitor:elastic://h1:9200;h2:9200?user=u&password=Zq7Pw;Kx9Vt",
      "http://h1:9200?user=u&password=Zq7Pw;Kx9Vt",
    ]
  ) {
    const fake = new FakeEs();
    const ds = new DataSource(url, { fetch: fake.fetch });
    await (await ds.getConnection()).createStatement().execute("GET /");
    assert.equal(
      fake.requests[0]!.headers.get("authorization"),
      `Basic ${btoa("u:Zq7Pw;Kx9Vt")}`,
      url,
    );
    assert.doesNotMatch(`${String(ds)} ${JSON.stringify(ds)} ${Deno.inspect(ds)}`, /Zq7Pw|Kx9Vt/);
    // A bad property after the password: the error names it, and neither half of the password.
    const error = (() => {
      try {
        new DataSource(url + "&timeoutMs=soon");
      } catch (e) {
        return e;
      }
    })();
    assert.ok(error instanceof TypeError, String(error));
    assert.match(error.message, /timeoutMs=soon/);
    assert.doesNotMatch(error.message, /Zq7Pw|Kx9Vt/, error.message);
  }
  // `;timeoutMs=1` is no longer a property: it stays in the password's value.
  const fake = new FakeEs();
  const ds = new DataSource("jdbc:dbvisitor:elastic://h?user=u&password=p;timeoutMs=1", {
    fetch: fake.fetch,
  });
  assert.equal(ds.toJSON().timeoutMs, undefined, "no timeoutMs was set");
  await (await ds.getConnection()).createStatement().execute("GET /");
  assert.equal(fake.requests[0]!.headers.get("authorization"), `Basic ${btoa("u:p;timeoutMs=1")}`);
});
