// JdbcAccessor: what every JdbcTemplate call stands on — the data source or connection, the
// macros, binding a command, and running one bound command on a statement (a connection per call
// from a DataSource, closed afterwards). The reading and writing methods sit in the classes above
// it (jdbc_queries.ts, jdbc_template.ts) and reach the plumbing through the functions exported
// here, which stay out of the public door.

import {
  BindError,
  Connection,
  type DataSource,
  IllegalStateError,
  InvalidArgumentError,
  type ResultSet,
  type Statement,
} from "../driver/mod.ts";
import type { Args, Command } from "./types.ts";
import { verb } from "./_result_reading.ts";
import {
  argumentLabel,
  argumentLabelOf,
  bindTemplate,
  type BoundTemplate,
  needsTemplate,
} from "./named_binding.ts";
import { prepareValue } from "./row_mapping.ts";
import type { Lease } from "./streaming.ts";

/** A driver BindError about argument N, told in the caller's terms (`#{name}`, `${}` value). */
function renamed(
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

/** The private state of a JdbcAccessor, read by the functions below (set in its static block). */
let sourceOf!: (template: JdbcAccessor) => DataSource | Connection;
let readMacros!: (template: JdbcAccessor) => ReadonlyMap<string, string>;

/**
 * The base of `JdbcTemplate`: the data source or connection it runs on, its macros
 * and {@linkcode JdbcAccessor.bind}. Create a `JdbcTemplate`; this class only groups the
 * template's plumbing (its query methods are on `JdbcQueries`, its writes, streams
 * and tagged commands on `JdbcTemplate` itself).
 *
 * @example
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { type JdbcAccessor, JdbcTemplate } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const accessor: JdbcAccessor = new JdbcTemplate(new DataSource("http://127.0.0.1:9200"));
 * assert.deepEqual(accessor.bind("GET /u/_doc/#{id}", { id: "1" }), { text: "GET /u/_doc/{?}", args: ["1"] });
 * ```
 */
export abstract class JdbcAccessor {
  readonly #source: DataSource | Connection;
  readonly #macros = new Map<string, string>();

  static {
    sourceOf = (template) => template.#source;
    readMacros = (template) => template.#macros;
  }

  /**
   * Creates a template over a data source or one connection.
   *
   * @param source A DataSource (a connection per call, closed afterwards) or one Connection.
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
    return bindTemplate(command, args, { macros: this.#macros });
  }
}

/** The macros registered on a template (for `@{macro, name}`), as its tagged commands bind them. */
export function macrosOf(template: JdbcAccessor): ReadonlyMap<string, string> {
  return readMacros(template);
}

/** A connection for the length of a stream or a bulk writer, and how to give it back. */
export async function leaseConnection(template: JdbcAccessor): Promise<Lease> {
  const source = sourceOf(template);
  if (!isDataSource(source)) return { conn: source, release: () => Promise.resolve() };
  const conn = await source.getConnection();
  return { conn, release: () => conn.close() };
}

/** The driver's own `close`: it closes at once, so its (already resolved) promise needs no wait. */
const driverClose = Connection.prototype.close;

/**
 * Runs `work` with a statement for one bound command; the statement (and the connection, when
 * it came from a DataSource) is closed afterwards. A driver BindError is told in the caller's
 * terms (`#{name}`, `${}` value).
 */
export function runBound<T>(
  template: JdbcAccessor,
  command: Command,
  args: Args | undefined,
  work: (stmt: Statement, bound: BoundTemplate) => T | Promise<T>,
): Promise<T> {
  return runStatement(template, command, args, undefined, work);
}

/**
 * Runs one bound command that must give rows and reads them with `read`; an update count is an
 * IllegalStateError naming `what` (the calling method).
 */
export function queryRows<T>(
  template: JdbcAccessor,
  what: string,
  command: Command,
  args: Args | undefined,
  read: (rs: ResultSet, bound: BoundTemplate) => T | Promise<T>,
): Promise<T> {
  return runStatement(template, command, args, what, read);
}

/**
 * The one async frame of every template call: bind, a connection (from a DataSource) and a
 * statement, run, then `work` — on the statement, or (with `what`, a query) on the rows the
 * statement must have given. A synchronous `work` result is returned without a further await;
 * the statement and connection stay open until a promised one settles.
 */
async function runStatement<T>(
  template: JdbcAccessor,
  command: Command,
  args: Args | undefined,
  what: string | undefined,
  work:
    | ((stmt: Statement, bound: BoundTemplate) => T | Promise<T>)
    | ((
      rs: ResultSet,
      bound: BoundTemplate,
    ) => T | Promise<T>),
): Promise<T> {
  const bound = template.bind(command, args);
  const source = sourceOf(template);
  const conn = isDataSource(source) ? await source.getConnection() : source;
  try {
    const stmt = conn.createStatement();
    try {
      let out: T | Promise<T>;
      if (what === undefined) {
        out = (work as (stmt: Statement, bound: BoundTemplate) => T | Promise<T>)(stmt, bound);
      } else {
        const isRows = await stmt.execute(bound.text, bound.args);
        const rs = stmt.getResultSet();
        if (!isRows || rs === null) {
          throw new IllegalStateError(
            `${what} expects rows, but ${
              verb(bound.text)
            } returned an update count (${stmt.getUpdateCount()}); use executeUpdate for writes: ${bound.text}`,
            { command: bound.text },
          );
        }
        out = (work as (rs: ResultSet, bound: BoundTemplate) => T | Promise<T>)(rs, bound);
      }
      return out instanceof Promise ? await out : out;
    } catch (error) {
      throw error instanceof BindError
        ? renamed(error, command, args, readMacros(template))
        : error;
    } finally {
      stmt.close();
    }
  } finally {
    if (conn !== source) {
      const closing = conn.close();
      if (conn.close !== driverClose) await closing;
    }
  }
}
