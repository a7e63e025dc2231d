/**
 * Schema migrations for Elasticsearch and OpenSearch: versioned files of console commands
 * (`V1__create_users.es`, `V2__add_email.es`, …) applied in order with their history in an index
 * of the cluster, a lock so two processes never apply one version twice, a zero-downtime reindex
 * step that moves an alias to a new index without losing writes, and a dry run on a scratch
 * engine. The console runs them as `searchvisitor migrate` (docs/migrations.md).
 *
 * @example
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { Engine } from "@searchvisitor/searchvisitor/engine";
 * import { Migrator, readMigrations } from "@searchvisitor/searchvisitor/migrate";
 * import assert from "node:assert/strict";
 *
 * const engine = new Engine();
 * const ds = new DataSource({ nodes: ["http://engine"], fetch: engine.fetch });
 * const files = [{ name: "V1__users.json", text: '{"reindex": {"alias": "users", "mappings": {}}}' }];
 * const result = await new Migrator(ds).migrate(await readMigrations(files));
 * assert.deepEqual(result.applied[0]?.steps, ["reindex users"]);
 * engine.close();
 * ```
 *
 * @module
 */

export { MigrationError, type MigrationErrorCode, type MigrationSite } from "./errors.ts";
export {
  checksumOf,
  type CommandStep,
  compareVersions,
  type Migration,
  type MigrationSource,
  type MigrationStep,
  readMigrations,
  type ReindexStep,
} from "./migrations.ts";
export {
  type AppliedMigration,
  type HistoryRecord,
  type LockHolder,
  type MigrateResult,
  type MigrationInfo,
  Migrator,
  type MigratorOptions,
  type ValidationProblem,
} from "./migrator.ts";
export {
  readReindexSpec,
  reindexAlias,
  type ReindexOptions,
  type ReindexProgress,
  type ReindexResult,
  type ReindexSpec,
} from "./reindex.ts";
