import assert from "node:assert/strict";
import {
  keepSourceText,
  RawJson,
  sourceOut,
  stringifyReply,
  writtenAsDoubles,
} from "./raw_source.ts";

Deno.test("stringifyReply puts every RawJson's text back verbatim, in order", () => {
  const texts = ['{ "b" : 1,"a":2 }', "[1,  2]", '"x"', "12345678901234567890"];
  const body = {
    hits: texts.map((t, i) => ({ _id: String(i), _source: new RawJson(t) })),
    tail: new RawJson("{}"),
  };
  assert.equal(
    stringifyReply(body),
    `{"hits":[${texts.map((t, i) => `{"_id":"${i}","_source":${t}}`).join(",")}],"tail":{}}`,
  );
});

Deno.test("stringifyReply writes bigints and RawJson texts together, in order", () => {
  const body = { a: [new RawJson('{"x":1}'), 10n ** 20n, new RawJson("[1, 2]")], b: 2n ** 70n };
  assert.equal(
    stringifyReply(body),
    '{"a":[{"x":1},100000000000000000000,[1, 2]],"b":1180591620717411303424}',
  );
});

Deno.test("stringifyReply leaves strings that look like placeholders alone", () => {
  const body = { s: "\u0001raw0", t: '"\\u0001raw1"', r: new RawJson('"\\u0001raw"') };
  assert.equal(
    stringifyReply(body),
    '{"s":"\\u0001raw0","t":"\\"\\\\u0001raw1\\"","r":"\\u0001raw"}',
  );
  assert.deepEqual(JSON.parse(stringifyReply(body)), {
    s: "\u0001raw0",
    t: '"\\u0001raw1"',
    r: "\u0001raw",
  });
});

Deno.test("stringifyReply indents around RawJson texts as JSON.stringify does", () => {
  const body = { a: new RawJson('{ "y" : 2 }'), b: [1] };
  assert.equal(stringifyReply(body, 2), '{\n  "a": { "y" : 2 },\n  "b": [\n    1\n  ]\n}');
});

Deno.test("a part written as doubles keeps the RawJson texts around and inside it", () => {
  const source = { n: 2 ** 60 };
  keepSourceText(source, '{"n":1152921504606846976}');
  const body = {
    before: new RawJson("[0]"),
    metric: writtenAsDoubles({ value: 2 ** 60, src: sourceOut(source) }),
    after: new RawJson("[9]"),
  };
  assert.equal(
    stringifyReply(body),
    '{"before":[0],"metric":{"value":1.152921504606847e+18,"src":{"n":1152921504606846976}},' +
      '"after":[9]}',
  );
});

Deno.test("outside stringifyReply a RawJson is its parsed value", () => {
  assert.equal(JSON.stringify({ a: new RawJson('{ "b" : [1] }') }), '{"a":{"b":[1]}}');
});
