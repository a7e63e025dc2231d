// Pagination objects: Page (the contract), PageObject (the arithmetic) and PageResult (a page of
// rows plus its total). Page numbers are stored zero-based; `pageNumberOffset` shifts what callers
// see (1 makes numbering 1-based). A page size of 0 means paging is off.

/**
 * What a page request knows: its size, its number, the number offset and the total when known.
 * {@linkcode PageObject} implements it; the query layers read it to compute `from`/`size`.
 *
 * @example
 * ```ts
 * import { type Page, PageObject } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const page: Page = new PageObject(2, 10);
 * assert.equal(page.getFirstRecordPosition(), 20);
 * ```
 */
export interface Page {
  /** Rows per page; 0 = paging off. */
  pageSize: number;
  /** The current page number, as callers number pages (stored zero-based + the offset). */
  currentPage: number;
  /** The number of the first page (0 or, for 1-based numbering, 1). */
  pageNumberOffset: number;
  /** The total number of rows, when known (0 otherwise). */
  totalCount: number;
  /** The page number one past the last page (see {@linkcode PageObject.getTotalPage}). */
  readonly totalPage: number;
  /** Rows per page; 0 = paging off. */
  getPageSize(): number;
  /** Sets the rows per page; negative values become 0 (paging off). */
  setPageSize(size: number): void;
  /** The current page number, offset applied. */
  getCurrentPage(): number;
  /** Goes to page `pageNumber` (offset applied; numbers at or below the offset give the first page). */
  setCurrentPage(pageNumber: number): void;
  /** The number of the first page. */
  getPageNumberOffset(): number;
  /** Sets the number of the first page; negative values become 0. */
  setPageNumberOffset(offset: number): void;
  /** The total number of rows, when known. */
  getTotalCount(): number;
  /** Records the total number of rows. */
  setTotalCount(total: number): void;
  /** See {@linkcode PageObject.getTotalPage}. */
  getTotalPage(): number;
  /** The position of the first row of the current page (`from`); 0 when paging is off. */
  getFirstRecordPosition(): number;
  /** Goes to the first page. */
  firstPage(): void;
  /** Goes back one page (not below the first). */
  previousPage(): void;
  /** Goes forward one page. */
  nextPage(): void;
  /** Goes to the last page (by the known total). */
  lastPage(): void;
  /** A plain summary of the page. */
  toPageInfo(): PageInfo;
}

/**
 * The plain summary {@linkcode PageObject.toPageInfo} returns.
 *
 * @example
 * ```ts
 * import { PageObject, type PageInfo } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const info: PageInfo = new PageObject(1, 2, 5).toPageInfo();
 * assert.equal(info.recordPosition, 2);
 * ```
 */
export interface PageInfo {
  /** Whether paging is on (page size > 0). */
  readonly enable: boolean;
  /** Rows per page. */
  readonly pageSize: number;
  /** The total number of rows. */
  readonly totalCount: number;
  /** See {@linkcode PageObject.getTotalPage}. */
  readonly totalPage: number;
  /** The current page number, offset applied. */
  readonly currentPage: number;
  /** The position of the first row of the current page. */
  readonly recordPosition: number;
}

function count(value: number, what: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || !Number.isInteger(value)) {
    throw new TypeError(`Page ${what} must be a whole number, got ${String(value)}`);
  }
  return value < 0 ? 0 : value;
}

/**
 * A page request with dbVisitor's arithmetic. Page numbers are stored zero-based; the
 * `pageNumberOffset` (0 by default, 1 for 1-based numbering) is added when reading and removed when
 * setting. A page size of 0 turns paging off; negative sizes, offsets and totals become 0; a
 * value that is not a whole number is a `TypeError`.
 *
 * @example
 * ```ts
 * import { PageObject } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const page = new PageObject(0, 2, 5);      // page 0, 2 rows per page, 5 rows in all
 * assert.equal(page.totalPage, 3);
 * page.nextPage();
 * assert.equal(page.getFirstRecordPosition(), 2);
 * page.lastPage();
 * assert.equal(page.currentPage, 2);
 *
 * const oneBased = PageObject.of(1, 10, 1);  // page 1 of a 1-based numbering
 * assert.equal(oneBased.getFirstRecordPosition(), 0);
 * ```
 */
