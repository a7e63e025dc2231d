import assert from "node:assert/strict";
import { CommandBuffer } from "./command_buffer.ts";

function feed(lines: string[]): unknown[] {
  const buffer = new CommandBuffer();
  return lines.map((line) => buffer.push(line));
}

Deno.test("CommandBuffer: a command without a body runs at the end of its line", () => {
  assert.deepEqual(feed(["GET /", "GET /idx/_doc/{?}"]), [
    { kind: "command", text: "GET /" },
    { kind: "command", text: "GET /idx/_doc/{?}" },
  ]);
});

Deno.test("CommandBuffer: braces and brackets inside strings do not count", () => {
  const out = feed(['POST /i/_doc {"a": "}]{", "b": [', '  "\\"}"', "]}"]);
  assert.deepEqual(out.slice(0, 2), [null, null]);
  assert.deepEqual(out[2], {
    kind: "command",
    text: 'POST /i/_doc {"a": "}]{", "b": [\n  "\\"}"\n]}',
  });
});

Deno.test("CommandBuffer: _bulk and _msearch read NDJSON up to an empty line", () => {
  const out = feed(["POST /_bulk", '{"index": {"_index": "i"}}', '{"a": 1}', ""]);
  assert.deepEqual(out, [null, null, null, {
    kind: "command",
    text: 'POST /_bulk\n{"index": {"_index": "i"}}\n{"a": 1}\n',
  }]);
  assert.equal(feed(["GET /i/_msearch?x=1", ""])[1] !== null, true);
});

Deno.test("CommandBuffer: blank lines and comments between commands are skipped; reset drops", () => {
  const buffer = new CommandBuffer();
  assert.equal(buffer.push(""), null);
  assert.equal(buffer.push("# a comment"), null);
  assert.equal(buffer.pending, false);
  assert.equal(buffer.push("PUT /i {"), null);
  assert.equal(buffer.pending, true);
  buffer.reset();
  assert.equal(buffer.pending, false);
  assert.deepEqual(buffer.push(".FORMAT  json"), {
    kind: "directive",
    name: "format",
    args: ["json"],
  });
});

Deno.test("CommandBuffer: every NDJSON endpoint of the driver reads lines up to an empty line", () => {
  const out = feed(["POST _msearch/template", "{}", '{"id": "t"}', ""]);
  assert.deepEqual(out, [null, null, null, {
    kind: "command",
    text: 'POST _msearch/template\n{}\n{"id": "t"}\n',
  }]);
  // A search's body ends where its JSON closes.
  assert.notEqual(feed(["POST /i/_search", "{}"])[1], null);
});

Deno.test('CommandBuffer: a """ string over lines and comments are read as the driver reads them', () => {
  const out = feed([
    'POST /i/_doc {"text": """one {',
    'two } still text """, // a comment: }',
    '"n": 1 /* } */',
    "}",
  ]);
  assert.deepEqual(out.slice(0, 3), [null, null, null]);
  assert.deepEqual(out[3], {
    kind: "command",
    text:
      'POST /i/_doc {"text": """one {\ntwo } still text """, // a comment: }\n"n": 1 /* } */\n}',
  });
});
