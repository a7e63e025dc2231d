import assert from "node:assert/strict";
import { encodeJson, encodeQueryValue, quoteJson } from "./value_encoder.ts";
import { encodePathSegment } from "./path_segment.ts";
import { BindError, InvalidArgumentError } from "../errors.ts";

function bindError(fn: () => unknown, index: number, message: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof BindError, String(error));
    assert.equal(error.index, index);
    assert.match(error.message, new RegExp(`argument ${index}\\b`));
    assert.match(error.message, message);
    return true;
  });
}

Deno.test("encodeJson: scalars", () => {
  assert.equal(encodeJson('a"b\\c\n', 1), '"a\\"b\\\\c\\n"');
  assert.equal(encodeJson(null, 1), "null");
  assert.equal(encodeJson(true, 1), "true");
  assert.equal(encodeJson(-1.5, 1), "-1.5");
  assert.equal(encodeJson(-0, 1), "0");
  assert.equal(encodeJson(1e21, 1), "1e+21");
  assert.equal(encodeJson(2n ** 70n, 1), "1180591620717411303424");
});

Deno.test("encodeJson: an injection attempt stays one JSON string", () => {
  const text = encodeJson('"}, "x": {', 1);
  assert.equal(JSON.parse(text), '"}, "x": {');
});

Deno.test("encodeJson: dates, binary, maps, sets, toJSON, boxed values, class instances", () => {
  assert.equal(encodeJson(new Date(0), 1), '"1970-01-01T00:00:00.000Z"');
  assert.equal(encodeJson({ at: new Date(0) }, 1), '{"at":"1970-01-01T00:00:00.000Z"}');
  assert.equal(encodeJson(new Uint8Array([0, 255, 1]), 1), '"AP8B"');
  assert.equal(encodeJson(new Map<string, unknown>([["a", 1], ["b", [2n]]]), 1), '{"a":1,"b":[2]}');
  assert.equal(encodeJson(new Set(["x", "y"]), 1), '["x","y"]');
  assert.equal(encodeJson({ toJSON: () => ({ v: 1 }) }, 1), '{"v":1}');
  assert.equal(encodeJson(new String("s"), 1), '"s"');
  class User {
    name = "al";
    age = 3;
    greet(): string {
      return "hi";
    }
  }
  assert.equal(encodeJson(new User(), 1), '{"name":"al","age":3}');
  assert.equal(encodeJson({ a: undefined, b: 1 }, 1), '{"b":1}');
  const shared = { x: 1 };
  assert.equal(encodeJson([shared, shared], 1), '[{"x":1},{"x":1}]');
  const deep = { a: [{ b: "c", d: null }], "e f": {} };
  assert.equal(encodeJson(deep, 1), JSON.stringify(deep));
});

Deno.test("encodeJson: bad values name the argument index and where", () => {
  bindError(() => encodeJson(undefined, 3), 3, /undefined; pass null/);
  bindError(() => encodeJson(NaN, 2), 2, /NaN is not valid JSON/);
  bindError(() => encodeJson(Infinity, 4), 4, /Infinity is not valid JSON/);
  bindError(() => encodeJson(-Infinity, 4), 4, /-Infinity/);
  bindError(() => encodeJson(() => 1, 5), 5, /a function has no JSON form/);
  bindError(() => encodeJson(Symbol("s"), 6), 6, /a symbol has no JSON form/);
  bindError(() => encodeJson(new Date("nope"), 7), 7, /invalid/);
  bindError(() => encodeJson({ a: [1, NaN] }, 1), 1, /at \.a\[1\]/);
  bindError(() => encodeJson([undefined], 1), 1, /at \[0\].*undefined/);
  bindError(() => encodeJson({ "a b": { f: () => 1 } }, 2), 2, /at \["a b"\]\.f/);
  bindError(() => encodeJson(new Map([[1, 2]]), 1), 1, /Map key must be a string/);
  bindError(() => encodeJson(new Float64Array(1), 1), 1, /only Uint8Array/);
  const circular: Record<string, unknown> = { a: 1 };
  circular.self = circular;
  bindError(() => encodeJson(circular, 8), 8, /circular.*at \.self|at \.self.*circular/);
  const cycle: unknown[] = [];
  cycle.push([cycle]);
  bindError(() => encodeJson(cycle, 9), 9, /circular/);
});

