/**
 * The template layer: {@linkcode JdbcTemplate} with named arguments, identifier splices, `@{…}`
 * rules, entity metadata (`@Table`, `@Column`, `defineEntity`), row mapping and tagged-template
 * commands.
 *
 * Template text is the driver's command language plus:
 *
 * - `#{name}`, `#{a.b[0].c}` — a named argument, bound like `?` in a JSON value or key and like
 *   `{?}` in a path segment or query-string value; the driver encodes it. Inside a JSON string it
 *   is text. A missing or `undefined` argument is a `BindError` naming it (pass `null` for null).
 * - `${name}` — splices identifier text (index or field names: letters, digits, `_ . - * ,`; an
 *   array is joined with `,`), also inside JSON strings; anything else is a `BindError`.
 * - `@{and, fragment}`, `@{if, test, fragment}`, `@{in, :list}`, `@{uuid32}`, `@{uuid36}`,
 *   `@{md5, :value}`, `@{macro, name}` — see `rules.ts`. Optional members that vanish take their
 *   commas with them. `:name` is the argument form inside rules. The test of `@{if}` is the
 *   project's one test language, the same as mapper files' `test="…"` (grammar and rules on the
 *   driver's `ConditionExpression`): `mode == 'x' && n > 2`, `:tags.size() > 0`, `'a' in :list`;
 *   no coercion (`'1' == 1` is false), own properties only, and only `true`/`false` decide
 *   (`null`/missing is false; test any other value by comparing it, e.g. `name != null`).
 * - `\#{`, `\${`, `\@{` — the marker as literal text.
 *
 * Positional `?`/`{?}` take an array of arguments; named placeholders take an object. Texts are
 * scanned once and cached; entity instances bound as values become documents.
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
  Hit,
  ListMeta,
  ResultSetExtractor,
  RowCallback,
  RowMap,
  RowMapper,
} from "./types.ts";
export { TemplateCommand, type TemplateRunner } from "./command_tag.ts";
export { listMeta } from "./result_reading.ts";
export { type BindOptions, bindTemplate, type BoundTemplate } from "./named_binding.ts";
export { entityOperation } from "./bulk_operation.ts";
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
  type TableOptions,
} from "./entity.ts";
export {
  type AnalysisComponent,
  type AnalysisSettings,
  type BooleanMapping,
  type CommonMapping,
  type DateMapping,
  type DenseVectorMapping,
  type Dynamic,
  type EntityRef,
  type FieldMapping,
  type GeoPointMapping,
  type IndexedMapping,
  type IndexSettings,
  type IpMapping,
  type KeywordMapping,
  type KnnVectorMapping,
  type LeafMapping,
  MappingDeclarationError,
  type MappingValue,
  type MultiFields,
  type NestedMapping,
  type NumberMapping,
  type NumberType,
  type ObjectMapping,
  type OtherMapping,
  type OtherType,
  type RawFieldMapping,
  type ScaledFloatMapping,
  type SimpleFieldType,
  type TableMapping,
  type TextMapping,
} from "./mapping_types.ts";
export {
  type FieldMappingJson,
  type IndexDefinition,
  mappingOf,
  type TypeMappingJson,
} from "./index_mapping.ts";
export {
  canonicalMapping,
  type DriftOptions,
  type MappingDrift,
  mappingDrift,
} from "./mapping_drift.ts";
export { entitySourceFromMapping, type EntitySourceOptions } from "./entity_source.ts";
export { documentMapper, RowMappingError } from "./row_mapping.ts";
export { type Page, type PageInfo, PageObject, PageResult } from "./page.ts";
