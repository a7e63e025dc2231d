import assert from "node:assert/strict";
import { parseScript } from "./command_tokenizer.ts";
import { CommandSyntaxError } from "../errors.ts";

function syntaxError(text: string, line: number, column: number, message: RegExp): void {
  assert.throws(
    () => parseScript(text),
    (error: unknown) => {
      assert.ok(error instanceof CommandSyntaxError, String(error));
      assert.match(error.message, message);
      assert.equal(error.line, line, error.message);
      assert.equal(error.column, column, error.message);
      return true;
    },
  );
}

Deno.test("methods in any case; leading / is optional", () => {
  const script = parseScript("get _search\nPost /i/_doc {}\nput i\ndelete /i\nHEAD i/_doc/1");
  assert.deepEqual(script.commands.map((c) => c.method), ["GET", "POST", "PUT", "DELETE", "HEAD"]);
  assert.deepEqual(script.commands.map((c) => c.target[0]), [
    "/_search",
    "/i/_doc",
    "/i",
    "/i",
    "/i/_doc/1",
  ]);
  assert.deepEqual(script.commands.map((c) => c.line), [1, 2, 3, 4, 5]);
});

Deno.test("unknown method names the method and the accepted ones", () => {
  syntaxError("PATCH /i", 1, 1, /unknown method PATCH; use one of GET, POST, PUT, DELETE, HEAD/);
  syntaxError("GET /a\n  fetch /b", 2, 3, /unknown method fetch/);
});

Deno.test("query strings are kept; {?} is a query value", () => {
  const [c] = parseScript("GET /i/_search?size=1&q={?}&pretty").commands;
  assert.deepEqual(c!.target, ["/i/_search?size=1&q=", "&pretty"]);
  assert.equal(c!.endpoint, "_search");
  assert.deepEqual(c!.slots.map((s) => s.kind), ["query"]);
  syntaxError("GET /i/_search?{?}=1", 1, 16, /write name=\{\?\}/);
});

Deno.test("{?} in a whole or partial path segment", () => {
  const [c] = parseScript("GET /logs-{?}/_doc/{?}").commands;
  assert.deepEqual(c!.target, ["/logs-", "/_doc/", ""]);
  assert.equal(c!.endpoint, "");
  assert.equal(c!.placeholderCount, 2);
});

Deno.test("GET /idx/_doc/? is an error at the ? saying to use {?}", () => {
  syntaxError("GET /idx/_doc/?", 1, 15, /use \{\?\} for a value in a path/);
  syntaxError("\n  GET /idx/_doc/? {}", 2, 17, /use \{\?\}/);
});

Deno.test("a multi-line body is validated and emitted compact, comments stripped", () => {
  const [c] = parseScript(`POST /i/_search
{
  # hash comment
  "query": { // line comment
    "match": { "t": "a ? b // not a comment /* nor this */ # nor this" } /* block */
  },
  "size": -1.5e+3, "ok": [true, false, null]
}`).commands;
  const body = c!.body?.join("");
  assert.equal(
    body,
    '{"query":{"match":{"t":"a ? b // not a comment /* nor this */ # nor this"}},' +
      '"size":-1.5e+3,"ok":[true,false,null]}',
  );
  assert.equal(c!.placeholderCount, 0);
  assert.ok(JSON.parse(body!));
});

Deno.test("escapes are kept exactly once", () => {
  const [c] = parseScript('PUT /i/_doc/1 {"a": "x\\"y\\\\z\\n\\u00e9\\/"}').commands;
  const body = c!.body!.join("");
  assert.equal(body, '{"a":"x\\"y\\\\z\\n\\u00e9\\/"}');
  assert.equal(JSON.parse(body).a, 'x"y\\z\né/');
});

