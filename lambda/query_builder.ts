// The query builder: conditions plus projection, order and paging; compiled to `_search` or
// `_count` and read as entities, maps, a count or a page.

import {
  IllegalStateError,
  IncorrectResultSizeError,
  type ResultSet,
  type StreamOptions,
} from "../driver/mod.ts";
import { type BoundTemplate, type Page, PageResult } from "../template/mod.ts";
import { mapResultSet, withMeta } from "../template/internal.ts";
import { compileCount, compileSearch, type ExactResolver, type SortKey } from "./compiler.ts";
import { Conditions, type FieldPath } from "./conditions.ts";
import { resolverOf, type ToCommandOptions } from "./field_types.ts";
import { type Clauses, type ConditionNode, NO_CLAUSES } from "./nodes.ts";
import { type ExactNeeds, exactNeedsOf, type Runtime } from "./_runtime.ts";
import { columnOf, type Target } from "./target.ts";
import { docOfRow, readDocs } from "./_hits.ts";
import { countShape, keptShape, searchShape, type Shape } from "./_shapes.ts";
import {
  checkKnnOptions,
  checkVector,
  type KnnOptions,
  knnRanksBy,
  type VectorMetric,
  type VectorOrder,
  type VectorSearch,
} from "./vectors.ts";

/** The most hits one un-paged request returns (Elasticsearch's default `max_result_window`). */
export const MAX_UNPAGED = 10_000;

interface QueryState {
  readonly select?: readonly string[];
  readonly sort: readonly SortKey[];
  readonly page?: { readonly from: number; readonly size: number; readonly page?: Page };
  readonly vector?: VectorOrder;
  readonly knn?: KnnOptions;
}

/** A compiled search command and what it depends on beyond the (immutable) builder. */
interface KeptCommand {
  readonly needs: ExactNeeds;
  readonly resolver: ExactResolver;
  readonly size: number | undefined;
  readonly vectors: readonly string[] | undefined;
  readonly bound: BoundTemplate;
  /** Whether `bound` (and its arguments) is frozen yet: when it is first sent again. */
  frozen: boolean;
}

/**
 * A kept command, if what it was compiled with still holds (the same resolver); null when it
 * does not, undefined when that needs I/O to tell. Sent again as it is, it is frozen from then on
 * (a builder read once never pays for that).
 */
function sentAgain(
  runtime: Runtime,
  index: string,
  kept: KeptCommand,
): BoundTemplate | null | undefined {
  const resolver = runtime.resolverNow(index, kept.needs);
  if (resolver === undefined) return undefined;
  if (resolver !== kept.resolver) return null;
  if (!kept.frozen) {
    freezeCommand(kept.bound);
    kept.frozen = true;
  }
  return kept.bound;
}

/** What a command is made from: its shape (if it has one), its exact needs and its compiler. */
interface CommandParts {
  readonly index: string;
  readonly shape: Shape | undefined;
  readonly needs: () => ExactNeeds;
  readonly compile: (resolver: ExactResolver) => BoundTemplate;
}

/**
 * A command with the text its shape was given by an earlier builder, bound with this one's
 * values, else compiled (and its text given to the shape); undefined when it needs I/O first.
 */
function shapedCommand(
  runtime: Runtime,
  parts: CommandParts,
): { needs: ExactNeeds; resolver: ExactResolver; bound: BoundTemplate } | undefined {
  const { shape } = parts;
  const shared = shape === undefined ? undefined : keptShape(shape.key, parts.needs);
  const needs = shared?.needs ?? parts.needs();
  const resolver = runtime.resolverNow(parts.index, needs);
  if (resolver === undefined) return undefined;
  const text = shared?.texts.get(resolver);
  if (text !== undefined) return { needs, resolver, bound: { text, args: shape!.args } };
  const bound = parts.compile(resolver);
  shared?.texts.set(resolver, bound.text);
  return { needs, resolver, bound };
}

