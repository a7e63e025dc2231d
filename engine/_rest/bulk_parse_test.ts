import assert from "node:assert/strict";
import { parseBulk } from "./bulk.ts";
import { EngineError } from "../_errors.ts";

Deno.test("parseBulk reads the common action shapes as a full parse does", () => {
  const quick = parseBulk('{"index":{}}\n{"a":1}\n{"index":{"_id":"x-1 é"}}\n{"b":2}\n');
  const spaced = parseBulk('{ "index": { } }\n{"a":1}\n{ "index": {"_id": "x-1 é"} }\n{"b":2}\n');
  assert.deepEqual(quick, spaced);
  assert.deepEqual(quick.map((a) => [a.op, a.meta, a.sourceText]), [
    ["index", {}, '{"a":1}'],
    ["index", { _id: "x-1 é" }, '{"b":2}'],
  ]);
});

Deno.test("parseBulk: lines that only look like the common shapes get the full parse", () => {
  // An escape in the id: unescaped as JSON does.
  assert.deepEqual(parseBulk('{"index":{"_id":"a\\"b"}}\n{}\n')[0]!.meta, { _id: 'a"b' });
  // More keys after the id: all read.
  assert.deepEqual(parseBulk('{"index":{"_id":"a","routing":"r"}}\n{}\n')[0]!.meta, {
    _id: "a",
    routing: "r",
  });
  // What JSON refuses stays refused: a raw control char in the id, an unknown key.
  assert.throws(() => parseBulk('{"index":{"_id":"a\tb"}}\n{}\n'), EngineError);
  assert.throws(
    () => parseBulk('{"index":{"_id":"a","x":"}}\n{}\n'),
    (e: unknown) => e instanceof EngineError && /line \[1\]/.test(e.message),
  );
});
