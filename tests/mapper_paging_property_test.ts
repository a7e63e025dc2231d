// Property: for random page sizes, numbers and number offsets, a paged @Query returns exactly the
// slice of the full ordered result that PageObject's arithmetic names, with the total from the
// same response, in one request — compared with the un-paged result of the same statement.
import assert from "node:assert/strict";
import { bound, PageObject, type PageResult, Query, SimpleMapper } from "../mapper/mod.ts";
import { backendTest, suiteIndex } from "./support/backend.ts";
import { mapperFixture } from "./support/mapper_fixture.ts";
import { prng } from "./support/prng.ts";

const ITEMS = suiteIndex("items");

type Row = Record<string, unknown>;

@SimpleMapper()
class Items {
  @Query(
    `POST /${ITEMS}/_search {"query": {"range": {"n": {"gte": #{min}}}}, "sort": [{"n": "asc"}]}`,
    {
      returns: "page",
    },
  )
  page(_args: { min: number }, _page: PageObject): Promise<PageResult<Row>> {
    return bound();
  }
  @Query(
    `POST /${ITEMS}/_search {"query": {"range": {"n": {"gte": #{min}}}}, "sort": [{"n": "asc"}], "size": 100}`,
  )
  all(_args: { min: number }): Promise<Row[]> {
    return bound();
  }
}

const CASES = 300;

backendTest(
  `paging property: ${CASES} random pages equal the slice of the whole result`,
  async (t) => {
    const { session, sent } = await mapperFixture(t);
    const docs = Array.from({ length: 37 }, (_, n) => `{"index": {"_id": "${n}"}}\n{"n": ${n}}`);
    await session.jdbc().execute(`POST /${ITEMS}/_bulk?refresh=true\n${docs.join("\n")}\n`);
    const items = session.createMapper(Items);
    const random = prng(11);
    const pick = (n: number) => Math.floor(random() * n);
    for (let i = 0; i < CASES; i++) {
      const min = pick(40);
      const size = pick(9);
      const offset = pick(2);
      const number = offset + pick(8);
      const all = (await items.all({ min })).map((r) => r._ID);
      const page = PageObject.of(number, size, offset);
      sent.length = 0;
      const result = await items.page({ min }, page);
      const where = `case ${i}: min ${min}, size ${size}, page ${number}, offset ${offset}`;
      assert.equal(sent.length, 1, where);
      const from = size === 0 ? 0 : (number - offset) * size;
      const expected = size === 0 ? all : all.slice(from, from + size);
      assert.deepEqual(result.data.map((r) => r._ID), expected, where);
      assert.equal(result.totalCount, all.length, where);
      assert.equal(page.totalCount, all.length, where);
      const pages = size === 0 ? (all.length > 0 ? 1 : 0) : Math.ceil(all.length / size);
      assert.equal(result.getTotalPage(), pages + offset, where);
    }
  },
);