/** A kept command sent again: it and its argument list frozen. */
function freezeCommand(bound: BoundTemplate): void {
  Object.freeze(bound.args);
  Object.freeze(bound);
}

const NO_STATE: QueryState = Object.freeze({ sort: Object.freeze([]) });

/**
 * A query on an index: conditions, `select`, `orderBy`, paging, then `queryForList`,
 * `queryForObject`, `queryForMap`, `queryForMapList`, `queryForCount`, `queryForPage` or
 * `stream`. Immutable: each call returns a new builder, so a base query can be reused.
 *
 * Without paging a query asks for up to {@linkcode MAX_UNPAGED} hits and fails, rather than
 * silently returning part of the answer, when more documents match; page with `usePage` /
 * `initPage` or iterate with `stream()`.
 *
 * @example
 * ```ts
 * import { LambdaTemplate } from "@searchvisitor/searchvisitor/lambda";
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const lambda = new LambdaTemplate(new DataSource("http://127.0.0.1:9200"));
 * const q = lambda.query("users").like("name", "ali%").orderBy("age", "desc").initPage(10, 2);
 * assert.deepEqual(q.toCommand(), {
 *   text: 'POST /{?}/_search {"query":{"bool":{"filter":[{"prefix":{"name":{"value":?}}}]}},"sort":[{"age":{"order":"desc"}}],"from":?,"size":?,"track_total_hits":true}',
 *   args: ["users", "ali", 20, 10],
 * });
 * ```
 */
export class QueryBuilder<T> extends Conditions<T> {
  readonly #runtime: Runtime;
  readonly #state: QueryState;
  /** The where tree, once made. */
  #tree: ConditionNode | null | undefined;
  /** The last search command compiled for a read, and what it was compiled with. */
  #kept: KeptCommand | undefined;
  /** The same for `queryForCount`. */
  #keptCount: KeptCommand | undefined;

  /**
   * Builders come from `LambdaTemplate.query`.
   *
   * @ignore
   */
  constructor(runtime: Runtime, target: Target, clauses: Clauses = NO_CLAUSES, state = NO_STATE) {
    super(target, clauses);
    this.#runtime = runtime;
    this.#state = state;
  }

  #with(state: Partial<QueryState>): this {
    return new QueryBuilder<T>(
      this.#runtime,
      this.target,
      this.clauses,
      Object.freeze({ ...this.#state, ...state }),
    ) as this;
  }

  /**
   * A copy with another where-state.
   *
   * @ignore
   */
  protected override withClauses(clauses: Clauses): this {
    return new QueryBuilder<T>(this.#runtime, this.target, clauses, this.#state) as this;
  }

  /**
   * Return only these fields of each document (`_source` filtering); replaces earlier calls, and
   * `select()` with no field returns whole documents again.
   */
  select(...fields: FieldPath<T>[]): this {
    if (fields.length === 0) return this.#with({ select: undefined });
    return this.#with({
      select: Object.freeze(fields.map((f) => columnOf(this.target, f, "select"))),
    });
  }

  /** Sort by `field`, ascending unless `"desc"`; later calls add further keys. */
  orderBy(field: FieldPath<T>, order: "asc" | "desc" = "asc"): this {
    if (order !== "asc" && order !== "desc") {
      throw new TypeError(`orderBy(${JSON.stringify(field)}): the order must be "asc" or "desc"`);
    }
    const key: SortKey = Object.freeze({ field: columnOf(this.target, field, "orderBy"), order });
    return this.#with({ sort: Object.freeze([...this.#state.sort, key]) });
  }

