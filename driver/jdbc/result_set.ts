/**
 * The rows a command produced, read JDBC-style with a forward-only cursor (typed getters, the
 * current hit's metadata), or all at once as plain objects, with the metadata dbVisitor threw
 * away (`total`, `took`, `aggregations`, `raw`).
 *
 * @module
 */

import { IllegalStateError, type ShardFailures } from "../errors.ts";
import { cellValue, docRow, JsonCell, jsonText } from "./_json_cell.ts";
import { parseExactJson } from "../wire/_exact_json.ts";
import { NO_WARNINGS, warningsOfHeaders } from "../wire/_warnings.ts";
import { ColumnTypeError, toBoolean, toDate, toDouble, toInt, toLong } from "./cell_types.ts";
import { type HitMeta, hitsOf, readHitMeta } from "./hit_meta.ts";
import type { Aggregations } from "./aggregations.ts";

/**
 * A column given by its label (exact, then case-insensitive) or its 1-based index.
 *
 * @example
 * ```ts
 * import { type ColumnRef, ResultSet } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const rs = new ResultSet(["COUNT"], [[5]]);
 * rs.next();
 * const refs: ColumnRef[] = ["COUNT", "count", 1];
 * assert.deepEqual(refs.map((c) => rs.getNumber(c)), [5, 5, 5]);
 * ```
 */
export type ColumnRef = string | number;

/**
 * `hits.total` of a search, normalised (a bare number from ES 6 becomes `relation: "eq"`).
 *
 * @example
 * ```ts
 * import { ResultSet, type TotalHits } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const total: TotalHits = { value: 10000, relation: "gte" };
 * assert.equal(new ResultSet([], [], { total }).total?.relation, "gte");
 * ```
 */
export interface TotalHits {
  /** The number of hits counted. */
  value: number;
  /** `"eq"` when exact, `"gte"` when counting stopped at the threshold. */
  relation: "eq" | "gte";
}

/**
 * The metadata a result set carries beside its rows.
 *
 * @example
 * ```ts
 * import { ResultSet, type ResultSetMeta } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const meta: ResultSetMeta = { took: 3, scrollId: "c2Nyb2xs", aggregations: { n: { value: 1 } } };
 * const rs = new ResultSet(["_ID"], [], meta);
 * assert.equal(rs.took, 3);
 * assert.equal(rs.scrollId, "c2Nyb2xs");
 * ```
 */
export interface ResultSetMeta {
  /**
   * Columns whose numbers are epoch **seconds**, not milliseconds (`_cat`'s `EPOCH`,
   * `START_EPOCH`, `END_EPOCH`): `getDate` honours the unit.
   */
  epochSeconds?: readonly string[];
  /** `hits.total`, or null when the response had none. */
  total?: TotalHits | null;
  /** `took` in milliseconds, or null. */
  took?: number | null;
  /** `aggregations` of a search, as sent. */
  aggregations?: unknown;
  /** The parsed response (for `_msearch`, the sub-response). */
  raw?: unknown;
  /** `_scroll_id`, when the search opened a scroll. */
  scrollId?: string;
  /** `pit_id` (or the `id` of an opened point in time). */
  pitId?: string;
  /** Deprecation warnings the server sent in `Warning` headers. */
  warnings?: readonly string[];
  /**
   * The response headers: without `warnings`, the result set reads the `Warning` headers from
   * them when its `warnings` are first asked for.
   */
  headers?: Headers;
  /** The raw hit (or fetched document) behind each row, in row order, for the hit getters. */
  hits?: readonly unknown[];
  /** The failed shards of a partial search answer read with `allow_partial_search_results=true`. */
  shardFailures?: ShardFailures;
}

/** Column label (and its lower case) to 0-based index; the first of equal labels wins. */
function labelsOf(columns: readonly string[]): Map<string, number> {
  const byLabel = new Map<string, number>();
  columns.forEach((c, i) => {
    if (!byLabel.has(c)) byLabel.set(c, i);
    const lower = c.toLowerCase();
    if (!byLabel.has(lower)) byLabel.set(lower, i);
  });
  return byLabel;
}

