import assert from "node:assert/strict";
import { Connection, readServerInfo } from "./connection.ts";
import { Transport } from "../wire/transport.ts";
import { DataSource } from "./data_source.ts";
import { FakeEs } from "../../tests/support/fake_es.ts";
import { DataAccessError, IllegalStateError, UnsupportedFeatureError } from "../errors.ts";
import { PreparedStatement } from "./prepared_statement.ts";

function answering(body: unknown): Transport {
  return new Transport({
    nodes: ["http://h:9200"],
    fetch: () => Promise.resolve(Response.json(body)),
  });
}

Deno.test("serverInfo: ES 7/8/9 and OpenSearch 1/2/3, no product check", async () => {
  const cases: [unknown, [string, number]][] = [
    [{ version: { number: "7.17.9" }, tagline: "You Know, for Search" }, ["elasticsearch", 7]],
    [{ version: { number: "8.15.0", build_flavor: "default" } }, ["elasticsearch", 8]],
    [{ version: { number: "9.0.1" } }, ["elasticsearch", 9]],
    [{ version: { number: "1.3.14", distribution: "opensearch" } }, ["opensearch", 1]],
    [{ version: { number: "2.13.0", distribution: "opensearch" } }, ["opensearch", 2]],
    [{ version: { number: "3.0.0", distribution: "opensearch" } }, ["opensearch", 3]],
  ];
  for (const [body, [flavour, major]] of cases) {
    const info = await readServerInfo(answering(body));
    assert.equal(info.flavour, flavour);
    assert.equal(info.major, major);
  }
  await assert.rejects(readServerInfo(answering({ hello: 1 })), DataAccessError);
});

Deno.test("a connection from a transport works without a data source", async () => {
  const fake = new FakeEs();
  const conn = new Connection(new Transport({ nodes: ["http://h:9200"], fetch: fake.fetch }), {
    indexRefresh: true,
  });
  assert.equal((await conn.serverInfo()).version, "8.15.0");
  assert.equal(await conn.createStatement().executeUpdate('POST /i/_update/1 {"doc": {}}'), 1);
  assert.equal(fake.requests[1]!.path, "/i/_update/1?refresh=true");
});

Deno.test("prepareCall is unsupported; prepareStatement parses now", async () => {
  const conn = await new DataSource({ nodes: ["http://h:9200"], fetch: new FakeEs().fetch })
    .getConnection();
  assert.throws(() => conn.prepareCall("{call x()}"), UnsupportedFeatureError);
  assert.ok(conn.prepareStatement("GET /") instanceof PreparedStatement);
  assert.throws(() => conn.prepareStatement("GET /idx/_doc/?"), SyntaxError);
});

Deno.test("close and await using: a closed connection is an IllegalStateError", async () => {
  const ds = new DataSource({ nodes: ["http://h:9200"], fetch: new FakeEs().fetch });
  let kept: Connection | undefined;
  {
    await using conn = await ds.getConnection();
    kept = conn;
    assert.equal(conn.isClosed(), false);
  }
  assert.equal(kept.isClosed(), true);
  assert.throws(() => kept.createStatement(), IllegalStateError);
  assert.throws(() => kept.prepareCall(), IllegalStateError);
  await assert.rejects(kept.serverInfo(), IllegalStateError);
});

Deno.test("auto-commit only: no transactions", async () => {
  const conn = await new DataSource({ nodes: ["http://h:9200"], fetch: new FakeEs().fetch })
    .getConnection();
  assert.equal(conn.getAutoCommit(), true);
  conn.setAutoCommit(true);
  assert.throws(() => conn.setAutoCommit(false), /no transactions/);
  assert.throws(() => conn.commit(), UnsupportedFeatureError);
  assert.throws(() => conn.rollback(), UnsupportedFeatureError);
});
