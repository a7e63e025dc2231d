// The condition methods every builder shares (query, update, delete, groups). Each call returns a
// new builder over a new frozen where-state; nothing is mutated.

import {
  addItem,
  addOr,
  type Clauses,
  type ConditionNode,
  type ConditionValue,
  node,
  toTree,
} from "./nodes.ts";
import { columnOf, type Target } from "./target.ts";

/**
 * A field name of `T` for builder methods: a property name checked by the compiler, or a dotted
 * path under one (`"address.city"`), or `"_id"`. For a bare index name (`T` = a record) any
 * string.
 *
 * @example
 * ```ts
 * import type { FieldPath } from "@searchvisitor/searchvisitor/lambda";
 * import assert from "node:assert/strict";
 *
 * class User { name = ""; address = { city: "" }; }
 * const fields: FieldPath<User>[] = ["name", "address.city"];
 * assert.equal(fields.length, 2);
 * ```
 */
export type FieldPath<T> = string extends keyof T ? string
  : Extract<keyof T, string> | `${Extract<keyof T, string>}.${string}` | "_id";

function checkValue(method: string, field: string, value: unknown, nullOk: boolean): void {
  const at = `${method}(${JSON.stringify(field)})`;
  if (value === undefined) {
    throw new TypeError(`${at}: the value is undefined; pass null for "no value"`);
  }
  if (value === null) {
    if (!nullOk) throw new TypeError(`${at}: null has no order; use isNull/isNotNull`);
    return;
  }
  switch (typeof value) {
    case "string":
    case "boolean":
    case "bigint":
      return;
    case "number":
      if (Number.isFinite(value)) return;
      throw new TypeError(`${at}: ${value} is not a finite number`);
    case "object":
      if (value instanceof Date) {
        if (!Number.isNaN(value.getTime())) return;
        throw new TypeError(`${at}: the Date is invalid`);
      }
  }
  throw new TypeError(
    `${at}: a ${
      Array.isArray(value) ? "array" : typeof value
    } is not a condition value; pass a string, number, boolean, bigint, Date or null (use in() for lists)`,
  );
}

/** Dates become their ISO-8601 text, so a node never holds a mutable object. */
function frozenValue(value: ConditionValue): ConditionValue {
  return value instanceof Date ? value.toISOString() : value;
}

function checkText(method: string, field: string, text: unknown): string {
  if (typeof text !== "string") {
    throw new TypeError(`${method}(${JSON.stringify(field)}): the text must be a string`);
  }
  return text;
}

/**
 * The condition methods, shared by query, update and delete builders and by groups. Conditions
 * are ANDed; `or()` makes the next conditions an alternative to everything before it (AND binds
 * tighter than OR: `a.or().b.c` is `a OR (b AND c)`); `and(g)`, `or(g)` and `not(g)` nest a group
 * built by a callback, to any depth. Every method returns a new builder.
 *
 * @example
 * ```ts
 * import { LambdaTemplate } from "@searchvisitor/searchvisitor/lambda";
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const lambda = new LambdaTemplate(new DataSource("http://127.0.0.1:9200"));
 * const q = lambda.query("users")
 *   .eq("city", "Oslo")
 *   .or((g) => g.gt("age", 60).not((n) => n.isNull("email")));
 * assert.equal(
 *   q.toCommand().text,
 *   'POST /{?}/_search {"query":{"bool":{"should":[{"term":{"city":?}},{"bool":{"filter":[{"range":{"age":{"gt":?}}},{"bool":{"must_not":[{"bool":{"must_not":[{"exists":{"field":"email"}}]}}]}}]}}],"minimum_should_match":1}},"size":?,"track_total_hits":true}',
 * );
 * ```
 */
export abstract class Conditions<T> {
  /**
   * The index and field names this builder works on.
   *
   * @ignore
   */
  protected readonly target: Target;
  /**
   * The where-state (frozen).
   *
   * @ignore
   */
  protected readonly clauses: Clauses;

  /**
   * Builders come from `LambdaTemplate`.
   *
   * @ignore
   */
  protected constructor(target: Target, clauses: Clauses) {
    this.target = target;
    this.clauses = clauses;
  }

  /**
   * A copy of this builder with another where-state.
   *
   * @ignore
   */
  protected abstract withClauses(clauses: Clauses): this;

  /** The condition tree (frozen, data only), or null when there is no condition. */
  get where(): ConditionNode | null {
    return toTree(this.clauses);
  }

