import assert from "node:assert/strict";
import { DataSource } from "../driver/mod.ts";
import { Column, defineEntity, Table } from "../template/mod.ts";
import { LambdaTemplate } from "./lambda_template.ts";
import type { ConditionNode } from "./nodes.ts";

const lambda = new LambdaTemplate(
  new DataSource({ nodes: ["http://es.local"], fetch: () => Promise.reject(new Error("no I/O")) }),
);

@Table("people")
class Person {
  @Column({ primary: true })
  id = "";
  @Column("full_name")
  name = "";
  @Column()
  address = { city: "" };
  @Column({ update: false })
  created: Date | null = null;
}

function deepFrozen(n: unknown): boolean {
  if (n === null || typeof n !== "object") return true;
  return Object.isFrozen(n) && Object.values(n).every(deepFrozen);
}

Deno.test("builders are immutable: each call returns a new builder, the base is reusable", () => {
  const base = lambda.query("users").eq("a", 1);
  const left = base.eq("b", 2);
  const right = base.or().eq("c", 3).orderBy("a").initPage(10, 0);
  assert.notEqual(left, base);
  assert.deepEqual(base.where, { kind: "compare", op: "eq", field: "a", value: 1 });
  assert.equal(left.where?.kind, "and");
  assert.equal(right.where?.kind, "or");
  assert.deepEqual(base.toCommand().args, ["users", 1, 10_000], "base has no page or order");
});

Deno.test("the tree is frozen, data-only, and compiling it twice gives the same command", () => {
  const q = lambda.query("users").in("a", [1, 2]).and((g) => g.isNull("b").or().like("c", "x%"))
    .not((g) => g.between("d", new Date(0), new Date(1)));
  assert.ok(deepFrozen(q.where));
  assert.deepEqual(JSON.parse(JSON.stringify(q.where)), {
    kind: "and",
    items: [
      { kind: "in", field: "a", values: [1, 2], negated: false },
      {
        kind: "or",
        items: [
          { kind: "exists", field: "b", negated: true },
          { kind: "like", field: "c", mode: "prefix", text: "x", negated: false },
        ],
      },
      {
        kind: "not",
        item: {
          kind: "between",
          field: "d",
          low: "1970-01-01T00:00:00.000Z",
          high: "1970-01-01T00:00:00.001Z",
          negated: false,
        },
      },
    ],
  });
  // dbVisitor defect: building twice doubled the argument list.
  assert.deepEqual(q.toCommand(), q.toCommand());
  assert.deepEqual(q.toCountCommand(), q.toCountCommand());
  assert.equal(q.toCommand().args.length, 1 + 1 + 1 + 2 + 1);
});

