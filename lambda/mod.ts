/**
 * The lambda layer: {@linkcode LambdaTemplate}, typed and fluent insert/query/update/delete that
 * compile to Query DSL.
 *
 * Builders are immutable and build frozen, data-only condition trees (`builder.where`); one
 * compiler turns a tree into a command, which `toCommand()` shows without any I/O. Values are
 * always bound as arguments, so no value can change a command's structure. Queries read lists,
 * single objects, maps, counts (`_count` with the query only), pages, or `stream()` every match over
 * a point in time; inserts of several documents are one `_bulk`; updates and deletes return real
 * counts and refuse to run without a condition unless `allowEmptyWhere()` is called.
 *
 * | Call | Query DSL |
 * |---|---|
 * | `eq(f, v)` / `ne(f, v)` | `term` / `bool.must_not.term` (exact: a text field's keyword sub-field) |
 * | `gt ge lt le`, `between`, `notBetween` | `range` |
 * | `in(f, [..])` / `notIn` | `terms` |
 * | `isNull(f)` / `isNotNull(f)` | missing or null: `bool.must_not.exists` / `exists` |
 * | `like(f, "ab%")`, `likeRight` | `prefix` |
 * | `like(f, "%ab")`, `like(f, "ab")`, `likeLeft` | `wildcard` with `*`, `?`, `\` escaped |
 * | `match`, `matchPhrase` | `match`, `match_phrase` |
 * | `or()`, `or(g)`, `and(g)`, `not(g)` | `bool.should` (minimum 1), `bool.filter`/`must`, `bool.must_not` |
 * | `vectorByL2/Cosine/IP(f, v, t)` | `script` filter (OpenSearch: `knn_score`, `min_score`); every value bound |
 * | `orderByL2/Cosine/IP/Hamming(f, v)` | `knn` section (ES 8+), OpenSearch `knn` query, or `script_score` |
 *
 * @example
 * ```ts
 * import { LambdaTemplate } from "@searchvisitor/searchvisitor/lambda";
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const lambda = new LambdaTemplate(new DataSource("http://127.0.0.1:9200"));
 * const q = lambda.query("users").eq("name", "alice").or().in("role", ["admin", "owner"]);
 * assert.deepEqual(q.toCountCommand(), {
 *   text: 'POST /{?}/_count {"query":{"bool":{"should":[{"term":{"name":?}},{"terms":{"role":?}}],"minimum_should_match":1}}}',
 *   args: ["users", "alice", ["admin", "owner"]],
 * });
 * ```
 *
 * @module
 */
export { type Doc, type LambdaOptions, LambdaTemplate } from "./lambda_template.ts";
export { MAX_UNPAGED, QueryBuilder } from "./query_builder.ts";
export { InsertBuilder } from "./insert_builder.ts";
export { UpdateBuilder } from "./update_builder.ts";
export { DeleteBuilder } from "./delete_builder.ts";
export { ConditionGroup, Conditions, type FieldPath, type ValueOf } from "./conditions.ts";
export type { ConditionNode, ConditionValue } from "./nodes.ts";
export { escapeWildcard } from "./compiler.ts";
export type { FieldType, FieldTypes, ToCommandOptions } from "./field_types.ts";
export type { KnnOptions, VectorDialect, VectorMetric } from "./vectors.ts";
