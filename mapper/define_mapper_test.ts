import assert from "node:assert/strict";
import { DataSource, UnsupportedFeatureError } from "../driver/mod.ts";
import { Engine } from "../engine/mod.ts";
import { defineEntity } from "../template/mod.ts";
import { parseMapperFile } from "../xml/mod.ts";
import { BaseMapper, Configuration, defineMapper, MapperError } from "./mod.ts";

function session(configure?: (config: Configuration) => void) {
  const engine = new Engine();
  const config = new Configuration({ refresh: true });
  configure?.(config);
  const ds = new DataSource({ nodes: ["http://engine"], fetch: engine.fetch });
  return { engine, config, session: config.newSession(ds) };
}

class City {
  id = "";
  name = "";
  country = "";
}
defineEntity(City, { index: "define_cities", key: "id" });

Deno.test("defineMapper: each method runs its statement with the declared shape and parameters", async () => {
  class CityMapper extends BaseMapper<City> {
    declare byCountry: (cc: string) => Promise<City[]>;
    declare named: (name: string) => Promise<City | null>;
    declare count: () => Promise<number>;
  }
  defineMapper(CityMapper, {
    entity: City,
    namespace: "cities",
    methods: {
      byCountry: {
        query: [
          'POST /define_cities/_search {"query": {"term": {"country.keyword": #{cc}}},',
          '"sort": [{"name.keyword": "asc"}]}',
        ],
        params: ["cc"],
      },
      named: {
        query: 'POST /define_cities/_search {"query": {"term": {"name.keyword": #{name}}}}',
        returns: "one",
        params: ["name"],
      },
      count: { query: "POST /define_cities/_count", returns: "number" },
    },
  });
  const { engine, config, session: s } = session();
  const cities = s.createMapper(CityMapper);
  for (
    const [id, name, country] of [["1", "Oslo", "no"], ["2", "Bergen", "no"], ["3", "Lund", "se"]]
  ) {
    await cities.insert(Object.assign(new City(), { id, name, country }));
  }
  const norwegian = await cities.byCountry("no");
  assert.ok(norwegian.every((c) => c instanceof City));
  assert.deepEqual(norwegian.map((c) => c.name), ["Bergen", "Oslo"]);
  assert.equal((await cities.named("Lund"))?.id, "3");
  assert.equal(await cities.named("Paris"), null);
  assert.equal(await cities.count(), 3);
  assert.deepEqual(
    config.statementIds().filter((id) => id.startsWith("cities.")).sort(),
    ["cities.byCountry", "cities.count", "cities.named"],
  );
  // the installed methods are not enumerable, like a class's own methods
  assert.deepEqual(Object.keys(CityMapper.prototype), []);
  engine.close();
});

Deno.test("defineMapper: a method with no statement text, or two, is refused where it is declared", () => {
  class Twice {}
  assert.throws(
    () =>
      defineMapper(Twice, {
        methods: { m: { query: "GET /a/_search", delete: "DELETE /a" } as never },
      }),
    (e: unknown) => {
      assert.ok(e instanceof MapperError);
      assert.equal(e.mapper, "Twice");
      assert.equal(e.method, "m");
      assert.match(
        e.message,
        /give exactly one of query, insert, update, delete, execute, call .*got query and delete/,
      );
      return true;
    },
  );
  class None {}
  assert.throws(
    () => defineMapper(None, { methods: { m: { returns: "one" } as never } }),
    /got none/,
  );
});

Deno.test("defineMapper: a call statement is refused when the mapper is created", () => {
  class Procedures {}
  defineMapper(Procedures, { methods: { run: { call: "CALL something()" } } });
  const { engine, session: s } = session();
  assert.throws(() => s.createMapper(Procedures), (e: unknown) => {
    assert.ok(e instanceof UnsupportedFeatureError);
    assert.match(e.message, /Procedures\.run: @Call .*use @Execute/);
    return true;
  });
  engine.close();
});

Deno.test("defineMapper with ref: a mapper file's statements become methods, shapes and params applied", async () => {
  class FileMapper {
    declare byName: (name: string) => Promise<Record<string, unknown> | null>;
  }
  defineMapper(FileMapper, {
    ref: "define_file",
    returns: { byName: "one" },
    params: { byName: ["name"] },
  });
  const { engine, session: s } = session((config) =>
    config.addMapper(parseMapperFile(`<mapper namespace="define_file">
      <select id="byName">POST /define_people/_search {"query": {"term": {"name": #{name}}}}</select>
    </mapper>`))
  );
  await s.jdbc().execute('PUT /define_people/_doc/p1?refresh=true {"name": "ann"}');
  const people = s.createMapper(FileMapper);
  assert.equal((await people.byName("ann"))?._ID, "p1");
  assert.equal(await people.byName("bob"), null);
  engine.close();
});
