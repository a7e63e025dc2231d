// The mapper tour of the demo: an annotated mapper over the demo's `cities` index — a search
// paged in one request per page, a page by sample, reads by key (one GET, one _mget), a write with optimistic
// concurrency and the lost race it refuses, an insert with a generated key.
import type { DataSource } from "../driver/mod.ts";
import {
  BaseMapper,
  bound,
  Configuration,
  OptimisticLockError,
  PageObject,
  type PageResult,
  Query,
  SimpleMapper,
} from "../mapper/mod.ts";
import { Column, type JdbcTemplate, type RowMap, Table } from "../template/mod.ts";
import { formatTable } from "./_demo_table.ts";

@Table("cities")
class CityRow {
  @Column({ primary: true })
  id = "";
  @Column()
  name = "";
  @Column("country")
  countryCode = "";
  @Column({ type: "number" })
  lat = 0;
  @Column({ version: true })
  version = "";
}

@SimpleMapper({ entity: CityRow })
class CityMapper extends BaseMapper<CityRow> {
  @Query(
    'POST /cities/_search {"query": {"term": {"country": #{cc}}}, "sort": [{"name.keyword": "asc"}]}',
    { returns: "page" },
  )
  byCountry(_args: { cc: string }, _page: PageObject): Promise<PageResult<CityRow>> {
    return bound();
  }

  @Query('POST /cities/_count {"query": {"term": {"country": #{cc}}}}', { returns: "number" })
  countIn(_args: { cc: string }): Promise<number> {
    return bound();
  }
}

const COLUMNS = ["id", "name", "countryCode", "lat", "version"];
const table = (rows: readonly CityRow[]) =>
  formatTable(rows as unknown as readonly RowMap[], COLUMNS);

/**
 * Runs the mapper tour.
 *
 * @param tour The demo's data source, JdbcTemplate and section printer.
 */
export async function tourMapper(tour: {
  ds: DataSource;
  jdbc: JdbcTemplate;
  section: (title: string, command: string, args?: unknown) => void;
}): Promise<void> {
  const { ds, section } = tour;
  const session = new Configuration().newSession(ds);
  const cities = session.createMapper(CityMapper);

  const page = new PageObject(0, 4);
  section(
    "mapper: @Query with a Page → from/size/track_total_hits added, total from the same response",
    "cities.byCountry({ cc: 'IS' }, new PageObject(0, 4)), then nextPage()",
  );
  for (let i = 0; i < 2; i++) {
    const result = await cities.byCountry({ cc: "IS" }, page);
    console.log(
      `  page ${result.currentPage + 1} of ${result.totalPage} (total ${result.totalCount})`,
    );
    console.log(table(result.data));
    page.nextPage();
  }
  console.log(`  countIn({ cc: "IS" }) = ${await cities.countIn({ cc: "IS" })}`);

  section(
    "BaseMapper.pageBySample: set fields become exact conditions (through LambdaTemplate)",
    'pageBySample({ countryCode: "LU" }, new PageObject(0, 3), { lat: "desc" })',
  );
  const north = await cities.pageBySample({ countryCode: "LU" }, new PageObject(0, 3), {
    lat: "desc",
  });
  console.log(`  the northernmost 3 of ${north.totalCount}`);
  console.log(table(north.data));

  const first = (await cities.byCountry({ cc: "LU" }, new PageObject(0, 3))).data;
  const ids = [first[2]?.id ?? "x", "no-such-id", first[0]?.id ?? "y"];
  section("BaseMapper.selectByIds: one _mget, order kept, missing skipped", "selectByIds", ids);
  console.log(table(await cities.selectByIds(ids)));

  const id = first[0]?.id ?? "1";
  section("BaseMapper.selectById (real-time GET) fills the version; update checks it", "update");
  const mine = (await cities.selectById(id))!;
  const theirs = (await cities.selectById(id))!;
  mine.name = `${mine.name} (renamed)`;
  console.log(`  update(mine) = ${await cities.update(mine)}`);
  theirs.lat = 0;
  try {
    await cities.update(theirs);
  } catch (error) {
    if (!(error instanceof OptimisticLockError)) throw error;
    console.log(`  update(theirs) → ${error.name}: ${error.message}`);
  }
  console.log(table([(await cities.selectById(id))!]));

  section("BaseMapper.insert with an empty key: the generated _id is written back", "insert");
  const fresh = Object.assign(new CityRow(), { name: "Nowhere", countryCode: "ZZ", lat: 1 });
  console.log(`  insert = ${await cities.insert(fresh)}, id = ${fresh.id}`);
  console.log(`  deleteById = ${await cities.deleteById(fresh.id)}`);
}