  #add(item: ConditionNode): this {
    return this.withClauses(addItem(this.clauses, item));
  }

  #compare(
    op: "eq" | "ne" | "gt" | "ge" | "lt" | "le",
    field: string,
    value: ConditionValue,
  ): this {
    checkValue(op, field, value, op === "eq" || op === "ne");
    const column = columnOf(this.target, field, op);
    value = frozenValue(value);
    if (value === null) {
      return this.#add(node({ kind: "exists", field: column, negated: op === "eq" }));
    }
    return this.#add(node({ kind: "compare", op, field: column, value }));
  }

  /** `field` equals `value` exactly (`term`); `eq(field, null)` is `isNull(field)`. */
  eq(field: FieldPath<T>, value: ConditionValue): this {
    return this.#compare("eq", field, value);
  }
  /** `field` is not `value` (missing fields match too); `ne(field, null)` is `isNotNull(field)`. */
  ne(field: FieldPath<T>, value: ConditionValue): this {
    return this.#compare("ne", field, value);
  }
  /** `field` > `value`. */
  gt(field: FieldPath<T>, value: Exclude<ConditionValue, null>): this {
    return this.#compare("gt", field, value);
  }
  /** `field` ≥ `value`. */
  ge(field: FieldPath<T>, value: Exclude<ConditionValue, null>): this {
    return this.#compare("ge", field, value);
  }
  /** `field` < `value`. */
  lt(field: FieldPath<T>, value: Exclude<ConditionValue, null>): this {
    return this.#compare("lt", field, value);
  }
  /** `field` ≤ `value`. */
  le(field: FieldPath<T>, value: Exclude<ConditionValue, null>): this {
    return this.#compare("le", field, value);
  }

  #in(method: string, field: string, values: readonly ConditionValue[], negated: boolean): this {
    if (!Array.isArray(values)) {
      throw new TypeError(`${method}(${JSON.stringify(field)}): pass the values as an array`);
    }
    values.forEach((v) => checkValue(method, field, v, false));
    const column = columnOf(this.target, field, method);
    return this.#add(
      node({ kind: "in", field: column, values: Object.freeze(values.map(frozenValue)), negated }),
    );
  }
  /** `field` equals one of `values` exactly (`terms`); an empty list matches nothing. */
  in(field: FieldPath<T>, values: readonly Exclude<ConditionValue, null>[]): this {
    return this.#in("in", field, values, false);
  }
  /** `field` equals none of `values` (missing fields match too); an empty list matches all. */
  notIn(field: FieldPath<T>, values: readonly Exclude<ConditionValue, null>[]): this {
    return this.#in("notIn", field, values, true);
  }

  #between(method: string, field: string, low: unknown, high: unknown, negated: boolean): this {
    checkValue(method, field, low, false);
    checkValue(method, field, high, false);
    const column = columnOf(this.target, field, method);
    return this.#add(
      node({
        kind: "between",
        field: column,
        low: frozenValue(low as ConditionValue),
        high: frozenValue(high as ConditionValue),
        negated,
      }),
    );
  }
  /** `low` ≤ `field` ≤ `high`. */
  between(
    field: FieldPath<T>,
    low: Exclude<ConditionValue, null>,
    high: Exclude<ConditionValue, null>,
  ): this {
    return this.#between("between", field, low, high, false);
  }
  /** Not `low` ≤ `field` ≤ `high` (missing fields match too). */
  notBetween(
    field: FieldPath<T>,
    low: Exclude<ConditionValue, null>,
    high: Exclude<ConditionValue, null>,
  ): this {
    return this.#between("notBetween", field, low, high, true);
  }

  /** `field` is missing or null (`bool.must_not.exists`). */
  isNull(field: FieldPath<T>): this {
    return this.#add(
      node({ kind: "exists", field: columnOf(this.target, field, "isNull"), negated: true }),
    );
  }
  /** `field` has a non-null value (`exists`). */
  isNotNull(field: FieldPath<T>): this {
    return this.#add(
      node({ kind: "exists", field: columnOf(this.target, field, "isNotNull"), negated: false }),
    );
  }

  #like(
    method: string,
    field: string,
    text: string,
    mode: "contains" | "prefix" | "suffix" | "pattern",
    negated: boolean,
  ): this {
    let t = checkText(method, field, text);
    let m: "contains" | "prefix" | "suffix" = "contains";
    if (mode === "pattern") {
      const starts = t.startsWith("%");
      const ends = t.length > (starts ? 1 : 0) && t.endsWith("%");
      t = t.slice(starts ? 1 : 0, ends ? -1 : undefined);
      m = starts === ends || t === "" ? "contains" : ends ? "prefix" : "suffix";
    } else m = mode;
    const column = columnOf(this.target, field, method);
    return this.#add(node({ kind: "like", field: column, mode: m, text: t, negated }));
  }
  /**
   * `field` matches a pattern: a `%` at the start and/or end is an anchor (`"ali%"` starts with
   * `ali`, `"%son"` ends with `son`, `"%li%"` or `"li"` contains `li`); every other character,
   * `*`, `?` and `\` included, matches itself.
   */
  like(field: FieldPath<T>, pattern: string): this {
    return this.#like("like", field, pattern, "pattern", false);
  }
  /** Not {@linkcode Conditions.like} (missing fields match too). */
  notLike(field: FieldPath<T>, pattern: string): this {
    return this.#like("notLike", field, pattern, "pattern", true);
  }
  /** `field` starts with `text` (taken literally, `%` included). */
  likeRight(field: FieldPath<T>, text: string): this {
    return this.#like("likeRight", field, text, "prefix", false);
  }
  /** `field` ends with `text` (taken literally). */
  likeLeft(field: FieldPath<T>, text: string): this {
    return this.#like("likeLeft", field, text, "suffix", false);
  }
  /** `field` does not start with `text`. */
  notLikeRight(field: FieldPath<T>, text: string): this {
    return this.#like("notLikeRight", field, text, "prefix", true);
  }
  /** `field` does not end with `text`. */
  notLikeLeft(field: FieldPath<T>, text: string): this {
    return this.#like("notLikeLeft", field, text, "suffix", true);
  }

  /** Full-text `match` of `text` on an analysed field (scores the hits). */
  match(field: FieldPath<T>, text: string): this {
    const t = checkText("match", field, text);
    return this.#add(
      node({ kind: "match", field: columnOf(this.target, field, "match"), text: t, phrase: false }),
    );
  }
  /** Full-text `match_phrase`: the words of `text` in order. */
  matchPhrase(field: FieldPath<T>, text: string): this {
    const t = checkText("matchPhrase", field, text);
    return this.#add(
      node({
        kind: "match",
        field: columnOf(this.target, field, "matchPhrase"),
        text: t,
        phrase: true,
      }),
    );
  }

  #group(method: string, build: (group: ConditionGroup<T>) => Conditions<T>): ConditionNode | null {
    if (typeof build !== "function") {
      throw new TypeError(`${method}(group): pass a function that adds the group's conditions`);
    }
    const built = build(new ConditionGroup<T>(this.target, [Object.freeze([])]));
    if (!(built instanceof Conditions)) {
      throw new TypeError(
        `${method}(group): the function must return the group it was given, with conditions added`,
      );
    }
    return built.where;
  }

  /**
   * Without an argument: the next conditions are an alternative to everything before (OR). With
   * a group: OR the group's conditions (an empty group adds nothing).
   */
  or(group?: (group: ConditionGroup<T>) => Conditions<T>): this {
    const next = this.withClauses(addOr(this.clauses));
    if (group === undefined) return next;
    const tree = this.#group("or", group);
    return tree === null ? this : next.#add(tree);
  }
  /** AND a group of conditions (an empty group adds nothing). */
  and(group: (group: ConditionGroup<T>) => Conditions<T>): this {
    const tree = this.#group("and", group);
    return tree === null ? this : this.#add(tree);
  }
  /** AND NOT a group of conditions (an empty group adds nothing). */
  not(group: (group: ConditionGroup<T>) => Conditions<T>): this {
    const tree = this.#group("not", group);
    return tree === null ? this : this.#add(node({ kind: "not", item: tree }));
  }
}

/**
 * The builder a group callback gets: the condition methods only.
 *
 * @example
 * ```ts
 * import { LambdaTemplate } from "@searchvisitor/searchvisitor/lambda";
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const lambda = new LambdaTemplate(new DataSource("http://127.0.0.1:9200"));
 * const q = lambda.query("users").and((g) => g.eq("a", 1).or().eq("b", 2));
 * assert.equal(q.where?.kind, "or");
 * ```
 */
export class ConditionGroup<T> extends Conditions<T> {
  /**
   * Groups come from the group methods of a builder.
   *
   * @ignore
   */
  constructor(target: Target, clauses: Clauses) {
    super(target, clauses);
  }
  /**
   * A copy with another where-state.
   *
   * @ignore
   */
  protected override withClauses(clauses: Clauses): this {
    return new ConditionGroup<T>(this.target, clauses) as this;
  }
}
