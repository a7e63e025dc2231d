import assert from "node:assert/strict";
import { Configuration, defineMapper } from "./mod.ts";
import { parseMapperFile } from "../xml/mod.ts";
import { MappingModel } from "../check/mod.ts";

const XML = `<mapper namespace="users">
  <select id="byAge">POST /users/_search {"query": {"bool": {"filter": [<where>
    <if test="age != null">{"match_phrase": {"age": #{age}}},</if></where>]}}, "sort": ["name"]}</select>
  <select id="count">POST /users/_count</select>
</mapper>`;
const mapping = MappingModel.from({
  properties: { name: { type: "text" }, age: { type: "long" } },
});

Deno.test("check off (the default) registers anything; error refuses with every error listed", () => {
  assert.ok(new Configuration().addMapper(parseMapperFile(XML)).hasStatement("users.byAge"));
  assert.throws(
    () =>
      new Configuration({ check: "error", checkOptions: { mapping } }).addMapper(
        parseMapperFile(XML),
      ),
    (e: Error) => {
      assert.match(
        e.message,
        /users\.byAge: error field-type: "name" is a text field without fielddata/,
      );
      assert.doesNotMatch(e.message, /match_phrase/); // a warning: not an error
      return true;
    },
  );
});

Deno.test("check warn hands errors and warnings to warn; parameters of annotations are known", () => {
  const seen: string[] = [];
  const config = new Configuration({
    check: "warn",
    checkOptions: { mapping },
    warn: (m) => seen.push(m),
  });
  config.addMapper(parseMapperFile(XML));
  assert.equal(seen.length, 1); // with no arguments the <if> falls away: only the sort remains
  class Users {}
  defineMapper(Users, {
    namespace: "annotated",
    methods: {
      byName: {
        query: 'POST /users/_search {"query": {"match": {"name": #{nmae}}}}',
        params: ["name"],
      },
    },
  });
  config.addMapper(Users);
  assert.equal(seen.length, 2);
  assert.match(
    seen[1]!,
    /annotated\.byName: error placeholder-name: no parameter supplies #\{nmae\}; did you mean "name"\?/,
  );
});
