// Checks of the values builder methods take, with errors that name the call and the field.

import type { ConditionValue } from "./nodes.ts";

/**
 * Throws a TypeError unless `value` is a condition value; `null` only where `nulls` is
 * `"allowed"` (`eq`/`ne`: null means "no value"; ordered comparisons refuse it).
 */
export function checkValue(
  method: string,
  field: string,
  value: unknown,
  nulls: "allowed" | "refused",
): void {
  // The call's name for an error is made only for an error (every condition passes here).
  if (value === undefined) {
    throw new TypeError(`${at(method, field)}: the value is undefined; pass null for "no value"`);
  }
  if (value === null) {
    if (nulls !== "allowed") {
      throw new TypeError(`${at(method, field)}: null has no order; use isNull/isNotNull`);
    }
    return;
  }
  switch (typeof value) {
    case "string":
    case "boolean":
    case "bigint":
      return;
    case "number":
      if (Number.isFinite(value)) return;
      throw new TypeError(`${at(method, field)}: ${value} is not a finite number`);
    case "object":
      if (value instanceof Date) {
        if (!Number.isNaN(value.getTime())) return;
        throw new TypeError(`${at(method, field)}: the Date is invalid`);
      }
  }
  throw new TypeError(
    `${at(method, field)}: a ${
      Array.isArray(value) ? "array" : typeof value
    } is not a condition value; pass a string, number, boolean, bigint, Date or null (use in() for lists)`,
  );
}

/** How an error names the call: `eq("name")`. */
function at(method: string, field: string): string {
  return `${method}(${JSON.stringify(field)})`;
}

/** Dates become their ISO-8601 text, so a node never holds a mutable object. */
export function frozenValue(value: ConditionValue): ConditionValue {
  return value instanceof Date ? value.toISOString() : value;
}

/** The text of `like`/`match` calls; anything else is a TypeError. */
export function checkText(method: string, field: string, text: unknown): string {
  if (typeof text !== "string") {
    throw new TypeError(`${method}(${JSON.stringify(field)}): the text must be a string`);
  }
  return text;
}
