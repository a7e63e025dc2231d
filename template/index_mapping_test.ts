import assert from "node:assert/strict";
import { Column, defineEntity, getEntityMeta, Table } from "./entity.ts";
import { mappingOf } from "./index_mapping.ts";
import { MappingDeclarationError } from "./mapping_types.ts";

Deno.test("mappingOf: decorators and defineEntity declare the same mapping", () => {
  class Geo {
    @Column({ mapping: "geo_point" })
    at = "";
  }
  @Table({
    index: "a",
    dynamic: false,
    settings: { number_of_replicas: 0, raw: { "index.codec": "best_compression" } },
  })
  class A {
    @Column({ primary: true, mapping: { type: "keyword", ignore_above: 64, copy_to: "all" } })
    id = "";
    @Column({ mapping: { type: "object", entity: Geo, dynamic: true } })
    place: Geo | null = null;
    @Column({ mapping: { type: "scaled_float", scaling_factor: 10 } })
    price = 0;
    @Column({ mapping: "text" })
    all = "";
  }
  class B {
    id = "";
    place: Geo | null = null;
    price = 0;
    all = "";
  }
  defineEntity(B, {
    index: "a",
    key: "id",
    dynamic: false,
    settings: { number_of_replicas: 0, raw: { "index.codec": "best_compression" } },
    fields: {
      id: { mapping: { type: "keyword", ignore_above: 64, copy_to: "all" } },
      place: { mapping: { type: "object", entity: () => Geo, dynamic: true } },
      price: { mapping: { type: "scaled_float", scaling_factor: 10 } },
      all: { mapping: "text" },
    },
  });
  const expected = {
    settings: { number_of_replicas: 0, "index.codec": "best_compression" },
    mappings: {
      dynamic: "false",
      properties: {
        id: { type: "keyword", ignore_above: 64, copy_to: ["all"] },
        place: { dynamic: "true", properties: { at: { type: "geo_point" } } },
        price: { type: "scaled_float", scaling_factor: 10 },
        all: { type: "text" },
      },
    },
  };
  assert.deepEqual(mappingOf(A), expected);
  assert.deepEqual(mappingOf(B), expected);
  assert.equal(getEntityMeta(B).key, "id");
});

Deno.test("mappingOf: dotted column names become objects, merged with a declared object", () => {
  class Doc {
    @Column({ name: "user.name", mapping: "keyword" })
    userName = "";
    @Column({ name: "user", mapping: { type: "object", dynamic: "strict" } })
    user: unknown = null;
    @Column({ name: "user.age", mapping: "integer" })
    age = 0;
  }
  assert.deepEqual(mappingOf(Doc).mappings.properties, {
    user: {
      dynamic: "strict",
      properties: { name: { type: "keyword" }, age: { type: "integer" } },
    },
  });
});

Deno.test("mappingOf: an object without mapped fields keeps its type; raw mappings pass", () => {
  class Empty {}
  class Doc {
    @Column({ mapping: { type: "object", entity: Empty, enabled: false } })
    blob: unknown = null;
    @Column({ mapping: { raw: { type: "murmur3", store: true } } })
    hash = "";
  }
  assert.deepEqual(mappingOf(Doc).mappings.properties, {
    blob: { type: "object", enabled: false },
    hash: { type: "murmur3", store: true },
  });
});

Deno.test("mappingOf: a class that contains itself is refused with the chain", () => {
  class Node {
    @Column({ mapping: { type: "nested", entity: () => Node } })
    children: Node[] = [];
  }
  assert.throws(
    () => mappingOf(Node),
    (e) => e instanceof MappingDeclarationError && /Node → Node/.test(e.message),
  );
});

Deno.test("declarations: wrong options fail where they are declared", () => {
  const bad = (mapping: unknown) => () => {
    class X {
      @Column({ mapping: mapping as "keyword" })
      x = "";
    }
    return X;
  };
  for (
    const [mapping, message] of [
      [{ type: "keyword", analyzer: "x" }, /keyword takes no option "analyzer"/],
      [{ type: "kewyord" }, /unknown mapping type "kewyord"/],
      [{ type: "scaled_float" }, /needs scaling_factor/],
      [{ type: "long", index: "no" }, /index must be boolean, not string/],
      [{ type: "text", fields: { n: { type: "nested" } } }, /multi-field cannot be an nested/],
      [{ type: "text", raw: { analyzer: "x" } }, /raw\.analyzer shadows the typed option/],
      ["nested", /no type that stands alone/],
      [{ raw: {}, index: false }, /found index/],
    ] as const
  ) {
    assert.throws(
      bad(mapping),
      (e) => e instanceof MappingDeclarationError && message.test(e.message),
    );
  }
  assert.throws(() => {
    @Table({ index: "x", settings: { shards: 1 } as never })
    class Y {}
    return Y;
  }, /settings take no "shards"/);
  assert.throws(
    () => defineEntity(class Z {}, { rawMappings: { properties: {} } }),
    /rawMappings\.properties/,
  );
});

Deno.test("a subclass inherits the table's mapping options and the columns", () => {
  @Table({ index: "base", dynamic: "strict" })
  class Base {
    @Column({ mapping: "keyword" })
    id = "";
  }
  @Table("child")
  class Child extends Base {
    @Column({ mapping: "long" })
    n = 0;
  }
  assert.deepEqual(mappingOf(Child).mappings, {
    dynamic: "strict",
    properties: { id: { type: "keyword" }, n: { type: "long" } },
  });
});
