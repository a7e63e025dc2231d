import assert from "node:assert/strict";
import { Engine, serve } from "../engine/mod.ts";
import { type MigrateHost, runMigrate } from "./migrate_cli.ts";

function host(files: Record<string, string>) {
  const io = { out: "", err: "" };
  const h: MigrateHost = {
    readText: (path) => Promise.resolve(files[path.replace(/^migrations\//, "")]!),
    listDir: () => Promise.resolve(Object.keys(files)),
    env: () => undefined,
    out: (t) => void (io.out += t),
    err: (t) => void (io.err += t),
  };
  return { h, io };
}

Deno.test("migrate cli: migrate, info, validate, dry run and repair over HTTP", async () => {
  const engine = new Engine();
  const server = await serve(engine, { port: 0 });
  const url = server.url;
  try {
    const files: Record<string, string> = {
      "V1__create_users.es": "PUT /users\n# a seed\nPUT /users/_doc/1?refresh=true {}",
      "README.md": "ignored",
    };
    let run = host(files);
    assert.equal(await runMigrate(["--url", url], run.h), 0, run.io.err);
    assert.match(run.io.out, /applied V1__create_users\.es/);
    files["V2__email.es"] = 'PUT /users/_mapping {"properties": {"email": {"type": "keyword"}}}';
    run = host(files);
    assert.equal(await runMigrate(["--url", url, "--dry-run"], run.h), 0, run.io.err);
    assert.match(run.io.out, /would apply V2__email\.es[^]*PUT \/users\/_mapping[^]*not changed/);
    run = host(files);
    assert.equal(await runMigrate(["info", "--url", url], run.h), 0);
    assert.match(run.io.out, /\| 1 +\| create users \| V1__create_users\.es \| applied/);
    assert.match(run.io.out, /\| 2 +\| email +\| V2__email\.es +\| pending/);
    files["V1__create_users.es"] += "\n# edited";
    run = host(files);
    assert.equal(await runMigrate(["validate", "--url", url], run.h), 1);
    assert.match(run.io.err, /V1__create_users\.es: was edited after it was applied/);
    run = host(files);
    assert.equal(await runMigrate(["--url", url], run.h), 1);
    assert.match(run.io.err, /MIGRATION|checksum/);
    run = host({ "V1__x.es": "PUT /a", "V1_0__y.es": "PUT /b" });
    assert.equal(await runMigrate(["--engine"], run.h), 1);
    assert.match(run.io.err, /version 1 is taken by/);
    run = host({});
    assert.equal(await runMigrate(["--nope"], run.h), 64);
    assert.equal(await runMigrate(["repair", "--url", url], run.h), 0);
    assert.match(run.io.out, /no failed version/);
  } finally {
    await server.close();
    engine.close();
  }
});
