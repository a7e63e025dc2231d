// The mapper's own errors: a wrong declaration or call (MapperError, a TypeError) and a lost
// optimistic-concurrency race (OptimisticLockError, a DataAccessError). Errors from the layers
// below keep their class; `inStatement` only puts the mapper, method and statement in front.

import { DataAccessError, type ErrorOptions } from "../driver/mod.ts";

/** Where a mapper error happened: the mapper class, the method and the statement id. */
export interface StatementSite {
  /** The mapper class name (or the namespace of a mapper file). */
  readonly mapper?: string;
  /** The method name. */
  readonly method?: string;
  /** The statement id (`namespace.id`). */
  readonly statementId?: string;
}

/**
 * Formats a site as `UserMapper.findByName [statement users.findByName]`.
 *
 * @param site Mapper, method and statement id.
 * @returns The text put in front of error messages.
 */
export function describeSite(site: StatementSite): string {
  const head = site.mapper && site.method
    ? `${site.mapper}.${site.method}`
    : site.mapper ?? site.method ?? "";
  const statement = site.statementId ? `statement ${site.statementId}` : "";
  if (head && statement && head !== site.statementId) return `${head} [${statement}]`;
  return head || statement || "mapper";
}

/**
 * A mapper is declared or called wrongly: no `@SimpleMapper`, an unknown statement id, a `Page`
 * that the statement text contradicts, a result shape the rows do not fit. The message names the
 * mapper class, the method and the statement id, and says what to do.
 *
 * @example
 * ```ts
 * import { MapperError } from "@searchvisitor/searchvisitor/mapper";
 * import assert from "node:assert/strict";
 *
 * const error = new MapperError("no statement with this id; register it first", {
 *   mapper: "UserMapper",
 *   method: "byName",
 *   statementId: "UserMapper.byName",
 * });
 * assert.ok(error instanceof TypeError);
 * assert.equal(error.code, "MAPPER");
 * assert.match(error.message, /^UserMapper\.byName: no statement/);
 * ```
 */
export class MapperError extends TypeError {
  /** Always `"MAPPER"`. */
  readonly code = "MAPPER" as const;
  /** The mapper class name, when known. */
  readonly mapper?: string;
  /** The method name, when known. */
  readonly method?: string;
  /** The statement id, when known. */
  readonly statementId?: string;

  /**
   * Creates the error.
   *
   * @param message What is wrong and what to do (the site is put in front).
   * @param site The mapper, method and statement id.
   * @param options The cause.
   */
  constructor(message: string, site: StatementSite = {}, options: { cause?: unknown } = {}) {
    super(`${describeSite(site)}: ${message}`, options);
    this.name = "MapperError";
    if (site.mapper !== undefined) this.mapper = site.mapper;
    if (site.method !== undefined) this.method = site.method;
    if (site.statementId !== undefined) this.statementId = site.statementId;
  }
}

/**
 * An update or replace lost an optimistic-concurrency race: the document changed (or vanished)
 * since the entity was read, so its version no longer matches. Nothing was written. Read the
 * document again, apply the change, and retry.
 *
 * @example
 * ```ts
 * import { OptimisticLockError } from "@searchvisitor/searchvisitor/mapper";
 * import { DataAccessError } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const error = new OptimisticLockError("users", "7", "update");
 * assert.ok(error instanceof DataAccessError);
 * assert.equal(error.code, "OPTIMISTIC_LOCK");
 * assert.equal(error.id, "7");
 * assert.match(error.message, /users\/7/);
 * ```
 */
export class OptimisticLockError extends DataAccessError {
  /** The index. */
  readonly index: string;
  /** The id of the document that changed. */
  readonly id: string;

  /**
   * Creates the error.
   *
   * @param index The index.
   * @param id The document id.
   * @param operation `update` or `replace`.
   * @param options The server's 409 response as cause, and the command.
   */
  constructor(index: string, id: string, operation: string, options: ErrorOptions = {}) {
    super(
      "OPTIMISTIC_LOCK",
      `Optimistic lock failed: ${operation} of ${index}/${id} lost a race (the document changed or was deleted since it was read); read it again and retry`,
      options,
    );
    this.index = index;
    this.id = id;
  }
}

const SITED = Symbol("searchvisitor.mapper.site");

/**
 * Puts the mapper, method and statement id in front of an error's message, keeping its class,
 * code and cause (a `ResponseError` stays a `ResponseError`). Errors already sited, mapper errors
 * and optimistic-lock errors pass unchanged.
 *
 * @param error What was thrown.
 * @param site Where.
 * @returns The same error.
 */
export function inStatement(error: unknown, site: StatementSite): unknown {
  if (!(error instanceof Error) || error instanceof MapperError) return error;
  // A caller's abort rejects with the caller's own reason: never rewritten.
  if (error.name === "AbortError" || error instanceof DOMException) return error;
  if (error instanceof OptimisticLockError) return error;
  const record = error as Error & { [SITED]?: true };
  if (record[SITED]) return error;
  Object.defineProperty(record, SITED, { value: true });
  const before = error.message;
  error.message = `${describeSite(site)}: ${before}`;
  if (typeof error.stack === "string" && before !== "") {
    error.stack = error.stack.replace(before, error.message);
  }
  return error;
}
