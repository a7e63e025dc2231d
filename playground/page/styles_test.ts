import assert from "node:assert/strict";
import { DataSource } from "../../driver/mod.ts";
import { Engine } from "../../engine/mod.ts";
import { LambdaTemplate } from "../../lambda/mod.ts";
import { JdbcTemplate } from "../../template/mod.ts";
import { parseMapperFile } from "../../xml/mod.ts";
import { type Arguments, prepare, splitCommands } from "./commands.ts";
import { lambdaForm, stylesFor } from "./styles.ts";

const NONE: Arguments = { positional: [], named: {} };

function styles(text: string, args: Arguments = NONE) {
  const [segment] = splitCommands(text);
  return stylesFor(segment!.text, prepare(segment!, args), args);
}

async function withCities<T>(body: (ds: DataSource) => Promise<T>): Promise<T> {
  const engine = new Engine();
  const ds = new DataSource({ nodes: ["http://engine"], fetch: engine.fetch, indexRefresh: true });
  try {
    const jdbc = new JdbcTemplate(ds);
    await jdbc.execute(
      'PUT /cities {"mappings": {"properties": {"name": {"type": "text"}, "country": {"type": "keyword"}, "lat": {"type": "double"}}}}',
    );
    const docs = [
      ["Paris", "FR", 48.8],
      ["Lyon", "FR", 45.7],
      ["San Jose", "US", 37.3],
      ["San Diego", "US", 32.7],
      ["Oslo", "NO", 59.9],
    ];
    for (const [i, [name, country, lat]] of docs.entries()) {
      await jdbc.executeUpdate(
        `PUT /cities/_doc/{?}?refresh=true\n{"name": ?, "country": ?, "lat": ?}`,
        [String(i + 1), name, country, lat],
      );
    }
    return await body(ds);
  } finally {
    engine.close();
  }
}

/** Runs the page's lambda text (the chain after `const rows = await`) on a LambdaTemplate. */
function runLambda(text: string, lambda: LambdaTemplate): Promise<unknown> {
  const chain = text.slice(text.indexOf("lambda.query("));
  return new Function("lambda", `return ${chain.replace(/;\s*$/, "")}`)(lambda);
}

Deno.test("the lambda form finds what the console command finds", async () => {
  await withCities(async (ds) => {
    const jdbc = new JdbcTemplate(ds);
    const lambda = new LambdaTemplate(ds);
    for (
      const body of [
        '{"query": {"term": {"country": "FR"}}}',
        '{"query": {"match": {"name": "san"}}}',
        '{"query": {"range": {"lat": {"gte": 40, "lt": 50}}}}',
        '{"query": {"bool": {"filter": [{"term": {"country": "US"}}, {"range": {"lat": {"gt": 35}}}]}}}',
        '{"query": {"match_all": {}}, "size": 2}',
      ]
    ) {
      const text = `GET /cities/_search\n${body}`;
      const form = styles(text).lambda;
      assert.ok(form, body);
      const want = (await jdbc.queryForList(text)).map((r) => r._ID).sort();
      const rows = (await runLambda(form, lambda)) as { _ID?: string }[];
      assert.equal(rows.length, want.length, body);
    }
    const counted = styles(
      'GET /cities/_search\n{"query": {"term": {"country": "US"}}, "size": 0}',
    );
    assert.match(counted.lambda!, /\.queryForCount\(\);$/);
    assert.equal(await runLambda(counted.lambda!, lambda), 2);
  });
});

Deno.test("commands the lambda cannot build have no lambda form", () => {
  for (
    const text of [
      'GET /cities/_search\n{"aggs": {"c": {"terms": {"field": "country"}}}}',
      'GET /cities/_search\n{"query": {"term": {"country": ?}}}',
      'GET /cities/_search\n{"query": {"bool": {"should": [{"term": {"a": 1}}]}}}',
      'GET /cities/_search\n{"query": {"match_all": {}}, "size": 3, "from": 1}',
      'PUT /cities/_doc/1\n{"a": 1}',
    ]
  ) {
    const [segment] = splitCommands(text);
    assert.equal(lambdaForm(prepare(segment!, NONE).parsed.commands[0]!), undefined, text);
  }
});

Deno.test("the mapper XML renders back to the command, positional ? named", () => {
  const args = { positional: ["FR", 3], named: {} };
  const s = styles('GET /cities/_search\n{"query": {"term": {"country": ?}}, "size": ?}', args);
  assert.match(s.jdbc, /jdbc\.queryForList\(`GET \/cities\/_search\n.*`, \["FR",3\]\);$/);
  const xml = s.xml.slice(0, s.xml.indexOf("\n\n<!--"));
  const st = parseMapperFile(xml).statements.get("playground.command") ??
    parseMapperFile(xml).statements.get("command");
  assert.ok(st);
  assert.equal(st.kind, "select");
  const rendered = st.render({ arg1: "FR", arg2: 3 });
  assert.match(
    rendered.text.trim(),
    /^GET \/cities\/_search\n\s*\{"query": \{"term": \{"country": #\{arg1\}\}\}, "size": #\{arg2\}\}$/,
  );
  assert.match(s.xml, /executeStatement\("playground\.command", \{ arg1: "FR", arg2: 3 \}\)/);
});

Deno.test("writes become executeUpdate and insert/update/delete statements", () => {
  const put = styles('PUT /cities/_doc/#{id}\n{"name": #{name}}', {
    positional: [],
    named: { id: "9", name: "Rome" },
  });
  assert.match(
    put.jdbc,
    /jdbc\.executeUpdate\(`PUT \/cities\/_doc\/#\{id\}\n\{"name": #\{name\}\}`, \{"id":"9","name":"Rome"\}\);/,
  );
  assert.match(put.xml, /<insert id="command">/);
  assert.match(styles('POST /cities/_update/1\n{"doc": {"a": 1}}').xml, /<update id="command">/);
  assert.match(styles("DELETE /cities/_doc/1").xml, /<delete id="command">/);
  assert.match(styles("PUT /cities").jdbc, /jdbc\.execute\(`PUT \/cities`\);/);
  // Text that would end an XML element is escaped; the JSON's quotes stay readable.
  assert.match(
    styles('GET /c/_search\n{"query": {"term": {"a": "<b>&"}}}').xml,
    /"&#60;b&#62;&#38;"/,
  );
});
