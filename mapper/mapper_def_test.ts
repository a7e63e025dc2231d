import assert from "node:assert/strict";
import {
  attachRuntime,
  defForDefine,
  defOfMetadata,
  forwarder,
  mapperDefOf,
  type MapperRuntime,
  runtimeOf,
  setFileMethodOptions,
} from "./mapper_def.ts";
import { MapperError } from "./errors.ts";
import { bound, defineMapper, Query, SimpleMapper } from "./mod.ts";

Deno.test("a subclass inherits its parent's declarations, keeps its own namespace, overrides by name", () => {
  @SimpleMapper({ namespace: "parents" })
  class Parent {
    @Query("GET /p/_search")
    all(): Promise<unknown[]> {
      return bound();
    }
    @Query("GET /p/_count", { returns: "number" })
    count(): Promise<number> {
      return bound();
    }
  }
  class Child extends Parent {
    @Query("GET /c/_count", { returns: "number" })
    override count(): Promise<number> {
      return bound();
    }
  }
  const parent = mapperDefOf(Parent)!;
  const child = mapperDefOf(Child)!;
  assert.equal(parent.namespace, "parents");
  assert.equal(child.namespace, undefined, "statement ids of a subclass are its own");
  assert.deepEqual(child.mark, parent.mark);
  assert.deepEqual([...child.statements.keys()].sort(), ["all", "count"]);
  assert.equal(child.statements.get("count")!.text, "GET /c/_count");
  assert.equal(parent.statements.get("count")!.text, "GET /p/_count", "the parent is unchanged");
  assert.equal(mapperDefOf(class Plain {}), undefined);
});

Deno.test("defineMapper's record inherits what decorators declared, once per class", () => {
  @SimpleMapper()
  class Decorated {
    @Query("GET /d/_search")
    all(): Promise<unknown[]> {
      return bound();
    }
  }
  const def = defForDefine(Decorated);
  assert.equal(defForDefine(Decorated), def, "one record per class");
  assert.deepEqual([...def.statements.keys()], ["all"]);
  defineMapper(Decorated, { methods: { more: { query: "GET /d/_count", returns: "number" } } });
  assert.deepEqual([...mapperDefOf(Decorated)!.statements.keys()].sort(), ["all", "more"]);
});

Deno.test("defOfMetadata needs standard decorator metadata and says so", () => {
  assert.throws(
    () => defOfMetadata(undefined),
    /decorator metadata is unavailable: use TC39 standard decorators/,
  );
  const metadata = {} as DecoratorMetadataObject;
  const def = defOfMetadata(metadata);
  assert.equal(defOfMetadata(metadata), def);
  assert.equal(def.statements.size, 0);
});

Deno.test("setFileMethodOptions records shapes and names, and refuses names that are not names", () => {
  const def = defOfMetadata({} as DecoratorMetadataObject);
  setFileMethodOptions(def, { returns: { byId: "one" }, params: { byName: ["name"] } }, "M");
  assert.equal(def.returns.get("byId"), "one");
  assert.deepEqual(def.params.get("byName"), ["name"]);
  assert.ok(Object.isFrozen(def.params.get("byName")));
  for (const bad of ["name", [""], [1]]) {
    assert.throws(
      () => setFileMethodOptions(def, { params: { m: bad as never } }, "M"),
      (e: unknown) => {
        assert.ok(e instanceof MapperError);
        assert.match(e.message, /^M\.m: params must be an array of parameter names/);
        return true;
      },
    );
  }
});

Deno.test("a forwarder runs its instance's runtime; without one it rejects with how to create the mapper", async () => {
  const calls: [string, readonly unknown[]][] = [];
  const runtime = {
    mapper: "M",
    invoke: (method: string, args: readonly unknown[]) => {
      calls.push([method, args]);
      return Promise.resolve(42);
    },
  } as unknown as MapperRuntime;
  class M {
    find = forwarder("find");
  }
  const attached = new M();
  attachRuntime(attached, runtime);
  assert.equal(attached.find.name, "find");
  assert.equal(await attached.find("a", 1), 42);
  assert.deepEqual(calls, [["find", ["a", 1]]]);
  assert.equal(runtimeOf(attached, "find"), runtime);

  const loose = new M();
  const rejected = loose.find();
  assert.ok(rejected instanceof Promise, "never a synchronous throw");
  await assert.rejects(rejected, (e: unknown) => {
    assert.ok(e instanceof MapperError);
    assert.match(
      e.message,
      /^M\.find: this mapper was not created by a session; create it with session\.createMapper\(M\)/,
    );
    return true;
  });
  assert.throws(() => runtimeOf(null, "x"), /session\.createMapper\(MapperClass\)/);
});
