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

Deno.test("bulk lines with only an id take the request's routing; their own metadata wins", async () => {
  const { Engine } = await import("../engine.ts");
  const engine = new Engine();
  const call = async (method: string, path: string, body?: string) => {
    const res = await engine.fetch(`http://engine${path}`, {
      method,
      body,
      headers: { "content-type": "application/x-ndjson" },
    });
    return { status: res.status, body: await res.json() };
  };
  try {
    const bulk = await call(
      "POST",
      "/i/_bulk?routing=r&refresh=true",
      [
        '{"index":{"_id":"1"}}',
        '{"a":1}',
        '{"index":{"_id":"2","routing":"own"}}',
        '{"a":2}',
        '{"index":{"_id":"3","version":3,"version_type":"external"}}',
        '{"a":3}',
        '{"index":{"_id":"1","if_seq_no":99,"if_primary_term":1}}',
        '{"a":4}',
        "",
      ].join("\n"),
    );
    assert.equal(bulk.status, 200);
    const items = bulk.body.items as Array<Record<string, Record<string, unknown>>>;
    assert.deepEqual(items.map((i) => Object.values(i)[0]!.status), [201, 201, 201, 409]);
    assert.equal(items[2]!.index!._version, 3);
    assert.equal((await call("GET", "/i/_doc/1?routing=r")).body._routing, "r");
    assert.equal((await call("GET", "/i/_doc/2?routing=own")).body._routing, "own");
    assert.equal((await call("GET", "/i/_doc/1?routing=r")).body._source.a, 1);
  } finally {
    engine.close();
  }
});