Deno.test("entity fields are checked names, renamed to document fields; dotted paths too", () => {
  const q = lambda.query(Person).eq("name", "Ann").eq("address.city", "Oslo").orderBy("name")
    .select("name", "address");
  const where = q.where as Extract<ConditionNode, { kind: "and" }>;
  assert.deepEqual(where.items.map((i) => (i as { field: string }).field), [
    "full_name",
    "address.city",
  ]);
  assert.match(q.toCommand().text, /"_source":\["full_name","address"\],"sort":\[\{"full_name"/);
  // @ts-expect-error: not a field of Person
  lambda.query(Person).eq("nope", 1);
  // @ts-expect-error: name is a string field
  lambda.query(Person).eq("name", 1);
  // @ts-expect-error: created is a Date field
  lambda.query(Person).gt("created", true);
  lambda.query(Person).gt("created", "2020-01-01").eq("created", null).eq("address.city", "x");
});

Deno.test("like: % anchors only at either end; everything else is literal", () => {
  const like = (p: string) => lambda.query("u").like("f", p).where;
  assert.deepEqual(like("ab%"), {
    kind: "like",
    field: "f",
    mode: "prefix",
    text: "ab",
    negated: false,
  });
  assert.deepEqual(like("%ab"), {
    kind: "like",
    field: "f",
    mode: "suffix",
    text: "ab",
    negated: false,
  });
  assert.deepEqual(like("%a%b%"), {
    kind: "like",
    field: "f",
    mode: "contains",
    text: "a%b",
    negated: false,
  });
  assert.deepEqual(like("ab"), {
    kind: "like",
    field: "f",
    mode: "contains",
    text: "ab",
    negated: false,
  });
  assert.deepEqual(like("%"), {
    kind: "like",
    field: "f",
    mode: "contains",
    text: "",
    negated: false,
  });
});

Deno.test("bad input is a TypeError naming the call and the field", () => {
  const q = lambda.query("u");
  assert.throws(() => q.eq("a", undefined as never), /eq\("a"\): the value is undefined/);
  assert.throws(() => q.gt("a", Number.NaN), /gt\("a"\): NaN is not a finite number/);
  assert.throws(() => q.gt("a", null as never), /gt\("a"\): null has no order/);
  assert.throws(() => q.eq("a", { x: 1 } as never), /eq\("a"\): a object is not a condition value/);
  assert.throws(() => q.eq("a", new Date("x")), /the Date is invalid/);
  assert.throws(() => q.in("a", "x" as never), /in\("a"\): pass the values as an array/);
  assert.throws(() => q.in("a", [1, undefined as never]), /in\("a"\): the value is undefined/);
  assert.throws(() => q.eq("", 1), /a field name must be a non-empty name/);
  assert.throws(() => q.orderBy("a", "up" as never), /"asc" or "desc"/);
  assert.throws(() => q.and(1 as never), /pass a function/);
  assert.throws(() => q.and(() => 1 as never), /must return the group/);
  assert.throws(() => lambda.query("bad name"), /Invalid index name/);
  class NoIndex {}
  assert.throws(() => lambda.query(NoIndex), /NoIndex has no index: declare one with @Table/);
});

Deno.test("update values: top-level fields only, the key refused, samples skip key and update:false", () => {
  const u = lambda.update(Person);
  assert.throws(() => u.updateTo("id", "2"), /the key is the document _id and cannot be updated/);
  assert.throws(() => u.updateTo("address.city", "x"), /name a top-level field/);
  assert.throws(() => u.updateTo("name", undefined as never), /pass null to clear/);
  const sample = Object.assign(new Person(), { id: "1", name: "Bo", created: new Date(0) });
  const cmd = u.eq("address.city", "Oslo").updateToSample(sample).toCommand();
  // address is still a fresh instance's { city: "" }: unset, so it is not written over
  assert.deepEqual(cmd.args[2], { full_name: "Bo" });
  // By key: a plain _update of the one document.
  assert.deepEqual(u.eq("id", "1").updateTo("name", "Al").toCommand(), {
    text: 'POST /{?}/_update/{?}?refresh=true {"doc":?}',
    args: ["people", "1", { full_name: "Al" }],
  });
});

Deno.test("insert: key is the _id (kept in the source), an empty key is generated", () => {
  const a = Object.assign(new Person(), { id: "1", name: "A" });
  const b = Object.assign(new Person(), { name: "B" });
  const cmd = lambda.insert(Person).applyEntity([a, b]).toCommand();
  assert.equal(cmd.text, "POST /{?}/_bulk?refresh=true\n?\n?\n?\n?\n");
  assert.deepEqual(cmd.args, [
    "people",
    { create: { _id: "1" } },
    { id: "1", full_name: "A", address: { city: "" }, created: null },
    { index: {} },
    { full_name: "B", address: { city: "" }, created: null },
  ]);
  const base = lambda.insert(Person);
  assert.notEqual(base.applyEntity(a), base);
  assert.deepEqual(base.toCommand().args, ["people"]);
  assert.throws(() => base.applyEntity(null as never), /item 0 is not an object/);
});

Deno.test("defineEntity classes work the same as decorated ones", () => {
  class City {
    code = "";
    name = "";
  }
  defineEntity(City, { index: "cities", key: "code", fields: { name: "city_name" } });
  assert.deepEqual(lambda.delete(City).eq("code", "OSL").toCommand().args, ["cities", "OSL"]);
  assert.deepEqual(lambda.query(City).eq("name", "Oslo").toCountCommand().args, ["cities", "Oslo"]);
  assert.match(lambda.query(City).eq("name", "Oslo").toCountCommand().text, /"city_name"/);
});
