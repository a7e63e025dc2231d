import assert from "node:assert/strict";
import { MigrationError } from "./errors.ts";
import { readMigrations } from "./migrations.ts";
import { readReindexSpec } from "./reindex.ts";

function refused(code: string, pattern: RegExp, site: Partial<MigrationError> = {}) {
  return (e: unknown) => {
    assert.ok(e instanceof MigrationError);
    assert.equal(e.code, code);
    assert.match(e.message, pattern);
    for (const [k, v] of Object.entries(site)) assert.equal(e[k as keyof MigrationError], v, k);
    return true;
  };
}

Deno.test("readMigrations: versions sort as numbers, with one spelling each", async () => {
  const ms = await readMigrations([
    { name: "V1_10__c.es", text: "PUT /c" },
    { name: "V1.9__b.es", text: "PUT /b" },
    { name: "V01__a_b_c.es", text: "/* block */ PUT /a; PUT /a2 # trailing" },
  ]);
  assert.deepEqual(ms.map((m) => [m.version, m.description, m.steps.length]), [
    ["1", "a b c", 2],
    ["1.9", "b", 1],
    ["1.10", "c", 1],
  ]);
});

Deno.test("readMigrations: bad names, duplicates, syntax and placeholders say where", async () => {
  await assert.rejects(
    readMigrations([{ name: "V2_add.es", text: "" }]),
    refused("MIGRATION_FILE", /V<version>__<description>/, { file: "V2_add.es" }),
  );
  await assert.rejects(
    readMigrations([{ name: "V1__a.es", text: "" }, { name: "V1_0__b.es", text: "" }]),
    refused("MIGRATION_FILE", /version 1 is taken by V1__a\.es/),
  );
  await assert.rejects(
    readMigrations([{ name: "V1__a.es", text: 'PUT /a\nPUT /a/_doc/1 {"x": nope}' }]),
    refused("MIGRATION_FILE", /do not parse/, { file: "V1__a.es", line: 2 }),
  );
  await assert.rejects(
    readMigrations([{ name: "V1__a.es", text: "PUT /a\nDELETE /a/_doc/{?}" }]),
    refused("MIGRATION_FILE", /no arguments to bind/, { command: 2, line: 2 }),
  );
  await assert.rejects(
    readMigrations([{ name: "V1__a.json", text: '{"reindex": {"alias": "Users"}}' }]),
    refused("MIGRATION_FILE", /plain lower-case alias/, { command: 1 }),
  );
  await assert.rejects(
    readMigrations([{ name: "V1__a.json", text: '{"copy": {}}' }]),
    refused("MIGRATION_FILE", /holds \{"reindex"/),
  );
});

Deno.test("readReindexSpec: every member is checked", () => {
  assert.throws(() => readReindexSpec({ alias: "u", copy: "fast" }), /"copy" is/);
  assert.throws(() => readReindexSpec({ alias: "u", batchSize: 0 }), /positive integer/);
  assert.throws(() => readReindexSpec({ alias: "u", mappings: [] }), /"mappings" is an object/);
  assert.throws(() => readReindexSpec({ alias: "u", index: "A*" }), /"index" is a plain/);
  assert.equal(readReindexSpec({ alias: "u", deleteOld: true, copy: "client" }).copy, "client");
});
