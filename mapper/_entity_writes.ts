// BaseMapper's writes by key: real-time single-document requests (several ids → one _bulk through
// the driver's batch), conditional on the version field when the entity has one. Inserts go
// through LambdaTemplate's insert builder.

import { type Connection, type DataSource, ResponseError } from "../driver/mod.ts";
import { parseSeqNoVersion, toDocument } from "../template/mod.ts";
import type { Executor } from "./_statement_runner.ts";
import { type EntityTarget, requireKey } from "./_entity_target.ts";
import { MapperError, OptimisticLockError } from "./errors.ts";

/** How BaseMapper writes refresh the index. */
export interface WriteOptions {
  /** `true` (the default): visible to search when the call returns. */
  readonly refresh?: boolean;
}

function refreshQuery(w: WriteOptions): string {
  return w.refresh === false ? "" : "refresh=true";
}

function query(parts: readonly string[]): string {
  const kept = parts.filter((p) => p !== "");
  return kept.length === 0 ? "" : `?${kept.join("&")}`;
}

async function withConnection<R>(exec: Executor, work: (conn: Connection) => Promise<R>) {
  const source = exec.source;
  const pooled = typeof (source as DataSource).getConnection === "function";
  const conn = pooled ? await (source as DataSource).getConnection() : source as Connection;
  try {
    return await work(conn);
  } finally {
    if (pooled) await conn.close();
  }
}

/** The conditional-write query parameters of an entity's version, and its arguments. */
function versionCheck(
  target: EntityTarget<object>,
  entity: object,
  method: string,
): { params: string[]; args: unknown[] } {
  const field = target.version;
  if (!field) return { params: [], args: [] };
  const value = (entity as Record<string, unknown>)[field.field];
  if (value === undefined || value === null || value === "") return { params: [], args: [] };
  if (field.version === "external") {
    if (method === "update") {
      throw new MapperError(
        `${target.type.name} has an external version, which partial updates cannot check; use replace() with the new version`,
        { mapper: target.mapper, method },
      );
    }
    return { params: ["version={?}", "version_type=external"], args: [value] };
  }
  const parsed = parseSeqNoVersion(value);
  if (!parsed) {
    throw new MapperError(
      `${target.type.name}.${field.field} holds ${
        JSON.stringify(value)
      }, which is not a version read from the index; leave it as read (or empty)`,
      { mapper: target.mapper, method },
    );
  }
  return {
    params: ["if_seq_no={?}", "if_primary_term={?}"],
    args: [parsed.seqNo, parsed.primaryTerm],
  };
}

async function conditional(
  exec: Executor,
  target: EntityTarget<object>,
  id: string,
  method: string,
  checked: boolean,
  text: string,
  args: unknown[],
): Promise<number> {
  try {
    return await exec.jdbc.executeUpdate(text, args);
  } catch (error) {
    if (!(error instanceof ResponseError)) throw error;
    if (error.status === 409 && checked) {
      throw new OptimisticLockError(target.index, id, method, { cause: error, command: text });
    }
    if (error.status === 404 && error.type === "document_missing_exception") {
      if (checked) {
        throw new OptimisticLockError(target.index, id, method, { cause: error, command: text });
      }
      return 0;
    }
    throw error;
  }
}

/** Updates the non-null fields of an entity by key; 0 when the document does not exist. */
export function updateEntity(
  exec: Executor,
  target: EntityTarget<object>,
  w: WriteOptions,
  entity: object,
): Promise<number> {
  const id = requireKey(target, entity, "update");
  const version = versionCheck(target, entity, "update");
  const doc: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(toDocument(entity, "update"))) if (v !== null) doc[k] = v;
  const text = `POST /{?}/_update/{?}${
    query([refreshQuery(w), ...version.params])
  } {"doc": ?, "detect_noop": false}`;
  return conditional(exec, target, id, "update", version.params.length > 0, text, [
    target.index,
    id,
    ...version.args,
    doc,
  ]);
}

/** Writes the whole entity (all fields, nulls included) under its key. */
export function replaceEntity(
  exec: Executor,
  target: EntityTarget<object>,
  w: WriteOptions,
  entity: object,
  method = "replace",
): Promise<number> {
  const id = requireKey(target, entity, method);
  const version = versionCheck(target, entity, method);
  const text = `PUT /{?}/_doc/{?}${query([refreshQuery(w), ...version.params])} ?`;
  return conditional(exec, target, id, method, version.params.length > 0, text, [
    target.index,
    id,
    ...version.args,
    toDocument(entity),
  ]);
}

/** Deletes one document by key (conditional on the entity's version when it has one). */
export function deleteEntity(
  exec: Executor,
  target: EntityTarget<object>,
  w: WriteOptions,
  entity: object,
): Promise<number> {
  const id = requireKey(target, entity, "delete");
  const version = versionCheck(target, entity, "delete");
  const text = `DELETE /{?}/_doc/{?}${query([refreshQuery(w), ...version.params])}`;
  return conditional(exec, target, id, "delete", version.params.length > 0, text, [
    target.index,
    id,
    ...version.args,
  ]);
}

/** Deletes documents by id (one request per call; several → one `_bulk`); the real count. */
export async function deleteIds(
  exec: Executor,
  target: EntityTarget<object>,
  w: WriteOptions,
  ids: readonly unknown[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const text = `DELETE /{?}/_doc/{?}${query([refreshQuery(w)])}`;
  if (ids.length === 1) return await exec.jdbc.executeUpdate(text, [target.index, String(ids[0])]);
  return await withConnection(exec, async (conn) => {
    const stmt = conn.createStatement();
    try {
      for (const id of ids) stmt.addBatch(text, [target.index, String(id)]);
      return (await stmt.executeBatch()).reduce((a, b) => a + b, 0);
    } finally {
      stmt.close();
    }
  });
}