Deno.test("triple-quoted strings become escaped JSON strings", () => {
  const [c] = parseScript('POST /i/_doc\n{"script": """\n  if (x == "a\\b") {\n  }"""}').commands;
  const body = c!.body!.join("");
  assert.equal(JSON.parse(body).script, '\n  if (x == "a\\b") {\n  }');
  syntaxError('POST /i/_doc {"s": """abc}', 1, 20, /unterminated """ string/);
});

Deno.test("placeholders as value, key and whole body; ? inside a string is text", () => {
  const [c] = parseScript('POST /i/_doc {?: ?, "b": [?, "?"], "c": {"d": ?}}').commands;
  assert.deepEqual(c!.slots.map((s) => s.kind), ["key", "value", "value", "value"]);
  assert.deepEqual(c!.body, ["{", ":", ',"b":[', ',"?"],"c":{"d":', "}}"]);
  const [whole] = parseScript("POST /i/_doc\n  ?").commands;
  assert.deepEqual(whole!.body, ["", ""]);
  assert.deepEqual(whole!.slots, [{ kind: "body", line: 2, column: 3 }]);
});

Deno.test("NDJSON bodies for _bulk and _msearch: one compact line per value, ending with \\n", () => {
  const [bulk] = parseScript(`POST /_bulk
{"index": {"_index": "i"}}
{"a": 1,
 "b": [1, 2]}
// comment between lines
{"delete": {"_id": "2"}}
?
GET /x`).commands;
  assert.equal(bulk!.ndjson, true);
  assert.deepEqual(bulk!.body, [
    '{"index":{"_index":"i"}}\n{"a":1,"b":[1,2]}\n{"delete":{"_id":"2"}}\n',
    "\n",
  ]);
  assert.deepEqual(bulk!.slots.map((s) => s.kind), ["line"]);
  const [msearch] = parseScript('GET i/_msearch\n{}\n{"query": {"match_all": {}}}').commands;
  assert.equal(msearch!.ndjson, true);
  assert.equal(msearch!.body!.join(""), '{}\n{"query":{"match_all":{}}}\n');
  assert.equal(parseScript("POST /i/_search {}").commands[0]!.ndjson, false);
});

Deno.test("NDJSON for every x-ndjson endpoint of the specification, slots filling {name}", () => {
  const ndjson = (text: string) => parseScript(text).commands[0]!.ndjson;
  assert.equal(ndjson('GET my-index/_msearch/template\n{}\n{"id": "t"}'), true);
  assert.equal(ndjson("POST _text_structure/find_structure\n{}\n{}"), true);
  assert.equal(ndjson("POST /_monitoring/bulk?system_id=x\n{}\n{}"), true);
  assert.equal(ndjson("POST _ml/anomaly_detectors/{?}/_data\n{}\n{}"), true);
  assert.equal(ndjson("POST /{?}/_bulk/\n{}\n{}"), true);
  // A fixed segment of a template is never filled by a slot, and the shape must match.
  assert.equal(ndjson("POST /_msearch/{?} {}"), false);
  assert.equal(ndjson("POST /a/b/_bulk {}"), false);
  assert.equal(ndjson("POST /_monitoring/{?} {}"), false);
  assert.equal(ndjson("POST /i/_doc/template {}"), false);
});

Deno.test("the path may stand on the line after the method, as in Kibana's console", () => {
  const [a, b] = parseScript('POST\n  _ml/x/_update\n{"a": 1}\nGET\n/i/_search').commands;
  assert.deepEqual([a!.method, a!.target, a!.body, a!.line], ["POST", ["/_ml/x/_update"], [
    '{"a":1}',
  ], 1]);
  assert.deepEqual([b!.method, b!.target, b!.body, b!.line], ["GET", ["/i/_search"], undefined, 4]);
  // A body, another command or a comment on the next line is still a missing path.
  syntaxError("POST\n{}", 1, 5, /missing path after POST/);
  syntaxError("GET\nGET /x", 1, 4, /missing path after GET/);
  syntaxError("GET\n# why\n/x", 1, 4, /missing path after GET/);
  syntaxError("GET\n// why\n/x", 1, 4, /missing path after GET/);
});

Deno.test("several commands: newlines, ; and commands after bodies", () => {
  const script = parseScript(
    'POST /a/_doc {"x": ?}; PUT /b/_doc/{?} {"y": ?}\nDELETE /c/_doc/{?}\n# end\n',
  );
  assert.equal(script.commands.length, 3);
  assert.equal(script.placeholderCount, 4);
  assert.deepEqual(script.commands.map((c) => c.text), [
    'POST /a/_doc {"x": ?}',
    'PUT /b/_doc/{?} {"y": ?}',
    "DELETE /c/_doc/{?}",
  ]);
  assert.deepEqual(script.commands.map((c) => c.column), [1, 24, 1]);
});

Deno.test("/* inside a path is path text; /*+ at command start is a hint", () => {
  const script = parseScript("POST /*/_refresh\n/*+ trace */ POST /*,-x/_open /* comment */");
  assert.deepEqual(script.commands.map((c) => c.target[0]), ["/*/_refresh", "/*,-x/_open"]);
  assert.deepEqual(script.commands[1]!.hints, [{ name: "trace", value: true, placeholder: false }]);
});

Deno.test("hints: several blocks, , or ; separators, value kinds, lower-cased names", () => {
  const [c] = parseScript(
    "/*+ Overwrite_Find_Limit=10; ROUTE=r1 */\n" +
      '/*+ overwrite_find_skip = ?, flag, s=\'a b\', d="x\\"y", n=null, f=false, x=-1.5 */\n' +
      "GET /i/_search",
  ).commands;
  assert.deepEqual(c!.hints.map((h) => [h.name, h.value, h.placeholder]), [
    ["overwrite_find_limit", 10, false],
    ["route", "r1", false],
    ["overwrite_find_skip", null, true],
    ["flag", true, false],
    ["s", "a b", false],
    ["d", 'x"y', false],
    ["n", null, false],
    ["f", false, false],
    ["x", -1.5, false],
  ]);
  assert.deepEqual(c!.slots, [{ kind: "hint", line: 2, column: 5 }]);
  assert.equal(c!.hintSlotCount, 1);
});

Deno.test("hint errors: value of another type names the hint; bad limit; no command", () => {
  syntaxError("/*+ overwrite_find_limit={1} */ GET /i/_search", 1, 26, /hint overwrite_find_limit/);
  syntaxError("/*+ route=[a] */ GET /i/_search", 1, 11, /hint route: a value must be/);
  syntaxError("/*+ overwrite_find_skip=abc */ GET /i", 1, 25, /non-negative integer/);
  syntaxError("/*+ a=1 */", 1, 1, /a hint must be followed by a command/);
  syntaxError("/*+ a=1 GET /i", 1, 9, /expected , or \*\/ after hint a/);
  syntaxError("/*+ a=1, b", 1, 1, /unterminated hint/);
});

Deno.test("unterminated body points at the opening brace", () => {
  syntaxError('POST /i/_doc\n  {"a": {"b": 1}\n', 2, 3, /unterminated body/);
  syntaxError('POST /i/_doc\n  {"a": [1,\nGET /x', 2, 3, /unterminated body/);
  syntaxError('POST /_bulk\n{"index":{}}\n  {"a": 1', 3, 3, /unterminated body/);
});

Deno.test("text after a complete body is an error at that text", () => {
  syntaxError('POST /i/_doc {"a": 1} oops', 1, 23, /text after a complete body/);
  syntaxError('POST /i/_doc {"a": 1}\n{"b": 2}', 2, 1, /only NDJSON endpoints/);
  syntaxError("GET /i extra", 1, 8, /unexpected text after the path/);
});

Deno.test("bad JSON tokens and unterminated strings are positioned errors", () => {
  syntaxError('POST /i/_doc {"a": 01}', 1, 20, /bad number/);
  syntaxError('POST /i/_doc {"a": 1 2}', 1, 22, /expected , or \}/);
  syntaxError('POST /i/_doc {"a": tru}', 1, 20, /found "tru"/);
  syntaxError('POST /i/_doc {"a": 1,}', 1, 22, /trailing comma/);
  syntaxError("POST /i/_doc {'a': 1}", 1, 15, /double quotes/);
  syntaxError('POST /i/_doc {"a" 1}', 1, 19, /expected : after the key/);
  syntaxError('POST /i/_doc {"a": "b\\x"}', 1, 22, /bad escape/);
  syntaxError('POST /i/_doc {"a": "b\n"}', 1, 20, /unterminated string/);
  syntaxError('POST /i/_doc {"a": 1.}', 1, 22, /digit must follow the decimal point/);
  syntaxError('POST /i/_doc {"a": -}', 1, 20, /digit must follow -/);
  syntaxError("POST /i/_doc {} /* never closed", 1, 17, /unterminated comment/);
  syntaxError('POST /i/_doc {"a": {?}}', 1, 20, /in a body write \? for a value/);
});

Deno.test("a missing path, a body without command and # in a path are errors", () => {
  syntaxError("GET", 1, 4, /missing path after GET/);
  syntaxError("GET {}", 1, 5, /missing path/);
  syntaxError('{"a": 1}', 1, 1, /a body without a command/);
  syntaxError("GET /i#x", 1, 7, /# in the request target/);
});

Deno.test("template markers in a target are no placeholders to the driver", () => {
  syntaxError("GET /i/#{id}", 1, 8, /# in the request target/);
  syntaxError("GET /i/\\#{id}", 1, 9, /# in the request target/);
  // A `$` or `@` before `{?}` is text; the `{?}` is still a slot.
  assert.deepEqual(parseScript("GET /a${?}/_doc").commands[0]!.target, ["/a$", "/_doc"]);
  assert.deepEqual(parseScript("GET /a\\@{?}").commands[0]!.target, ["/a\\@", ""]);
  // Another `{` after them starts the body.
  syntaxError("GET /a${x}", 1, 9, /expected a quoted key/);
  // Only a space, tab or line break ends a target; a form feed stays in it.
  assert.deepEqual(parseScript("GET /a\f/b").commands[0]!.target, ["/a\f/b"]);
});

Deno.test("literal non-ASCII path text is percent-encoded", () => {
  assert.deepEqual(parseScript("GET /café/_doc/ü").commands[0]!.target, [
    "/caf%C3%A9/_doc/%C3%BC",
  ]);
});

Deno.test("results are cached by text and frozen", () => {
  const text = "GET /cached-" + crypto.randomUUID();
  const a = parseScript(text);
  assert.equal(parseScript(text), a);
  assert.ok(Object.isFrozen(a) && Object.isFrozen(a.commands[0]));
});

Deno.test("empty text and comment-only text have no commands", () => {
  assert.equal(parseScript("").commands.length, 0);
  assert.equal(parseScript("  # nothing\n// here\n;").commands.length, 0);
});

Deno.test("large bodies are scanned without caching and stay intact", () => {
  const line = JSON.stringify({ message: "x".repeat(100), n: 1 });
  const lines = Array.from({ length: 2000 }, () => '{"index":{}}\n' + line).join("\n");
  const script = parseScript("POST /_bulk\n" + lines);
  assert.equal(script.commands[0]!.body!.join(""), lines + "\n");
  assert.notEqual(parseScript("POST /_bulk\n" + lines), script);
});

/** A small deterministic PRNG so failures reproduce. */
function random(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x80000000;
  };
}

function randomJson(next: () => number, depth: number): unknown {
  const r = next();
  if (depth > 3 || r < 0.35) {
    const pick = Math.floor(next() * 6);
    if (pick === 0) return null;
    if (pick === 1) return next() < 0.5;
    if (pick === 2) return Math.round((next() - 0.5) * 1e6) / (next() < 0.5 ? 1 : 1000);
    if (pick === 3) return 'a"b\\c\n\t?#//é\u0001'.slice(0, Math.floor(next() * 14));
    if (pick === 4) return 1e-7 * next();
    return "";
  }
  if (r < 0.65) {
    return Array.from({ length: Math.floor(next() * 4) }, () => randomJson(next, depth + 1));
  }
  const out: Record<string, unknown> = {};
  for (let k = Math.floor(next() * 4); k > 0; k--) out[`k${k}"?`] = randomJson(next, depth + 1);
  return out;
}

Deno.test("property: any JSON.stringify output (with any spacing) round-trips through the body", () => {
  const next = random(42);
  for (let k = 0; k < 500; k++) {
    const value = next() < 0.5 ? { v: randomJson(next, 0) } : [randomJson(next, 0)];
    const text = JSON.stringify(value, null, next() < 0.5 ? 0 : Math.floor(next() * 4));
    const body = parseScript("POST /i/_doc\n" + text).commands[0]!.body!.join("");
    assert.deepEqual(JSON.parse(body), value, text);
    assert.equal(body, JSON.stringify(JSON.parse(text)), text);
  }
});

/**
 * The reference reading of Kibana's triple-quoted strings: outside JSON strings, `"""…"""` is the
 * JSON string of the text between (or the text is returned unchanged when one is not closed, so
 * JSON.parse refuses it as the tokenizer does).
 */
function kibanaStrings(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    if (text.startsWith('"""', i)) {
      const end = text.indexOf('"""', i + 3);
      if (end < 0) return text;
      out += JSON.stringify(text.slice(i + 3, end));
      i = end + 3;
    } else if (text[i] === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else out += text[i++];
  }
  return out;
}

Deno.test('property: a mutated body (with """ strings) is accepted exactly when JSON.parse accepts it', () => {
  const next = random(7);
  const alphabet = '{}[],:"0123456789.-+eEtrufalsn \n\\u';
  let rejected = 0;
  let triple = 0;
  for (let k = 0; k < 3000; k++) {
    let text = k % 2 === 0
      ? JSON.stringify({ a: [1, -2.5e3, "x\\y"], b: { c: true, d: null, e: "" } })
      : '{"a": [1, """x\n"y\\"""], "b": {"c": """""", "d": "e"}}';
    for (let m = Math.floor(next() * 3) + 1; m > 0; m--) {
      const at = Math.floor(next() * text.length);
      const op = next();
      const ch = op < 0.6 ? alphabet[Math.floor(next() * alphabet.length)] : '"""';
      if (op < 0.35) text = text.slice(0, at) + text.slice(at + 1);
      else if (op < 0.7) text = text.slice(0, at) + ch + text.slice(at);
      else text = text.slice(0, at) + ch + text.slice(at + 1);
    }
    if (text.includes('"""')) triple++;
    let expected: unknown;
    let valid = true;
    try {
      expected = JSON.parse(kibanaStrings(text));
      valid = typeof expected === "object" && expected !== null && /^\s*[{[]/.test(text);
    } catch {
      valid = false;
    }
    let body: string | undefined;
    try {
      body = parseScript("POST /i/_doc " + text).commands[0]?.body?.join("");
    } catch (error) {
      assert.ok(error instanceof CommandSyntaxError, String(error));
    }
    if (valid) assert.deepEqual(JSON.parse(body!), expected, text);
    else {
      assert.equal(body, undefined, `accepted invalid JSON: ${text}`);
      rejected++;
    }
  }
  assert.ok(rejected > 1000);
  assert.ok(triple > 1500, `only ${triple} texts with """`);
});

Deno.test("CRLF line endings and a byte-order mark are accepted", () => {
  const script = parseScript('\ufeffPOST /_bulk\r\n{"index":{}}\r\n{"a": 1}\r\nGET /i\r\n');
  assert.equal(script.commands[0]!.body!.join(""), '{"index":{}}\n{"a":1}\n');
  assert.deepEqual(script.commands.map((c) => [c.method, c.line]), [["POST", 1], ["GET", 4]]);
});

Deno.test("a command's offset is where its method starts, after hints and comments", () => {
  const text =
    '# setup\n/*+ overwrite_find_limit=1 */ GET /a/_search {"q": 1}\n  POST\n  /b/_refresh';
  const commands = parseScript(text).commands;
  assert.deepEqual(commands.map((c) => text.slice(c.offset, c.offset + c.text.length)), [
    'GET /a/_search {"q": 1}',
    "POST\n  /b/_refresh",
  ]);
});
