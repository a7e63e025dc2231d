import assert from "node:assert/strict";
import { PageObject, PageResult } from "./page.ts";

Deno.test("PageObject: defaults mean paging off", () => {
  const page = new PageObject();
  assert.equal(page.getPageSize(), 0);
  assert.equal(page.getCurrentPage(), 0);
  assert.equal(page.getFirstRecordPosition(), 0);
  assert.equal(page.getTotalPage(), 0);
  assert.equal(page.isRefreshTotalCount(), true);
  page.setTotalCount(3);
  assert.equal(page.getTotalPage(), 1, "without paging all rows are one page");
  assert.equal(page.isRefreshTotalCount(), false);
});

Deno.test("PageObject: negative values clamp to 0, fractions and NaN are TypeErrors", () => {
  const page = new PageObject(-3, -1, -7);
  assert.deepEqual([page.pageSize, page.currentPage, page.totalCount], [0, 0, 0]);
  page.pageNumberOffset = -2;
  assert.equal(page.pageNumberOffset, 0);
  assert.throws(() => page.setPageSize(1.5), TypeError);
  assert.throws(() => page.setCurrentPage(Number.NaN), /currentPage must be a whole number/);
  assert.throws(() => new PageObject(0, Infinity), TypeError);
});

Deno.test("PageObject: record position and total pages with offset 0", () => {
  const page = new PageObject(0, 2, 5);
  assert.equal(page.getTotalPage(), 3);
  assert.equal(page.isRefreshTotalCount(), false);
  const positions: number[] = [];
  for (let i = 0; i < 3; i++, page.nextPage()) positions.push(page.getFirstRecordPosition());
  assert.deepEqual(positions, [0, 2, 4]);
  page.lastPage();
  assert.equal(page.getCurrentPage(), 2);
  page.previousPage();
  assert.equal(page.getCurrentPage(), 1);
  page.firstPage();
  page.previousPage();
  assert.equal(page.getCurrentPage(), 0, "previousPage stops at the first page");
  assert.equal(new PageObject(0, 2, 4).totalPage, 2);
  assert.equal(new PageObject(0, 2, 0).totalPage, 0);
});

Deno.test("PageObject: a page-number offset shifts numbering, not positions", () => {
  const page = PageObject.of(1, 10, 1);
  assert.equal(page.getCurrentPage(), 1);
  assert.equal(page.getFirstRecordPosition(), 0);
  page.currentPage = 3;
  assert.equal(page.getFirstRecordPosition(), 20);
  page.setCurrentPage(0);
  assert.equal(page.getCurrentPage(), 1, "numbers at or below the offset give the first page");
  page.totalCount = 25;
  assert.equal(page.totalPage, 4, "ceil(25 / 10) + offset");
  page.lastPage();
  assert.deepEqual([page.currentPage, page.getFirstRecordPosition()], [3, 20]);
  page.pageSize = 0;
  assert.equal(page.currentPage, 1, "paging off: the current page is the offset");
  assert.equal(page.getTotalPage(), 2);
});

Deno.test("PageObject: toPageInfo and refresh flag", () => {
  const page = new PageObject(1, 2, 5);
  assert.deepEqual(page.toPageInfo(), {
    enable: true,
    pageSize: 2,
    totalCount: 5,
    totalPage: 3,
    currentPage: 1,
    recordPosition: 2,
  });
  page.refreshTotalCount();
  assert.equal(page.isRefreshTotalCount(), true);
});

Deno.test("PageResult: copies the page and carries the data", () => {
  const page = PageObject.of(2, 3, 1);
  page.setTotalCount(8);
  const result = PageResult.of(page, ["d", "e", "f"]);
  assert.ok(result instanceof PageObject);
  assert.deepEqual(result.data, ["d", "e", "f"]);
  assert.deepEqual(result.toPageInfo(), page.toPageInfo());
  page.nextPage();
  assert.equal(result.currentPage, 2, "the result keeps its own copy");
  const empty = PageResult.of(0, 5);
  assert.deepEqual([empty.data, empty.pageSize], [[], 5]);
});