export class PageObject implements Page {
  #pageSize = 0;
  #page = 0;
  #offset = 0;
  #total = 0;
  #refresh: boolean;

  /**
   * A page request; with no arguments paging is off.
   *
   * @param pageNumber the page to start on (offset 0, so zero-based)
   * @param pageSize rows per page; 0 = paging off
   * @param totalCount the total number of rows when already known
   */
  constructor(pageNumber = 0, pageSize = 0, totalCount = 0) {
    this.setPageSize(pageSize);
    this.setCurrentPage(pageNumber);
    this.#total = count(totalCount, "totalCount");
    this.#refresh = this.#total <= 0;
  }

  /**
   * A page numbered from `offset` (default 0).
   *
   * @param pageNumber the page number, in the numbering that starts at `offset`
   * @param pageSize rows per page
   * @param offset the number of the first page
   * @returns the page
   * @example
   * ```ts
   * import { PageObject } from "@searchvisitor/searchvisitor/template";
   * import assert from "node:assert/strict";
   *
   * assert.equal(PageObject.of(3, 10, 1).getFirstRecordPosition(), 20);
   * ```
   */
  static of(pageNumber: number, pageSize: number, offset = 0): PageObject {
    const page = new PageObject(0, pageSize);
    page.setPageNumberOffset(offset);
    page.setCurrentPage(pageNumber);
    return page;
  }

