// The mapper's checked statements end to end on every backend of the behaviour suite: a
// statement is checked against the live mapping of the index it addresses on its first use, and
// in "error" mode a command the mapping refuses is never sent.
import assert from "node:assert/strict";
import { Configuration, defineMapper, MapperError } from "../mapper/mod.ts";
import { backendTest } from "./support/backend.ts";

backendTest(
  "checked statements: the live mapping is read once and refuses before sending",
  async (t) => {
    const people = t.index("people");
    const created = await t.call("PUT", `/${people}`, {
      mappings: {
        dynamic: "strict",
        properties: { name: { type: "text" }, age: { type: "long" } },
      },
    });
    assert.equal(created.status, 200);
    class People {}
    defineMapper(People, {
      namespace: "people",
      methods: {
        add: { insert: `PUT /${people}/_doc/#{id}?refresh=true {"name": #{name}, "age": #{age}}` },
        addTypo: {
          insert: `PUT /${people}/_doc/#{id}?refresh=true {"name": #{name}, "agee": #{age}}`,
        },
        oldest: { query: `POST /${people}/_search {"sort": [{"age": "desc"}], "size": 1}` },
        byName: { query: `POST /${people}/_search {"query": {"term": {"name": #{name}}}}` },
      },
    });
    const warnings: string[] = [];
    const config = new Configuration({ check: "error", warn: (m) => warnings.push(m) })
      .addMapper(People);
    const session = config.newSession(t.dataSource());
    assert.equal(
      await session.executeStatement("people.add", { id: "1", name: "Ada", age: 36 }),
      1,
    );
    await assert.rejects(
      session.executeStatement("people.addTypo", { id: "2", name: "Bob", age: 40 }),
      (e: unknown) => {
        assert.ok(e instanceof MapperError);
        assert.match(e.message, /"agee" is not in the mapping, and its dynamic setting is strict/);
        assert.match(e.message, /the command was not sent/);
        return true;
      },
    );
    const rows = await session.queryStatement<{ _ID: string }>("people.oldest");
    assert.deepEqual(rows.map((r) => r._ID), ["1"]);
    // A warning (term on text) does not refuse the call in error mode: it is reported.
    assert.deepEqual(await session.queryStatement("people.byName", { name: "Ada" }), []);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /term on the text field "name"/);
    const count = await t.call("POST", `/${people}/_count`);
    assert.equal(
      (count.body as { count: number }).count,
      1,
      "the refused document was never written",
    );
  },
);
