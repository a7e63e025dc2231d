import assert from "node:assert/strict";
import { DataSource } from "../driver/mod.ts";
import { Engine } from "../engine/mod.ts";
import { JdbcTemplate } from "../template/mod.ts";
import { tourXml } from "./tour_xml.ts";

Deno.test("the XML tour runs its mapper file against a small cities index", async () => {
  const engine = new Engine();
  const log = console.log;
  const printed: string[] = [];
  const sections: { title: string; command: string; args?: unknown }[] = [];
  try {
    const ds = new DataSource({ nodes: ["http://engine.local"], fetch: engine.fetch });
    const jdbc = new JdbcTemplate(ds);
    await jdbc.execute(
      'PUT /cities {"mappings": {"properties": {"name": {"type": "text", "fields": {"keyword": {"type": "keyword"}}}, "country": {"type": "keyword"}, "lat": {"type": "double"}, "lng": {"type": "double"}}}}',
    );
    const cities = [
      ["1", "Reykjavik", "IS", 64.1, -21.9],
      ["2", "Nuuk", "GL", 64.2, -51.7],
      ["3", "Kiruna", "SE", 67.9, 20.2],
      ["4", "San Jose", "CR", 9.93, -84.08],
      ["5", "Akureyri", "IS", 65.7, -18.1],
    ] as const;
    for (const [id, name, country, lat, lng] of cities) {
      await jdbc.executeUpdate("PUT /cities/_doc/#{id}?refresh=true #{doc}", {
        id,
        doc: { name, country, lat, lng },
      });
    }
    console.log = (...parts: unknown[]) => printed.push(parts.join(" "));
    await tourXml({
      ds,
      jdbc,
      section: (title, command, args) => sections.push({ title, command, args }),
    });
  } finally {
    console.log = log;
    engine.close();
  }
  assert.equal(sections.length, 4);
  assert.match(
    sections[0]!.command,
    /"terms": \{"country": \[#\{__frch_cc_0\}, #\{__frch_cc_1\}\]\}/,
  );
  const output = printed.join("\n");
  assert.match(output, /Akureyri[\s\S]*Reykjavik/); // sorted by latitude, descending
  assert.match(output, /San Jose/);
  assert.match(output, /COUNT = 2/);
});
