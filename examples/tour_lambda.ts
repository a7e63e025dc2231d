// The LambdaTemplate part of the demo: typed, fluent queries and writes on the demo's `cities`
// index, each printed with the command it compiles to (`toCommand()`, no I/O) and its rows.
import type { DataSource } from "../driver/mod.ts";
import { defineEntity, type JdbcTemplate, PageObject, type RowMap } from "../template/mod.ts";
import { LambdaTemplate } from "../lambda/mod.ts";
import { formatTable } from "./_demo_table.ts";

class City {
  id = "";
  name = "";
  countryCode = "";
  admin1 = "";
  lat = 0;
  lng = 0;
}
defineEntity(City, {
  index: "cities",
  key: "id",
  fields: {
    name: "name",
    countryCode: "country",
    admin1: "admin1",
    lat: { type: "number" },
    lng: { type: "number" },
  },
});

const COLUMNS = ["id", "name", "countryCode", "admin1", "lat", "lng"];
const table = (rows: readonly City[], columns = COLUMNS) =>
  formatTable(rows as unknown as RowMap[], columns);

/** What the demo hands every tour. */
export interface TourContext {
  ds: DataSource;
  jdbc: JdbcTemplate;
  section(title: string, command: string, args?: unknown): void;
  /**
   * Runs one step; against a real cluster the demo reports a step that needs what the cluster
   * lacks (a module, a field type) and goes on. Default: runs it.
   */
  step?: (run: () => Promise<void>) => Promise<void>;
}

/** Runs the LambdaTemplate tour against the demo's `cities` index. */
export async function tourLambda(
  { jdbc, section, step = (run) => run() }: TourContext,
): Promise<void> {
  const lambda = new LambdaTemplate(jdbc);
  // The field types of the index, read once and cached; toCommand({ mapping }) then shows exactly
  // what runs (exact conditions and sort on a text field use its keyword sub-field).
  const mapping = await lambda.fieldTypes("cities");
  const show = (title: string, b: { toCommand(o: object): { text: string; args: unknown[] } }) => {
    const { text, args } = b.toCommand({ mapping });
    section(`LambdaTemplate: ${title}`, text, args);
  };

  // eq on a text field is exact: the compiler finds `name.keyword` in the mapping (read once).
  const helsinki = lambda.query(City).eq("name", "Helsinki").eq("countryCode", "FI");
  show("eq is exact: name is a text field, so its keyword sub-field is used", helsinki);
  console.log(table(await helsinki.queryForList()));

  // Real OR and nested groups, sorted, paged; the page gets its total from the same request.
  const page = new PageObject(0, 5);
  const north = lambda.query(City)
    .eq("countryCode", "IS")
    .or((g) => g.eq("countryCode", "FI").ge("lat", 68.5))
    .orderBy("lat", "desc")
    .usePage(page);
  show("or() with a nested group, orderBy, usePage", north);
  console.log(table(await north.queryForList()));
  console.log(`  page 1 of ${page.getTotalPage()} (${page.getTotalCount()} cities)`);
  const n = await north.queryForCount();
  console.log(
    `  queryForCount() = ${n} — sent as _count with the query only: ${north.toCountCommand().text}`,
  );

  // like: % anchors at either end; *, ? and \ in the value match themselves.
  const like = lambda.query(City).like("name", "San %").eq("countryCode", "CL").not((g) =>
    g.lt("lat", -40)
  ).select("name", "countryCode", "lat").orderBy("name").initPage(5, 0);
  show("like 'San %' (prefix), not(group), select (projection)", like);
  console.log(table(await like.queryForList(), ["id", "name", "countryCode", "lat"]));

  // stream(): every match, page by page over a point in time (closed when the loop ends).
  const swedish = lambda.query(City).eq("countryCode", "SE").orderBy("lat", "desc");
  show("stream() every Swedish city (pages of 1,000 over a point in time)", swedish);
  let count = 0;
  let northernmost = "";
  for await (const city of swedish.stream({ pageSize: 1000 })) {
    if (count++ === 0) northernmost = city.name;
  }
  console.log(`  streamed ${count} cities; the first (northernmost) is ${northernmost}`);

  // Writes: several entities are one _bulk; counts are real; no condition is refused.
  const made = [
    Object.assign(new City(), {
      id: "lx-1",
      name: "Lambda Falls",
      countryCode: "ZZ",
      lat: 1,
      lng: 2,
    }),
    Object.assign(new City(), { name: "Generated Id", countryCode: "ZZ", lat: 3, lng: 4 }),
  ];
  const insert = lambda.insert(City).applyEntity(made);
  show("insert two entities: one _bulk (the second gets a generated _id)", insert);
  const keys = await insert.executeGetKeys();
  console.log(`  keys = ${JSON.stringify(keys)}; written back: ${made[1]!.id}`);

  const update = lambda.update(City).eq("countryCode", "ZZ").updateTo("admin1", "Test");
  show("update by query: the count is the number changed", update);
  await step(async () => console.log(`  doUpdate() = ${await update.doUpdate()}`));

  try {
    await lambda.delete(City).doDelete();
  } catch (e) {
    console.log(
      `\n── LambdaTemplate: delete with no condition is refused\n  ${(e as Error).message}`,
    );
  }
  const del = lambda.delete(City).eq("countryCode", "ZZ");
  show("delete by query", del);
  await step(async () => console.log(`  doDelete() = ${await del.doDelete()}`));
}