/**
 * The columns of a search's rows, `_ID`, `_DOC`: one frozen list that the driver's mapping
 * hands every search (no list per result). Not part of the public API.
 */
export const DOC_COLUMNS: readonly string[] = Object.freeze(["_ID", "_DOC"]);

/**
 * Given as the rows of a `_ID`, `_DOC` result set whose `meta.hits` are all objects (a search
 * answer, read by the driver): the rows are read from the hits when first needed, and
 * `toArray()` makes each row object straight from its hit, in one pass, without building a
 * row of cells first. Not part of the public API.
 */
export const ROWS_OF_HITS: readonly (readonly unknown[])[] = Object.freeze([]);
const DOC_LABELS: ReadonlyMap<string, number> = labelsOf(DOC_COLUMNS);

/**
 * The `_ID`, `_DOC` row object of a search hit, as `toArray()` and the row maps give it: the id
 * as text ("" when absent), the source as compact JSON text (null when it is no object).
 * Not part of the public API.
 *
 * @param hit A hit of a search answer.
 * @returns Its row object.
 */
export function rowOfHit(hit: Record<string, unknown>): Record<string, unknown> {
  const id = hit._id;
  const source = hit._source;
  return {
    _ID: typeof id === "string" ? id : id === undefined || id === null ? "" : String(id),
    _DOC: source !== null && typeof source === "object" ? jsonText(source) : null,
  };
}

let takeHits: (rs: ResultSet) => readonly Record<string, unknown>[] | undefined;

/**
 * The hits behind the remaining rows of a search's result set (the rows after the cursor), with
 * the cursor moved past them: what a `while (rs.next())` loop over `getObject("_ID")`,
 * `getJson("_DOC")` and `getHit()` reads, in one pass over the hits instead of a row of cells
 * made per hit and read back cell by cell. Undefined for a result set whose rows are not a
 * search's hits (read those with the cursor). Not part of the public API.
 *
 * @param rs A result set.
 * @returns The remaining hits (objects, as the answer holds them), or undefined.
 * @throws {IllegalStateError} When the result set is closed.
 */
export function takeDocHits(rs: ResultSet): readonly Record<string, unknown>[] | undefined {
  return takeHits(rs);
}

/**
 * A buffered, forward-only result set. `next()` moves the cursor; the getters read the current
 * row. Iteration and `toArray()` give every row as a plain object keyed by column label and do
 * not move the cursor.
 *
 * @example Read rows with the cursor and as objects
 * ```ts
 * import { ResultSet } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const rs = new ResultSet(["_ID", "_DOC"], [["1", '{"name":"alice"}'], ["2", null]], {
 *   total: { value: 2, relation: "eq" },
 * });
 * assert.equal(rs.next(), true);
 * assert.equal(rs.getString("_ID"), "1");
 * assert.equal(rs.getString(2), '{"name":"alice"}');
 * assert.equal(rs.next(), true);
 * assert.equal(rs.getString("_DOC"), null);
 * assert.equal(rs.wasNull(), true);
 * assert.equal(rs.next(), false);
 * assert.deepEqual(rs.toArray()[0], { _ID: "1", _DOC: '{"name":"alice"}' });
 * assert.equal(rs.total?.value, 2);
 * ```
 */
