// JdbcQueries: the reading methods of JdbcTemplate — all rows as maps or entities, hits with
// their metadata, at most one row, one number, and rows through a RowMapper, an extractor or a
// row callback. Each runs one command through JdbcAccessor's plumbing; a command that gives an
// update count instead of rows is an IllegalStateError.

import { DataAccessError, IncorrectResultSizeError, type ResultSet } from "../driver/mod.ts";
import type { EntityClass } from "./entity.ts";
import type {
  Args,
  Command,
  Hit,
  QueryList,
  ResultSetExtractor,
  RowCallback,
  RowMap,
  RowMapper,
} from "./types.ts";
import {
  readHits,
  readRows,
  type RowHandler,
  singleColumn,
  singleValue,
  withMeta,
} from "./_result_reading.ts";
import { mapResultSet } from "./row_mapping.ts";
import { JdbcAccessor, queryRows } from "./jdbc_accessor.ts";

const SCALARS: ReadonlyMap<unknown, (rs: ResultSet, column: string) => unknown> = new Map<
  unknown,
  (rs: ResultSet, column: string) => unknown
>([
  [Number, (rs, c) => rs.getNumber(c)],
  [String, (rs, c) => rs.getString(c)],
  [Boolean, (rs, c) => rs.getBoolean(c)],
  [BigInt, (rs, c) => rs.getLong(c)],
  [Date, (rs, c) => rs.getDate(c)],
]);

/**
 * The reading methods of {@linkcode JdbcTemplate} (`queryForList`, `queryForHits`,
 * `queryForMap`, `queryForObject`, `queryForNumber`, `queryForLong`, `query`). Create a
 * `JdbcTemplate`; this class only groups its reads.
 *
 * @example
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { type JdbcQueries, JdbcTemplate } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const fetch = () => Promise.resolve(Response.json({ count: 5 }));
 * const reads: JdbcQueries = new JdbcTemplate(new DataSource({ nodes: ["http://es.local"], fetch }));
 * assert.equal(await reads.queryForNumber("POST /users/_count"), 5);
 * ```
 */
export abstract class JdbcQueries extends JdbcAccessor {
  /**
   * Reads all rows, as maps keyed by column (`_ID`, `_DOC`, …) or, with `type`, as entities.
   * The array carries `total`, `took` and `aggregations` as non-enumerable properties.
   *
   * @param command Template text or a bound command.
   * @param args Positional or named arguments.
   * @param type An entity class: rows are mapped through its metadata.
   * @returns The rows.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { defineEntity, JdbcTemplate } from "@searchvisitor/searchvisitor/template";
   * import assert from "node:assert/strict";
   *
   * class User { id = ""; name = ""; }
   * defineEntity(User, { index: "users", key: "id", fields: { name: "user_name" } });
   * const fetch = () => Promise.resolve(Response.json({
   *   took: 2,
   *   hits: { total: { value: 1, relation: "eq" }, hits: [{ _id: "9", _source: { user_name: "bob" } }] },
   * }));
   * const jdbc = new JdbcTemplate(new DataSource({ nodes: ["http://es.local"], fetch }));
   * const users = await jdbc.queryForList('POST /users/_search {"query": {"match_all": {}}}', [], User);
   * assert.ok(users[0] instanceof User);
   * assert.deepEqual({ ...users[0] }, { id: "9", name: "bob" });
   * assert.equal(users.took, 2);
   * ```
   */
  queryForList(command: Command, args?: Args): Promise<QueryList<RowMap>>;
  /** All rows as entities of `type` (see the first overload). */
  queryForList<T>(
    command: Command,
    args: Args | undefined,
    type: EntityClass<T>,
  ): Promise<QueryList<T>>;
  queryForList<T>(
    command: Command,
    args?: Args,
    type?: EntityClass<T>,
  ): Promise<QueryList<RowMap | T>> {
    return queryRows(
      this,
      "queryForList",
      command,
      args,
      (rs, b) => withMeta<RowMap | T>(type ? mapResultSet(rs, type, b.text) : rs.toArray(), rs),
    );
  }

