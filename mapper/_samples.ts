// Query by sample: each set field of a sample becomes an exact `eq` condition of a lambda query
// (`null` in a plain-object sample becomes `isNull`). "Set" follows the one rule of `template/unset_fields.ts`
// that partial updates use too: on an entity instance, fields still at the value a fresh instance
// has (or null) are not conditions, so `new User()` with only `name` set matches by name; pass a
// plain object ({ age: 0 }) to match a default value.

import type { Conditions } from "../lambda/mod.ts";
import { initialValues, setEntries } from "../template/internal.ts";
import type { EntityTarget } from "./_entity_target.ts";
import { MapperError } from "./errors.ts";

function isScalar(value: unknown): value is string | number | boolean | bigint | Date {
  const t = typeof value;
  return t === "string" || t === "number" || t === "boolean" || t === "bigint" ||
    value instanceof Date;
}

/** Adds the sample's conditions to a lambda builder. */
export function withSample<T, B extends Conditions<T>>(
  builder: B,
  target: EntityTarget<T>,
  sample: Partial<T>,
  method: string,
): B {
  if (sample === null || typeof sample !== "object") {
    throw new MapperError("the sample must be an object (an entity or a plain object)", {
      mapper: target.mapper,
      method,
    });
  }
  const isEntity = sample instanceof target.type;
  const initial = isEntity ? initialValues(target.type) : undefined;
  let b = builder;
  for (const [field, value] of setEntries(sample, initial)) {
    if (field === target.version?.field) continue;
    if (value === null) {
      b = b.isNull(field as never);
      continue;
    }
    if (!isScalar(value)) {
      throw new MapperError(
        `sample field "${field}" holds ${
          Array.isArray(value) ? "an array" : `a ${typeof value}`
        }; samples match scalar fields exactly — use query() for other conditions`,
        { mapper: target.mapper, method },
      );
    }
    b = b.eq(field as never, value as never);
  }
  return b;
}
