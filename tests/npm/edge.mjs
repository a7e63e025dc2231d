// The CDN-free edge path of docs/install.md, checked by .ci/npm_smoke.sh: the npm package's esm/ folder
// copied next to this file as ./searchvisitor/, imported by relative paths, and run with
// `deno run --no-prompt` (no file system, environment or network permission).
import assert from "node:assert/strict";
// The smoke script rewrites these to ./searchvisitor/<room>/mod.js when it copies this file.
import { DataSource, ResponseError } from "@searchvisitor/searchvisitor/driver";
import { JdbcTemplate } from "@searchvisitor/searchvisitor/template";
import { Engine } from "@searchvisitor/searchvisitor/engine";

for (const name of ["read", "env", "net"]) {
  assert.notEqual((await Deno.permissions.query({ name })).state, "granted", name);
}
const engine = new Engine();
try {
  const ds = new DataSource({ nodes: ["http://cluster"], fetch: engine.fetch, indexRefresh: true });
  const jdbc = new JdbcTemplate(ds);
  await jdbc.executeUpdate('PUT /kv/_doc/#{k} {"v": #{v}}', { k: "a", v: 1 });
  assert.equal(await jdbc.queryForNumber("GET /kv/_count"), 1);
  await assert.rejects(jdbc.queryForList("GET /nowhere/_search"), ResponseError);
  console.log("edge (copied esm/) ok");
} finally {
  engine.close();
}