  /**
   * Reads all rows as {@linkcode Hit}s: each row map (or, with `type`, entity) as `doc` beside
   * its score, sort values, highlight, named queries, inner hits, index, version, sequence
   * number and primary term. The list carries `total`, `took`, `aggregations` and `raw`.
   *
   * @param command Template text or a bound command.
   * @param args Positional or named arguments.
   * @param type An entity class.
   * @returns The hits.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { Engine } from "@searchvisitor/searchvisitor/engine";
   * import { JdbcTemplate } from "@searchvisitor/searchvisitor/template";
   * import assert from "node:assert/strict";
   *
   * const engine = new Engine();
   * const jdbc = new JdbcTemplate(new DataSource({ nodes: ["http://engine"], fetch: engine.fetch }));
   * await jdbc.executeUpdate('PUT /docs/_doc/1?refresh=true {"title": "exact integers"}');
   * class Doc { title = ""; }
   * const hits = await jdbc.queryForHits(
   *   'POST /docs/_search {"query": {"match": {"title": "integers"}}, "highlight": {"fields": {"title": {}}}}',
   *   {},
   *   Doc,
   * );
   * assert.equal(hits[0]!.doc.title, "exact integers");
   * assert.deepEqual(hits[0]!.highlight, { title: ["exact <em>integers</em>"] });
   * assert.ok(hits[0]!.score! > 0);
   * engine.close();
   * ```
   */
  queryForHits(command: Command, args?: Args): Promise<QueryList<Hit<RowMap>>>;
  /** All hits with an entity of `type` as `doc` (see the first overload). */
  queryForHits<T>(
    command: Command,
    args: Args | undefined,
    type: EntityClass<T>,
  ): Promise<QueryList<Hit<T>>>;
  queryForHits<T>(
    command: Command,
    args?: Args,
    type?: EntityClass<T>,
  ): Promise<QueryList<Hit<RowMap | T>>> {
    return queryRows(
      this,
      "queryForHits",
      command,
      args,
      (rs, b) => withMeta(readHits(rs, type, b.text), rs),
    );
  }

  /**
   * Reads at most one row as a map: null for no row, an error for more than one.
   *
   * @param command Template text or a bound command.
   * @param args Positional or named arguments.
   * @returns The row, or null.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { JdbcTemplate } from "@searchvisitor/searchvisitor/template";
   * import assert from "node:assert/strict";
   *
   * const fetch = () => Promise.resolve(Response.json({ count: 3 }));
   * const jdbc = new JdbcTemplate(new DataSource({ nodes: ["http://es.local"], fetch }));
   * assert.deepEqual(await jdbc.queryForMap("POST /users/_count"), { COUNT: 3 });
   * ```
   */
  queryForMap(command: Command, args?: Args): Promise<RowMap | null> {
    return queryRows(this, "queryForMap", command, args, (rs, b) => {
      const rows = rs.toArray();
      if (rows.length > 1) throw new IncorrectResultSizeError(1, rows.length, { command: b.text });
      return rows[0] ?? null;
    });
  }

  /**
   * Reads at most one row: with `type`, as an entity; without, the value of its only column (or
   * the whole row when it has several). No row gives null; more than one is an error.
   *
   * @param command Template text or a bound command.
   * @param args Positional or named arguments.
   * @param type An entity class.
   * @returns The object, or null.
   *
   * @example
   * ```ts
   * import { DataSource, IncorrectResultSizeError } from "@searchvisitor/searchvisitor/driver";
   * import { JdbcTemplate } from "@searchvisitor/searchvisitor/template";
   * import assert from "node:assert/strict";
   *
   * const hit = (id: string) => ({ _id: id, _source: { name: id } });
   * const fetch = (_u: string, init: RequestInit) => Promise.resolve(Response.json({
   *   hits: { total: { value: 2, relation: "eq" }, hits: String(init.body).includes("all") ? [hit("a"), hit("b")] : [] },
   * }));
   * const jdbc = new JdbcTemplate(new DataSource({ nodes: ["http://es.local"], fetch }));
   * class User { name = ""; }
   * assert.equal(await jdbc.queryForObject('POST /u/_search {"query": {"term": {"name": "x"}}}', [], User), null);
   * await assert.rejects(
   *   jdbc.queryForObject('POST /u/_search {"query": {"match_all": {}}}', [], User),
   *   (e: unknown) => e instanceof IncorrectResultSizeError && e.actual === 2,
   * );
   * ```
   */
  queryForObject(command: Command, args?: Args): Promise<unknown>;
  /**
   * dbVisitor's `queryForObject(sql, args, Integer.class)`: the single value as a number, text,
   * boolean, bigint or date — pass `Number`, `String`, `Boolean`, `BigInt` or `Date` (the
   * typed getters convert; a value that does not fit is a ColumnTypeError).
   */
  queryForObject(command: Command, args: Args | undefined, type: NumberConstructor): Promise<
    number | null
  >;
  /** The single value as text (see the scalar overload). */
  queryForObject(command: Command, args: Args | undefined, type: StringConstructor): Promise<
    string | null
  >;
  /** The single value as a boolean (see the scalar overload). */
  queryForObject(command: Command, args: Args | undefined, type: BooleanConstructor): Promise<
    boolean | null
  >;
  /** The single value as an exact integer (see the scalar overload). */
  queryForObject(command: Command, args: Args | undefined, type: BigIntConstructor): Promise<
    bigint | null
  >;
  /** The single value as a date (see the scalar overload). */
  queryForObject(command: Command, args: Args | undefined, type: DateConstructor): Promise<
    Date | null
  >;
  /** At most one row as an entity of `type`, or null (see the first overload). */
  queryForObject<T>(
    command: Command,
    args: Args | undefined,
    type: EntityClass<T>,
  ): Promise<T | null>;
  queryForObject<T>(command: Command, args?: Args, type?: unknown): Promise<unknown> {
    const scalar = SCALARS.get(type);
    if (scalar) return this.#scalar("queryForObject", command, args, scalar);
    return queryRows(this, "queryForObject", command, args, (rs, b) => {
      if (rs.rowCount > 1) throw new IncorrectResultSizeError(1, rs.rowCount, { command: b.text });
      if (type) return mapResultSet(rs, type as EntityClass<T>, b.text)[0] ?? null;
      if (!rs.next()) return null;
      const columns = rs.getColumns();
      if (columns.length === 1) return rs.getObject(1);
      return Object.fromEntries(columns.map((c) => [c, rs.getObject(c)]));
    });
  }

