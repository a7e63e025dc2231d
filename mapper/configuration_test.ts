import assert from "node:assert/strict";
import { DataSource } from "../driver/mod.ts";
import { Engine } from "../engine/mod.ts";
import { Column, Table } from "../template/mod.ts";
import { parseMapperFile } from "../xml/mod.ts";
import { bound, Configuration, MapperError, Query, SimpleMapper } from "./mod.ts";

@Table("conf_users")
class User {
  @Column({ primary: true })
  id = "";
  @Column()
  age = 0;
}

const FILE =
  '<mapper namespace="conf"><select id="adults" resultType="User">POST /conf_users/_search {"query": @{macro, adults}}</select></mapper>';

Deno.test("options reach every session: types, macros, refresh of BaseMapper writes", async () => {
  const engine = new Engine();
  const sent: string[] = [];
  const fetch = (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    sent.push(`${init?.method} ${url.pathname}${url.search}`);
    return engine.fetch(input, init);
  };
  const config = new Configuration({
    refresh: false,
    types: { User },
    macros: { adults: '{"range": {"age": {"gte": 18}}}' },
  });
  assert.equal(config.hasType("User"), true);
  assert.equal(config.hasType("Nobody"), false);
  config.addMapper(parseMapperFile(FILE));
  const session = config.newSession(new DataSource({ nodes: ["http://engine"], fetch }));
  const users = session.createBaseMapper(User);
  await users.insert([
    Object.assign(new User(), { id: "a", age: 30 }),
    Object.assign(new User(), { id: "b", age: 9 }),
  ]);
  sent.length = 0;
  await users.update(Object.assign(new User(), { id: "a", age: 31 }));
  assert.deepEqual(sent, ["POST /conf_users/_update/a"], "refresh: false sends no refresh");
  await session.jdbc().execute("POST /conf_users/_refresh");
  const adults = await session.queryStatement<User>("conf.adults");
  assert.ok(adults[0] instanceof User, "the file's resultType from the registered types");
  assert.deepEqual(
    adults.map((u) => [u.id, u.age]),
    [["a", 31]],
    "the macro from the configuration",
  );
  engine.close();
});

Deno.test("addMapper registers a file or a class; hasStatement and statementIds list them", () => {
  @SimpleMapper({ namespace: "conf_mapper" })
  class UserMapper {
    @Query("POST /conf_users/_search")
    all(): Promise<User[]> {
      return bound();
    }
  }
  const config = new Configuration({ types: { User } });
  assert.equal(config.addMapper(parseMapperFile(FILE)).addMapper(UserMapper), config, "chains");
  assert.deepEqual(config.statementIds().sort(), ["conf.adults", "conf_mapper.all"]);
  assert.equal(config.hasStatement("conf.adults"), true);
  assert.equal(config.hasStatement("conf.nope"), false);
  assert.throws(() => config.addMapper(parseMapperFile(FILE)), (e: unknown) => {
    assert.ok(e instanceof MapperError);
    assert.match(e.message, /namespace "conf" is already registered/);
    return true;
  });
});

Deno.test("configurations do not share what they register", () => {
  const a = new Configuration().addMapper(parseMapperFile(FILE));
  const b = new Configuration();
  assert.equal(a.hasStatement("conf.adults"), true);
  assert.equal(b.hasStatement("conf.adults"), false);
  assert.doesNotThrow(() => b.addMapper(parseMapperFile(FILE)));
});
