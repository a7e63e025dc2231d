/**
 * The template layer: {@linkcode JdbcTemplate} with named arguments (`#{a.b}`), identifier
 * splices (`${index}`), `@{…}` rules, entity metadata (`@Table`, `@Column`, `defineEntity`),
 * row mapping and tagged-template commands.
 *
 * @example
 * ```ts
 * import { bindTemplate } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const bound = bindTemplate('POST /${index}/_search {"query": {"term": {"name": #{name}}}}', {
 *   index: "users",
 *   name: "alice",
 * });
 * assert.equal(bound.text, 'POST /users/_search {"query": {"term": {"name": ?}}}');
 * assert.deepEqual(bound.args, ["alice"]);
 * ```
 *
 * @module
 */
export { JdbcTemplate } from "./jdbc_template.ts";
export type {
  Args,
  Command,
  QueryList,
  ResultSetExtractor,
  RowCallback,
  RowMap,
  RowMapper,
} from "./types.ts";
export { TemplateCommand } from "./command_tag.ts";
export { type BindOptions, bindTemplate, type BoundTemplate } from "./named_binding.ts";
export {
  Column,
  type ColumnOptions,
  type ColumnType,
  defineEntity,
  type EntityClass,
  type EntityDefinition,
  type EntityMeta,
  type FieldMeta,
  getEntityMeta,
  isEntityClass,
  Table,
} from "./entity.ts";
export { documentMapper, mapResultSet, RowMappingError, toDocument } from "./row_mapping.ts";