  #scalar(
    method: string,
    command: Command,
    args: Args | undefined,
    read: (rs: ResultSet, column: string) => unknown,
  ): Promise<never> {
    return queryRows(this, method, command, args, (rs, b) => {
      const column = singleColumn(rs, b.text, "value");
      return column === undefined ? null : read(rs, column);
    }) as Promise<never>;
  }

  /**
   * dbVisitor's `queryForInt`: one 32-bit integer — the `COUNT` column, or the only column of
   * the only row. No row gives null; a fraction or a value beyond 32 bits is a ColumnTypeError.
   *
   * @param command Template text or a bound command.
   * @param args Positional or named arguments.
   * @returns The integer, or null.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { JdbcTemplate } from "@searchvisitor/searchvisitor/template";
   * import assert from "node:assert/strict";
   *
   * const fetch = () => Promise.resolve(Response.json({ count: 12 }));
   * const jdbc = new JdbcTemplate(new DataSource({ nodes: ["http://es.local"], fetch }));
   * assert.equal(await jdbc.queryForInt("POST /users/_count"), 12);
   * assert.equal(await jdbc.queryForObject("POST /users/_count", [], Number), 12);
   * assert.equal(await jdbc.queryForObject("POST /users/_count", [], String), "12");
   * ```
   */
  queryForInt(command: Command, args?: Args): Promise<number | null> {
    return this.#scalar("queryForInt", command, args, (rs, c) => rs.getInt(c));
  }

  /**
   * dbVisitor's `queryForString`: the single value as text (JSON text for an object). No row
   * gives null.
   *
   * @param command Template text or a bound command.
   * @param args Positional or named arguments.
   * @returns The text, or null.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { JdbcTemplate } from "@searchvisitor/searchvisitor/template";
   * import assert from "node:assert/strict";
   *
   * const fetch = () => Promise.resolve(Response.json([{ count: "12" }]));
   * const jdbc = new JdbcTemplate(new DataSource({ nodes: ["http://es.local"], fetch }));
   * assert.equal(await jdbc.queryForString("GET /_cat/count/u?h=count"), "12");
   * ```
   */
  queryForString(command: Command, args?: Args): Promise<string | null> {
    return this.#scalar("queryForString", command, args, (rs, c) => rs.getString(c));
  }

  /**
   * Reads one number: the `COUNT` column, or the only column of the only row. No row gives null.
   * A whole number beyond 2^53 (a `_count` of a huge index, a `long` field) comes back as the
   * exact `bigint` the server sent, where a `number` would round; anything else as a `number`.
   *
   * @param command Template text or a bound command.
   * @param args Positional or named arguments.
   * @returns The number (a bigint only where a number would round), or null.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { JdbcTemplate } from "@searchvisitor/searchvisitor/template";
   * import assert from "node:assert/strict";
   *
   * const fetch = () => Promise.resolve(Response.json({ count: 42 }));
   * const jdbc = new JdbcTemplate(new DataSource({ nodes: ["http://es.local"], fetch }));
   * assert.equal(await jdbc.queryForNumber("POST /users/_count"), 42);
   * assert.equal(await jdbc.queryForLong("POST /users/_count"), 42n);
   *
   * const huge = () =>
   *   Promise.resolve(new Response('{"count": 9007199254740993}', {
   *     headers: { "content-type": "application/json" },
   *   }));
   * const big = new JdbcTemplate(new DataSource({ nodes: ["http://es.local"], fetch: huge }));
   * assert.equal(await big.queryForNumber("POST /users/_count"), 9007199254740993n);
   * ```
   */
  queryForNumber(command: Command, args?: Args): Promise<number | bigint | null> {
    return queryRows(this, "queryForNumber", command, args, (rs, b) => {
      const value = singleValue(rs, b.text);
      if (value === null) return null;
      if (typeof value === "bigint") {
        return Number.isSafeInteger(Number(value)) ? Number(value) : value;
      }
      if (typeof value === "string" && !/[.eE]/.test(value)) {
        const n = Number(value);
        return Number.isSafeInteger(n) ? n : BigInt(value);
      }
      return Number(value);
    });
  }

  /**
   * Like {@linkcode JdbcTemplate.queryForNumber}, as an exact `bigint` (integers only).
   *
   * @param command Template text or a bound command.
   * @param args Positional or named arguments.
   * @returns The integer, or null.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { JdbcTemplate } from "@searchvisitor/searchvisitor/template";
   * import assert from "node:assert/strict";
   *
   * const fetch = () => Promise.resolve(Response.json({ count: 7 }));
   * const jdbc = new JdbcTemplate(new DataSource({ nodes: ["http://es.local"], fetch }));
   * assert.equal(await jdbc.queryForLong("POST /users/_count"), 7n);
   * ```
   */
  queryForLong(command: Command, args?: Args): Promise<bigint | null> {
    return queryRows(this, "queryForLong", command, args, (rs, b) => {
      const value = singleValue(rs, b.text);
      if (value === null) return null;
      if (typeof value === "number" && !Number.isInteger(value)) {
        throw new DataAccessError(
          "MAPPING",
          `queryForLong got ${value}, which is not an integer: ${b.text}`,
          {
            command: b.text,
          },
        );
      }
      return BigInt(value);
    });
  }

  /**
   * Reads rows with a RowMapper (a function, or `{ rowMapper }`), a ResultSetExtractor
   * (`{ extractor }`) or a row callback (`{ rowCallback }`, resolving to the row count).
   * A RowMapper that throws gives a {@linkcode RowMappingError} with the row number and cause.
   *
   * @param command Template text or a bound command.
   * @param args Positional or named arguments.
   * @param handler How to read the rows.
   * @returns The mapped rows, the extractor's result, or the row count.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { JdbcTemplate } from "@searchvisitor/searchvisitor/template";
   * import assert from "node:assert/strict";
   *
   * const fetch = () => Promise.resolve(Response.json({
   *   hits: { total: { value: 2, relation: "eq" }, hits: [{ _id: "a", _source: {} }, { _id: "b", _source: {} }] },
   * }));
   * const jdbc = new JdbcTemplate(new DataSource({ nodes: ["http://es.local"], fetch }));
   * const cmd = 'POST /u/_search {"query": {"match_all": {}}}';
   * assert.deepEqual(await jdbc.query(cmd, [], (rs, n) => `${n}:${rs.getString("_ID")}`), ["0:a", "1:b"]);
   * assert.equal(await jdbc.query(cmd, [], { extractor: (rs) => rs.rowCount }), 2);
   * const seen: string[] = [];
   * assert.equal(await jdbc.query(cmd, [], { rowCallback: (rs) => void seen.push(rs.getString("_ID")!) }), 2);
   * assert.deepEqual(seen, ["a", "b"]);
   * ```
   */
  query<T>(
    command: Command,
    args: Args | undefined,
    handler: RowMapper<T> | { rowMapper: RowMapper<T> } | { mapRow(rs: ResultSet, n: number): T },
  ): Promise<T[]>;
  /**
   * The result of a ResultSetExtractor given the whole result set: `{ extractor }`, or Spring's
   * `{ extractData(rs) }` (see the first overload).
   */
  query<T>(
    command: Command,
    args: Args | undefined,
    handler: { extractor: ResultSetExtractor<T> } | { extractData(rs: ResultSet): T | Promise<T> },
  ): Promise<T>;
  /**
   * Calls a RowCallback for each row (`{ rowCallback }`, or Spring's `{ processRow(rs) }`);
   * returns the row count (see the first overload).
   */
  query(
    command: Command,
    args: Args | undefined,
    handler: { rowCallback: RowCallback } | { processRow(rs: ResultSet): void },
  ): Promise<number>;
  query<T>(
    command: Command,
    args: Args | undefined,
    handler: RowHandler<T>,
  ): Promise<T[] | T | number> {
    return queryRows(this, "query", command, args, (rs, b) => readRows(rs, handler, b.text));
  }
}
