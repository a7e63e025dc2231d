// JdbcTemplate: one call = one connection (the driver DataSource's one shared connection, a
// connection from any other DataSource, closed afterwards, or the given connection); template text is bound by named_binding.ts, rows become maps, entities, numbers or
// whatever a RowMapper makes of them. One class: the source and macros, binding, the reads
// (all rows as maps or entities, hits with their metadata, at most one row, one number, rows
// through a RowMapper, an extractor or a row callback), the writes, streaming every hit, the bulk
// writer and the tagged-template form; every call runs through the one private frame `#run`.
// What stands alone lives beside it: reading results (result_reading.ts), binding
// (named_binding.ts), streaming (streaming.ts), bulk operations (bulk_operation.ts).

import {
  BindError,
  BulkWriter,
  type BulkWriterOptions,
  Connection,
  DataAccessError,
  DataSource,
  IllegalStateError,
  IncorrectResultSizeError,
  InvalidArgumentError,
  ResultSet,
  type Statement,
  type StreamOptions,
} from "../driver/mod.ts";
import { executeFirst, executeFirstThen } from "../driver/internal.ts";
import type { EntityClass } from "./entity.ts";
import type {
  Args,
  Command,
  Hit,
  ResultSetExtractor,
  RowCallback,
  RowMap,
  RowMapper,
} from "./types.ts";
import {
  readAllResults,
  readHits,
  readRows,
  type RowHandler,
  singleColumn,
  singleValue,
  verb,
  withMeta,
} from "./result_reading.ts";
import {
  argumentLabel,
  argumentLabelOf,
  bindTemplate,
  type BoundTemplate,
  needsTemplate,
} from "./named_binding.ts";
import { mapResultSet, prepareValue } from "./row_mapping.ts";
import { TemplateCommand } from "./command_tag.ts";
import { type Lease, streamRows } from "./streaming.ts";
import { entityOperation } from "./bulk_operation.ts";

/** A driver BindError about argument N, told in the caller's terms (`#{name}`, `${}` value). */
function inCallerTerms(
  error: BindError,
  command: Command,
  args: Args | undefined,
  macros: ReadonlyMap<string, string>,
): BindError {
  const index = error.index;
  const label = index === undefined
    ? undefined
    : typeof command === "string"
    ? argumentLabelOf(command, args, index, macros)
    : argumentLabel(command, index);
  if (label === undefined || typeof label === "number" && label === index) return error;
  const who = typeof label === "number" ? `argument ${label}` : `argument "${label}"`;
  const Kind = error instanceof InvalidArgumentError ? InvalidArgumentError : BindError;
  return new Kind(error.message.replace(`argument ${index}`, who), {
    index: typeof label === "number" ? label : undefined,
    name: typeof label === "string" ? label : undefined,
    command: error.command,
    cause: error,
  });
}

function isDataSource(source: DataSource | Connection): source is DataSource {
  return typeof (source as DataSource).getConnection === "function";
}

/**
 * Whether a source's connections are the driver's own, alike and without state of their own
 * (a handle on the shared transport): then one of them serves every call of a template, where a
 * fresh one per call costs a connection, an executor and an `await`. A DataSource whose
 * `getConnection` is overridden (a pool, a counter) is asked on every call, as before.
 */
function sharesConnections(source: DataSource): boolean {
  return source instanceof DataSource &&
    source.getConnection === DataSource.prototype.getConnection;
}

/** The first result of a text on a connection that is not the driver's, through a statement. */
async function statementFirst(
  conn: Connection,
  bound: BoundTemplate,
): Promise<ResultSet | number> {
  const stmt = conn.createStatement();
  try {
    await stmt.execute(bound.text, bound.args);
    return stmt.getResultSet() ?? stmt.getUpdateCount();
  } finally {
    stmt.close();
  }
}

/** A read (`what`, the method's name) got an update count where it needs rows. */
function expectsRows(
  what: string,
  count: number | bigint,
  bound: BoundTemplate,
): IllegalStateError {
  return new IllegalStateError(
    `${what} expects rows, but ${verb(bound.text)} returned an update count (${
      Number(count)
    }); use executeUpdate for writes: ${bound.text}`,
    { command: bound.text },
  );
}

/** The driver's own `close`: it closes at once, so its (already resolved) promise needs no wait. */
const driverClose = Connection.prototype.close;

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

