// Runtime check of the TC39 standard decorators @Table/@Column, runnable by any runtime:
//   deno run tests/entity_decorators_check.ts      npx -y bun tests/entity_decorators_check.ts
// (Deno's test suite covers the same in template/entity_test.ts.)
import assert from "node:assert/strict";
import { Column, getEntityMeta, Table } from "../template/mod.ts";

@Table("users")
class User {
  @Column({ primary: true })
  id = "";
  @Column("user_name")
  name = "";
  @Column({ type: "number" })
  age = 0;
}

@Table({ index: "admins" })
class Admin extends User {
  @Column({ update: false })
  level = 1;
}

const meta = getEntityMeta(User);
assert.equal(meta.index, "users");
assert.equal(meta.key, "id");
assert.deepEqual(meta.fields.map((f) => `${f.field}:${f.column}`), [
  "id:id",
  "name:user_name",
  "age:age",
]);
const admin = getEntityMeta(Admin);
assert.equal(admin.index, "admins");
assert.deepEqual(admin.fields.map((f) => f.field), ["id", "name", "age", "level"]);
assert.equal(getEntityMeta(User).fields.length, 3);
console.log("decorators ok:", JSON.stringify(meta.fields.map((f) => f.column)));