Deno.test("encodePathSegment: hostile values stay one segment", () => {
  assert.equal(encodePathSegment("../_all", 1), "..%2F_all");
  assert.equal(encodePathSegment("a/b", 1), "a%2Fb");
  assert.equal(encodePathSegment("x?y", 1), "x%3Fy");
  assert.equal(encodePathSegment("#frag", 1), "%23frag");
  assert.equal(encodePathSegment("a%b&c=d+e f", 1), "a%25b%26c%3Dd%2Be%20f");
  assert.equal(encodePathSegment("ü", 1), "%C3%BC");
  assert.throws(() => encodePathSegment(".", 1), InvalidArgumentError);
  assert.throws(() => encodePathSegment("..", 1), InvalidArgumentError);
  assert.equal(encodePathSegment("...", 1), "...");
  assert.equal(encodePathSegment(42, 1), "42");
  assert.equal(encodePathSegment(9007199254740993n, 1), "9007199254740993");
  assert.equal(encodePathSegment(["a", "b/c"], 1), "a,b%2Fc");
  assert.equal(encodePathSegment(new Date(0), 1), "1970-01-01T00%3A00%3A00.000Z");
});

Deno.test("encodePathSegment and encodeQueryValue: bad values", () => {
  bindError(() => encodePathSegment("", 1), 1, /empty string/);
  bindError(() => encodePathSegment(undefined, 2), 2, /undefined/);
  bindError(() => encodePathSegment(null, 3), 3, /null cannot be used in a path segment/);
  bindError(() => encodePathSegment({}, 4), 4, /an object cannot be used/);
  bindError(() => encodePathSegment(NaN, 5), 5, /NaN cannot be used/);
  bindError(() => encodePathSegment("\ud800", 6), 6, /lone surrogate/);
  bindError(() => encodePathSegment([], 7), 7, /empty array/);
  bindError(() => encodeQueryValue(null, 8), 8, /query-string value/);
  bindError(() => encodeQueryValue(Symbol(), 9), 9, /symbol/);
});

Deno.test("encodeQueryValue: percent-encodes separators", () => {
  assert.equal(encodeQueryValue("a&b=c#d+e f", 1), "a%26b%3Dc%23d%2Be%20f");
  assert.equal(encodeQueryValue("", 1), "");
  assert.equal(encodeQueryValue(false, 1), "false");
  assert.equal(encodeQueryValue(["_id", "name"], 1), "_id,name");
});

Deno.test("quoteJson gives JSON.stringify's text for every string", () => {
  // Every code unit alone, short and long runs around the hand-quoted limit, and random mixes.
  for (let c = 0; c < 0x10000; c++) {
    const s = String.fromCharCode(c);
    assert.equal(quoteJson(s), JSON.stringify(s), `U+${c.toString(16)}`);
  }
  for (const n of [0, 1, 63, 64, 65, 200]) {
    assert.equal(quoteJson("a".repeat(n)), JSON.stringify("a".repeat(n)));
    assert.equal(quoteJson("a".repeat(n) + '"'), JSON.stringify("a".repeat(n) + '"'));
  }
  const pool = ["a", "é", "\\", '"', "\n", "\u0000", "\u001f", "\ud83d", "\ude00", "😀", " "];
  let seed = 7;
  for (let k = 0; k < 2000; k++) {
    let s = "";
    const n = k % 70;
    for (let i = 0; i < n; i++) s += pool[(seed = (seed * 1103515245 + 12345) >>> 0) % pool.length];
    assert.equal(quoteJson(s), JSON.stringify(s));
    assert.equal(encodeJson({ [s]: s }, 1), JSON.stringify({ [s]: s }));
  }
});
