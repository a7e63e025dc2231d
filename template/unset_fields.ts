// The one rule for "unset" that partial updates (BaseMapper's `update`, LambdaTemplate's
// `updateToSample`) and samples (`listBySample` …) share:
//
// - on an instance of the entity class, a field is unset when it is undefined, null, or still
//   equal to what a fresh instance holds (`new User()`: `""`, `0`, `[]` …) — TypeScript entities
//   start their fields at such values, so they cannot tell "left alone" from "set";
// - on a plain object, a field is set when it is present and not undefined (what the caller
//   wrote is what the caller meant, `null` and `""` included).
//
// The explicit forms go around the rule: `replace` writes every field, `updateFields(entity,
// ["name"])` writes the named fields whatever they hold.

import type { EntityClass } from "./entity.ts";

/**
 * A fresh instance's field values (what "still at its initial value" compares with), or
 * undefined when the class needs constructor arguments.
 *
 * @param type The entity class.
 * @returns `new type()`, or undefined.
 *
 * @example
 * ```ts
 * import { initialValues } from "./internal.ts";
 * import assert from "node:assert/strict";
 *
 * class User { name = ""; age = 0; }
 * assert.deepEqual({ ...initialValues(User) }, { name: "", age: 0 });
 * ```
 */
export function initialValues(type: EntityClass): Record<string, unknown> | undefined {
  try {
    return new type() as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const proto = Object.getPrototypeOf(a);
  if (proto !== Object.getPrototypeOf(b) || (proto !== Object.prototype && !Array.isArray(a))) {
    return false;
  }
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}

/**
 * The fields of `value` that are set, with their values, in own-key order. On an entity
 * instance (given with its class's `initial` values), a field is unset when it is undefined, null
 * or still equal to `initial`'s (a fresh instance's: `""`, `0`, `[]` …); on a plain object (no
 * `initial`) every field that is not undefined is set, `null` and `""` included.
 *
 * @param value The entity or plain object.
 * @param initial `initialValues(type)` when `value` is an instance of the entity class `type`;
 *   omitted for a plain object.
 * @returns `[field, value]` pairs of the set fields.
 *
 * @example
 * ```ts
 * import { initialValues, setEntries } from "./internal.ts";
 * import assert from "node:assert/strict";
 *
 * class User { id = ""; name = ""; age = 0; tags: string[] = []; }
 * const user = Object.assign(new User(), { id: "u1", age: 99 });
 * assert.deepEqual(setEntries(user, initialValues(User)), [["id", "u1"], ["age", 99]]);
 * assert.deepEqual(setEntries({ id: "u1", name: "" }), [["id", "u1"], ["name", ""]]);
 * ```
 */
export function setEntries(value: object, initial?: Record<string, unknown>): [string, unknown][] {
  const isInstance = initial !== undefined;
  const out: [string, unknown][] = [];
  for (const [field, v] of Object.entries(value)) {
    if (v === undefined) continue;
    if (isInstance) {
      if (v === null) continue;
      if (Object.hasOwn(initial, field) && sameValue(v, initial[field])) {
        continue;
      }
    }
    out.push([field, v]);
  }
  return out;
}