  #vectorOrder(method: string, metric: VectorMetric, field: string, vector: ArrayLike<number>) {
    if (this.#state.vector !== undefined) {
      throw new TypeError(
        `${method}(${JSON.stringify(field)}): the query is already ordered by vector similarity`,
      );
    }
    const order: VectorOrder = Object.freeze({
      metric,
      field: columnOf(this.target, field, method),
      vector: checkVector(method, field, vector),
    });
    return this.#with({ vector: order });
  }

  /**
   * Nearest first by L2 distance to `vector`: the k nearest documents matching the conditions
   * (see {@linkcode knnOptions}). Similarity is the primary order; `orderBy` keys break ties.
   */
  orderByL2(field: FieldPath<T>, vector: ArrayLike<number>): this {
    return this.#vectorOrder("orderByL2", "l2", field, vector);
  }

  /** Nearest first by cosine similarity to `vector` (the k nearest; see `orderByL2`). */
  orderByCosine(field: FieldPath<T>, vector: ArrayLike<number>): this {
    return this.#vectorOrder("orderByCosine", "cosine", field, vector);
  }

  /** Largest inner product with `vector` first (the k nearest; see `orderByL2`). */
  orderByIP(field: FieldPath<T>, vector: ArrayLike<number>): this {
    return this.#vectorOrder("orderByIP", "ip", field, vector);
  }

  /** Smallest Hamming distance to `vector` first (byte vectors; always an exact `script_score`). */
  orderByHamming(field: FieldPath<T>, vector: ArrayLike<number>): this {
    return this.#vectorOrder("orderByHamming", "hamming", field, vector);
  }

  /**
   * `k` (how many nearest documents; default from + size of the page, or 10) and
   * `numCandidates` (per shard; default 1.5 × k) of a vector order.
   */
  knnOptions(options: KnnOptions): this {
    return this.#with({ knn: checkKnnOptions(options) });
  }

  /**
   * Read the page `page` describes (`from` = first record position, `size` = page size; a size of
   * 0 means no paging), as it is now: move the page (`nextPage()`) and call `usePage` again for the
   * next one. After a read, the page's `totalCount` is set from the exact hit total.
   */
  usePage(page: Page): this {
    const size = page.getPageSize();
    if (size <= 0) return this.#with({ page: undefined });
    return this.#with({
      page: Object.freeze({ from: page.getFirstRecordPosition(), size, page }),
    });
  }

  /** Read page `pageNumber` (zero-based unless `offset` says otherwise) of `pageSize` hits. */
  initPage(pageSize: number, pageNumber: number, offset = 0): this {
    return this.usePage(PageResult.of(pageNumber, pageSize, offset));
  }

  #spec(size?: number, plan?: { dialect: VectorSearch["dialect"]; similarity?: string }) {
    const page = this.#state.page;
    // Absent parts are undefined (the compiler reads them so), not spread in: one object.
    const spec = {
      index: this.target.index,
      where: this.#where(),
      source: this.#state.select,
      sort: this.#state.sort,
      versions: this.target.version,
      from: page && size === undefined ? page.from : undefined,
      size: size ?? page?.size ?? MAX_UNPAGED,
    };
    const order = this.#state.vector;
    if (order === undefined) return spec;
    // The k nearest: the page's end, or 10; an explicit k wins.
    const from = page && size === undefined ? page.from : 0;
    const k = this.#state.knn?.k ?? (page ? from + page.size : size ?? 10);
    const similarity = plan?.similarity;
    const dialect = plan === undefined || knnRanksBy(order.metric, similarity)
      ? plan?.dialect ?? "knn"
      : "script";
    const vector: VectorSearch = {
      order,
      k,
      dialect: order.metric === "hamming" ? "script" : dialect,
      ...(plan?.dialect === "opensearch" ? { openSearch: true } : {}),
      ...(this.#state.knn?.numCandidates !== undefined
        ? { numCandidates: Math.max(this.#state.knn.numCandidates, k) }
        : {}),
    };
    return { ...spec, size: Math.max(0, Math.min(spec.size, k - from)), vector };
  }

  /**
   * The `_search` command this query sends: text and arguments, without any I/O. The same builder
   * gives the same command every time.
   */
  toCommand(options?: ToCommandOptions): BoundTemplate {
    const order = this.#state.vector;
    const plan = order === undefined ? undefined : {
      dialect: options?.vectorDialect ?? "knn",
      ...(options?.mapping?.get(order.field)?.similarity !== undefined
        ? { similarity: options.mapping.get(order.field)!.similarity }
        : {}),
    };
    return compileSearch(
      this.#spec(undefined, plan),
      resolverOf(options, this.#runtime.knownTypes(this.target.index)),
    );
  }

  /** The `_count` command of `queryForCount()`: the query only (no paging, order or projection). */
  toCountCommand(options?: ToCommandOptions): BoundTemplate {
    return compileCount(
      this.target.index,
      this.where,
      resolverOf(options, this.#runtime.knownTypes(this.target.index)),
    );
  }

  /**
   * The search command, compiled once per builder and kept while what it was compiled with holds
   * (the same exact-field resolver, i.e. the same read mapping, the same size and vector fields):
   * the same builder run again sends the same text object, which the driver's parse cache finds
   * by identity, and the same (frozen) arguments. Undefined when the command needs I/O first (a
   * mapping to read, a server dialect to ask, a vector order), which the async path does.
   */
  #commandNow(size: number | undefined): BoundTemplate | undefined {
    if (this.#state.vector !== undefined) return undefined;
    const index = this.target.index;
    let vectors: readonly string[] | undefined;
    if (this.target.type !== undefined && this.#state.select === undefined) {
      vectors = this.#runtime.vectorFieldsNow(index);
      if (vectors === undefined) return undefined;
    }
    const kept = this.#kept;
    if (kept !== undefined && kept.size === size && kept.vectors === vectors) {
      const again = sentAgain(this.#runtime, index, kept);
      if (again !== null) return again;
    }
    // The builder's first read (or another size or mapping): the text its shape was given by an
    // earlier builder, bound with this one's values, else a compile.
    const plain = this.#spec(size);
    const spec = vectors === undefined || vectors.length === 0
      ? plain
      : { ...plain, source: ["*", ...vectors] };
    const made = shapedCommand(this.#runtime, {
      index,
      shape: searchShape(spec),
      needs: () => exactNeedsOf(spec.where, spec.sort),
      compile: (resolver) => compileSearch(spec, resolver),
    });
    if (made === undefined) return undefined;
    this.#kept = { ...made, size, vectors, frozen: false };
    return made.bound;
  }

  /** `#commandNow` for the `_count` of `queryForCount`. */
  #countNow(): BoundTemplate | undefined {
    const index = this.target.index;
    const kept = this.#keptCount;
    if (kept !== undefined) {
      const again = sentAgain(this.#runtime, index, kept);
      if (again !== null) return again;
    }
    const where = this.#where();
    const made = shapedCommand(this.#runtime, {
      index,
      shape: countShape(index, where),
      needs: () => exactNeedsOf(where, []),
      compile: (resolver) => compileCount(index, where, resolver),
    });
    if (made === undefined) return undefined;
    this.#keptCount = { ...made, size: undefined, vectors: undefined, frozen: false };
    return made.bound;
  }

  /** The where tree, made once per builder (its clauses never change). */
  #where(): ConditionNode | null {
    if (this.#tree === undefined) this.#tree = this.where;
    return this.#tree;
  }

  #search<R>(size: number | undefined, read: (rs: ResultSet, text: string) => R) {
    const bound = this.#commandNow(size);
    if (bound === undefined) return this.#searchAsync(size, read);
    return this.#runtime.jdbc.query(bound, undefined, {
      extractor: (rs) => ({ rows: read(rs, bound.text), total: rs.total, text: bound.text }),
    });
  }

  async #searchAsync<R>(size: number | undefined, read: (rs: ResultSet, text: string) => R) {
    const order = this.#state.vector;
    let bound: BoundTemplate | undefined;
    if (order === undefined) {
      // Read what the command needs (the mapping), then compile it as a kept command.
      const index = this.target.index;
      await this.#runtime.resolver(index, this.#where(), this.#state.sort);
      if (this.target.type !== undefined && this.#state.select === undefined) {
        await this.#runtime.vectorFields(index);
      }
      bound = this.#commandNow(size);
    }
    if (bound === undefined) {
      const plan = order === undefined
        ? undefined
        : await this.#runtime.vectorPlan(this.target.index, order.field);
      const spec = await this.#withVectors(this.#spec(size, plan));
      const resolver = await this.#runtime.resolver(spec.index, spec.where, spec.sort);
      bound = compileSearch(spec, resolver);
    }
    const text = bound.text;
    return await this.#runtime.jdbc.query(bound, undefined, {
      extractor: (rs) => ({ rows: read(rs, text), total: rs.total, text }),
    });
  }

  /**
   * An entity read without `select` names the index's `dense_vector` fields beside `*` in
   * `_source`: Elasticsearch 9 leaves vectors out of `_source` unless they are named (an
   * explicit include is understood by every backend, unlike `_source_exclude_vectors`).
   */
  async #withVectors<S extends { source?: readonly string[] }>(spec: S): Promise<S> {
    if (this.target.type === undefined || spec.source !== undefined) return spec;
    const vectors = await this.#runtime.vectorFields(this.target.index);
    return vectors.length === 0 ? spec : { ...spec, source: ["*", ...vectors] };
  }

  #rows(rs: ResultSet, text: string): T[] {
    const type = this.target.type;
    return type ? mapResultSet(rs, type, text) as T[] : readDocs(rs) as T[];
  }

  #checkComplete(count: number, total: number | undefined, text: string): void {
    // A vector order asks for the k nearest: fewer than the matches is the answer, not a cut.
    if (
      this.#state.page === undefined && this.#state.vector === undefined && total !== undefined &&
      total > count
    ) {
      throw new IllegalStateError(
        `The query matched ${total} documents, more than the ${MAX_UNPAGED} one request returns; page with usePage()/initPage() or iterate with stream()`,
        { command: text },
      );
    }
  }

  /**
   * Every matching document: entities for an entity class, documents (with `_id`) for an index
   * name. `listMeta(list)` gives the search's `total`, `took`, `aggregations` and `raw`.
   */
  async queryForList(): Promise<T[]> {
    const r = await this.#search(undefined, (rs, text) => withMeta(this.#rows(rs, text), rs));
    this.#checkComplete(r.rows.length, r.total?.value, r.text);
    this.#state.page?.page?.setTotalCount(r.total?.value ?? r.rows.length);
    return r.rows;
  }

  /** Every matching document as a plain map: the document fields plus `_id`. */
  async queryForMapList(): Promise<Record<string, unknown>[]> {
    const r = await this.#search(undefined, (rs) => readDocs(rs));
    this.#checkComplete(r.rows.length, r.total?.value, r.text);
    this.#state.page?.page?.setTotalCount(r.total?.value ?? r.rows.length);
    return r.rows;
  }

  /** The one matching document, or null; more than one is an `IncorrectResultSizeError`. */
  async queryForObject(): Promise<T | null> {
    const r = await this.#search(2, (rs, text) => this.#rows(rs, text));
    if (r.rows.length > 1) {
      throw new IncorrectResultSizeError(1, r.total?.value ?? r.rows.length, { command: r.text });
    }
    return r.rows[0] ?? null;
  }

  /** The one matching document as a map (fields plus `_id`), or null; more than one is an error. */
  async queryForMap(): Promise<Record<string, unknown> | null> {
    const r = await this.#search(2, (rs) => readDocs(rs));
    if (r.rows.length > 1) {
      throw new IncorrectResultSizeError(1, r.total?.value ?? r.rows.length, { command: r.text });
    }
    return r.rows[0] ?? null;
  }

  /** How many documents match: `_count` with the query only, whatever paging or order is set. */
  async queryForCount(): Promise<number> {
    let bound = this.#countNow();
    if (bound === undefined) {
      // Read what the command needs (the mapping), then compile it as a kept command.
      const resolver = await this.#runtime.resolver(this.target.index, this.#where(), []);
      bound = this.#countNow() ?? compileCount(this.target.index, this.#where(), resolver);
    }
    const n = await this.#runtime.jdbc.queryForNumber(bound);
    return n === null ? 0 : Number(n);
  }

  /**
   * Every matching document, in order, fetched page by page (`pageSize` hits a request, default
   * the page size set by `usePage`/`initPage`, else 1000) over a point in time with `search_after`
   * (a scroll where the server has no point in time). The point in time is always closed: when the
   * hits run out, on an error, and when the loop stops early (`break`, `return`, a throw). Paging's
   * `from` does not apply; conditions, `select` and `orderBy` do. Nothing is sent until iteration
   * starts. One implementation with `JdbcTemplate.stream`, which this runs on.
   *
   * @param options `pageSize`, `keepAlive` (default `"1m"`), `mode` and `signal`.
   * @returns An async generator of entities (or documents with `_id` for an index name).
   * @example
   * ```ts
   * import { LambdaTemplate } from "@searchvisitor/searchvisitor/lambda";
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { Engine } from "@searchvisitor/searchvisitor/engine";
   * import assert from "node:assert/strict";
   *
   * const engine = new Engine();
   * const lambda = new LambdaTemplate(new DataSource({ nodes: ["http://engine"], fetch: engine.fetch }));
   * await lambda.insert("nums").applyMap([1, 2, 3, 4, 5].map((n) => ({ _id: `n${n}`, n }))).executeSumResult();
   * const seen: unknown[] = [];
   * for await (const doc of lambda.query("nums").ge("n", 2).orderBy("n").stream({ pageSize: 2 })) {
   *   seen.push(doc.n);
   *   if (doc.n === 4) break; // the point in time is closed here too
   * }
   * assert.deepEqual(seen, [2, 3, 4]);
   * engine.close();
   * ```
   */
  async *stream(options: StreamOptions = {}): AsyncGenerator<T, void, undefined> {
    if (this.#state.vector !== undefined) {
      throw new TypeError(
        "stream() reads every match; a vector order reads the k nearest: use queryForList()",
      );
    }
    const pageSize = options.pageSize ?? this.#state.page?.size ?? 1000;
    // No total needed: pages only.
    const spec = { ...await this.#withVectors(this.#spec(pageSize)), trackTotal: false };
    const resolver = await this.#runtime.resolver(spec.index, spec.where, spec.sort);
    const bound = compileSearch(spec, resolver);
    const opts = { ...options, pageSize };
    const type = this.target.type;
    if (type !== undefined) {
      yield* this.#runtime.jdbc.stream(bound, undefined, type, opts) as AsyncGenerator<T>;
      return;
    }
    for await (const row of this.#runtime.jdbc.stream(bound, undefined, opts)) {
      yield docOfRow(row) as T;
    }
  }

  /**
   * One page and the total, from one request: a `PageResult` with the rows in `data` and
   * `totalCount` set (the page set by `usePage`/`initPage`, or everything when none is set).
   */
  async queryForPage(): Promise<PageResult<T>> {
    const r = await this.#search(undefined, (rs, text) => this.#rows(rs, text));
    this.#checkComplete(r.rows.length, r.total?.value, r.text);
    const page = this.#state.page;
    const result = page?.page
      ? PageResult.of(page.page, r.rows)
      : PageResult.of(PageResult.of(0, page?.size ?? 0), r.rows);
    result.setTotalCount(r.total?.value ?? r.rows.length);
    page?.page?.setTotalCount(result.getTotalCount());
    return result;
  }
}