  /** Rows per page; 0 = paging off. */
  getPageSize(): number {
    return this.#pageSize;
  }
  /** Sets the rows per page; negative values become 0 (paging off). */
  setPageSize(size: number): void {
    this.#pageSize = count(size, "pageSize");
  }
  /** The current page number plus the offset (just the offset when paging is off). */
  getCurrentPage(): number {
    return this.#pageSize > 0 ? this.#page + this.#offset : this.#offset;
  }
  /** Goes to `pageNumber`; numbers at or below the offset give the first page. */
  setCurrentPage(pageNumber: number): void {
    const n = count(pageNumber, "currentPage");
    this.#page = n <= this.#offset ? 0 : n - this.#offset;
  }
  /** The number of the first page. */
  getPageNumberOffset(): number {
    return this.#offset;
  }
  /** Sets the number of the first page; negative values become 0. The stored page stays. */
  setPageNumberOffset(offset: number): void {
    this.#offset = count(offset, "pageNumberOffset");
  }
  /** The total number of rows (0 while unknown). */
  getTotalCount(): number {
    return this.#total;
  }
  /** Records the total number of rows; a known total clears the refresh flag. */
  setTotalCount(total: number): void {
    this.#total = count(total, "totalCount");
    this.#refresh = false;
  }
  /** Asks the query layer to count again before the next paged read. */
  refreshTotalCount(): void {
    this.#refresh = true;
  }
  /** Whether the total must be (re)counted: unknown at construction, or asked for. */
  isRefreshTotalCount(): boolean {
    return this.#refresh;
  }
  /**
   * The page number one past the last page: with paging, `ceil(total / pageSize) + offset`
   * (the offset alone when the total is 0); without paging, `offset + 1` when there are rows, else
   * `offset`. With offset 0 this is the number of pages.
   */
  getTotalPage(): number {
    if (this.#pageSize > 0) return Math.ceil(this.#total / this.#pageSize) + this.#offset;
    return this.#total > 0 ? this.#offset + 1 : this.#offset;
  }
  /** `pageSize × storedPage`: the `from` of the current page; 0 when paging is off. */
  getFirstRecordPosition(): number {
    return this.#pageSize > 0 ? this.#pageSize * this.#page : 0;
  }
  /** Goes to the first page. */
  firstPage(): void {
    this.#page = 0;
  }
  /** Goes back one page, not below the first. */
  previousPage(): void {
    if (this.#page > 0) this.#page--;
  }
  /** Goes forward one page. */
  nextPage(): void {
    this.#page++;
  }
  /** Goes to the last page by the known total (the first page when there are no rows). */
  lastPage(): void {
    this.setCurrentPage(Math.max(0, this.getTotalPage() - 1));
  }
  /** A plain summary: `{enable, pageSize, totalCount, totalPage, currentPage, recordPosition}`. */
  toPageInfo(): PageInfo {
    return {
      enable: this.#pageSize > 0,
      pageSize: this.#pageSize,
      totalCount: this.#total,
      totalPage: this.getTotalPage(),
      currentPage: this.getCurrentPage(),
      recordPosition: this.getFirstRecordPosition(),
    };
  }

  /** Rows per page; 0 = paging off. */
  get pageSize(): number {
    return this.getPageSize();
  }
  set pageSize(size: number) {
    this.setPageSize(size);
  }
  /** The current page number, offset applied. */
  get currentPage(): number {
    return this.getCurrentPage();
  }
  set currentPage(pageNumber: number) {
    this.setCurrentPage(pageNumber);
  }
  /** The number of the first page. */
  get pageNumberOffset(): number {
    return this.getPageNumberOffset();
  }
  set pageNumberOffset(offset: number) {
    this.setPageNumberOffset(offset);
  }
  /** The total number of rows. */
  get totalCount(): number {
    return this.getTotalCount();
  }
  set totalCount(total: number) {
    this.setTotalCount(total);
  }
  /** See {@linkcode PageObject.getTotalPage}. */
  get totalPage(): number {
    return this.getTotalPage();
  }
}

/**
 * One page of rows with the page it answers (size, number, offset, total), so a caller gets the data
 * and the total from one call.
 *
 * @example
 * ```ts
 * import { PageObject, PageResult } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const result = PageResult.of(new PageObject(1, 2, 5), ["c", "d"]);
 * assert.deepEqual(result.data, ["c", "d"]);
 * assert.equal(result.totalCount, 5);
 * assert.equal(result.currentPage, 1);
 * ```
 */
export class PageResult<T> extends PageObject {
  /** The rows of this page. */
  readonly data: T[];

  /**
   * Prefer {@linkcode PageResult.of}.
   *
   * @param data the rows of this page
   */
  constructor(data: T[] = []) {
    super();
    this.data = data;
  }

  /**
   * A result carrying `data` and a copy of `page` (size, offset, number, total).
   *
   * @param page the page the rows answer
   * @param data the rows
   * @returns the result
   * @example
   * ```ts
   * import { PageObject, PageResult } from "@searchvisitor/searchvisitor/template";
   * import assert from "node:assert/strict";
   *
   * const r = PageResult.of(PageObject.of(1, 10, 1), [1, 2, 3]);
   * assert.equal(r.getCurrentPage(), 1);
   * assert.equal(r.data.length, 3);
   * ```
   */
  static override of<T>(page: Page, data: T[]): PageResult<T>;
  /** Also callable like {@linkcode PageObject.of} (number, size, offset) for an empty result. */
  static override of(pageNumber: number, pageSize: number, offset?: number): PageResult<never>;
  static override of<T>(
    first: Page | number,
    second: T[] | number,
    offset = 0,
  ): PageResult<T> {
    const result = new PageResult<T>(Array.isArray(second) ? second : []);
    if (typeof first === "number") {
      result.setPageSize(second as number);
      result.setPageNumberOffset(offset);
      result.setCurrentPage(first);
      return result;
    }
    result.setPageSize(first.getPageSize());
    result.setPageNumberOffset(first.getPageNumberOffset());
    result.setCurrentPage(first.getCurrentPage());
    if (first.getTotalCount() > 0) result.setTotalCount(first.getTotalCount());
    return result;
  }
}
