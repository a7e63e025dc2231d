import assert from "node:assert/strict";
import { Table } from "../template/mod.ts";
import { parseMapperFile } from "../xml/mod.ts";
import { mapperDefOf } from "./mapper_def.ts";
import { MapperError, RefMapper, SimpleMapper } from "./mod.ts";

@Table("deco_users")
class User {
  id = "";
}

Deno.test("@SimpleMapper marks the class, with its namespace and entity when given", () => {
  @SimpleMapper()
  class Bare {}
  @SimpleMapper({ namespace: "users", entity: User })
  class Full {}
  assert.deepEqual(mapperDefOf(Bare)!.mark, { kind: "simple" });
  assert.equal(mapperDefOf(Bare)!.namespace, undefined);
  assert.equal(mapperDefOf(Full)!.namespace, "users");
  assert.equal(mapperDefOf(Full)!.entity, User);
});

Deno.test("@RefMapper records its source and the file methods' shapes and parameter names", () => {
  const file = parseMapperFile(
    '<mapper namespace="deco"><select id="byId">GET /d/_doc/#{id}</select></mapper>',
  );
  @RefMapper(file, { entity: User, returns: { byId: "one" }, params: { byId: ["id"] } })
  class ByFile {
    declare byId: (id: string) => Promise<User | null>;
  }
  @RefMapper("mappers/deco.xml")
  class ByPath {}
  const def = mapperDefOf(ByFile)!;
  assert.deepEqual(def.mark, { kind: "ref", source: file });
  assert.equal(def.entity, User);
  assert.equal(def.returns.get("byId"), "one");
  assert.deepEqual(def.params.get("byId"), ["id"]);
  assert.deepEqual(mapperDefOf(ByPath)!.mark, { kind: "ref", source: "mappers/deco.xml" });
});

Deno.test("@RefMapper refuses params that are not lists of names, where the class is declared", () => {
  assert.throws(() => {
    @RefMapper("deco", { params: { byId: "id" as never } })
    class Wrong {}
    return Wrong;
  }, (e: unknown) => {
    assert.ok(e instanceof MapperError);
    assert.equal(e.mapper, "Wrong");
    assert.equal(e.method, "byId");
    assert.match(e.message, /params must be an array of parameter names, e\.g\. \["userName"\]/);
    return true;
  });
});
