// What JdbcTemplate.bulkWriter sends for an item: an entity becomes an `index` of its document
// into its class's index, with its key as `_id`; any other object is the document itself.

import type { BulkOperation } from "../driver/mod.ts";
import { type EntityClass, getEntityMeta, isEntityClass } from "./entity.ts";
import { toDocument } from "./row_mapping.ts";

/**
 * The bulk operation for an item: entities (classes with `@Table`/`defineEntity` metadata) are
 * indexed into their index under their key; other objects are indexed as they are.
 *
 * @param item An entity or a plain document.
 * @returns The operation.
 *
 * @example
 * ```ts
 * import { defineEntity, entityOperation } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * class City { id = "7"; name = "Oslo"; }
 * defineEntity(City, { index: "cities", key: "id", fields: { name: "city_name" } });
 * assert.deepEqual(entityOperation(new City()), {
 *   index: "cities", id: "7", doc: { id: "7", city_name: "Oslo" },
 * });
 * assert.deepEqual(entityOperation({ n: 1 }), { doc: { n: 1 } });
 * ```
 */
export function entityOperation(item: unknown): BulkOperation {
  const type = (item as { constructor?: unknown } | null)?.constructor as EntityClass | undefined;
  if (item === null || typeof item !== "object" || !type || !isEntityClass(type)) {
    return { doc: item };
  }
  const meta = getEntityMeta(type);
  const op: BulkOperation = { doc: toDocument(item, "insert") };
  if (meta.index !== undefined) op.index = meta.index;
  const key = meta.key === undefined ? undefined : (item as Record<string, unknown>)[meta.key];
  if (key !== undefined && key !== null && key !== "") op.id = String(key);
  return { ...(op.index ? { index: op.index } : {}), ...(op.id ? { id: op.id } : {}), doc: op.doc };
}
