// Bound values never address another resource than the command names: through every binding
// route (driver `{?}` in Statement and PreparedStatement, template `#{}` and positional `{?}`,
// the tagged template's `${}` values, a `${}` splice), against the embedded engine, the index
// and its document survive every hostile value.
import assert from "node:assert/strict";
import {
  BindError,
  DataSource,
  IndexPattern,
  InvalidArgumentError,
  RETURN_GENERATED_KEYS,
} from "../driver/mod.ts";
import { Engine } from "../engine/mod.ts";
import { JdbcTemplate } from "../template/mod.ts";

const CLIMBING = [".", "..", "%2e", "%2E%2e", ".%2E", "%252e%252e", ""];
const WIDENING = [
  "*",
  "_all",
  "users,other",
  "-users",
  "users*",
  "+users",
  "remote:users",
  "_search",
  "%2A",
];

async function setup() {
  const engine = new Engine();
  const ds = new DataSource({
    nodes: ["http://engine.local"],
    fetch: engine.fetch,
    indexRefresh: true,
  });
  const jdbc = new JdbcTemplate(ds);
  await jdbc.execute('PUT /users/_doc/1 {"name": "alice"}');
  await jdbc.execute('PUT /other/_doc/1 {"name": "bob"}');
  const conn = await ds.getConnection();
  return { ds, jdbc, conn };
}

async function survivors(jdbc: JdbcTemplate): Promise<number> {
  return Number((await jdbc.queryForNumber("GET /users,other/_count")) ?? -1);
}

function refused(name: string | undefined, index: number | undefined, why: RegExp) {
  return (e: unknown) => {
    assert.ok(e instanceof InvalidArgumentError, String(e));
    assert.ok(e instanceof BindError);
    assert.equal(e.code, "INVALID_ARGUMENT");
    if (name !== undefined) {
      assert.equal(e.argumentName, name);
      assert.ok(e.message.includes(`argument "${name}"`), e.message);
    }
    if (index !== undefined) {
      assert.equal(e.index, index);
      assert.match(e.message, new RegExp(`argument ${index}\\b`));
    }
    assert.match(e.message, why);
    return true;
  };
}

Deno.test("a path value that climbs is refused on every binding route; nothing is deleted", async () => {
  const { jdbc, conn } = await setup();
  const why = /climb|empty string/;
  for (const v of CLIMBING) {
    const stmt = conn.createStatement();
    await assert.rejects(
      stmt.executeUpdate("DELETE /users/_doc/{?}", [v]),
      refused(undefined, 1, why),
    );
    await assert.rejects(
      stmt.executeUpdate("POST /users/_update/{?}", [v]),
      refused(undefined, 1, why),
    );
    const ps = conn.prepareStatement("DELETE /{?}/_doc/{?}", RETURN_GENERATED_KEYS);
    ps.setArgs(["users", v]);
    await assert.rejects(ps.executeUpdate(), refused(undefined, 2, why));
    await assert.rejects(
      jdbc.executeUpdate("DELETE /users/_doc/#{id}", { id: v }),
      refused("id", undefined, why),
    );
    await assert.rejects(
      jdbc.executeUpdate("DELETE /users/_doc/#{user.id}", { user: { id: v } }),
      refused("user.id", undefined, why),
    );
    await assert.rejects(
      jdbc.executeUpdate("DELETE /users/_doc/{?}", [v]),
      refused(undefined, 1, why),
    );
    await assert.rejects(
      jdbc.command`DELETE /users/_doc/${v}`.executeUpdate(),
      refused("${} value 1", undefined, why),
    );
    if (v === "." || v === "..") {
      await assert.rejects(jdbc.execute("DELETE /${idx}", { idx: v }), InvalidArgumentError);
    }
  }
  assert.equal(await survivors(jdbc), 2);
  await conn.close();
});

Deno.test("an index-name value that widens the target is refused on every route unless opted in", async () => {
  const { jdbc, conn } = await setup();
  const why = /widens the target/;
  for (const v of WIDENING) {
    const stmt = conn.createStatement();
    await assert.rejects(stmt.executeUpdate("DELETE /{?}", [v]), refused(undefined, 1, why));
    await assert.rejects(
      stmt.executeQuery("POST /{?}/_search", [v]),
      refused(undefined, 1, why),
    );
    await assert.rejects(
      stmt.executeQuery("GET /_cat/indices/{?}", [v]),
      refused(undefined, 1, why),
    );
    await assert.rejects(
      stmt.executeUpdate("DELETE /logs-{?}", [v]),
      v === "users*" || v === "*" || v === "users,other" || v === "remote:users" || v === "%2A"
        ? refused(undefined, 1, why)
        : () => true,
    );
    await assert.rejects(
      jdbc.execute("DELETE /#{index}", { index: v }),
      refused("index", undefined, why),
    );
    await assert.rejects(
      jdbc.command`DELETE /${v}`.execute(),
      refused("${} value 1", undefined, why),
    );
    // The same value as a document id is just an id: one segment, no widening.
    assert.equal(await stmt.executeUpdate("DELETE /users/_doc/{?}", [v]), 0);
  }
  assert.equal(await survivors(jdbc), 2);

  const stmt = conn.createStatement();
  const rs = await stmt.executeQuery("GET /{?}/_count", [new IndexPattern("users,other")]);
  assert.ok(rs.next());
  assert.equal(rs.getNumber("COUNT"), 2);
  const rs2 = await stmt.executeQuery("GET /{?}/_count", ["*"], { allowIndexPatterns: true });
  assert.ok(rs2.next());
  assert.equal(rs2.getNumber("COUNT"), 2);
  assert.equal(await jdbc.queryForNumber("GET /#{i}/_count", { i: new IndexPattern("u*") }), 1);
  await conn.close();
});
