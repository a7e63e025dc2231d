// What BaseMapper needs to know about its entity: the index, the key field, the version field.
// Checked once per class, with errors that say which declaration is missing.

import { InvalidArgumentError } from "../driver/mod.ts";
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

// Per class, then per mapper name: the same entity serves several mappers, and each error names
// the mapper it came from.
const targets = new WeakMap<object, Map<string, EntityTarget<unknown>>>();

/** The target of an entity class, or a MapperError saying what to declare. */
export function targetOf<T>(type: EntityClass<T> | undefined, mapper: string): EntityTarget<T> {
  if (type === undefined) {
    throw new MapperError(
      "BaseMapper methods need the entity class: declare it with @SimpleMapper({ entity: User }) or use session.createBaseMapper(User)",
      { mapper },
    );
  }
  let byMapper = targets.get(type);
  const hit = byMapper?.get(mapper);
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
  if (!byMapper) targets.set(type, byMapper = new Map());
  byMapper.set(mapper, target);
  return target;
}

/** The key of an entity as text, or undefined when it is empty. */
export function keyOf(target: EntityTarget<unknown>, entity: object): string | undefined {
  const value = (entity as Record<string, unknown>)[target.key];
  if (value === undefined || value === null || value === "") return undefined;
  return String(value);
}

function describe(value: unknown): string | undefined {
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  if (value === "") return "empty";
  if (typeof value === "number") return Number.isFinite(value) ? undefined : String(value);
  if (typeof value === "string" || typeof value === "bigint") return undefined;
  return `a ${Array.isArray(value) ? "array" : typeof value}, not a key`;
}

/**
 * A key argument as text, or an InvalidArgumentError (before anything is sent) naming the
 * argument: null, undefined, "" and non-finite numbers address no document (`String(null)` would
 * read or delete the document whose id is the text "null").
 */
export function keyArgument(value: unknown, method: string, argument: string): string {
  const problem = describe(value);
  if (problem !== undefined) {
    throw new InvalidArgumentError(
      `argument "${argument}" is ${problem}; ${method} needs the key (_id) of a document`,
      { name: argument },
    );
  }
  return String(value);
}

/** The keys of a list argument as text, each checked as {@linkcode keyArgument} does. */
export function keyArguments(values: unknown, method: string, argument: string): string[] {
  if (!Array.isArray(values)) {
    throw new InvalidArgumentError(
      `argument "${argument}" is ${
        describe(values) ?? "not an array"
      }; ${method} takes an array of keys`,
      { name: argument },
    );
  }
  return values.map((v, i) => keyArgument(v, method, `${argument}[${i}]`));
}

/** The key of an entity, or an InvalidArgumentError naming the operation. */
export function requireKey(
  target: EntityTarget<unknown>,
  entity: object,
  method: string,
): string {
  if (entity === null || typeof entity !== "object") {
    throw new InvalidArgumentError(
      `argument "entity" is ${
        describe(entity) ?? `a ${typeof entity}`
      }; ${method} needs an entity with its key`,
      { name: "entity" },
    );
  }
  const key = keyOf(target, entity);
  if (key === undefined) {
    const value = (entity as Record<string, unknown>)[target.key];
    throw new InvalidArgumentError(
      `the ${target.type.name}'s key field ${target.key} is ${
        describe(value) ?? "empty"
      }; ${method} needs the key (_id) of the document`,
      { name: `entity.${target.key}` },
    );
  }
  return key;
}
