// What BaseMapper needs to know about its entity: the index, the key field, the version field.
// Checked once per class, with errors that say which declaration is missing.

import { type EntityClass, type FieldMeta, getEntityMeta } from "../template/mod.ts";
import { MapperError } from "./errors.ts";

/** An entity's index, key and version field. */
export interface EntityTarget<T> {
  readonly type: EntityClass<T>;
  readonly index: string;
  readonly key: string;
  readonly keyColumn: string;
  readonly version?: FieldMeta;
  readonly mapper: string;
}

const targets = new WeakMap<object, EntityTarget<unknown>>();

/** The target of an entity class, or a MapperError saying what to declare. */
export function targetOf<T>(type: EntityClass<T> | undefined, mapper: string): EntityTarget<T> {
  if (type === undefined) {
    throw new MapperError(
      "BaseMapper methods need the entity class: declare it with @SimpleMapper({ entity: User }) or use session.createBaseMapper(User)",
      { mapper },
    );
  }
  const hit = targets.get(type);
  if (hit) return hit as EntityTarget<T>;
  const meta = getEntityMeta(type);
  if (meta.index === undefined || meta.index === "") {
    throw new MapperError(
      `${type.name} has no index: add @Table("index") or defineEntity(${type.name}, { index })`,
      { mapper },
    );
  }
  if (meta.key === undefined) {
    throw new MapperError(
      `${type.name} has no key field: add @Column({ primary: true }) to the field that holds _id`,
      { mapper },
    );
  }
  const version = meta.fields.find((f) => f.version !== undefined);
  const target: EntityTarget<T> = Object.freeze({
    type,
    index: meta.index,
    key: meta.key,
    keyColumn: meta.fields.find((f) => f.field === meta.key)?.column ?? meta.key,
    ...(version ? { version } : {}),
    mapper,
  });
  targets.set(type, target);
  return target;
}

/** The key of an entity as text, or undefined when it is empty. */
export function keyOf(target: EntityTarget<unknown>, entity: object): string | undefined {
  const value = (entity as Record<string, unknown>)[target.key];
  if (value === undefined || value === null || value === "") return undefined;
  return String(value);
}

/** The key of an entity, or a MapperError naming the operation. */
export function requireKey(
  target: EntityTarget<unknown>,
  entity: object,
  method: string,
): string {
  const key = keyOf(target, entity);
  if (key === undefined) {
    throw new MapperError(
      `the ${target.type.name} has no ${target.key}; ${method} needs the key of the document`,
      { mapper: target.mapper, method },
    );
  }
  return key;
}
