// The XML mapper tour: a MyBatis-style mapper file (examples/cities_mapper.xml) read once, its
// statements rendered for several argument sets and run with JdbcTemplate. Values are always
// bound: the rendered text carries `#{…}` placeholders (loop items under generated names).
import type { DataSource } from "../driver/mod.ts";
import type { JdbcTemplate, RowMap } from "../template/mod.ts";
import { loadMapperFile } from "../xml/mod.ts";
import { formatTable } from "./_demo_table.ts";

/** What every tour receives from the demo. */
export interface TourContext {
  /** The demo's data source. */
  ds: DataSource;
  /** A JdbcTemplate over it. */
  jdbc: JdbcTemplate;
  /** Prints a section header with its command and arguments. */
  section: (title: string, command: string, args?: unknown) => void;
}

/** Runs the XML mapper tour against the demo's `cities` index. */
export async function tourXml({ jdbc, section }: TourContext): Promise<void> {
  const file = await loadMapperFile(new URL("./cities_mapper.xml", import.meta.url));
  const search = file.statements.get("search")!;
  console.log(
    `\n── XML mapper file ${file.namespace}: ${
      [...file.statements.values()].map((s) => `${s.id} (${s.dynamic ? "dynamic" : "static"})`)
        .join(", ")
    }`,
  );
  const shapes: Record<string, unknown>[] = [
    { countries: ["IS", "GL"], size: 5 },
    { countries: ["SE", "FI", "RU"], south: 68, size: 5 },
    { prefix: "San ", north: 10, south: 9, size: 5 },
  ];
  for (const args of shapes) {
    const rendered = search.render(args);
    section(
      `XML <select id="search">: <where>, <if>, <foreach>, <choose>, <bind>, <trim>`,
      rendered.text.replace(/\n\s*\n/g, "\n"),
      args,
    );
    const rows = await jdbc.queryForList(rendered.text, rendered.args);
    const docs = rows.map((r: RowMap) => ({ _ID: r._ID, ...JSON.parse(r._DOC as string) }));
    console.log(formatTable(docs, ["_ID", "name", "country", "lat", "lng"]));
  }
  const count = file.statements.get("count")!.render({ cc: "IS" });
  section(`XML <select id="count"> (static: rendered once, at load)`, count.text, count.args);
  console.log(`  COUNT = ${await jdbc.queryForNumber(count.text, count.args)}`);
}
