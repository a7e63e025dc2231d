import assert from "node:assert/strict";
import { DataSource } from "../driver/mod.ts";
import { LambdaTemplate } from "../lambda/mod.ts";
import { defineEntity } from "../template/mod.ts";
import { MapperError } from "./errors.ts";
import { targetOf } from "./_entity_target.ts";
import { withSample } from "./_samples.ts";

class User {
  id = "";
  name = "";
  age = 0;
  active = true;
  seq = "";
}
defineEntity(User, { index: "users", key: "id", version: "seq" });

const lambda = new LambdaTemplate(new DataSource("http://127.0.0.1:9200"));
const target = targetOf(User, "UserMapper");

function sampleCommand(sample: Partial<User>): { text: string; args: readonly unknown[] } {
  return withSample(lambda.query(User), target, sample, "selectBySample").toCommand();
}

Deno.test("an entity sample: only fields that differ from a fresh instance are conditions", () => {
  const sample = new User();
  sample.name = "ann";
  assert.deepEqual(sampleCommand(sample), {
    text: 'POST /{?}/_search {"query":{"bool":{"filter":[{"term":{"name":?}}]}},' +
      '"seq_no_primary_term":true,"size":?,"track_total_hits":true}',
    args: ["users", "ann", 10000],
  });
});

Deno.test("a plain-object sample matches defaults and nulls, and never the version field", () => {
  const sample = { age: 0, seq: "3:1", name: null } as unknown as Partial<User>;
  assert.deepEqual(sampleCommand(sample), {
    text: 'POST /{?}/_search {"query":{"bool":{"filter":[{"term":{"age":?}},' +
      '{"bool":{"must_not":[{"exists":{"field":"name"}}]}}]}},' +
      '"seq_no_primary_term":true,"size":?,"track_total_hits":true}',
    args: ["users", 0, 10000],
  });
});

Deno.test("a sample that is not an object, or holds a non-scalar, is a MapperError with its site", () => {
  assert.throws(
    () => withSample(lambda.query(User), target, null as unknown as Partial<User>, "m"),
    (e: unknown) => e instanceof MapperError && /the sample must be an object/.test(e.message),
  );
  assert.throws(
    () => sampleCommand({ name: ["a"] } as unknown as Partial<User>),
    (e: unknown) => {
      assert.ok(e instanceof MapperError);
      assert.match(e.message, /sample field "name" holds an array; samples match scalar fields/);
      assert.match(e.message, /UserMapper/);
      return true;
    },
  );
});
