import assert from "node:assert/strict";
import { UnsupportedFeatureError } from "../driver/mod.ts";
import { parseMapperFile } from "../xml/mod.ts";
import { openWith, StatementRegistry, takeSetup } from "./_registry.ts";
import { MapperError } from "./errors.ts";
import { bound, Call, Query, RefMapper, SimpleMapper } from "./mod.ts";

const USERS = parseMapperFile(
  `<mapper namespace="users">
  <select id="all">POST /users/_search</select>
  <select id="byName">POST /users/_search {"query": {"term": {"name": #{name}}}}</select>
</mapper>`,
  { file: "mappers/users.xml" },
);

Deno.test("addFile registers a file's statements by namespace.id; a second file of that namespace is refused", () => {
  const registry = new StatementRegistry();
  registry.addFile(USERS);
  registry.addFile(USERS); // the same file again: nothing changes
  assert.deepEqual(registry.ids(), ["users.all", "users.byName"]);
  const other = parseMapperFile(
    '<mapper namespace="users"><select id="x">GET /x</select></mapper>',
  );
  assert.throws(() => registry.addFile(other), (e: unknown) => {
    assert.ok(e instanceof MapperError);
    assert.match(
      e.message,
      /namespace "users" is already registered \(mappers\/users\.xml\); give each file its own namespace/,
    );
    return true;
  });
  assert.deepEqual(registry.ids(), ["users.all", "users.byName"]);
});

Deno.test("statement: compiled once; an unknown id suggests the ids that end alike", () => {
  const registry = new StatementRegistry();
  registry.addFile(USERS);
  const all = registry.statement("users.all");
  assert.equal(all.kind, "query");
  assert.equal(all.returns, "list");
  assert.equal(registry.statement("users.all"), all, "compiled once");
  assert.throws(
    () => registry.statement("people.byName"),
    /no statement with this id; did you mean users\.byName\? \(2 statements registered\)/,
  );
  assert.throws(
    () => registry.statement("nope"),
    /register its mapper file or mapper class first \(2 statements registered\)/,
  );
});

Deno.test("resolveFile finds a file by namespace, file name or path; otherwise says how to register it", () => {
  const registry = new StatementRegistry();
  registry.addFile(USERS);
  for (const source of ["users", "mappers/users.xml", "users.xml", "./users.xml"]) {
    assert.equal(registry.resolveFile(source, {}), USERS, source);
  }
  assert.throws(
    () => registry.resolveFile("orders", { mapper: "OrderMapper" }),
    /OrderMapper: @RefMapper\("orders"\) names no registered mapper file; .*\(known namespaces: users\)/,
  );
});

Deno.test("compileMapper: annotations claim namespace.method; twice declared, or taken, is refused", () => {
  @SimpleMapper({ namespace: "notes" })
  class NoteMapper {
    @Query("POST /notes/_search")
    all(): Promise<unknown[]> {
      return bound();
    }
  }
  const registry = new StatementRegistry();
  const compiled = registry.compileMapper(NoteMapper);
  assert.equal(compiled.namespace, "notes");
  assert.deepEqual([...compiled.methods.keys()], ["all"]);
  assert.equal(registry.compileMapper(NoteMapper), compiled, "once per class");
  assert.deepEqual(registry.ids(), ["notes.all"]);

  @SimpleMapper({ namespace: "notes" })
  class Rival {
    @Query("POST /other/_search")
    all(): Promise<unknown[]> {
      return bound();
    }
  }
  assert.throws(
    () => registry.compileMapper(Rival),
    /statement id notes\.all is already declared by NoteMapper; choose another namespace/,
  );

  @RefMapper("users")
  class Twice {
    @Query("POST /users/_search")
    all(): Promise<unknown[]> {
      return bound();
    }
  }
  registry.addFile(USERS);
  assert.throws(
    () => registry.compileMapper(Twice),
    /Twice\.all .*is declared twice: by an annotation and by <select id="all"> of mappers\/users\.xml; remove one/,
  );

  class Unmarked {}
  assert.throws(
    () => registry.compileMapper(Unmarked),
    /Unmarked: is not a mapper: mark it with @SimpleMapper\(\)/,
  );

  @SimpleMapper()
  class Procedures {
    @Call("CALL p()")
    run(): Promise<unknown> {
      return bound();
    }
  }
  assert.throws(() => registry.compileMapper(Procedures), UnsupportedFeatureError);
});

Deno.test("mark and undo forget what was registered since, and nothing before", () => {
  const registry = new StatementRegistry();
  registry.addFile(USERS);
  const mark = registry.mark();
  registry.addFile(
    parseMapperFile('<mapper namespace="orders"><select id="all">GET /o/_search</select></mapper>'),
  );
  registry.statement("orders.all");
  assert.deepEqual(registry.ids(), ["users.all", "users.byName", "orders.all"]);
  registry.undo(mark);
  assert.deepEqual(registry.ids(), ["users.all", "users.byName"]);
  assert.throws(() => registry.statement("orders.all"), /no statement with this id/);
  assert.equal(registry.resolveFile("users", {}), USERS);
  assert.throws(() => registry.resolveFile("orders", {}), /names no registered mapper file/);
});

Deno.test("openWith hands a setup to the session opened inside it, once; takeSetup outside is fresh", () => {
  const registry = new StatementRegistry();
  const setup = { registry, writes: { refresh: false } };
  const seen = openWith(setup, () => takeSetup());
  assert.equal(seen, setup);
  const fresh = takeSetup();
  assert.notEqual(fresh, setup);
  assert.deepEqual(fresh.registry.ids(), []);
  assert.deepEqual(fresh.writes, {});
  // a failing open leaves nothing behind
  assert.throws(() =>
    openWith(setup, () => {
      throw new Error("boom");
    }), /boom/);
  assert.notEqual(takeSetup(), setup);
});

Deno.test("loadFile loads a @RefMapper file from the base once, and a failure names the base", async () => {
  const registry = new StatementRegistry();
  const read: string[] = [];
  registry.fileOptions = {
    base: new URL("file:///app/main.ts"),
    loader: (url) => {
      read.push(url.href);
      if (url.pathname.endsWith("missing.xml")) return Promise.reject(new Error("no such file"));
      return Promise.resolve(
        '<mapper namespace="loaded"><select id="all">GET /l/_search</select></mapper>',
      );
    },
  };
  const [a, b] = await Promise.all([
    registry.loadFile("mappers/loaded.xml", { mapper: "LoadedMapper" }),
    registry.loadFile("mappers/loaded.xml", { mapper: "LoadedMapper" }),
  ]);
  assert.equal(a, b);
  assert.equal(a.namespace, "loaded");
  assert.deepEqual(read, ["file:///app/mappers/loaded.xml"]);
  assert.deepEqual(registry.ids(), ["loaded.all"]);
  await assert.rejects(
    registry.loadFile("mappers/missing.xml", { mapper: "Gone" }),
    (e: unknown) => {
      assert.ok(e instanceof Error && e.name === "MapperLoadError", String(e));
      assert.match(
        e.message,
        /^@RefMapper\("mappers\/missing\.xml"\) of Gone: .*resolved against the base file:\/\/\/app\/main\.ts/,
      );
      return true;
    },
  );
});
