// What a statement declaration says: its kind, its text, the shape of its result and how the
// method's parameters are named. Shared by the decorators, defineMapper and mapper files.

import type { EntityClass } from "../template/mod.ts";

/**
 * The kind of a statement: a read (`query`), a write (`insert`, `update`, `delete`), or any
 * command text (`execute`).
 *
 * @example
 * ```ts
 * import type { StatementKind } from "@searchvisitor/searchvisitor/mapper";
 * import assert from "node:assert/strict";
 *
 * const kind: StatementKind = "query";
 * assert.equal(kind, "query");
 * ```
 */
export type StatementKind = "query" | "insert" | "update" | "delete" | "execute";

/**
 * What a mapper method resolves to. TypeScript's return types are gone at run time, so the shape
 * is declared:
 *
 * | `returns` | resolves to |
 * |---|---|
 * | `"list"` (default of `@Query`) | every row (entities when an entity is known, else row maps), whose `total`, `took`, `aggregations` `listMeta(list)` gives |
 * | `"one"` | the only row, `null` for none, a `MapperError` for more than one |
 * | `"page"` | a `PageResult` (rows + `totalCount` from `hits.total` of the same response) |
 * | `"value"` | the only column of the only row (e.g. `COUNT`), or null |
 * | `"number"` (default of writes) | the update count of a write, or `"value"` as a number for a read |
 * | `"boolean"` | a write changed something / a read found a row (`HEAD`: a 2xx status) |
 * | `"results"` (default of `@Execute`) | one result per command: update counts and row-map lists |
 * | `"void"` | `undefined` |
 *
 * @example
 * ```ts
 * import type { Returns } from "@searchvisitor/searchvisitor/mapper";
 * import assert from "node:assert/strict";
 *
 * const shape: Returns = "page";
 * assert.equal(shape, "page");
 * ```
 */
export type Returns =
  | "list"
  | "one"
  | "page"
  | "value"
  | "number"
  | "boolean"
  | "results"
  | "void";

/**
 * Whether an awaited result type `A` fits a `returns` `R`: `"list"` and `"results"` an array,
 * `"one"` anything but an array, `"page"` a `PageResult`, `"number"` a number (or null),
 * `"boolean"` a boolean, `"void"` nothing; `"value"` anything (so do `any` and `never`).
 *
 * @typeParam A The method's awaited result type.
 * @typeParam R The declared `returns`.
 *
 * @example
 * ```ts
 * import type { ShapeFits } from "@searchvisitor/searchvisitor/mapper";
 * import assert from "node:assert/strict";
 *
 * const list: ShapeFits<string[], "list"> = true;
 * const one: ShapeFits<string[], "one"> = false;
 * assert.deepEqual([list, one], [true, false]);
 * ```
 */
export type ShapeFits<A, R extends Returns> = 0 extends (1 & A) ? true // any
  : [A] extends [never] ? true // a body of bound()
  : R extends "list" | "results" ? [A] extends [readonly unknown[]] ? true : false
  : R extends "one" ? [A] extends [readonly unknown[]] ? false : true
  : R extends "page" ? [A] extends [{ readonly data: readonly unknown[] }] ? true : false
  : R extends "number" ? [A] extends [number | null] ? true : false
  : R extends "boolean" ? [A] extends [boolean] ? true : false
  : R extends "void" ? [A] extends [void | undefined] ? true : false
  : true;

/**
 * The widest result type a `returns` allows (the declared result must be assignable to it):
 * `"list"`/`"results"` an array, `"page"` a `PageResult`-like `{ data }`, `"number"` a number or
 * null, `"boolean"` a boolean, `"void"` nothing, `"one"` and `"value"` anything.
 *
 * @typeParam R The `returns`.
 *
 * @example
 * ```ts
 * import type { ShapeOf } from "@searchvisitor/searchvisitor/mapper";
 * import assert from "node:assert/strict";
 *
 * const count: ShapeOf<"number"> = 3;
 * assert.equal(count, 3);
 * ```
 */
export type ShapeOf<R extends Returns> = R extends "list" | "results" ? readonly unknown[]
  : R extends "page" ? { readonly data: readonly unknown[] }
  : R extends "number" ? number | null
  : R extends "boolean" ? boolean
  : R extends "void" ? void | undefined
  : unknown;

