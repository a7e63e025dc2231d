// The tagged-template form: jdbc.command`POST /users/_search {"query": {"term": {"name": ${name}}}}`.
// Values become `#{0}`, `#{1}`, … and are bound exactly like `?` (`{?}` in a path); the text is
// scanned once per call site.

import type { ResultSet } from "../driver/mod.ts";
import type { EntityClass } from "./entity.ts";
import type { Command, ResultSetExtractor, RowCallback, RowMap, RowMapper } from "./types.ts";
import type { RowHandler } from "./result_reading.ts";
import { bindTagged, type BoundTemplate } from "./named_binding.ts";

/**
 * What a {@linkcode TemplateCommand} runs through: the query methods of `JdbcTemplate`, its one
 * implementation. Naming them here keeps the command and the template from importing each other.
 *
 * @example
 * ```ts
 * import { JdbcTemplate, type TemplateRunner } from "@searchvisitor/searchvisitor/template";
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const fetch = () => Promise.resolve(Response.json({ count: 2 }));
 * const runner: TemplateRunner = new JdbcTemplate(new DataSource({ nodes: ["http://es.local"], fetch }));
 * assert.equal(await runner.queryForNumber("GET /users/_count"), 2);
 * ```
 */
export interface TemplateRunner {
  /** Runs a command; true when the first result is rows. */
  execute(command: Command): Promise<boolean>;
  /** Runs a write; the update count. */
  executeUpdate(command: Command): Promise<number>;
  /** All rows as maps. */
  queryForList(command: Command): Promise<RowMap[]>;
  /** All rows as entities of `type`. */
  queryForList<T>(command: Command, args: undefined, type: EntityClass<T>): Promise<T[]>;
  /** At most one row's only value. */
  queryForObject(command: Command): Promise<unknown>;
  /** At most one row as an entity of `type`. */
  queryForObject<T>(command: Command, args: undefined, type: EntityClass<T>): Promise<T | null>;
  /** At most one row as a map. */
  queryForMap(command: Command): Promise<RowMap | null>;
  /** One number (a bigint beyond 2^53). */
  queryForNumber(command: Command): Promise<number | bigint | null>;
  /** Rows through a row mapper (also an extractor or a row callback, as `JdbcTemplate.query`). */
  query<T>(command: Command, args: undefined, handler: { rowMapper: RowMapper<T> }): Promise<T[]>;
  /** Runs several commands; one result per command. */
  multipleExecute(command: Command): Promise<(number | RowMap[])[]>;
}

const joined = new WeakMap<TemplateStringsArray, string>();

function textOf(strings: TemplateStringsArray): string {
  let text = joined.get(strings);
  if (text === undefined) {
    text = strings.reduce((acc, s, i) => acc + "#{" + (i - 1) + "}" + s);
    joined.set(strings, text);
  }
  return text;
}

/**
 * A command written as a tagged template, bound and ready to run through its JdbcTemplate.
 *
 * @example
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { JdbcTemplate } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const fetch = (url: string) => Promise.resolve(Response.json({ _id: decodeURIComponent(url.split("/").pop()!), result: "deleted" }));
 * const jdbc = new JdbcTemplate(new DataSource({ nodes: ["http://es.local"], fetch }));
 * const id = "a/b";
 * assert.equal(jdbc.command`DELETE /users/_doc/${id}`.bound.text, "DELETE /users/_doc/{?}");
 * assert.equal(await jdbc.command`DELETE /users/_doc/${id}`.executeUpdate(), 1);
 * ```
 */
export class TemplateCommand {
  /** The driver text and arguments. */
  readonly bound: BoundTemplate;
  readonly #jdbc: TemplateRunner;

  /**
   * Binds a tagged template's values; `jdbc.command` is the usual way to make one.
   *
   * @param jdbc The template that runs it.
   * @param strings The literal parts.
   * @param values The values.
   * @param macros Macros for `@{macro, name}`.
   */
  constructor(
    jdbc: TemplateRunner,
    strings: TemplateStringsArray,
    values: readonly unknown[],
    macros?: ReadonlyMap<string, string>,
  ) {
    this.#jdbc = jdbc;
    this.bound = bindTagged(textOf(strings), values, macros);
  }

  #cmd(): Command {
    return this.bound;
  }

  /** Runs it; true when the first result is rows. @returns Whether there are rows. */
  execute(): Promise<boolean> {
    return this.#jdbc.execute(this.#cmd());
  }

  /** Runs a write. @returns The update count. */
  executeUpdate(): Promise<number> {
    return this.#jdbc.executeUpdate(this.#cmd());
  }

  /**
   * All rows as maps, or as entities of `type`.
   * @param type An entity class.
   * @returns The rows.
   */
  queryForList(): Promise<RowMap[]>;
  /** All rows as entities of `type`. */
  queryForList<T>(type: EntityClass<T>): Promise<T[]>;
  queryForList<T>(type?: EntityClass<T>): Promise<RowMap[] | T[]> {
    return type
      ? this.#jdbc.queryForList(this.#cmd(), undefined, type)
      : this.#jdbc.queryForList(this.#cmd());
  }

  /**
   * At most one row, as an entity of `type` or as its only value.
   * @param type An entity class.
   * @returns The object, or null.
   */
  queryForObject(): Promise<unknown>;
  /** At most one row as an entity of `type`, or null. */
  queryForObject<T>(type: EntityClass<T>): Promise<T | null>;
  queryForObject<T>(type?: EntityClass<T>): Promise<unknown> {
    return type
      ? this.#jdbc.queryForObject(this.#cmd(), undefined, type)
      : this.#jdbc.queryForObject(this.#cmd());
  }

  /** At most one row as a map. @returns The row, or null. */
  queryForMap(): Promise<RowMap | null> {
    return this.#jdbc.queryForMap(this.#cmd());
  }

  /** One number (`COUNT` or the only column; a bigint beyond 2^53). @returns The number, or null. */
  queryForNumber(): Promise<number | bigint | null> {
    return this.#jdbc.queryForNumber(this.#cmd());
  }

  /**
   * Rows through a RowMapper (a function or `{ rowMapper }`), a `{ extractor }` or a
   * `{ rowCallback }`, as {@linkcode JdbcTemplate.query}.
   * @param handler How to read the rows.
   * @returns The mapped rows, the extractor's result, or the row count.
   */
  query<T>(
    handler: RowMapper<T> | { rowMapper: RowMapper<T> } | { mapRow(rs: ResultSet, n: number): T },
  ): Promise<T[]>;
  /** The result of a ResultSetExtractor (`extractor`, or Spring's `extractData`). */
  query<T>(
    handler: { extractor: ResultSetExtractor<T> } | { extractData(rs: ResultSet): T | Promise<T> },
  ): Promise<T>;
  /** Calls a RowCallback (`rowCallback`, or Spring's `processRow`); returns the row count. */
  query(
    handler: { rowCallback: RowCallback } | { processRow(rs: ResultSet): void },
  ): Promise<number>;
  query<T>(handler: RowHandler<T>): Promise<T[] | T | number> {
    return this.#jdbc.query(this.#cmd(), undefined, handler as { rowMapper: RowMapper<T> });
  }

  /** Runs several commands. @returns One result per command. */
  multipleExecute(): Promise<(number | RowMap[])[]> {
    return this.#jdbc.multipleExecute(this.#cmd());
  }
}
