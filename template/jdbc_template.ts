// JdbcTemplate: one call = one connection (from a DataSource, closed afterwards) or the given
// connection; template text is bound by named_binding.ts, rows become maps, entities, numbers or
// whatever a RowMapper makes of them. The class is built in three layers, one file each:
// jdbc_accessor.ts (source, macros, binding, running one command), jdbc_queries.ts (the reads)
// and this file: the writes, streaming every hit, the bulk writer and the tagged-template form.

import { BulkWriter, type BulkWriterOptions, type StreamOptions } from "../driver/mod.ts";
import type { EntityClass } from "./entity.ts";
import type { Args, Command, Hit, QueryList, RowMap } from "./types.ts";
import { readAllResults } from "./_result_reading.ts";
import { TemplateCommand } from "./command_tag.ts";
import { type Lease, streamRows } from "./streaming.ts";
import { entityOperation } from "./bulk_operation.ts";
import { leaseConnection, macrosOf, runBound } from "./jdbc_accessor.ts";
import { JdbcQueries } from "./jdbc_queries.ts";

/**
 * The JdbcTemplate of searchvisitor: run commands, read rows as maps, entities or numbers.
 *
 * @example
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { JdbcTemplate } from "@searchvisitor/searchvisitor/template";
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
 * assert.equal(rows.total?.value, 1);
 * ```
 */
export class JdbcTemplate extends JdbcQueries {
  /** A connection for the length of a stream or a bulk writer. */
  readonly #lease = (): Promise<Lease> => leaseConnection(this);

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
    return runBound(this, command, args, (stmt, b) => stmt.execute(b.text, b.args));
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
    return runBound(this, command, args, (stmt, b) => stmt.executeUpdate(b.text, b.args));
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
    return runBound(this, command, args, async (stmt, b) => {
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
  multipleExecute(command: Command, args?: Args): Promise<(number | QueryList<RowMap>)[]> {
    return runBound(this, command, args, (stmt, b) => readAllResults(stmt, b));
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
    return streamRows(this.#lease, bound, type, opts) as AsyncGenerator<
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
    return streamRows(this.#lease, bound, type, opts, true) as AsyncGenerator<
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
    return new TemplateCommand(this, strings, values, macrosOf(this));
  }
}