export class ResultSet implements Iterable<Record<string, unknown>> {
  /** `hits.total`, or null. */
  readonly total: TotalHits | null;
  /** `took` in milliseconds, or null. */
  readonly took: number | null;
  /** `aggregations` of a search, by name (undefined when there were none). */
  readonly aggregations: Aggregations | undefined;
  /** The parsed response. */
  readonly raw: unknown;
  /** `_scroll_id`, when present. */
  readonly scrollId?: string;
  /** The point-in-time id, when present. */
  readonly pitId?: string;
  /** The warnings, or the headers to read them from when first asked for (see `warnings`). */
  #warnings: readonly string[] | Headers;
  /**
   * What a partial search answer lacks: set only when some shards failed and the search's path
   * allowed it (`allow_partial_search_results=true`); without that such an answer is a
   * `PartialResultsError`.
   */
  readonly shardFailures?: ShardFailures;
  readonly #columns: readonly string[];
  /** The rows; undefined until first needed when they are read from `#docHits`. */
  #rows: readonly (readonly unknown[])[] | undefined;
  /** The hit objects the rows are read from (see `ROWS_OF_HITS`), else undefined. */
  readonly #docHits: readonly Record<string, unknown>[] | undefined;
  readonly #byLabel: ReadonlyMap<string, number>;
  /** The columns are `_ID`, `_DOC` (a search's): rows become objects by a fixed literal. */
  readonly #docs: boolean;
  #hits: readonly unknown[] | undefined;
  readonly #epochSeconds: ReadonlySet<string> | undefined;
  #fieldColumns = true;
  #fieldNames: readonly string[] | undefined;
  #cursor = -1;
  /** The row `#docCellOfRow` belongs to (see `#docCell`), -1 for none. */
  #docCellRow = -1;
  #docCellOfRow: JsonCell | null = null;
  #wasNull = false;
  #closed = false;

  /**
   * Creates a result set from columns, rows and metadata.
   *
   * @param columns The column labels, in order.
   * @param rows The rows, each an array with one cell per column.
   * @param meta Total hits, took, aggregations, the raw response, scroll and PIT ids.
   */
  constructor(
    columns: readonly string[],
    rows: readonly (readonly unknown[])[],
    meta: ResultSetMeta = {},
  ) {
    this.#docs = columns === DOC_COLUMNS ||
      (columns.length === 2 && columns[0] === "_ID" && columns[1] === "_DOC");
    // The `_ID`, `_DOC` shape of every search shares one frozen copy and one label map.
    this.#columns = this.#docs ? DOC_COLUMNS : [...columns];
    this.#byLabel = this.#docs ? DOC_LABELS : labelsOf(columns);
    if (rows === ROWS_OF_HITS && this.#docs) {
      this.#docHits = (meta.hits ?? []) as readonly Record<string, unknown>[];
    } else this.#rows = rows;
    this.total = meta.total ?? null;
    this.took = meta.took ?? null;
    this.aggregations = meta.aggregations as Aggregations | undefined;
    this.raw = meta.raw;
    if (meta.scrollId !== undefined) this.scrollId = meta.scrollId;
    if (meta.pitId !== undefined) this.pitId = meta.pitId;
    this.#warnings = meta.warnings ?? meta.headers ?? NO_WARNINGS;
    if (meta.shardFailures !== undefined) this.shardFailures = meta.shardFailures;
    this.#hits = meta.hits;
    if (meta.epochSeconds?.length) this.#epochSeconds = new Set(meta.epochSeconds);
  }

  /** `getDate`'s unit for numbers of a column: seconds for the `epochSeconds` columns. */
  #epochUnit(column: ColumnRef): "s" | "ms" {
    if (this.#epochSeconds === undefined) return "ms";
    const label = typeof column === "number" ? this.#columns[column - 1] : column;
    return label !== undefined && this.#epochSeconds.has(label.toUpperCase()) ? "s" : "ms";
  }

  /**
   * Deprecation warnings of the response (empty when there were none): read from its `Warning`
   * headers when first asked for.
   *
   * @returns The messages, in order.
   */
  get warnings(): readonly string[] {
    const warnings = this.#warnings;
    // Not `instanceof Headers`: a fetch adapter's headers may come from another realm.
    return Array.isArray(warnings)
      ? warnings
      : this.#warnings = warningsOfHeaders(warnings as Headers);
  }

