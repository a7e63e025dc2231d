import assert from "node:assert/strict";
import { compareExact, exactInteger, fromBigInt, toDouble } from "./exact_long.ts";

Deno.test("exactInteger: numbers while safe, bigints beyond, NaN for what is not numeric", () => {
  assert.equal(exactInteger(42), 42);
  assert.equal(exactInteger(1.9), 1); // coerced like Elasticsearch's long
  assert.equal(exactInteger(-1.9), -1);
  assert.equal(exactInteger(9007199254740993n), 9007199254740993n);
  assert.equal(exactInteger(12n), 12);
  assert.equal(exactInteger(" 9223372036854775807 "), 9223372036854775807n);
  assert.equal(exactInteger("-17"), -17);
  assert.equal(exactInteger("2.5"), 2);
  assert.equal(exactInteger(2 ** 60), 2n ** 60n); // an unsafe double stands for its exact value
  assert.ok(Number.isNaN(exactInteger("")));
  assert.ok(Number.isNaN(exactInteger("abc")));
  assert.ok(Number.isNaN(exactInteger(true)));
  assert.equal(exactInteger(Infinity), Infinity);
});

Deno.test("compareExact orders numbers and bigints together exactly", () => {
  const values = [9007199254740993n, 9007199254740992, -1, 9223372036854775807n, 5, -(2n ** 63n)];
  assert.deepEqual([...values].sort(compareExact), [
    -(2n ** 63n),
    -1,
    5,
    9007199254740992,
    9007199254740993n,
    9223372036854775807n,
  ]);
  assert.equal(compareExact(9007199254740992, 9007199254740992n), 0);
  assert.equal(fromBigInt(9007199254740991n), 9007199254740991);
  assert.equal(fromBigInt(9007199254740992n), 9007199254740992n);
  assert.equal(toDouble(9007199254740993n), 9007199254740992);
});
