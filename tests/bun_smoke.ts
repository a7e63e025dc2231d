// A plain script (no Deno APIs) that runs the driver on Bun (or Node, or Deno) through an injected
// fetch: `npx -y bun run tests/bun_smoke.ts` prints "bun smoke ok".
import assert from "node:assert/strict";
import { DataSource, RETURN_GENERATED_KEYS } from "../driver/mod.ts";

const seen: string[] = [];
const fetch = (url: string, init: RequestInit): Promise<Response> => {
  seen.push(`${init.method} ${url}`);
  if (url.endsWith("/_search")) {
    return Promise.resolve(Response.json({
      took: 1,
      hits: {
        total: { value: 1, relation: "eq" },
        hits: [{ _id: "1", _source: { name: "alice" } }],
      },
    }));
  }
  return Promise.resolve(
    Response.json({ _index: "users", _id: "1", result: "created" }, { status: 201 }),
  );
};

const ds = new DataSource(
  "jdbc:dbvisitor:elastic://es:9200?user=u&password=secret&indexRefresh=true",
  {
    fetch,
  },
);
assert.doesNotMatch(String(ds) + JSON.stringify(ds), /secret/);
const conn = await ds.getConnection();
const insert = conn.prepareStatement('PUT /users/_doc/{?} {"name": ?}', RETURN_GENERATED_KEYS);
insert.setArgs(["1", "alice"]);
assert.equal(await insert.executeUpdate(), 1);
const rs = await conn.createStatement().executeQuery(
  'GET /users/_search {"query": {"term": {"name": ?}}}',
  ["alice"],
);
assert.ok(rs.next());
assert.equal(rs.getString("_ID"), "1");
assert.deepEqual(rs.getJson("_DOC"), { name: "alice" });
assert.deepEqual(rs.total, { value: 1, relation: "eq" });
assert.deepEqual(seen, [
  "PUT http://es:9200/users/_doc/1?refresh=true",
  "POST http://es:9200/users/_search",
]);
await conn.close();
console.log("bun smoke ok");