/** The rows of `queryForList` without a type (one function, not a closure per call). */
const listOfMaps = (rs: ResultSet): RowMap[] => withMeta(rs.toArray(), rs);

/**
 * The JdbcTemplate of searchvisitor: run commands, read rows as maps, entities or numbers.
 *
 * @example
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { JdbcTemplate, listMeta } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const fetch = (_url: string, init: RequestInit) =>
 *   Promise.resolve(Response.json({
 *     took: 1,
 *     hits: { total: { value: 1, relation: "eq" }, hits: [{ _id: "1", _source: { name: String(init.body).includes("alice") ? "alice" : "?" } }] },
 *   }));
 * const jdbc = new JdbcTemplate(new DataSource({ nodes: ["http://es.local"], fetch }));
 * const rows = await jdbc.queryForList('POST /users/_search {"query": {"term": {"name": #{name}}}}', { name: "alice" });
 * assert.deepEqual(rows, [{ _ID: "1", _DOC: '{"name":"alice"}' }]);
 * assert.equal(listMeta(rows).total?.value, 1);
 * ```
 */
export class JdbcTemplate {
  readonly #source: DataSource | Connection;
  /** The driver DataSource's connection that serves every call (see `sharesConnections`). */
  #shared: Connection | undefined;
  readonly #macros = new Map<string, string>();
  /** The options of every `bindTemplate` call (one object, not one per call). */
  readonly #bindOptions = { macros: this.#macros };
  /** A connection for the length of a stream or a bulk writer, and how to give it back. */
  readonly #lease = async (): Promise<Lease> => {
    const source = this.#source;
    if (!isDataSource(source)) return { conn: source, release: () => Promise.resolve() };
    const conn = await source.getConnection();
    return { conn, release: () => conn.close() };
  };

  /**
   * Creates a template over a data source or one connection.
   *
   * @param source A DataSource or one Connection. The driver's own DataSource serves every call
   *   through one connection (its connections are alike handles on the shared transport); a
   *   DataSource that overrides `getConnection` (a pool, say) gives a connection per call, closed
   *   afterwards.
   */
  constructor(source: DataSource | Connection) {
    this.#source = source;
  }

  /**
   * The data source or connection this template runs on (Spring's `getDataSource()`).
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { JdbcTemplate } from "@searchvisitor/searchvisitor/template";
   * import assert from "node:assert/strict";
   *
   * const ds = new DataSource("http://127.0.0.1:9200");
   * assert.equal(new JdbcTemplate(ds).source, ds);
   * ```
   */
  get source(): DataSource | Connection {
    return this.#source;
  }

  /**
   * Registers a macro for `@{macro, name}`.
   *
   * @param name The macro name.
   * @param text Template text (it may use placeholders and rules).
   * @returns This template.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { JdbcTemplate } from "@searchvisitor/searchvisitor/template";
   * import assert from "node:assert/strict";
   *
   * const sent: string[] = [];
   * const fetch = (_url: string, init: RequestInit) => {
   *   sent.push(String(init.body));
   *   return Promise.resolve(Response.json({ count: 4 }));
   * };
   * const jdbc = new JdbcTemplate(new DataSource({ nodes: ["http://es.local"], fetch }))
   *   .addMacro("adults", '{"range": {"age": {"gte": 18}}}');
   * assert.equal(await jdbc.queryForNumber('POST /users/_count {"query": @{macro, adults}}', {}), 4);
   * assert.equal(JSON.parse(sent[0]!).query.range.age.gte, 18);
   * ```
   */
  addMacro(name: string, text: string): this {
    this.#macros.set(name, text);
    return this;
  }

  /**
   * Binds a command without running it: the driver text and arguments it would send.
   *
   * @param command Template text.
   * @param args Positional or named arguments.
   * @returns The bound command.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { JdbcTemplate } from "@searchvisitor/searchvisitor/template";
   * import assert from "node:assert/strict";
   *
   * const jdbc = new JdbcTemplate(new DataSource("http://127.0.0.1:9200"));
   * assert.deepEqual(jdbc.bind("GET /users/_doc/#{id}", { id: "7" }), { text: "GET /users/_doc/{?}", args: ["7"] });
   * ```
   */
  bind(command: Command, args?: Args): BoundTemplate {
    if (typeof command !== "string") return command;
    if ((args === undefined || Array.isArray(args)) && !needsTemplate(command)) {
      const list = (args ?? []) as readonly unknown[];
      return { text: command, args: list.map(prepareValue) };
    }
    return bindTemplate(command, args, this.#bindOptions);
  }

  /**
   * Reads all rows, as maps keyed by column (`_ID`, `_DOC`, …) or, with `type`, as entities.
   * A plain array of rows; `listMeta(rows)` gives the search's `total`, `took`, `aggregations`
   * and `raw`.
   *
   * @param command Template text or a bound command.
   * @param args Positional or named arguments.
   * @param type An entity class: rows are mapped through its metadata.
   * @returns The rows.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { defineEntity, JdbcTemplate, listMeta } from "@searchvisitor/searchvisitor/template";
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
   * assert.equal(listMeta(users).took, 2);
   * ```
   */
  queryForList(command: Command, args?: Args): Promise<RowMap[]>;
  /** All rows as entities of `type` (see the first overload). */
  queryForList<T>(
    command: Command,
    args: Args | undefined,
    type: EntityClass<T>,
  ): Promise<T[]>;
  queryForList<T>(
    command: Command,
    args?: Args,
    type?: EntityClass<T>,
  ): Promise<(RowMap | T)[]> {
    return this.#run(
      "queryForList",
      command,
      args,
      type === undefined
        ? listOfMaps
        : (rs, b) => withMeta<RowMap | T>(mapResultSet(rs, type, b.text), rs),
    );
  }

  /**
   * Reads all rows as {@linkcode Hit}s: each row map (or, with `type`, entity) as `doc` beside
   * its score, sort values, highlight, named queries, inner hits, index, version, sequence
   * number and primary term. `listMeta(list)` gives `total`, `took`, `aggregations` and `raw`.
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
  queryForHits(command: Command, args?: Args): Promise<Hit<RowMap>[]>;
  /** All hits with an entity of `type` as `doc` (see the first overload). */
  queryForHits<T>(
    command: Command,
    args: Args | undefined,
    type: EntityClass<T>,
  ): Promise<Hit<T>[]>;
  queryForHits<T>(
    command: Command,
    args?: Args,
    type?: EntityClass<T>,
  ): Promise<Hit<RowMap | T>[]> {
    return this.#run(
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
    return this.#run("queryForMap", command, args, (rs, b) => {
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
    return this.#run("queryForObject", command, args, (rs, b) => {
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
    return this.#run(method, command, args, (rs, b) => {
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
    return this.#run("queryForNumber", command, args, (rs, b) => {
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
    return this.#run("queryForLong", command, args, (rs, b) => {
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
    return this.#run("query", command, args, (rs, b) => readRows(rs, handler, b.text));
  }

  /**
   * Runs a command (or several); true when the first result is rows.
   *
   * @param command Template text or a bound command.
   * @param args Positional or named arguments.
   * @returns Whether the first result is rows.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { JdbcTemplate } from "@searchvisitor/searchvisitor/template";
   * import assert from "node:assert/strict";
   *
   * const fetch = () => Promise.resolve(Response.json({ acknowledged: true, index: "users" }));
   * const jdbc = new JdbcTemplate(new DataSource({ nodes: ["http://es.local"], fetch }));
   * assert.equal(typeof await jdbc.execute("PUT /${index}", { index: "users" }), "boolean");
   * ```
   */
  execute(command: Command, args?: Args): Promise<boolean> {
    return this.#run(undefined, command, args, (stmt, b) => stmt.execute(b.text, b.args));
  }

  /**
   * Runs a write and returns its real update count.
   *
   * @param command Template text or a bound command.
   * @param args Positional or named arguments; entity instances become documents.
   * @returns The update count.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { JdbcTemplate } from "@searchvisitor/searchvisitor/template";
   * import assert from "node:assert/strict";
   *
   * const fetch = () => Promise.resolve(Response.json({ _id: "1", result: "created" }, { status: 201 }));
   * const jdbc = new JdbcTemplate(new DataSource({ nodes: ["http://es.local"], fetch }));
   * assert.equal(await jdbc.executeUpdate("PUT /users/_doc/#{id} #{doc}", { id: "1", doc: { name: "alice" } }), 1);
   * ```
   */
  executeUpdate(command: Command, args?: Args): Promise<number> {
    return this.#run(undefined, command, args, (stmt, b) => stmt.executeUpdate(b.text, b.args));
  }

  /**
   * Runs a write and returns its update count and the `_id`s it wrote (generated or given), in
   * request order — the keys of a `POST /idx/_doc` or of every item of a `_bulk`.
   *
   * @param command Template text or a bound command.
   * @param args Positional or named arguments; entity instances become documents.
   * @returns The update count and the written `_id`s.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { JdbcTemplate } from "@searchvisitor/searchvisitor/template";
   * import assert from "node:assert/strict";
   *
   * const fetch = () => Promise.resolve(Response.json({ _id: "xGen1", result: "created" }, { status: 201 }));
   * const jdbc = new JdbcTemplate(new DataSource({ nodes: ["http://es.local"], fetch }));
   * const written = await jdbc.executeUpdateWithKeys("POST /users/_doc #{doc}", { doc: { name: "alice" } });
   * assert.deepEqual(written, { count: 1, keys: ["xGen1"] });
   * ```
   */
  executeUpdateWithKeys(command: Command, args?: Args): Promise<{ count: number; keys: string[] }> {
    return this.#run(undefined, command, args, async (stmt, b) => {
      const count = await stmt.executeUpdate(b.text, b.args);
      const keys: string[] = [];
      const rs = stmt.getGeneratedKeys();
      while (rs.next()) keys.push(rs.getString("_ID")!);
      return { count, keys };
    });
  }

  /**
   * Runs a text of several commands; one result per command: the update count, or the rows as
   * maps.
   *
   * @param command Template text or a bound command.
   * @param args Positional or named arguments (shared by all commands, left to right).
   * @returns One result per command.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { JdbcTemplate } from "@searchvisitor/searchvisitor/template";
   * import assert from "node:assert/strict";
   *
   * const fetch = (url: string) => Promise.resolve(
   *   url.includes("_count") ? Response.json({ count: 1 }) : Response.json({ _id: "1", result: "created" }, { status: 201 }),
   * );
   * const jdbc = new JdbcTemplate(new DataSource({ nodes: ["http://es.local"], fetch }));
   * const results = await jdbc.multipleExecute('PUT /u/_doc/#{id} {"n": 1}\nPOST /u/_count', { id: "1" });
   * assert.deepEqual(results, [1, [{ COUNT: 1 }]]);
   * ```
   */
  multipleExecute(command: Command, args?: Args): Promise<(number | RowMap[])[]> {
    return this.#run(undefined, command, args, (stmt, b) => readAllResults(stmt, b));
  }

  /**
   * Streams every hit of a search, page by page, as row maps or (with `type`) entities: a point
   * in time with `search_after` where the server has one, else a scroll. Memory holds two pages
   * at most; the point in time or scroll is closed when the hits run out, on an error and when
   * the loop stops early (`break`, `return`, a throw). The body's `size` is the page size.
   *
   * @param command Template text or a bound command: one `GET|POST /index/_search`.
   * @param args Positional or named arguments.
   * @param typeOrOptions An entity class, or the options.
   * @param options `pageSize`, `keepAlive` (default `"1m"`), `mode` (`"auto"`, `"pit"`,
   *   `"scroll"`) and `signal`.
   * @returns An async generator of rows or entities.
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
   * for (const [id, name] of [["1", "Oslo"], ["2", "Bergen"], ["3", "Tromsø"]]) {
   *   await jdbc.executeUpdate("PUT /cities/_doc/#{id}?refresh=true #{doc}", { id, doc: { name } });
   * }
   * class City { name = ""; }
   * const names: string[] = [];
   * for await (const city of jdbc.stream('POST /cities/_search {"size": 2}', {}, City)) names.push(city.name);
   * assert.deepEqual(names.sort(), ["Bergen", "Oslo", "Tromsø"]);
   * engine.close();
   * ```
   */
  stream(
    command: Command,
    args?: Args,
    options?: StreamOptions,
  ): AsyncGenerator<RowMap, void, undefined>;
  /** Every hit as an entity of `type` (see the first overload). */
  stream<T>(
    command: Command,
    args: Args | undefined,
    type: EntityClass<T>,
    options?: StreamOptions,
  ): AsyncGenerator<T, void, undefined>;
  stream<T>(
    command: Command,
    args?: Args,
    typeOrOptions?: EntityClass<T> | StreamOptions,
    options: StreamOptions = {},
  ): AsyncGenerator<RowMap | T, void, undefined> {
    const bound = this.bind(command, args);
    const type = typeof typeOrOptions === "function" ? typeOrOptions : undefined;
    const opts = typeof typeOrOptions === "object" ? typeOrOptions : options;
    return streamRows(this.#lease, bound, opts, { type }) as AsyncGenerator<
      RowMap | T,
      void,
      undefined
    >;
  }

  /**
   * Like {@linkcode JdbcTemplate.stream}, each row or entity inside a {@linkcode Hit} with its
   * metadata (score, sort values, highlight, named queries, inner hits, index, version…).
   *
   * @param command Template text or a bound command: one `GET|POST /index/_search`.
   * @param args Positional or named arguments.
   * @param typeOrOptions An entity class, or the options.
   * @param options `pageSize`, `keepAlive`, `mode` and `signal`.
   * @returns An async generator of hits.
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
   * await jdbc.executeUpdate('PUT /t/_doc/1?refresh=true {"n": 5}');
   * class T { n = 0; }
   * for await (const hit of jdbc.streamHits('POST /t/_search {"sort": [{"n": "desc"}]}', [], T)) {
   *   assert.equal(hit.doc.n, 5);
   *   assert.equal(hit.index, "t");
   *   assert.equal(hit.sort?.[0], 5);
   * }
   * engine.close();
   * ```
   */
  streamHits(
    command: Command,
    args?: Args,
    options?: StreamOptions,
  ): AsyncGenerator<Hit<RowMap>, void, undefined>;
  /** Every hit with an entity of `type` as `doc` (see the first overload). */
  streamHits<T>(
    command: Command,
    args: Args | undefined,
    type: EntityClass<T>,
    options?: StreamOptions,
  ): AsyncGenerator<Hit<T>, void, undefined>;
  streamHits<T>(
    command: Command,
    args?: Args,
    typeOrOptions?: EntityClass<T> | StreamOptions,
    options: StreamOptions = {},
  ): AsyncGenerator<Hit<RowMap | T>, void, undefined> {
    const bound = this.bind(command, args);
    const type = typeof typeOrOptions === "function" ? typeOrOptions : undefined;
    const opts = typeof typeOrOptions === "object" ? typeOrOptions : options;
    return streamRows(this.#lease, bound, opts, { type, hits: true }) as AsyncGenerator<
      Hit<RowMap | T>,
      void,
      undefined
    >;
  }

  /**
   * A {@linkcode BulkWriter} on this template's connection: entities are indexed into their
   * class's index under their key, other objects into the `index` option (give `operation` to
   * send updates, deletes or creates). Batches by `flushDocs`, `flushBytes` and
   * `flushIntervalMs`; at most `concurrency` requests in flight; per-item 429s and 503s retried;
   * when a request's outcome is unknown, idempotent items are sent again and the others reported
   * (items without an id get one from the writer, see `BulkWriterOptions.generateIds`).
   *
   * @param options Batching, concurrency, retries, callbacks and the default index.
   * @returns The writer: `await writer.write(items)`, or `add` each item and `close()`.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { Engine } from "@searchvisitor/searchvisitor/engine";
   * import { defineEntity, JdbcTemplate } from "@searchvisitor/searchvisitor/template";
   * import assert from "node:assert/strict";
   *
   * class City { id = ""; name = ""; }
   * defineEntity(City, { index: "cities", key: "id" });
   * const engine = new Engine();
   * const jdbc = new JdbcTemplate(new DataSource({ nodes: ["http://engine"], fetch: engine.fetch }));
   * async function* cities() {
   *   for (const name of ["Oslo", "Bergen", "Tromsø"]) yield Object.assign(new City(), { id: name, name });
   * }
   * const result = await jdbc.bulkWriter<City>({ refresh: "true" }).write(cities());
   * assert.equal(result.successful, 3);
   * assert.equal(await jdbc.queryForNumber("POST /cities/_count"), 3);
   * engine.close();
   * ```
   */
  bulkWriter<T = unknown>(options: BulkWriterOptions<T> = {}): BulkWriter<T> {
    let lease: Promise<Lease> | undefined;
    const connection = async () => (await (lease ??= this.#lease())).conn;
    return new BulkWriter<T>(connection, {
      ...options,
      operation: options.operation ?? entityOperation,
    });
  }

  /**
   * A tagged template: `${…}` values are bound like `?` (like `{?}` in a path) — never spliced.
   *
   * @param strings The literal parts.
   * @param values The values.
   * @returns A command to run with `queryForList()`, `executeUpdate()`, ….
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { JdbcTemplate } from "@searchvisitor/searchvisitor/template";
   * import assert from "node:assert/strict";
   *
   * const jdbc = new JdbcTemplate(new DataSource("http://127.0.0.1:9200"));
   * const name = 'a "quoted" name';
   * const cmd = jdbc.command`POST /users/_search {"query": {"term": {"name": ${name}}}}`;
   * assert.deepEqual(cmd.bound, { text: 'POST /users/_search {"query": {"term": {"name": ?}}}', args: [name] });
   * ```
   */
  command(strings: TemplateStringsArray, ...values: unknown[]): TemplateCommand {
    return new TemplateCommand(this, strings, values, this.#macros);
  }

  /**
   * The one async frame of every call: bind, a connection (from a DataSource) and a statement,
   * run, then `work` — on the statement, or (with `what`, the calling method's name, for a read)
   * on the rows the statement must have given; an update count there is an IllegalStateError.
   * A synchronous `work` result is returned without a further await; the statement and
   * connection stay open until a promised one settles. A driver BindError is told in the
   * caller's terms (`#{name}`, `${}` value).
   */
  #run<T>(
    what: string,
    command: Command,
    args: Args | undefined,
    work: (rs: ResultSet, bound: BoundTemplate) => T | Promise<T>,
  ): Promise<T>;
  #run<T>(
    what: undefined,
    command: Command,
    args: Args | undefined,
    work: (stmt: Statement, bound: BoundTemplate) => T | Promise<T>,
  ): Promise<T>;
  #run<T>(
    what: string | undefined,
    command: Command,
    args: Args | undefined,
    work:
      | ((stmt: Statement, bound: BoundTemplate) => T | Promise<T>)
      | ((rs: ResultSet, bound: BoundTemplate) => T | Promise<T>),
  ): Promise<T> {
    const shared = this.#shared;
    if (what === undefined || shared === undefined || shared.isClosed()) {
      return this.#runOn(what, command, args, work);
    }
    // A read on the shared connection: no async frame of its own, the rows read in the step
    // that maps the response (over loopback each frame and hop costs about a microsecond).
    try {
      const bound = this.bind(command, args);
      return executeFirstThen(shared, bound, (first) => {
        if (!(first instanceof ResultSet)) throw expectsRows(what, first, bound);
        return (work as (rs: ResultSet, bound: BoundTemplate) => T | Promise<T>)(first, bound);
      }) as Promise<T>; // a promised result is adopted by the outer promise
    } catch (error) {
      return Promise.reject(
        error instanceof BindError ? inCallerTerms(error, command, args, this.#macros) : error,
      );
    }
  }

  /** `#run` with a connection to get (and close) or a statement to make. */
  async #runOn<T>(
    what: string | undefined,
    command: Command,
    args: Args | undefined,
    work:
      | ((stmt: Statement, bound: BoundTemplate) => T | Promise<T>)
      | ((rs: ResultSet, bound: BoundTemplate) => T | Promise<T>),
  ): Promise<T> {
    const bound = this.bind(command, args);
    const source = this.#source;
    let conn = this.#shared;
    let own = false;
    if (conn === undefined || conn.isClosed()) {
      if (isDataSource(source)) {
        conn = await source.getConnection();
        if (sharesConnections(source)) this.#shared ??= conn;
        own = conn !== this.#shared;
      } else conn = source;
    }
    try {
      if (what === undefined) {
        const stmt = conn.createStatement();
        try {
          const out = (work as (stmt: Statement, bound: BoundTemplate) => T | Promise<T>)(
            stmt,
            bound,
          );
          return out instanceof Promise ? await out : out;
        } finally {
          stmt.close();
        }
      }
      const first = conn instanceof Connection
        ? await executeFirst(conn, bound.text, bound.args)
        : await statementFirst(conn, bound);
      if (!(first instanceof ResultSet)) throw expectsRows(what, first, bound);
      const out = (work as (rs: ResultSet, bound: BoundTemplate) => T | Promise<T>)(first, bound);
      return out instanceof Promise ? await out : out;
    } catch (error) {
      throw error instanceof BindError ? inCallerTerms(error, command, args, this.#macros) : error;
    } finally {
      if (own) {
        const closing = conn.close();
        if (conn.close !== driverClose) await closing;
      }
    }
  }
}
