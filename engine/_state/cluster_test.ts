import assert from "node:assert/strict";
import { Cluster } from "./cluster.ts";

function cluster(): Cluster {
  const c = new Cluster(() => 0);
  for (const name of ["logs-1", "logs-2", "users"]) c.create(name, {}, {});
  c.putAlias(c.get("users"), "people", {});
  c.putAlias(c.get("logs-1"), "logs", {});
  c.putAlias(c.get("logs-2"), "logs", { is_write_index: true });
  return c;
}

const names = (list: { name: string }[]) => list.map((i) => i.name);

Deno.test("resolve: lists, wildcards, exclusions, aliases and _all", () => {
  const c = cluster();
  assert.deepEqual(names(c.resolve("_all")), ["logs-1", "logs-2", "users"]);
  assert.deepEqual(names(c.resolve("logs-*,-logs-2")), ["logs-1"]);
  assert.deepEqual(names(c.resolve("people,logs-2")), ["users", "logs-2"]);
  assert.deepEqual(names(c.resolve("logs")), ["logs-1", "logs-2"]);
  assert.deepEqual(names(c.resolve("nope", { ignoreUnavailable: true })), []);
  assert.throws(() => c.resolve("nope"), /no such index \[nope\]/);
  assert.throws(() => c.resolve("zz*", { allowNoIndices: false }), /no such index/);
});

Deno.test("closed indices are skipped by wildcards and refused by name", () => {
  const c = cluster();
  c.get("users").closed = true;
  assert.deepEqual(names(c.resolve("*")), ["logs-1", "logs-2"]);
  assert.throws(
    () => c.resolve("users"),
    (e: Error & { type?: string }) => e.type === "index_closed_exception",
  );
});

Deno.test("writeIndex: aliases need a single index or a write index; missing indices are created", () => {
  const c = cluster();
  assert.equal(c.writeIndex("people").name, "users");
  assert.equal(c.writeIndex("logs").name, "logs-2");
  assert.equal(c.writeIndex("fresh").name, "fresh");
  assert.throws(() => c.writeIndex("other", true), /\[require_alias\] request flag is \[true\]/);
  assert.throws(() => c.create("users", {}, {}), /already exists/);
  assert.throws(() => c.create("_bad", {}, {}), /must not start with/);
});
