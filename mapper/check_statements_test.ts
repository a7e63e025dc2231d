import assert from "node:assert/strict";
import { Column, Table } from "../template/mod.ts";
import { type CheckedStatements, checkStatements, entityMapping } from "./check_statements.ts";
import { MapperError } from "./errors.ts";

@Table("checked_users")
class User {
  @Column({ mapping: "keyword" })
  name = "";
  @Column()
  nick = "";
}

class Undeclared {
  a = "";
}

function registry(
  texts: Record<string, { text: string; params?: string[]; entity?: typeof User }>,
): CheckedStatements {
  return {
    statement: (id) => {
      const st = texts[id]!;
      return {
        ...(st.params ? { params: st.params } : {}),
        ...(st.entity ? { entity: st.entity } : {}),
        render: () => {
          if (st.text === "") throw new Error("needs arguments to render");
          return { text: st.text };
        },
      };
    },
  };
}

const STATEMENTS = registry({
  good: { text: 'POST /u/_search {"query": {"term": {"name": "x"}}}' },
  typo: { text: 'POST /u/_search {"query": {"trem": {"name": "x"}}}' },
  dynamic: { text: "" },
  named: { text: 'POST /u/_search {"query": {"term": {"name": #{who}}}}', params: ["whom"] },
  field: { text: 'POST /checked_users/_search {"query": {"term": {"nmae": "x"}}}', entity: User },
});

Deno.test("off checks nothing; warn reports every finding with its id and returns what it checked", () => {
  const warned: string[] = [];
  assert.deepEqual(
    checkStatements(STATEMENTS, ["typo"], {
      mode: "off",
      options: {},
      warn: (m) => warned.push(m),
      named: false,
    }),
    [],
  );
  assert.equal(warned.length, 0);
  const checked = checkStatements(STATEMENTS, ["good", "typo", "dynamic"], {
    mode: "warn",
    options: {},
    warn: (m) => warned.push(m),
    named: false,
  });
  assert.deepEqual(
    checked,
    ["good", "typo"],
    "a text that needs its arguments to render is skipped",
  );
  assert.equal(warned.length, 1);
  assert.match(warned[0]!, /^typo: .*trem.*term/s);
});

Deno.test("error refuses with every error listed, and warns of nothing", () => {
  const warned: string[] = [];
  assert.throws(
    () =>
      checkStatements(STATEMENTS, ["good", "typo", "field"], {
        mode: "error",
        options: {},
        warn: (m) => warned.push(m),
        named: false,
      }),
    (e: unknown) => {
      assert.ok(e instanceof MapperError);
      assert.match(e.message, /statements do not pass the check:\ntypo: /);
      assert.match(e.message, /\nfield: .*nmae/s);
      assert.doesNotMatch(e.message, /\ngood: /);
      return true;
    },
  );
  assert.equal(warned.length, 0);
});

Deno.test("named parameters are checked when asked: a placeholder no parameter supplies", () => {
  const warned: string[] = [];
  checkStatements(STATEMENTS, ["named"], {
    mode: "warn",
    options: {},
    warn: (m) => warned.push(m),
    named: true,
  });
  assert.equal(warned.length, 1);
  assert.match(warned[0]!, /^named: .*who/s);
  warned.length = 0;
  checkStatements(STATEMENTS, ["named"], {
    mode: "warn",
    options: {},
    warn: (m) => warned.push(m),
    named: false,
  });
  assert.equal(warned.length, 0, "positional statements have no names to compare");
});

Deno.test("entityMapping: the declared mapping, undeclared columns known by name; none without mappings", () => {
  const model = entityMapping(User)!;
  assert.equal(model.field("name")?.type, "keyword");
  assert.equal(model.field("nick")?.type, "undeclared");
  assert.equal(model.field("other"), undefined);
  assert.equal(entityMapping(User), model, "read once per class");
  assert.equal(entityMapping(Undeclared), undefined);
});
