// The XML mapper tour: a MyBatis-style mapper file (examples/cities_mapper.xml) loaded once with
// `config.loadMapper`, its dynamic `<select>` run by id for several argument sets through a
// `@RefMapper` class and `session.queryStatement`. The rendered text is printed: values are always
// bound (`#{…}`, loop items under generated names), never spliced.
import type { DataSource } from "../driver/mod.ts";
import { Configuration, RefMapper } from "../mapper/mod.ts";
import type { JdbcTemplate } from "../template/mod.ts";
import type { MapperFile } from "../xml/mod.ts";
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

/** A row of the `city` result map. */
class CityCard {
  id = "";
  name = "";
  countryCode = "";
  lat = 0;
}

type SearchArgs = {
  countries?: string[];
  north?: number;
  south?: number;
  prefix?: string;
  size?: number;
};

@RefMapper("demo.cities", { returns: { count: "number" } })
class CityXmlMapper {
  declare search: (args: SearchArgs) => Promise<CityCard[]>;
  declare count: (args: { cc: string }) => Promise<number>;
}

/** Runs the XML mapper tour against the demo's `cities` index. */
export async function tourXml({ ds, section }: TourContext): Promise<void> {
  const url = new URL("./cities_mapper.xml", import.meta.url);
  const file: MapperFile = await loadMapperFile(url);
  const config = new Configuration({ types: { CityCard } }).addMapper(file);
  const cities = config.newSession(ds).createMapper(CityXmlMapper);
  console.log(
    `\n── XML mapper file ${file.namespace} (${url.pathname.split("/").pop()}): ${
      [...file.statements.values()].map((s) => `${s.id} (${s.dynamic ? "dynamic" : "static"})`)
        .join(", ")
    }`,
  );
  const shapes: SearchArgs[] = [
    { countries: ["IS", "GL"], size: 5 },
    { countries: ["SE", "FI", "RU"], south: 68, size: 5 },
    { prefix: "San ", north: 10, south: 9, size: 5 },
  ];
  for (const args of shapes) {
    const rendered = file.statements.get("search")!.render(args);
    section(
      '@RefMapper → <select id="search">: <where>, <if>, <foreach>, <choose>, <bind>, <trim>',
      rendered.text.replace(/\n\s*\n/g, "\n"),
      args,
    );
    const rows = await cities.search(args);
    console.log(
      formatTable(rows as unknown as Record<string, unknown>[], [
        "id",
        "name",
        "countryCode",
        "lat",
      ]),
    );
  }
  const count = file.statements.get("count")!.render({ cc: "IS" });
  section(`<select id="count"> (static: its text was made at load)`, count.text, count.args);
  console.log(`  COUNT = ${await cities.count({ cc: "IS" })}`);
}
