import assert from "node:assert/strict";
import { countsOf, isLibraryFile, keyOf, offendersOf } from "./check_params.ts";

Deno.test("five positional parameters offend, four do not; `this` does not count", () => {
  const text = `
export function four(a: number, b: number, c: number, d: number) {}
export function five(a: number, b: number, c: number, d: number, e: number) {}
function withThis(this: unknown, a: number, b: number, c: number, d: number) {}
class K { constructor(a: string, b: string, c: string, d: string, e: string) {} }
const arrow = (a: 1, b: 2, c: 3, d: 4, e: 5) => a;`;
  const found = offendersOf("driver/x.ts", text);
  assert.deepEqual(found.map((o) => [o.name, o.params]), [
    ["five", 5],
    ["K.constructor", 5],
    ["arrow", 5],
  ]);
  assert.equal(keyOf(found[0]!), "driver/x.ts#five");
});

Deno.test("a positional boolean offends, a trailing optional or sole flag does not", () => {
  const text = `
function trailing(a: string, loud?: boolean) {}
function trailingDefault(a: string, loud = false) {}
function middle(a: string, loud: boolean, b: string) {}
function required(a: string, loud: boolean) {}
function two(a: string, x: boolean, y?: boolean) {}
function orUndefined(flag: boolean | undefined, b: string) {}
function notAFlag(v: boolean | string, b: string) {}
function options(a: string, o: { loud: boolean }) {}
function sole(on: boolean) {}`;
  const found = offendersOf("template/y.ts", text);
  assert.deepEqual(found.map((o) => [o.name, o.booleans]), [
    ["middle", ["loud"]],
    ["required", ["loud"]],
    ["two", ["x", "y"]],
    ["orUndefined", ["flag"]],
  ]);
});

Deno.test("anonymous functions are named after their parent; methods after their class", () => {
  const text = `
class C { #m(a: boolean, b: number) { [1].map((x: boolean, y: number) => x); } }
export function outer() { return function (a: boolean, b: number) {}; }`;
  assert.deepEqual(offendersOf("xml/z.ts", text).map((o) => o.name), [
    "C.#m",
    "C.#m/<arrow>",
    "outer/<fn>",
  ]);
});

Deno.test("only library rooms count, tests and benches do not; counts go per room", () => {
  assert.equal(isLibraryFile("driver/a.ts"), true);
  assert.equal(isLibraryFile("driver/a_test.ts"), false);
  assert.equal(isLibraryFile("tests/a.ts"), false);
  assert.equal(isLibraryFile("bench/a.ts"), false);
  assert.equal(isLibraryFile("playground/a.ts"), false);
  const list = offendersOf("lambda/l.ts", "function f(a: 1, b: 2, c: 3, d: 4, e: boolean) {}");
  assert.deepEqual(countsOf(list).get("lambda"), { long: 1, flags: 1 });
  assert.deepEqual(countsOf(list).get("driver"), { long: 0, flags: 0 });
});
