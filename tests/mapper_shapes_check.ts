// Type-level test of issue 24 item 10: a statement decorator's declared result shape and the
// decorated method's declared return type must agree. `deno task check` compiles this file; each
// `@ts-expect-error` line must fail to compile (else the check fails), the others must compile.
// Run it with `deno run tests/mapper_shapes_check.ts` for the runtime half.
import assert from "node:assert/strict";
import {
  bound,
  Delete,
  Execute,
  Insert,
  type PageObject,
  type PageResult,
  Query,
  RefMapper,
  SimpleMapper,
  Update,
} from "../mapper/mod.ts";
import { Column, Table } from "../template/mod.ts";

@Table("users")
class User {
  @Column({ primary: true })
  id = "";
}

@SimpleMapper({ entity: User })
export class Agreeing {
  @Query("POST /users/_search")
  all(): Promise<User[]> {
    return bound();
  }
  @Query("POST /users/_search", { returns: "one" })
  first(): Promise<User | null> {
    return bound();
  }
  @Query("POST /users/_search", { returns: "page" })
  page(_page: PageObject): Promise<PageResult<User>> {
    return bound();
  }
  @Query("POST /users/_count", { returns: "number" })
  count(): Promise<number | null> {
    return bound();
  }
  @Query("HEAD /users", { returns: "boolean" })
  exists(): Promise<boolean> {
    return bound();
  }
  @Insert("POST /users/_doc #{u}")
  add(_args: { u: User }): Promise<number> {
    return bound();
  }
  @Update("POST /users/_update_by_query")
  touch(): Promise<number> {
    return bound();
  }
  @Delete("DELETE /users/_doc/#{id}", { returns: "boolean" })
  remove(_args: { id: string }): Promise<boolean> {
    return bound();
  }
  @Execute("POST /users/_refresh")
  refresh(): Promise<unknown[]> {
    return bound();
  }
  @Query("POST /users/_search", { returns: "value" })
  anything(): Promise<unknown> {
    return bound();
  }
  @Query("POST /users/_search")
  // deno-lint-ignore no-explicit-any
  untyped(): Promise<any> {
    return bound();
  }
}

@SimpleMapper({ entity: User })
export class Disagreeing {
  // @ts-expect-error a list (the default of @Query) is not one entity: add returns: "one"
  @Query("POST /users/_search")
  byName(): Promise<User | null> {
    return bound();
  }
  // @ts-expect-error "one" resolves to one row, not an array
  @Query("POST /users/_search", { returns: "one" })
  one(): Promise<User[]> {
    return bound();
  }
  // @ts-expect-error a write's count is a number, not an entity
  @Insert("POST /users/_doc #{u}")
  add(): Promise<User> {
    return bound();
  }
  // @ts-expect-error "page" is a PageResult
  @Query("POST /users/_search", { returns: "page" })
  page(): Promise<User[]> {
    return bound();
  }
  // @ts-expect-error "boolean" is a boolean
  @Delete("DELETE /users/_doc/#{id}", { returns: "boolean" })
  remove(): Promise<number> {
    return bound();
  }
}

assert.equal(typeof Agreeing.prototype.all, "function");

// @RefMapper: the methods named in `returns` must be declared with a result that fits.
@RefMapper("users", { returns: { byId: "one", names: "list" } })
export class RefAgreeing {
  declare byId: (id: string) => Promise<User | null>;
  declare names: () => Promise<string[]>;
  declare other: () => Promise<unknown>;
}

// @ts-expect-error names is declared "list" but the member resolves to one value
@RefMapper("users", { returns: { names: "list" } })
export class RefDisagreeing {
  declare names: () => Promise<string>;
}

// @ts-expect-error returns names a method the class does not declare
@RefMapper("users", { returns: { missing: "one" } })
export class RefMissing {}