  /** How many rows the result set holds. */
  get rowCount(): number {
    return (this.#rows ?? this.#docHits!).length;
  }

  /**
   * Returns the column labels, in order.
   *
   * @returns The column labels, in order.
   */
  getColumns(): string[] {
    return [...this.#columns];
  }

  /**
   * The field columns of a search's rows: every top-level `_source` key, in first-seen order
   * over all rows (dbVisitor's pre-read columns). On `_ID`/`_DOC` rows the getters read them by
   * label — `rs.getInt("age")` — while `getColumns()`, `toArray()` and row maps keep exactly
   * `_ID` and `_DOC`. A row without the key reads null; a label that is no row's key is an error.
   * Empty for other result sets, or after `setFieldColumns(false)`.
   *
   * @returns The field column labels.
   *
   * @example
   * ```ts
   * import { ResultSet } from "@searchvisitor/searchvisitor/driver";
   * import assert from "node:assert/strict";
   *
   * const rs = new ResultSet(["_ID", "_DOC"], [["1", '{"name":"ann","age":41}'], ["2", '{"name":"bo","city":"Oslo"}']]);
   * assert.deepEqual(rs.getFieldColumns(), ["name", "age", "city"]);
   * rs.next();
   * assert.equal(rs.getInt("age"), 41);
   * rs.next();
   * assert.equal(rs.getString("city"), "Oslo");
   * assert.equal(rs.getObject("age"), null);
   * assert.deepEqual(rs.getColumns(), ["_ID", "_DOC"]);
   * assert.throws(() => rs.setFieldColumns(false).getInt("age"), /No column "age"/);
   * ```
   */
  getFieldColumns(): string[] {
    if (!this.#docs || !this.#fieldColumns) return [];
    if (this.#fieldNames === undefined) {
      const names = new Set<string>();
      for (const row of this.#all()) {
        const doc = this.#docOf(row);
        if (doc !== undefined) { for (const key of Object.keys(doc)) names.add(key); }
      }
      this.#fieldNames = [...names];
    }
    return [...this.#fieldNames];
  }

  /**
   * Turns the field columns of search rows (see {@linkcode ResultSet.getFieldColumns}) on (the
   * default) or off (only `_ID` and `_DOC` can be read, like dbVisitor's `preRead=false`).
   *
   * @param enabled Whether `_source` keys can be read as columns.
   * @returns This result set.
   */
  setFieldColumns(enabled: boolean): this {
    this.#fieldColumns = enabled;
    return this;
  }

  #docOf(row: readonly unknown[]): Record<string, unknown> | undefined {
    const cell = row[1];
    let doc: unknown = cell instanceof JsonCell ? cell.value : cell;
    if (typeof doc === "string") {
      try {
        doc = parseExactJson(doc);
      } catch {
        return undefined;
      }
    }
    return doc !== null && typeof doc === "object" && !Array.isArray(doc)
      ? doc as Record<string, unknown>
      : undefined;
  }

  /**
   * Returns the 1-based number of the current row, 0 before the first.
   *
   * @returns The 1-based number of the current row, 0 before the first.
   */
  getRowNumber(): number {
    return Math.min(this.#cursor + 1, this.rowCount + 1);
  }

  /**
   * Moves the cursor to the next row.
   *
   * @returns True when there is a row, false after the last.
   */
  next(): boolean {
    this.#open();
    const count = this.rowCount;
    if (this.#cursor < count) this.#cursor++;
    return this.#cursor < count;
  }

  /**
   * Reads a cell of the current row as stored.
   *
   * @param column A label or a 1-based index.
   * @returns The cell as stored: string, number, boolean or null (JSON columns as text).
   */
  getObject(column: ColumnRef): unknown {
    return cellValue(this.#cell(column));
  }

  /**
   * Reads a cell of the current row as text.
   *
   * @param column A label or a 1-based index.
   * @returns The cell as text (numbers and booleans converted, objects as JSON), or null.
   */
  getString(column: ColumnRef): string | null {
    const value = this.getObject(column);
    if (value === null || value === undefined) return null;
    return typeof value === "object" ? JSON.stringify(value) : String(value);
  }

  /**
   * Reads a cell of the current row as a number.
   *
   * @param column A label or a 1-based index.
   * @returns The cell as a number, or null; text is converted, anything else is an error.
   */
  getNumber(column: ColumnRef): number | null {
    return this.#typed(column, "number", toDouble);
  }

  /**
   * Reads a cell of the current row as a boolean.
   *
   * @param column A label or a 1-based index.
   * @returns The cell as a boolean (`"true"`/`"false"` and 1/0 converted), or null.
   * @throws {ColumnTypeError} When the cell holds anything else.
   */
  getBoolean(column: ColumnRef): boolean | null {
    return this.#typed(column, "boolean", toBoolean);
  }

  /**
   * Reads a cell of the current row as a 32-bit integer (JDBC `getInt`).
   *
   * @param column A label or a 1-based index.
   * @returns The integer, or null.
   * @throws {ColumnTypeError} For text that is no integer, a fraction, or a value beyond 32 bits.
   *
   * @example
   * ```ts
   * import { ColumnTypeError, ResultSet } from "@searchvisitor/searchvisitor/driver";
   * import assert from "node:assert/strict";
   *
   * const rs = new ResultSet(["a", "b", "c"], [[42, "7", 1.5]]);
   * rs.next();
   * assert.equal(rs.getInt("a"), 42);
   * assert.equal(rs.getInt("b"), 7);
   * assert.throws(() => rs.getInt("c"), ColumnTypeError);
   * ```
   */
  getInt(column: ColumnRef): number | null {
    return this.#typed(column, "int", toInt);
  }

  /**
   * Reads a cell of the current row as an exact 64-bit integer (JDBC `getLong`), a `bigint`:
   * integers beyond 2^53 in a response are kept exact, so ids and counters read back digit for
   * digit.
   *
   * @param column A label or a 1-based index.
   * @returns The integer as a bigint, or null.
   * @throws {ColumnTypeError} For a fraction or text that is no integer.
   *
   * @example
   * ```ts
   * import { ResultSet } from "@searchvisitor/searchvisitor/driver";
   * import assert from "node:assert/strict";
   *
   * const rs = new ResultSet(["id", "n"], [[9007199254740993n, "18446744073709551615"]]);
   * rs.next();
   * assert.equal(rs.getLong("id"), 9007199254740993n);
   * assert.equal(rs.getLong("n"), 18446744073709551615n);
   * ```
   */
  getLong(column: ColumnRef): bigint | null {
    return this.#typed(column, "long", toLong);
  }

  /**
   * Reads a cell of the current row as a double (bigints and numeric text converted).
   *
   * @param column A label or a 1-based index.
   * @returns The number, or null.
   * @throws {ColumnTypeError} For text that is no number, or an object.
   */
  getDouble(column: ColumnRef): number | null {
    return this.#typed(column, "double", toDouble);
  }

  /**
   * Reads a cell of the current row as a date: ISO-8601 text or epoch milliseconds (epoch
   * seconds for the columns a server reports in seconds, such as `_cat/count`'s `EPOCH`).
   *
   * @param column A label or a 1-based index.
   * @returns The date, or null.
   * @throws {ColumnTypeError} For anything that is not a valid date.
   *
   * @example
   * ```ts
   * import { ResultSet } from "@searchvisitor/searchvisitor/driver";
   * import assert from "node:assert/strict";
   *
   * const rs = new ResultSet(["at", "ms"], [["2024-05-01T10:00:00Z", 0]]);
   * rs.next();
   * assert.equal(rs.getDate("at")?.toISOString(), "2024-05-01T10:00:00.000Z");
   * assert.equal(rs.getDate("ms")?.getTime(), 0);
   * ```
   */
  getDate(column: ColumnRef): Date | null {
    if (this.#epochUnit(column) === "ms") return this.#typed(column, "date", toDate);
    return this.#typed(column, "date", (v) => {
      const n = typeof v === "string" && /^\s*[-+]?\d+\s*$/.test(v) ? Number(v) : v;
      return toDate(typeof n === "number" || typeof n === "bigint" ? Number(n) * 1000 : v);
    });
  }

  /**
   * Reads a JSON column (such as `_DOC`) as a parsed value, without parsing it again when the
   * driver still holds the parsed form. Do not modify the value: it is shared with `raw`.
   *
   * @param column A label or a 1-based index.
   * @returns The parsed JSON, or null.
   */
  getJson(column: ColumnRef): unknown {
    const cell = this.#cell(column);
    if (cell instanceof JsonCell) return cell.value;
    if (typeof cell === "string") {
      try {
        return parseExactJson(cell);
      } catch (cause) {
        throw new TypeError(`Column ${this.#name(column)} does not hold JSON text`, { cause });
      }
    }
    return cell ?? null;
  }

  /**
   * Returns the metadata of the current hit: score, sort values, highlight, named queries, inner
   * hits, index, version, sequence number and primary term (null where the response had none,
   * and for rows that are not hits).
   *
   * @returns The current hit's metadata.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { Engine } from "@searchvisitor/searchvisitor/engine";
   * import assert from "node:assert/strict";
   *
   * const engine = new Engine();
   * await using conn = await new DataSource({ nodes: ["http://engine"], fetch: engine.fetch }).getConnection();
   * const stmt = conn.createStatement();
   * await stmt.executeUpdate('PUT /notes/_doc/1?refresh=true {"text": "quick brown fox"}');
   * const rs = await stmt.executeQuery(`POST /notes/_search {
   *   "query": {"match": {"text": {"query": "fox", "_name": "fox"}}},
   *   "highlight": {"fields": {"text": {}}}, "seq_no_primary_term": true, "version": true}`);
   * rs.next();
   * const hit = rs.getHit();
   * assert.equal(hit.index, "notes");
   * assert.ok(hit.score! > 0);
   * assert.deepEqual(hit.matchedQueries, ["fox"]);
   * assert.deepEqual(hit.highlight, { text: ["quick brown <em>fox</em>"] });
   * assert.deepEqual([hit.version, hit.seqNo, hit.primaryTerm], [1, 0, 1]);
   * engine.close();
   * ```
   */
  getHit(): HitMeta {
    this.#current();
    // A result set built by hand with only `raw` finds its hits there, once.
    this.#hits ??= hitsOf(this.raw);
    return readHitMeta(this.#hits[this.#cursor]);
  }

  /**
   * Returns the current hit's `_score`, or null (sorted without scores, or not a hit).
   *
   * @returns The score, or null.
   *
   * @example
   * ```ts
   * import { ResultSet } from "@searchvisitor/searchvisitor/driver";
   * import assert from "node:assert/strict";
   *
   * const rs = new ResultSet(["_ID", "_DOC"], [["1", null]], { hits: [{ _id: "1", _score: 0.5 }] });
   * rs.next();
   * assert.equal(rs.getScore(), 0.5);
   * assert.equal(rs.getVersion(), null);
   * ```
   */
  getScore(): number | null {
    return this.getHit().score;
  }

  /**
   * Returns the current hit's sort values (what `search_after` takes), or null.
   *
   * @returns The sort values, or null.
   */
  getSortValues(): readonly unknown[] | null {
    return this.getHit().sort;
  }

  /**
   * Returns the highlighted fragments of one field of the current hit, or of all fields.
   *
   * @param field A field name; omit it for every field.
   * @returns The fragments (empty when none), or every field's fragments (null when none).
   */
  getHighlight(field: string): readonly string[];
  /** Every field's highlighted fragments of the current hit, or null (see the first overload). */
  getHighlight(): Readonly<Record<string, readonly string[]>> | null;
  getHighlight(
    field?: string,
  ): readonly string[] | Readonly<Record<string, readonly string[]>> | null {
    const highlight = this.getHit().highlight;
    return field === undefined ? highlight : highlight?.[field] ?? [];
  }

  /**
   * Returns the names of the named queries the current hit matched.
   *
   * @returns The names (empty when none).
   */
  getMatchedQueries(): readonly string[] {
    return this.getHit().matchedQueries;
  }

  /**
   * Returns the concrete index of the current hit, or null.
   *
   * @returns The index name, or null.
   */
  getIndex(): string | null {
    return this.getHit().index;
  }

  /**
   * Returns the current hit's `_version`, or null (searches need `"version": true`).
   *
   * @returns The version, or null.
   */
  getVersion(): number | null {
    return this.getHit().version;
  }

  /**
   * Returns the current hit's `_seq_no`, or null (searches need `"seq_no_primary_term": true`).
   *
   * @returns The sequence number, or null.
   */
  getSeqNo(): number | null {
    return this.getHit().seqNo;
  }

  /**
   * Returns the current hit's `_primary_term`, or null.
   *
   * @returns The primary term, or null.
   */
  getPrimaryTerm(): number | null {
    return this.getHit().primaryTerm;
  }

  /**
   * Returns the inner hits of the current hit under `name` as their own result set (`_ID`,
   * `_DOC`, with the hit getters and `total`); empty when there are none.
   *
   * @param name The inner hits' name (`inner_hits.name`, or the nested path / child type).
   * @returns The inner hits.
   */
  getInnerHits(name: string): ResultSet {
    const inner = this.getHit().innerHits?.[name] as
      | { hits?: { total?: unknown; hits?: unknown[] } }
      | undefined;
    const hits = Array.isArray(inner?.hits?.hits) ? inner.hits.hits : [];
    const rows = hits.map((h) => {
      const hit = (h ?? {}) as { _id?: unknown; _source?: unknown };
      return docRow(hit._id, hit._source);
    });
    const t = inner?.hits?.total as { value?: unknown; relation?: unknown } | number | undefined;
    const total: TotalHits | null = typeof t === "number"
      ? { value: t, relation: "eq" }
      : typeof t?.value === "number"
      ? { value: t.value, relation: t.relation === "gte" ? "gte" : "eq" }
      : null;
    return new ResultSet(["_ID", "_DOC"], rows, { total, raw: inner, hits });
  }

  /**
   * Returns true when the last getter read a null cell.
   *
   * @returns True when the last getter read a null cell.
   */
  wasNull(): boolean {
    return this.#wasNull;
  }

  /**
   * Returns the current row as a plain object keyed by column label.
   *
   * @returns The current row as a plain object keyed by column label.
   */
  currentRow(): Record<string, unknown> {
    this.#current();
    return this.#object(this.#all()[this.#cursor]!);
  }

  /**
   * Returns every row as a plain object keyed by column label (the cursor does not move).
   *
   * @returns Every row as a plain object keyed by column label (the cursor does not move).
   */
  toArray(): Record<string, unknown>[] {
    const hits = this.#rows === undefined ? this.#docHits! : undefined;
    if (hits === undefined) return this.#rows!.map((row) => this.#object(row));
    // One pass from the hits: no row of cells, no cell object, one row object per hit.
    const out: Record<string, unknown>[] = [];
    for (let i = 0; i < hits.length; i++) out.push(rowOfHit(hits[i]!));
    return out;
  }

  static {
    takeHits = (rs) => {
      rs.#open();
      const hits = rs.#docHits;
      if (hits === undefined) return undefined;
      const from = rs.#cursor + 1;
      if (from >= hits.length) {
        rs.#cursor = hits.length;
        return from === 0 ? hits : [];
      }
      rs.#cursor = hits.length;
      return from === 0 ? hits : hits.slice(from);
    };
  }

  /** Iterates over every row as a plain object (the cursor does not move). */
  *[Symbol.iterator](): Iterator<Record<string, unknown>> {
    for (const row of this.#all()) yield this.#object(row);
  }

  /** Closes the result set; reading it afterwards is an error. */
  close(): void {
    this.#closed = true;
  }

  /**
   * Returns true after `close()`.
   *
   * @returns True after `close()`.
   */
  isClosed(): boolean {
    return this.#closed;
  }

  #object(row: readonly unknown[]): Record<string, unknown> {
    if (this.#docs) return { _ID: cellValue(row[0] ?? null), _DOC: cellValue(row[1] ?? null) };
    const out: Record<string, unknown> = {};
    const columns = this.#columns;
    for (let i = 0; i < columns.length; i++) {
      const column = columns[i]!;
      const value = cellValue(row[i] ?? null);
      // Column names can come from the server (any JSON key): a `__proto__` column must become an
      // own property, not the object's prototype. Plain assignment elsewhere is the fast path.
      if (column === "__proto__") {
        Object.defineProperty(out, column, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else out[column] = value;
    }
    return out;
  }

  #typed<T>(column: ColumnRef, expected: string, convert: (v: unknown) => T | string): T | null {
    const value = this.getObject(column);
    if (value === null || value === undefined) return null;
    const out = convert(value);
    if (typeof out === "string") {
      const label = typeof column === "number" ? this.getColumns()[column - 1] ?? "" : column;
      throw new ColumnTypeError({
        column: label,
        row: this.getRowNumber(),
        expected,
        value,
        hint: out,
      });
    }
    return out;
  }

  /** The rows, read from the hits on first need. */
  #all(): readonly (readonly unknown[])[] {
    return this.#rows ??= this.#docHits!.map((hit) => docRow(hit._id, hit._source));
  }

  #open(): void {
    if (this.#closed) throw new IllegalStateError("The result set is closed");
  }

  #current(): void {
    this.#open();
    if (this.#cursor < 0) {
      throw new IllegalStateError("No current row: call next() before reading the result set");
    }
    if (this.#cursor >= this.rowCount) {
      throw new IllegalStateError("No current row: next() already returned false");
    }
  }

  #cell(column: ColumnRef): unknown {
    this.#current();
    let cell: unknown;
    // `_ID` and `_DOC` of a search's rows (by their exact labels or indexes) are read from the
    // hit itself: no row of cells is made for the whole result set to read two of them.
    const at = !this.#docs
      ? -1
      : column === "_ID" || column === 1
      ? 0
      : column === "_DOC" || column === 2
      ? 1
      : -1;
    if (at !== -1) cell = this.#docCell(at);
    else {
      const row = this.#all()[this.#cursor]!;
      if (typeof column === "string" && this.#isField(column)) {
        const doc = this.#docOf(row);
        const value = doc !== undefined && Object.hasOwn(doc, column) ? doc[column] : null;
        cell = value !== null && typeof value === "object" ? new JsonCell(value) : value ?? null;
      } else cell = row[this.#indexOf(column)] ?? null;
    }
    this.#wasNull = cell === null;
    return cell;
  }

  /**
   * Cell 0 (`_ID`) or 1 (`_DOC`) of the current row of a search's rows: from the row when the
   * rows were made, else from the hit as `docRow` would make it (the `_DOC` cell of the current
   * row kept, so its JSON text is made once however often it is read).
   */
  #docCell(at: 0 | 1): unknown {
    const rows = this.#rows;
    if (rows !== undefined) return rows[this.#cursor]![at] ?? null;
    const hit = this.#docHits![this.#cursor]!;
    if (at === 0) {
      const id = hit._id;
      return id === undefined || id === null ? "" : String(id);
    }
    if (this.#docCellRow !== this.#cursor) {
      const source = hit._source;
      this.#docCellOfRow = source !== null && typeof source === "object"
        ? new JsonCell(source)
        : null;
      this.#docCellRow = this.#cursor;
    }
    return this.#docCellOfRow;
  }

  /** Whether a label names a field column (not `_ID`/`_DOC`, and some row has the key). */
  #isField(column: string): boolean {
    if (!this.#docs || !this.#fieldColumns || this.#byLabel.has(column)) return false;
    if (this.#byLabel.has(column.toLowerCase())) return false;
    return this.getFieldColumns().includes(column);
  }

  #indexOf(column: ColumnRef): number {
    if (typeof column === "number") {
      if (Number.isInteger(column) && column >= 1 && column <= this.#columns.length) {
        return column - 1;
      }
      throw new IllegalStateError(
        `No column ${column}: indexes are 1-based and there are ${this.#columns.length} column(s)`,
      );
    }
    const index = this.#byLabel.get(column) ?? this.#byLabel.get(column.toLowerCase());
    if (index === undefined) {
      const fields = this.getFieldColumns();
      throw new IllegalStateError(
        `No column "${column}"; the columns are ${
          [...this.#columns, ...fields].join(", ") || "(none)"
        }`,
      );
    }
    return index;
  }

  #name(column: ColumnRef): string {
    return typeof column === "number" ? `${column} (${this.#columns[column - 1]})` : `"${column}"`;
  }
}
