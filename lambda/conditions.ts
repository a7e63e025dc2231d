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
import { checkThreshold, checkVector } from "./vectors.ts";
import { checkText, checkValue, frozenValue } from "./_condition_values.ts";

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

/**
 * The values a condition on field `K` of `T` takes: the field's declared type when it is a
 * condition value (a `Date` field also takes ISO-8601 text, a number field also a bigint and the
 * other way round), else any {@linkcode ConditionValue}. Not null: `eq`/`ne` add it themselves.
 *
 * @example
 * ```ts
 * import type { ValueOf } from "@searchvisitor/searchvisitor/lambda";
 * import assert from "node:assert/strict";
 *
 * class User { name = ""; age = 0; born: Date | null = null; }
 * const age: ValueOf<User, "age"> = 30n;
 * const born: ValueOf<User, "born"> = "1990-01-01";
 * const city: ValueOf<User, "address.city"> = "Oslo";
 * assert.deepEqual([age, born, city], [30n, "1990-01-01", "Oslo"]);
 * ```
 */
export type ValueOf<T, K> = K extends keyof T
  ? [NonNullable<T[K]>] extends [Exclude<ConditionValue, null>]
    ? NonNullable<T[K]> extends Date ? Date | string
    : NonNullable<T[K]> extends number | bigint ? number | bigint
    : NonNullable<T[K]>
  : Exclude<ConditionValue, null>
  : Exclude<ConditionValue, null>;

/** Which builder method made a condition (for errors), and whether it is the negated form. */
interface BuilderCall {
  /** The method's name, e.g. `notIn`. */
  readonly method: string;
  /** Whether the condition is negated (`notIn`, `notBetween`, `notLike…`). */
  readonly negated: boolean;
}

/** The builder method of each vector metric, for errors. */
const VECTOR_METHODS = { l2: "vectorByL2", cosine: "vectorByCosine", ip: "vectorByIP" } as const;

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
    checkValue(op, field, value, op === "eq" || op === "ne" ? "allowed" : "refused");
    const column = columnOf(this.target, field, op);
    value = frozenValue(value);
    if (value === null) {
      return this.#add(node({ kind: "exists", field: column, negated: op === "eq" }));
    }
    return this.#add(node({ kind: "compare", op, field: column, value }));
  }

  /** `field` equals `value` exactly (`term`); `eq(field, null)` is `isNull(field)`. */
  eq<K extends FieldPath<T>>(field: K, value: ValueOf<T, K> | null): this {
    return this.#compare("eq", field, value);
  }
  /** `field` is not `value` (missing fields match too); `ne(field, null)` is `isNotNull(field)`. */
  ne<K extends FieldPath<T>>(field: K, value: ValueOf<T, K> | null): this {
    return this.#compare("ne", field, value);
  }
  /** `field` > `value`. */
  gt<K extends FieldPath<T>>(field: K, value: ValueOf<T, K>): this {
    return this.#compare("gt", field, value);
  }
  /** `field` ≥ `value`. */
  ge<K extends FieldPath<T>>(field: K, value: ValueOf<T, K>): this {
    return this.#compare("ge", field, value);
  }
  /** `field` < `value`. */
  lt<K extends FieldPath<T>>(field: K, value: ValueOf<T, K>): this {
    return this.#compare("lt", field, value);
  }
  /** `field` ≤ `value`. */
  le<K extends FieldPath<T>>(field: K, value: ValueOf<T, K>): this {
    return this.#compare("le", field, value);
  }

  #in(
    { method, negated }: BuilderCall,
    field: string,
    values: readonly ConditionValue[],
  ): this {
    if (!Array.isArray(values)) {
      throw new TypeError(`${method}(${JSON.stringify(field)}): pass the values as an array`);
    }
    values.forEach((v) => checkValue(method, field, v, "refused"));
    const column = columnOf(this.target, field, method);
    return this.#add(
      node({ kind: "in", field: column, values: Object.freeze(values.map(frozenValue)), negated }),
    );
  }
  /** `field` equals one of `values` exactly (`terms`); an empty list matches nothing. */
  in<K extends FieldPath<T>>(field: K, values: readonly ValueOf<T, K>[]): this {
    return this.#in({ method: "in", negated: false }, field, values);
  }
  /** `field` equals none of `values` (missing fields match too); an empty list matches all. */
  notIn<K extends FieldPath<T>>(field: K, values: readonly ValueOf<T, K>[]): this {
    return this.#in({ method: "notIn", negated: true }, field, values);
  }

  #between({ method, negated }: BuilderCall, field: string, low: unknown, high: unknown): this {
    checkValue(method, field, low, "refused");
    checkValue(method, field, high, "refused");
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
  between<K extends FieldPath<T>>(field: K, low: ValueOf<T, K>, high: ValueOf<T, K>): this {
    return this.#between({ method: "between", negated: false }, field, low, high);
  }
  /** Not `low` ≤ `field` ≤ `high` (missing fields match too). */
  notBetween<K extends FieldPath<T>>(field: K, low: ValueOf<T, K>, high: ValueOf<T, K>): this {
    return this.#between({ method: "notBetween", negated: true }, field, low, high);
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
    { method, negated }: BuilderCall,
    field: string,
    text: string,
    mode: "contains" | "prefix" | "suffix" | "pattern",
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
    return this.#like({ method: "like", negated: false }, field, pattern, "pattern");
  }
  /** Not {@linkcode Conditions.like} (missing fields match too). */
  notLike(field: FieldPath<T>, pattern: string): this {
    return this.#like({ method: "notLike", negated: true }, field, pattern, "pattern");
  }
  /** `field` starts with `text` (taken literally, `%` included). */
  likeRight(field: FieldPath<T>, text: string): this {
    return this.#like({ method: "likeRight", negated: false }, field, text, "prefix");
  }
  /** `field` ends with `text` (taken literally). */
  likeLeft(field: FieldPath<T>, text: string): this {
    return this.#like({ method: "likeLeft", negated: false }, field, text, "suffix");
  }
  /** `field` does not start with `text`. */
  notLikeRight(field: FieldPath<T>, text: string): this {
    return this.#like({ method: "notLikeRight", negated: true }, field, text, "prefix");
  }
  /** `field` does not end with `text`. */
  notLikeLeft(field: FieldPath<T>, text: string): this {
    return this.#like({ method: "notLikeLeft", negated: true }, field, text, "suffix");
  }

  #vector(
    metric: "l2" | "cosine" | "ip",
    field: string,
    vector: ArrayLike<number>,
    threshold: number,
  ): this {
    const method = VECTOR_METHODS[metric];
    return this.#add(node({
      kind: "vector",
      metric,
      field: columnOf(this.target, field, method),
      vector: checkVector(method, field, vector),
      threshold: checkThreshold(method, field, threshold),
    }));
  }

  /**
   * The document's vector lies within L2 distance `threshold` of `vector` (inclusive). An exact
   * `script` filter; vector, field name and threshold are bound `params`.
   */
  vectorByL2(field: FieldPath<T>, vector: ArrayLike<number>, threshold: number): this {
    return this.#vector("l2", field, vector, threshold);
  }

  /** The document's vector is within cosine distance (1 − cosine) `threshold` of `vector`. */
  vectorByCosine(field: FieldPath<T>, vector: ArrayLike<number>, threshold: number): this {
    return this.#vector("cosine", field, vector, threshold);
  }

  /** The inner product of the document's vector with `vector` is at least `threshold`. */
  vectorByIP(field: FieldPath<T>, vector: ArrayLike<number>, threshold: number): this {
    return this.#vector("ip", field, vector, threshold);
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
