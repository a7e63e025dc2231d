// The condition tree: frozen, data-only nodes built by the condition builders and read by the
// compiler. Field names in nodes are document field paths (entity fields already mapped to their
// document names). Nothing here knows Query DSL.

/**
 * A value a condition compares with: strings, numbers, booleans, bigints (sent as exact JSON
 * integers), `Date`s (kept and sent as ISO-8601 text, so a tree never holds a mutable object) or
 * null.
 *
 * @example
 * ```ts
 * import type { ConditionValue } from "@searchvisitor/searchvisitor/lambda";
 * import assert from "node:assert/strict";
 *
 * const values: ConditionValue[] = ["a", 1, true, 2n ** 64n, new Date(0), null];
 * assert.equal(values.length, 6);
 * ```
 */
export type ConditionValue = string | number | boolean | bigint | Date | null;

/**
 * One node of a condition tree. `and`/`or` hold their items, `not` one item; the other kinds are
 * leaves on one document field. Every node and every array in it is frozen.
 *
 * @example
 * ```ts
 * import { LambdaTemplate, type ConditionNode } from "@searchvisitor/searchvisitor/lambda";
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const lambda = new LambdaTemplate(new DataSource("http://127.0.0.1:9200"));
 * const tree: ConditionNode | null = lambda.query("users").eq("name", "alice").gt("age", 30).where;
 * assert.deepEqual(tree, {
 *   kind: "and",
 *   items: [
 *     { kind: "compare", op: "eq", field: "name", value: "alice" },
 *     { kind: "compare", op: "gt", field: "age", value: 30 },
 *   ],
 * });
 * assert.ok(Object.isFrozen(tree));
 * ```
 */
export type ConditionNode =
  | {
    readonly kind: "compare";
    readonly op: "eq" | "ne" | "gt" | "ge" | "lt" | "le";
    readonly field: string;
    readonly value: ConditionValue;
  }
  | {
    readonly kind: "in";
    readonly field: string;
    readonly values: readonly ConditionValue[];
    readonly negated: boolean;
  }
  | {
    readonly kind: "between";
    readonly field: string;
    readonly low: ConditionValue;
    readonly high: ConditionValue;
    readonly negated: boolean;
  }
  | { readonly kind: "exists"; readonly field: string; readonly negated: boolean }
  | {
    readonly kind: "like";
    readonly field: string;
    readonly mode: "contains" | "prefix" | "suffix";
    readonly text: string;
    readonly negated: boolean;
  }
  | {
    readonly kind: "match";
    readonly field: string;
    readonly text: string;
    readonly phrase: boolean;
  }
  | {
    readonly kind: "vector";
    readonly metric: "l2" | "cosine" | "ip";
    readonly field: string;
    readonly vector: readonly number[];
    readonly threshold: number;
  }
  | { readonly kind: "and"; readonly items: readonly ConditionNode[] }
  | { readonly kind: "or"; readonly items: readonly ConditionNode[] }
  | { readonly kind: "not"; readonly item: ConditionNode };

/** A frozen node. */
export function node<N extends ConditionNode>(n: N): N {
  return Object.freeze(n);
}

/**
 * The where-state of a builder: a disjunction of conjunctions (`or()` starts a new conjunction,
 * AND binds tighter than OR, as in SQL). Frozen.
 */
export type Clauses = readonly (readonly ConditionNode[])[];

/** No conditions yet. */
export const NO_CLAUSES: Clauses = Object.freeze([Object.freeze([])]);

/** `clauses` with `item` added to the last conjunction. */
export function addItem(clauses: Clauses, item: ConditionNode): Clauses {
  const last = clauses[clauses.length - 1] ?? [];
  const conjunction = Object.freeze([...last, item]);
  if (clauses.length <= 1) return Object.freeze([conjunction]);
  return Object.freeze([...clauses.slice(0, -1), conjunction]);
}

/** `clauses` with a new, empty conjunction (after `or()`); a repeated `or()` changes nothing. */
export function addOr(clauses: Clauses): Clauses {
  const last = clauses[clauses.length - 1];
  if (last !== undefined && last.length === 0) return clauses;
  return Object.freeze([...clauses, Object.freeze([])]);
}

/**
 * The tree of a where-state, or null when there is no condition. Empty conjunctions (a leading or
 * trailing `or()`, an empty group) are dropped; a group of one item is that item.
 */
export function toTree(clauses: Clauses): ConditionNode | null {
  // The usual where-state: one conjunction of one condition.
  if (clauses.length === 1 && clauses[0]!.length === 1) return clauses[0]![0]!;
  const ors: ConditionNode[] = [];
  for (const conjunction of clauses) {
    if (conjunction.length === 1) ors.push(conjunction[0]!);
    else if (conjunction.length > 1) ors.push(node({ kind: "and", items: conjunction }));
  }
  if (ors.length === 0) return null;
  if (ors.length === 1) return ors[0]!;
  return node({ kind: "or", items: Object.freeze(ors) });
}
