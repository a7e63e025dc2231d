// BaseMapper's writes by key: real-time single-document requests (several ids → one _bulk through
// the driver's batch), conditional on the version field when the entity has one. Inserts go
// through LambdaTemplate's insert builder.

import { type Connection, type DataSource, ResponseError } from "../driver/mod.ts";
import { getEntityMeta } from "../template/mod.ts";
import { initialValues, parseSeqNoVersion, setEntries, toDocument } from "../template/internal.ts";
import type { RunContext } from "./_statement_runner.ts";
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

async function withConnection<R>(exec: RunContext, work: (conn: Connection) => Promise<R>) {
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
/** A write's version condition: its URL parameters and their bound values (none when unversioned). */
/** Where a write by key goes: the run's context, the mapper's entity target, the write options. */
export interface EntityWriteContext {
  /** The statement runner's context (template, data source, checks). */
  readonly exec: RunContext;
  /** The mapper's entity and index. */
  readonly target: EntityTarget<object>;
  /** How writes are made visible (refresh). */
  readonly writes: WriteOptions;
}

interface VersionCheck {
  readonly params: string[];
  readonly args: unknown[];
}

function versionCheck(
  target: EntityTarget<object>,
  entity: object,
  method: string,
): VersionCheck {
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

/** One write by key: whose, which method wrote it, its version check, what to send. */
interface KeyedWrite {
  readonly target: EntityTarget<object>;
  readonly id: string;
  readonly method: string;
  /** The entity's version condition; with parameters, a 409 is an optimistic-lock failure. */
  readonly version: VersionCheck;
  /** The command: `{?}` index, `{?}` id, then the version's parameters and `?` for `body`. */
  readonly text: string;
  readonly body?: unknown;
}

async function conditional(
  exec: RunContext,
  { target, id, method, version, text, body }: KeyedWrite,
): Promise<number> {
  const checked = version.params.length > 0;
  const args = [target.index, id, ...version.args];
  if (body !== undefined) args.push(body);
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

/**
 * The fields of an update: those set under the one rule of `template/unset_fields.ts` (`fields` undefined), or
 * exactly the named ones whatever they hold (null included). A copy of the entity with only those
 * fields, so `toDocument` renames them and leaves out `update: false` fields.
 */
function updatePart(
  target: EntityTarget<object>,
  entity: object,
  fields: readonly string[] | undefined,
): object {
  if (!(entity instanceof target.type)) {
    const source = entity as Record<string, unknown>;
    const picked = fields === undefined
      ? setEntries(entity)
      : fields.map((f) => [f, source[f]] as [string, unknown]);
    return Object.fromEntries(picked.filter(([f]) => f !== target.key && f !== "_id"));
  }
  const part = Object.create(Object.getPrototypeOf(entity)) as Record<string, unknown>;
  if (fields === undefined) {
    for (const [field, value] of setEntries(entity, initialValues(target.type))) {
      part[field] = value;
    }
  } else {
    const source = entity as Record<string, unknown>;
    for (const field of fields) part[field] = source[field];
  }
  delete part[target.key];
  if (target.version) delete part[target.version.field];
  return part;
}

/** Checks the field list of `updateFields`: known, updatable, not the key, not undefined. */
function checkFields(
  target: EntityTarget<object>,
  entity: object,
  fields: readonly string[],
  method: string,
): void {
  const site = { mapper: target.mapper, method };
  if (!Array.isArray(fields) || fields.length === 0) {
    throw new MapperError('name the fields to write: updateFields(entity, ["name", …])', site);
  }
  const meta = getEntityMeta(target.type);
  const known = new Set([
    ...meta.fields.map((f) => f.field),
    ...Object.keys(initialValues(target.type) ?? {}),
  ]);
  for (const field of fields) {
    const declared = meta.fields.find((f) => f.field === field);
    let problem: string | undefined;
    if (field === target.key) problem = "is the key (the document _id), which cannot be updated";
    else if (field === target.version?.field) problem = "is the version field, read from the hit";
    else if (!known.has(field) && !Object.hasOwn(entity, field)) {
      problem = `is not a field of ${target.type.name}`;
    } else if (declared && !declared.update) problem = "is declared with update: false";
    else if ((entity as Record<string, unknown>)[field] === undefined) {
      problem = "is undefined; pass null to clear the field";
    }
    if (problem) throw new MapperError(`field "${field}" ${problem}`, site);
  }
}

/**
 * Updates an entity by key: the fields it sets (see `template/unset_fields.ts`), or exactly `fields`; 0 when
 * the document does not exist.
 */
export function updateEntity(
  c: EntityWriteContext,
  entity: object,
  fields?: readonly string[],
  method = "update",
): Promise<number> {
  const { exec, target, writes: w } = c;
  const id = requireKey(target, entity, method);
  if (fields !== undefined) checkFields(target, entity, fields, method);
  const version = versionCheck(target, entity, "update");
  const doc = toDocument(updatePart(target, entity, fields), "update");
  if (Object.keys(doc).length === 0) {
    throw new MapperError(
      `the ${target.type.name} sets no field besides its key (every field is undefined, null or still at its initial value); to write such a value on purpose use updateFields(entity, ["field"]), to write every field use replace(entity)`,
      { mapper: target.mapper, method },
    );
  }
  const text = `POST /{?}/_update/{?}${
    query([refreshQuery(w), ...version.params])
  } {"doc": ?, "detect_noop": false}`;
  return conditional(exec, {
    target,
    id,
    method,
    version,
    text,
    body: doc,
  });
}

/** Writes the whole entity (all fields, nulls included) under its key. */
export function replaceEntity(
  c: EntityWriteContext,
  entity: object,
  method = "replace",
): Promise<number> {
  const { exec, target, writes: w } = c;
  const id = requireKey(target, entity, method);
  const version = versionCheck(target, entity, method);
  const text = `PUT /{?}/_doc/{?}${query([refreshQuery(w), ...version.params])} ?`;
  return conditional(exec, {
    target,
    id,
    method,
    version,
    text,
    body: toDocument(entity),
  });
}

/** Deletes one document by key (conditional on the entity's version when it has one). */
export function deleteEntity(
  exec: RunContext,
  target: EntityTarget<object>,
  w: WriteOptions,
  entity: object,
): Promise<number> {
  const id = requireKey(target, entity, "delete");
  const version = versionCheck(target, entity, "delete");
  const text = `DELETE /{?}/_doc/{?}${query([refreshQuery(w), ...version.params])}`;
  return conditional(exec, {
    target,
    id,
    method: "delete",
    version,
    text,
  });
}

/** Deletes documents by id, checked keys (one request; several → one `_bulk`); the real count. */
export async function deleteIds(
  exec: RunContext,
  target: EntityTarget<object>,
  w: WriteOptions,
  ids: readonly string[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const text = `DELETE /{?}/_doc/{?}${query([refreshQuery(w)])}`;
  if (ids.length === 1) return await exec.jdbc.executeUpdate(text, [target.index, ids[0]]);
  return await withConnection(exec, async (conn) => {
    const stmt = conn.createStatement();
    try {
      for (const id of ids) stmt.addBatch(text, [target.index, id]);
      return (await stmt.executeBatch()).reduce((a, b) => a + b, 0);
    } finally {
      stmt.close();
    }
  });
}
