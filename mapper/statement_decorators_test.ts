import assert from "node:assert/strict";
import { bound, Delete, Execute, Insert, MapperError, Query, SimpleMapper, Update } from "./mod.ts";
import { mapperDefOf } from "./mapper_def.ts";

Deno.test("each decorator records its kind, its text (parts joined by lines) and its options", () => {
  @SimpleMapper()
  class Kinds {
    @Query(["POST /k/_search", '{"size": 1}'], { returns: "one" })
    q(): Promise<unknown> {
      return bound();
    }
    @Insert("POST /k/_doc #{doc}", { useGeneratedKeys: true, keyProperty: "doc.id" })
    i(_a: { doc: object }): Promise<number> {
      return bound();
    }
    @Update("POST /k/_update/#{id} {}")
    u(_a: { id: string }): Promise<number> {
      return bound();
    }
    @Delete("DELETE /k/_doc/#{id}", { returns: "boolean" })
    d(_a: { id: string }): Promise<boolean> {
      return bound();
    }
    @Execute("GET /_cluster/health", { returns: "void" })
    e(): Promise<void> {
      return bound();
    }
  }
  const statements = mapperDefOf(Kinds)!.statements;
  assert.deepEqual(
    [...statements].map(([name, st]) => [name, st.kind, st.text, st.options]),
    [
      ["q", "query", 'POST /k/_search\n{"size": 1}', { returns: "one" }],
      ["i", "insert", "POST /k/_doc #{doc}", { useGeneratedKeys: true, keyProperty: "doc.id" }],
      ["u", "update", "POST /k/_update/#{id} {}", {}],
      ["d", "delete", "DELETE /k/_doc/#{id}", { returns: "boolean" }],
      ["e", "execute", "GET /_cluster/health", { returns: "void" }],
    ],
  );
  assert.ok([...statements.values()].every((st) => Object.isFrozen(st)));
});

Deno.test("a decorated method becomes a forwarder: called on an instance no session made, it rejects", async () => {
  @SimpleMapper()
  class Loose {
    @Query("GET /l/_search")
    all(): Promise<unknown[]> {
      return bound();
    }
  }
  const loose = new Loose();
  assert.equal(loose.all.name, "all");
  await assert.rejects(loose.all(), /Loose\.all: this mapper was not created by a session/);
});

Deno.test("statement decorators go on public instance methods only", () => {
  assert.throws(() => {
    class Static {
      @Query("GET /s/_search")
      static all(): Promise<unknown[]> {
        return bound();
      }
    }
    return Static;
  }, (e: unknown) => {
    assert.ok(e instanceof MapperError);
    assert.match(
      e.message,
      /statement decorators go on public instance methods with a string name/,
    );
    return true;
  });
  assert.throws(() => {
    class Private {
      @Query("GET /s/_search")
      #all(): Promise<unknown[]> {
        return bound();
      }
    }
    return Private;
  }, /public instance methods/);
});

Deno.test("bound() itself says how to declare the statement", () => {
  assert.throws(() => bound(), (e: unknown) => {
    assert.ok(e instanceof MapperError);
    assert.match(
      e.message,
      /this method has no statement: add @Query, @Insert, @Update, @Delete or @Execute/,
    );
    return true;
  });
});
