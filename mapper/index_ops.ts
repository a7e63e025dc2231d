// IndexOps: an entity's index on a cluster — create it from the entity's mapping, tell whether it
// exists, delete it, read its live mapping and report drift, add what the entity maps anew.

import { ResponseError } from "../driver/mod.ts";
import {
  canonicalMapping,
  type DriftOptions,
  type EntityClass,
  getEntityMeta,
  type IndexDefinition,
  type JdbcTemplate,
  type MappingDrift,
  mappingDrift,
  mappingOf,
  type MappingValue,
  type TypeMappingJson,
} from "../template/mod.ts";
import { MapperError } from "./errors.ts";

/**
 * The index of one entity class on one data source (from `session.indexOps(Entity)`): creates it
 * with `mappingOf(Entity)`, tells whether it exists, deletes it, and compares the entity with the
 * live mapping. The index name is the entity's `@Table` index unless one is given.
 *
 * @example
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { Configuration } from "@searchvisitor/searchvisitor/mapper";
 * import { Column, Table } from "@searchvisitor/searchvisitor/template";
 * import { Engine } from "@searchvisitor/searchvisitor/engine";
 * import assert from "node:assert/strict";
 *
 * @Table({ index: "books", settings: { number_of_shards: 1 } })
 * class Book {
 *   @Column({ primary: true, mapping: "keyword" }) id = "";
 *   @Column({ mapping: { type: "text", fields: { raw: { type: "keyword" } } } }) title = "";
 * }
 * const engine = new Engine();
 * const session = new Configuration().newSession(new DataSource({ nodes: ["http://e"], fetch: engine.fetch }));
 * const books = session.indexOps(Book);
 * assert.equal(await books.exists(), false);
 * await books.create();
 * assert.equal(await books.exists(), true);
 * assert.deepEqual(await books.drift(), []);
 * await session.jdbc().execute('PUT /books/_mapping {"properties": {"year": {"type": "short"}}}');
 * assert.deepEqual(await books.drift(), [{ kind: "extra", path: "year", actual: "short" }]);
 * assert.equal(await books.delete(), true);
 * assert.equal(await books.delete(), false);
 * ```
 */
export class IndexOps {
  readonly #jdbc: JdbcTemplate;
  readonly #entity: EntityClass;
  /** The index name. */
  readonly index: string;

  /**
   * Prefer `session.indexOps(Entity)`.
   *
   * @param jdbc The template to run on.
   * @param entity The entity class.
   * @param index The index (default: the entity's `@Table` index).
   * @throws {MapperError} When no index is given and the entity declares none.
   */
  constructor(jdbc: JdbcTemplate, entity: EntityClass, index?: string) {
    const name = index ?? getEntityMeta(entity).index;
    if (name === undefined || name === "") {
      throw new MapperError(
        "has no index: declare one with @Table/defineEntity or pass it to indexOps(Entity, index)",
        { mapper: entity.name, method: "indexOps" },
      );
    }
    this.#jdbc = jdbc;
    this.#entity = entity;
    this.index = name;
  }

