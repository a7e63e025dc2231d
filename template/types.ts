// The shapes JdbcTemplate and its callers share: arguments, commands, rows, row handlers, lists.

import type { Aggregations, HitMeta, ResultSet } from "../driver/mod.ts";
import type { BoundTemplate } from "./named_binding.ts";

/**
 * Positional arguments (an array, for `?`/`{?}`) or named arguments (an object, for `#{…}`,
 * `${…}` and rules).
 *
 * @example
 * ```ts
 * import { type Args, bindTemplate } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const positional: Args = ["1"];
 * const named: Args = { id: "1" };
 * assert.deepEqual(bindTemplate("GET /u/_doc/{?}", positional), bindTemplate("GET /u/_doc/#{id}", named));
 * ```
 */
export type Args = readonly unknown[] | object;

/**
 * A command: template text, or a command already bound by `bindTemplate` / `jdbc.bind`.
 *
 * @example
 * ```ts
 * import { bindTemplate, type Command } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const text: Command = "POST /u/_count";
 * const bound: Command = bindTemplate("GET /u/_doc/#{id}", { id: "1" });
 * assert.equal(typeof text, "string");
 * assert.equal(typeof bound, "object");
 * ```
 */
export type Command = string | BoundTemplate;

/**
 * One row as a map from column name (`_ID`, `_DOC`, `COUNT`, `STATUS`, …) to value.
 *
 * @example
 * ```ts
 * import type { RowMap } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const row: RowMap = { _ID: "1", _DOC: '{"name":"alice"}' };
 * assert.equal(JSON.parse(row._DOC as string).name, "alice");
 * ```
 */
export type RowMap = Record<string, unknown>;

/**
 * Turns the current row of a result set into a value. `rowNum` is 0-based.
 *
 * @example
 * ```ts
 * import type { RowMapper } from "@searchvisitor/searchvisitor/template";
 * import { ResultSet } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const idOf: RowMapper<string> = (rs, n) => `${n}:${rs.getString("_ID")}`;
 * const rs = new ResultSet(["_ID", "_DOC"], [["a", "{}"]]);
 * rs.next();
 * assert.equal(idOf(rs, 0), "0:a");
 * ```
 */
export type RowMapper<T> = (rs: ResultSet, rowNum: number) => T;

/**
 * Reads a whole result set (it calls `rs.next()` itself).
 *
 * @example
 * ```ts
 * import type { ResultSetExtractor } from "@searchvisitor/searchvisitor/template";
 * import { ResultSet } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const ids: ResultSetExtractor<string[]> = (rs) => {
 *   const out: string[] = [];
 *   while (rs.next()) out.push(rs.getString("_ID")!);
 *   return out;
 * };
 * assert.deepEqual(ids(new ResultSet(["_ID"], [["a"], ["b"]])), ["a", "b"]);
 * ```
 */
export type ResultSetExtractor<T> = (rs: ResultSet) => T | Promise<T>;

/**
 * Sees each row in turn, returning nothing. `rowNum` is 0-based.
 *
 * @example
 * ```ts
 * import type { RowCallback } from "@searchvisitor/searchvisitor/template";
 * import { ResultSet } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const seen: number[] = [];
 * const callback: RowCallback = (_rs, n) => void seen.push(n);
 * const rs = new ResultSet(["_ID"], [["a"], ["b"]]);
 * for (let n = 0; rs.next(); n++) callback(rs, n);
 * assert.deepEqual(seen, [0, 1]);
 * ```
 */
export type RowCallback = (rs: ResultSet, rowNum: number) => void;

/**
 * What a search answered beside its rows: `hits.total`, `took`, typed `aggregations` and the
 * `raw` response. Every list the template, the lambda and the mappers return is a plain array
 * of rows; `listMeta(list)` gives this for it.
 *
 * @example
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { JdbcTemplate, type ListMeta, listMeta } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const fetch = () => Promise.resolve(Response.json({ took: 4, hits: { total: { value: 99, relation: "gte" }, hits: [] } }));
 * const jdbc = new JdbcTemplate(new DataSource({ nodes: ["http://es.local"], fetch }));
 * const rows = await jdbc.queryForList('POST /u/_search {"size": 0}');
 * assert.deepEqual(rows, []);
 * const meta: ListMeta = listMeta(rows);
 * assert.deepEqual(meta.total, { value: 99, relation: "gte" });
 * assert.equal(meta.took, 4);
 * ```
 */
export interface ListMeta {
  /** `hits.total` of a search, or null. */
  readonly total: { value: number; relation: "eq" | "gte" } | null;
  /** `took` in milliseconds, or null. */
  readonly took: number | null;
  /** The `aggregations` of a search by name, or undefined. */
  readonly aggregations: Aggregations | undefined;
  /** The parsed response, as sent (integers beyond 2^53 as bigint). */
  readonly raw: unknown;
}

/**
 * One hit with its metadata: the row map or entity as `doc`, beside the hit's `score`, `sort`
 * values, `highlight`, `matchedQueries`, `innerHits`, `index`, `version`, `seqNo` and
 * `primaryTerm` (what `JdbcTemplate.queryForHits` and `streamHits` give).
 *
 * @example
 * ```ts
 * import type { Hit } from "@searchvisitor/searchvisitor/template";
 * import { readHitMeta } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * class User { name = ""; }
 * const hit: Hit<User> = { ...readHitMeta({ _id: "1", _score: 2 }), doc: Object.assign(new User(), { name: "a" }) };
 * assert.equal(hit.doc.name, "a");
 * assert.equal(hit.score, 2);
 * ```
 */
export type Hit<T> = HitMeta & {
  /** The row map (`_ID`, `_DOC`) or the mapped entity. */
  readonly doc: T;
};
