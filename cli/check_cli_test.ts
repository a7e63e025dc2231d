import assert from "node:assert/strict";
import { type CheckHost, runCheck, runCli, runMapping } from "./mod.ts";
import { Engine } from "../engine/mod.ts";
import { DataSource } from "../driver/mod.ts";
import { JdbcTemplate } from "../template/mod.ts";

function host(files: Record<string, string>, fetch?: CheckHost["fetch"]) {
  const io = { out: "", err: "" };
  const h: CheckHost = {
    env: () => undefined,
    readText: (path) =>
      path in files ? Promise.resolve(files[path]!) : Promise.reject(new Error("no such file")),
    out: (t) => (io.out += t),
    err: (t) => (io.err += t),
    ...(fetch ? { fetch } : {}),
  };
  return { h, io };
}

const XML = `<mapper namespace="users">
  <select id="find">
    POST /users/_search?szie=5
    {"query": {"bool": {"filter": [<where><if test="name != null">{"term": {"name": #{name}}},</if></where>]}}}
  </select>
  <select id="count">POST /users/_count</select>
</mapper>`;

const SCRIPT = `import { JdbcTemplate } from "@searchvisitor/searchvisitor/template";
declare const jdbc: JdbcTemplate;
await jdbc.queryForList("GET /users/_search {\\"query\\": {\\"match\\": {\\"name\\": #{q}}}}", { q: "a" });
await jdbc.execute(\`POST /users/_doc?refesh=true {"name": \${"x"}}\`);
`;

Deno.test("check reports each finding at its place in console, mapper and script files", async () => {
  const { h, io } = host({
    "a.es": 'GET /users/_search\n{"query": {"trem": {"a": 1}}}\n',
    "users.xml": XML,
    "users.ts": SCRIPT,
  });
  assert.equal(await runCheck(["a.es", "users.xml", "users.ts"], h), 1);
  const lines = io.out.split("\n").filter((l) => /^\S+:\d+:\d+: /.test(l));
  assert.deepEqual(lines, [
    'a.es:2:12: error unknown-key: unknown query "trem"; did you mean "term"?',
    'users.xml:3:25: error unknown-param: unknown URL parameter "szie" for search; did you mean "size"?',
    'users.ts:4:38: error unknown-param: unknown URL parameter "refesh" for index; did you mean "refresh"?',
  ]);
  assert.match(io.out, /\n  {"query": \{"trem": \{"a": 1\}\}\}\n {13}\^{6}\n/);
  assert.match(io.out, /3 error\(s\), 0 warning\(s\) in 3 file\(s\)\n$/);
});

Deno.test("check exits 0 on a clean file and on warnings alone; --format json", async () => {
  const mapping = JSON.stringify({
    users: { mappings: { properties: { name: { type: "text" } } } },
  });
  const { h, io } = host({
    "ok.es": 'GET /users/_search {"query": {"match": {"name": "a"}}}',
    "warn.es": 'GET /users/_search {"query": {"term": {"name": "a"}}}',
    "m.json": mapping,
  });
  assert.equal(await runCheck(["ok.es", "--mapping", "m.json"], h), 0);
  assert.equal(await runCheck(["warn.es", "--mapping", "m.json", "--format", "json"], h), 0);
  const json = JSON.parse(io.out.slice(io.out.indexOf("[")));
  assert.deepEqual(
    json.map((d: { code: string; severity: string; file: string }) => [d.code, d.severity, d.file]),
    [
      ["field-type", "warning", "warn.es"],
    ],
  );
});

Deno.test("check: usage errors, unreadable files and the opensearch flavor", async () => {
  const { h, io } = host({ "pit.es": "POST /logs/_search/point_in_time?keep_alive=1m" });
  assert.equal(await runCheck(["--flavor", "solr"], h), 64);
  assert.equal(await runCheck(["missing.es"], h), 2);
  assert.match(io.err, /missing\.es: error: cannot read it/);
  assert.equal(await runCheck(["pit.es"], h), 1);
  assert.equal(await runCheck(["pit.es", "--flavor", "opensearch"], h), 0);
});

Deno.test("mapping prints the live mapping that check --url reads", async () => {
  const engine = new Engine();
  try {
    await engine.fetch("http://e/users", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        mappings: { dynamic: "strict", properties: { age: { type: "long" } } },
      }),
    });
    const { h, io } = host({
      "q.es": 'GET /users/_search {"query": {"match_phrase": {"aeg": "3"}}}',
    }, engine.fetch);
    assert.equal(await runMapping(["--url", "http://e"], h), 0);
    assert.equal(JSON.parse(io.out).users.mappings.properties.age.type, "long");
    io.out = "";
    assert.equal(await runCheck(["q.es", "--url", "http://e"], h), 1);
    assert.match(
      io.out,
      /q\.es:1:48: error unknown-field: "aeg" is not in the mapping; did you mean "age"\?/,
    );
  } finally {
    engine.close();
  }
});

Deno.test("the console program routes check to the checker", async () => {
  let out = "";
  const code = await runCli({
    args: ["check", "-"],
    env: () => undefined,
    readText: () => Promise.resolve("PUT /users/_serach"),
    stdinIsTerminal: false,
    openPrompt: () => {
      throw new Error("not interactive");
    },
    out: (t) => (out += t),
    err: (t) => (out += t),
  });
  assert.equal(code, 1);
  assert.match(
    out,
    /<stdin>:1:12: error unknown-endpoint: unknown endpoint "_serach"; did you mean "_search"\?/,
  );
});

Deno.test("check --url checks each command against the mapping of the index or alias it names", async () => {
  const engine = new Engine();
  const ds = new DataSource({ nodes: ["http://engine"], fetch: engine.fetch });
  const jdbc = new JdbcTemplate(ds);
  await jdbc.execute(
    'PUT /users {"mappings": {"dynamic": "strict", "properties": {"age": {"type": "long"}}}, "aliases": {"people": {}}}',
  );
  await jdbc.execute('PUT /orders {"mappings": {"properties": {"total": {"type": "long"}}}}');
  const io = { out: "", err: "" };
  const host: CheckHost = {
    env: () => undefined,
    readText: () =>
      Promise.resolve(
        'GET /people/_search {"sort": ["total"]}\nGET /orders/_search {"sort": ["total"]}\n',
      ),
    out: (t) => (io.out += t),
    err: (t) => (io.err += t),
    fetch: engine.fetch,
  };
  assert.equal(await runCheck(["q.es", "--url", "http://engine"], host), 1, io.out + io.err);
  // "total" is a field of orders, not of the people alias's users: one finding, on line 1.
  assert.match(io.out, /q\.es:1:32: error unknown-field: "total" is not in the mapping/);
  assert.doesNotMatch(io.out, /q\.es:2:/);
});