  /**
   * The body `create()` sends: `mappingOf(Entity)`.
   *
   * @returns Settings (when declared) and mappings.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { Configuration } from "@searchvisitor/searchvisitor/mapper";
   * import { Column } from "@searchvisitor/searchvisitor/template";
   * import assert from "node:assert/strict";
   *
   * class Tag { @Column({ mapping: "keyword" }) name = ""; }
   * const ops = new Configuration().newSession(new DataSource("http://127.0.0.1:9200")).indexOps(Tag, "tags");
   * assert.deepEqual(ops.definition(), { mappings: { properties: { name: { type: "keyword" } } } });
   * ```
   */
  definition(): IndexDefinition {
    return mappingOf(this.#entity);
  }

  /**
   * Creates the index with the entity's settings and mapping (`PUT /{index}`).
   *
   * @returns Resolves once the index is created.
   * @throws {ResponseError} When it exists already (`resource_already_exists_exception`) or the
   * server refuses the mapping (a type it lacks, a bad analyzer).
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { Configuration } from "@searchvisitor/searchvisitor/mapper";
   * import { Column, Table } from "@searchvisitor/searchvisitor/template";
   * import { Engine } from "@searchvisitor/searchvisitor/engine";
   * import assert from "node:assert/strict";
   *
   * @Table("tags") class Tag { @Column({ mapping: "keyword" }) name = ""; }
   * const session = new Configuration().newSession(new DataSource({ nodes: ["http://e"], fetch: new Engine().fetch }));
   * await session.indexOps(Tag).create();
   * await assert.rejects(session.indexOps(Tag).create(), /resource_already_exists_exception/);
   * ```
   */
  async create(): Promise<void> {
    await this.#jdbc.execute({ text: "PUT /{?} ?", args: [this.index, this.definition()] });
  }

  /**
   * Creates the index unless it exists.
   *
   * @returns True when it was created now.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { Configuration } from "@searchvisitor/searchvisitor/mapper";
   * import { Column, Table } from "@searchvisitor/searchvisitor/template";
   * import { Engine } from "@searchvisitor/searchvisitor/engine";
   * import assert from "node:assert/strict";
   *
   * @Table("tags") class Tag { @Column({ mapping: "keyword" }) name = ""; }
   * const ops = new Configuration().newSession(new DataSource({ nodes: ["http://e"], fetch: new Engine().fetch })).indexOps(Tag);
   * assert.equal(await ops.createIfMissing(), true);
   * assert.equal(await ops.createIfMissing(), false);
   * ```
   */
  async createIfMissing(): Promise<boolean> {
    if (await this.exists()) return false;
    try {
      await this.create();
      return true;
    } catch (error) {
      // Another process created it between the two calls.
      if (error instanceof ResponseError && error.type === "resource_already_exists_exception") {
        return false;
      }
      throw error;
    }
  }

  /**
   * Whether the index (or an alias of that name) exists (`HEAD /{index}`).
   *
   * @returns True when it exists.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { Configuration } from "@searchvisitor/searchvisitor/mapper";
   * import { Column } from "@searchvisitor/searchvisitor/template";
   * import { Engine } from "@searchvisitor/searchvisitor/engine";
   * import assert from "node:assert/strict";
   *
   * class Tag { @Column({ mapping: "keyword" }) name = ""; }
   * const ops = new Configuration().newSession(new DataSource({ nodes: ["http://e"], fetch: new Engine().fetch })).indexOps(Tag, "tags");
   * assert.equal(await ops.exists(), false);
   * ```
   */
  async exists(): Promise<boolean> {
    const rows = await this.#jdbc.queryForList({ text: "HEAD /{?}", args: [this.index] });
    const status = rows[0]?.STATUS;
    if (status === 200) return true;
    if (status === 404) return false;
    throw new MapperError(`HEAD /${this.index} answered ${String(status)}`, {
      mapper: this.#entity.name,
      method: "exists",
    });
  }

  /**
   * Deletes the index (`DELETE /{index}`; the name is never a pattern).
   *
   * @returns True when it existed.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { Configuration } from "@searchvisitor/searchvisitor/mapper";
   * import { Column } from "@searchvisitor/searchvisitor/template";
   * import { Engine } from "@searchvisitor/searchvisitor/engine";
   * import assert from "node:assert/strict";
   *
   * class Tag { @Column({ mapping: "keyword" }) name = ""; }
   * const ops = new Configuration().newSession(new DataSource({ nodes: ["http://e"], fetch: new Engine().fetch })).indexOps(Tag, "tags");
   * await ops.create();
   * assert.equal(await ops.delete(), true);
   * assert.equal(await ops.exists(), false);
   * ```
   */
  async delete(): Promise<boolean> {
    try {
      await this.#jdbc.execute({ text: "DELETE /{?}", args: [this.index] });
      return true;
    } catch (error) {
      if (error instanceof ResponseError && error.status === 404) return false;
      throw error;
    }
  }

  /**
   * The live mapping of the index, in normal form (`canonicalMapping`).
   *
   * @returns The `mappings`.
   * @throws {ResponseError} When the index does not exist.
   * @throws {MapperError} When the name is an alias of several indices.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { Configuration } from "@searchvisitor/searchvisitor/mapper";
   * import { Column } from "@searchvisitor/searchvisitor/template";
   * import { Engine } from "@searchvisitor/searchvisitor/engine";
   * import assert from "node:assert/strict";
   *
   * class Tag { @Column({ mapping: { type: "keyword", copy_to: "all" } }) name = ""; }
   * const ops = new Configuration().newSession(new DataSource({ nodes: ["http://e"], fetch: new Engine().fetch })).indexOps(Tag, "tags");
   * await ops.create();
   * assert.deepEqual((await ops.liveMapping()).properties.name, { type: "keyword", copy_to: ["all"] });
   * ```
   */
  async liveMapping(): Promise<TypeMappingJson> {
    const reply = await this.#jdbc.query(
      { text: "GET /{?}/_mapping", args: [this.index] },
      undefined,
      { extractor: (rs) => rs.raw },
    ) as Record<string, { mappings?: unknown }>;
    const indices = Object.keys(reply);
    if (indices.length !== 1) {
      throw new MapperError(
        `${this.index} names ${indices.length} indices (${indices.join(", ")}); ` +
          "compare one index at a time: indexOps(Entity, concreteIndex)",
        { mapper: this.#entity.name, method: "liveMapping" },
      );
    }
    return canonicalMapping(reply[indices[0]!]?.mappings ?? {});
  }

  /**
   * The drift between the entity and the live mapping: fields the entity maps and the index
   * lacks (`missing`), type conflicts (`type`), declared options the index has otherwise
   * (`option`), fields only the index has (`extra`). See `mappingDrift`.
   *
   * @param options `{ strict: true }` also reports options only the index has.
   * @returns The differences; empty when the index matches the entity.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { Configuration } from "@searchvisitor/searchvisitor/mapper";
   * import { Column, Table } from "@searchvisitor/searchvisitor/template";
   * import { Engine } from "@searchvisitor/searchvisitor/engine";
   * import assert from "node:assert/strict";
   *
   * @Table("events")
   * class Event {
   *   @Column({ mapping: "keyword" }) kind = "";
   *   @Column({ mapping: { type: "date", format: "epoch_millis" } }) at = 0;
   * }
   * const session = new Configuration().newSession(new DataSource({ nodes: ["http://e"], fetch: new Engine().fetch }));
   * await session.jdbc().execute('PUT /events {"mappings": {"properties": {"kind": {"type": "text"}}}}');
   * assert.deepEqual(await session.indexOps(Event).drift(), [
   *   { kind: "type", path: "kind", expected: "keyword", actual: "text" },
   *   { kind: "missing", path: "at", expected: "date" },
   * ]);
   * ```
   */
  async drift(options: DriftOptions = {}): Promise<MappingDrift[]> {
    return mappingDrift(this.definition().mappings, await this.liveMapping(), options);
  }

  /**
   * The declared settings (`@Table({ settings })`) the index has otherwise, as drift entries of
   * kind `option` on path `"settings"` (`option` is the setting's name, `raw` keys as written).
   * Servers write settings as text, so values are compared as text (`1` and `"1"` agree); an
   * analysis component compares whole.
   *
   * @returns The differing settings; empty when the index has every declared value.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { Configuration } from "@searchvisitor/searchvisitor/mapper";
   * import { Table } from "@searchvisitor/searchvisitor/template";
   * import { Engine } from "@searchvisitor/searchvisitor/engine";
   * import assert from "node:assert/strict";
   *
   * @Table({ index: "logs", settings: { number_of_replicas: 0, refresh_interval: "5s" } })
   * class Log {}
   * const session = new Configuration().newSession(new DataSource({ nodes: ["http://e"], fetch: new Engine().fetch }));
   * await session.jdbc().execute('PUT /logs {"settings": {"number_of_replicas": 0}}');
   * assert.deepEqual(await session.indexOps(Log).settingsDrift(), [
   *   { kind: "option", path: "settings", option: "refresh_interval", expected: "5s" },
   * ]);
   * ```
   */
  async settingsDrift(): Promise<MappingDrift[]> {
    const declared = this.definition().settings ?? {};
    const reply = await this.#jdbc.query(
      { text: "GET /{?}/_settings", args: [this.index] },
      undefined,
      { extractor: (rs) => rs.raw },
    ) as Record<string, { settings?: { index?: Record<string, unknown> } }>;
    const live = Object.values(reply)[0]?.settings?.index ?? {};
    const text = (v: unknown): unknown =>
      v === null || typeof v !== "object"
        ? String(v)
        : Array.isArray(v)
        ? v.map(text)
        : Object.fromEntries(
          Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, x]) => [k, text(x)]),
        );
    const out: MappingDrift[] = [];
    for (const [name, value] of Object.entries(declared)) {
      const key = name.startsWith("index.") ? name.slice(6) : name;
      const actual = live[key];
      if (JSON.stringify(text(value)) !== JSON.stringify(text(actual))) {
        out.push({
          kind: "option",
          path: "settings",
          option: name,
          expected: value,
          ...(actual !== undefined ? { actual: actual as MappingValue } : {}),
        });
      }
    }
    return out;
  }

  /**
   * Sends the entity's mapping to the existing index (`PUT /{index}/_mapping`): fields and
   * multi-fields it lacks are added and options that may change are changed; a change the
   * server cannot make in place (a new type for a field) is refused by it, and nothing is
   * applied. Returns the drift that remains.
   *
   * @returns The drift after the update (extras stay: a field is never removed).
   * @throws {ResponseError} When the server refuses the change (`illegal_argument_exception`).
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { Configuration } from "@searchvisitor/searchvisitor/mapper";
   * import { Column, Table } from "@searchvisitor/searchvisitor/template";
   * import { Engine } from "@searchvisitor/searchvisitor/engine";
   * import assert from "node:assert/strict";
   *
   * @Table("users")
   * class User {
   *   @Column({ mapping: "keyword" }) name = "";
   *   @Column({ mapping: "integer" }) age = 0;
   * }
   * const session = new Configuration().newSession(new DataSource({ nodes: ["http://e"], fetch: new Engine().fetch }));
   * await session.jdbc().execute('PUT /users {"mappings": {"properties": {"name": {"type": "keyword"}}}}');
   * const ops = session.indexOps(User);
   * assert.deepEqual(await ops.drift(), [{ kind: "missing", path: "age", expected: "integer" }]);
   * assert.deepEqual(await ops.putMapping(), []);
   * ```
   */
  async putMapping(): Promise<MappingDrift[]> {
    await this.#jdbc.execute({
      text: "PUT /{?}/_mapping ?",
      args: [this.index, this.definition().mappings],
    });
    return await this.drift();
  }
}