/**
 * What the compiler says when a decorated method's declared result does not fit its `returns`:
 * the method's type must also have this (impossible) member, so the mismatch is a type error
 * that names the shape.
 *
 * @typeParam R The declared `returns`.
 *
 * @example
 * ```ts
 * import type { ShapeMismatch } from "@searchvisitor/searchvisitor/mapper";
 * import assert from "node:assert/strict";
 *
 * const note: ShapeMismatch<"list"> = { "the declared result type does not fit returns": "list" };
 * assert.equal(note["the declared result type does not fit returns"], "list");
 * ```
 */
export interface ShapeMismatch<R extends Returns> {
  /** The `returns` the declared result type does not fit. */
  readonly "the declared result type does not fit returns": R;
}

/**
 * `unknown` when method `F`'s declared result fits `R` (see {@linkcode Returns}), else a
 * {@linkcode ShapeMismatch}; `R` = every shape (undeclared) accepts any method.
 *
 * @typeParam F The method.
 * @typeParam R The declared `returns`.
 *
 * @example
 * ```ts
 * import type { ShapeCheck } from "@searchvisitor/searchvisitor/mapper";
 * import assert from "node:assert/strict";
 *
 * const fits: ShapeCheck<() => Promise<string[]>, "list"> = {};
 * assert.deepEqual(fits, {});
 * ```
 */
export type ShapeCheck<F, R extends Returns> = Returns extends R ? unknown
  : F extends (...args: never[]) => infer P
    ? ShapeFits<Awaited<P>, R> extends true ? unknown : ShapeMismatch<R>
  : unknown;

/**
 * The `returns` an options object declares, or the kind's default `D`.
 *
 * @typeParam O The options.
 * @typeParam D The default shape of the statement kind.
 *
 * @example
 * ```ts
 * import type { ReturnsOf } from "@searchvisitor/searchvisitor/mapper";
 * import assert from "node:assert/strict";
 *
 * const shape: ReturnsOf<{ returns: "one" }, "list"> = "one";
 * assert.equal(shape, "one");
 * ```
 */
export type ReturnsOf<O, D extends Returns> = O extends
  { readonly returns: infer R extends Returns } ? R
  : D;

/** Every `Returns` value, for checks. */
export const RETURNS: readonly Returns[] = [
  "list",
  "one",
  "page",
  "value",
  "number",
  "boolean",
  "results",
  "void",
];

/**
 * Options of a statement declaration (`@Query(text, options)`, `defineMapper` methods).
 *
 * @example
 * ```ts
 * import type { StatementOptions } from "@searchvisitor/searchvisitor/mapper";
 * import assert from "node:assert/strict";
 *
 * const options: StatementOptions = { returns: "one", params: ["name"] };
 * assert.deepEqual(options.params, ["name"]);
 * ```
 */
export interface StatementOptions {
  /** The shape of the result (see {@linkcode Returns}); default by kind. */
  returns?: Returns;
  /**
   * Map rows to this entity class (the key field takes `_ID`); `"map"` keeps row maps. Default:
   * the mapper's entity, else row maps.
   */
  entity?: EntityClass | "map";
  /**
   * Names for positional parameters: `find(name, age)` with `params: ["name", "age"]` binds
   * `#{name}` and `#{age}`. Without it, the first argument is the object of named arguments.
   */
  params?: readonly string[];
}

/**
 * Options of an insert statement: generated keys go back into the argument.
 *
 * @example
 * ```ts
 * import type { InsertOptions } from "@searchvisitor/searchvisitor/mapper";
 * import assert from "node:assert/strict";
 *
 * const options: InsertOptions = { useGeneratedKeys: true, keyProperty: "user.id" };
 * assert.equal(options.keyProperty, "user.id");
 * ```
 */
export interface InsertOptions extends StatementOptions {
  /** Read the `_id`s the server generated. */
  useGeneratedKeys?: boolean;
  /**
   * Where the generated `_id` goes: a path into the named arguments (`"id"`, `"user.id"`); when
   * the path crosses an array, each element takes the next key.
   */
  keyProperty?: string;
}

/** One normalised statement declaration. */
export interface StatementDef {
  /** The kind. */
  readonly kind: StatementKind | "call";
  /** The template text (array parts joined with a space). */
  readonly text: string;
  /** The options. */
  readonly options: Readonly<InsertOptions>;
}

/**
 * Joins the parts of a statement text: one line each, so a part may be a whole command and a
 * body may continue over several parts.
 */
export function statementText(text: string | readonly string[]): string {
  return typeof text === "string" ? text : text.join("\n");
}

/** The default result shape of a kind. */
export function defaultReturns(kind: StatementKind): Returns {
  if (kind === "query") return "list";
  if (kind === "execute") return "results";
  return "number";
}
