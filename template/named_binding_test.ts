import assert from "node:assert/strict";
import { BindError, CommandSyntaxError } from "../driver/mod.ts";
import { bindTagged, bindTemplate } from "./named_binding.ts";
import { md5Hex } from "./_md5.ts";

Deno.test("named values in JSON value, key, path segment and query value", () => {
  const b = bindTemplate(
    'PUT /users/_doc/#{user.id}?routing=#{r}&refresh=true\n{#{k}: #{user.tags[1]}, "n": #{n}}',
    { user: { id: "../_all", tags: ["a", "b"] }, r: "x y", k: "key", n: 3 },
  );
  assert.equal(b.text, 'PUT /users/_doc/{?}?routing={?}&refresh=true\n{?: ?, "n": ?}');
  assert.deepEqual(b.args, ["../_all", "x y", "key", "b", 3]);
});

Deno.test("compact JSON, arrays, escapes and \\#{} inside strings are handled (dbVisitor defects)", () => {
  const b = bindTemplate(
    'POST /i/_search {"a":#{v},"b":[1,2],"c":"q\\"\\#{not}?","d":"\\#{text}"}',
    { v: 1 },
  );
  assert.equal(b.text, 'POST /i/_search {"a":?,"b":[1,2],"c":"q\\"#{not}?","d":"#{text}"}');
  assert.deepEqual(b.args, [1]);
});

Deno.test('"#{q}" inside JSON quotes is refused with a caret under it and the fix', () => {
  const text = 'POST /i/_search\n{"query": {"term": {"name": "#{q}"}}}';
  const error = assert.throws(() => bindTemplate(text, { q: "alice" }), (e: unknown) => {
    assert.ok(e instanceof CommandSyntaxError);
    assert.equal(e.line, 2);
    assert.equal(e.column, 30);
    assert.match(e.message, /remove the quotes/);
    assert.match(e.message, /write \\#\{/);
    assert.match(e.excerpt, /\n {29}\^$/);
    return true;
  });
  assert.equal(error, undefined);
});

Deno.test("query strings with several & parameters and positional ? stay intact", () => {
  const b = bindTemplate("GET /i/_search?a=1&b=2&c=#{c}", { c: "z" });
  assert.equal(b.text, "GET /i/_search?a=1&b=2&c={?}");
  const p = bindTemplate('POST /i/_search?routing={?}&x=1 {"q": ?, "s": "x"}', ["r", 5]);
  assert.deepEqual(p, {
    text: 'POST /i/_search?routing={?}&x=1 {"q": ?, "s": "x"}',
    args: ["r", 5],
  });
});

Deno.test("the same name many times; several commands; body on the next line", () => {
  const b = bindTemplate(
    'POST /a/_doc/#{id}\n{"x": #{id}}\nGET /a/_doc/#{id}; DELETE /#{id}',
    { id: 7 },
  );
  assert.equal(b.text, 'POST /a/_doc/{?}\n{"x": ?}\nGET /a/_doc/{?}; DELETE /{?}');
  assert.deepEqual(b.args, [7, 7, 7, 7]);
});

Deno.test("${} splices identifiers and rejects anything else, naming the argument", () => {
  assert.equal(
    bindTemplate('GET /${idx}/_search {"sort": ["${f}"]}', { idx: ["a", "b-*"], f: "x.y" }).text,
    'GET /a,b-*/_search {"sort": ["x.y"]}',
  );
  for (const bad of ["a b", 'a"b', "a/b", "", "a\\b"]) {
    assert.throws(
      () => bindTemplate("GET /${idx}/_search", { idx: bad }),
      (e: unknown) =>
        e instanceof BindError && e.argumentName === "idx" && /identifier/.test(e.message),
    );
  }
});

Deno.test("missing or undefined named argument: BindError with name and statement", () => {
  const text = 'POST /u/_search {"term": {"name": #{name}}}';
  for (const args of [{}, { name: undefined }, undefined]) {
    assert.throws(() => bindTemplate(text, args), (e: unknown) => {
      assert.ok(e instanceof BindError);
      assert.equal(e.argumentName, "name");
      assert.ok(e.message.includes(text), e.message);
      return true;
    });
  }
  assert.deepEqual(bindTemplate(text, { name: null }).args, [null]);
});

Deno.test("positional count mismatch names both counts", () => {
  assert.throws(
    () => bindTemplate("GET /{?}/_doc/{?} #{x}", ["a"]),
    /2 positional .* 1 positional/,
  );
});

Deno.test("escaped markers are text", () => {
  assert.equal(
    bindTemplate('POST /a/_doc {"t": 1, \\#{x} }', {}).text,
    'POST /a/_doc {"t": 1, #{x} }',
  );
});

const FILTERS = `POST /users/_search
{"query": {"bool": {"filter": [
  @{and, {"term": {"name": #{name}}}},
  @{and, {"range": {"age": {"gte": #{minAge}}}}},
  @{and, {"term": {"city": #{city}}}}
]}}}`;

Deno.test("three optional @{and} filters render valid JSON for all 8 combinations", () => {
  for (let mask = 0; mask < 8; mask++) {
    const args: Record<string, unknown> = {};
    if (mask & 1) args.name = "alice";
    if (mask & 2) args.minAge = 30;
    if (mask & 4) args.city = null; // null counts as "no value"
    if (mask & 4 && mask & 1) args.city = "Oslo";
    const b = bindTemplate(FILTERS, args);
    const json = b.text.slice(b.text.indexOf("\n") + 1);
    let i = 0;
    const body = JSON.parse(json.replace(/\?/g, () => JSON.stringify(b.args[i++])));
    const filters = body.query.bool.filter as unknown[];
    const expected = [args.name, args.minAge, args.city].filter((v) =>
      v !== undefined && v !== null
    );
    assert.equal(filters.length, expected.length, `mask ${mask}: ${b.text}`);
    assert.deepEqual(b.args, expected);
  }
});

Deno.test("@{and} on object members drops the member and its comma", () => {
  const b = bindTemplate('POST /a/_search {"size": 10, @{and, "from": #{from}}}', {});
  assert.deepEqual(JSON.parse(b.text.slice(16)), { size: 10 });
});

Deno.test("@{if} with comparisons and paths", () => {
  const t = 'POST /a/_search {"q": 1 @{if, mode == \'x\' && n > 2, , "r": #{n}}}';
  assert.equal(bindTemplate(t, { mode: "x", n: 3 }).text, 'POST /a/_search {"q": 1 , "r": ?}');
  assert.equal(bindTemplate(t, { mode: "y", n: 3 }).text, 'POST /a/_search {"q": 1 }');
  assert.equal(bindTemplate("GET /a@{if, :flag, _x}/b", { flag: true }).text, "GET /a_x/b");
  assert.equal(bindTemplate("GET /a@{if, !flag, _x}/b", { flag: true }).text, "GET /a/b");
});

Deno.test("@{if} tests: the driver's language, no coercion, only true/false decide", () => {
  const keep = (test: string, args: Record<string, unknown>) =>
    bindTemplate(`GET /a@{if, ${test}, _x}/b`, args).text === "GET /a_x/b";
  assert.equal(keep("a == 'x' and b > 2", { a: "x", b: 3 }), true);
  assert.equal(keep("a != null && !(b <= 2)", { a: 0, b: 3 }), true);
  assert.equal(keep(":p.q[0] == 1", { p: { q: [1] } }), true);
  assert.equal(keep("missing == null", {}), true);
  assert.equal(keep("list.isEmpty()", { list: [] }), true);
  assert.equal(keep("'b' in tags", { tags: ["a", "b"] }), true);
  assert.equal(keep("s in [1, 2] && t == 'a,}'", { s: 2, t: "a,}" }), true);
  assert.equal(keep("'1' == 1", {}), false);
  assert.equal(keep("missing", {}), false);
  for (
    const [test, message] of [
      ["b > '2'", /cannot order a number \(b\) and a string \('2'\)/],
      ["list", /list is an array, not true\/false; compare it/],
    ] as const
  ) {
    assert.throws(
      () => bindTemplate(`GET /a\n  @{if, ${test}, _x}/b`, { b: 3, list: [] }),
      (e: unknown) =>
        e instanceof BindError && message.test(e.message) &&
        /@\{if\} at line 2, column 9/.test(e.message),
      test,
    );
  }
  for (const [test, column] of [["a ===", 19], ["a.constructor", 17]] as const) {
    assert.throws(
      () => bindTemplate(`GET /a {@{if, ${test}, x}}`, {}),
      (e: unknown) => e instanceof CommandSyntaxError && e.line === 1 && e.column === column,
      test,
    );
  }
});

Deno.test("@{in}, @{md5}, @{uuid32}, @{uuid36}, @{macro}", () => {
  const b = bindTemplate(
    'POST /a/_doc/@{uuid32} {"ids": @{in, :ids}, "h": @{md5, #{pw}}, "u": @{uuid36}, @{macro, m}}',
    { ids: new Set([1, 2]), pw: "abc", v: 9 },
    { macros: new Map([["m", '"m": #{v}']]) },
  );
  assert.equal(b.text, 'POST /a/_doc/{?} {"ids": ?, "h": ?, "u": ?, "m": ?}');
  assert.match(b.args[0] as string, /^[0-9a-f]{32}$/);
  assert.deepEqual(b.args[1], [1, 2]);
  assert.equal(b.args[2], "900150983cd24fb0d6963f7d28e17f72");
  assert.match(b.args[3] as string, /^[0-9a-f-]{36}$/);
  assert.equal(b.args[4], 9);
  assert.throws(() => bindTemplate("GET /@{macro, nope}", {}), /Unknown macro "nope"/);
});

Deno.test("md5 of known vectors", () => {
  assert.equal(md5Hex(""), "d41d8cd98f00b204e9800998ecf8427e");
  assert.equal(
    md5Hex("The quick brown fox jumps over the lazy dog"),
    "9e107d9d372bb6826bd81d3542a419d6",
  );
  assert.equal(md5Hex("é".repeat(100)).length, 32);
});

Deno.test("rules with the wrong number of parts: CommandSyntaxError with position", () => {
  for (
    const [text, column] of [["GET /a {\n  @{and}}", 3], ["GET /a {@{if, x}}", 9], [
      "GET /a/@{uuid32, x}",
      8,
    ], ["GET /a {@{in, a, b}}", 9]] as const
  ) {
    assert.throws(() => bindTemplate(text, {}), (e: unknown) => {
      assert.ok(e instanceof CommandSyntaxError, String(e));
      assert.equal(e.column, column, e.message);
      assert.match(e.message, /takes \d part/);
      return true;
    });
  }
  assert.throws(() => bindTemplate("GET /a {@{nope, x}}", {}), /unknown rule "nope"/);
  assert.throws(() => bindTemplate("GET /a {#{a b}}", {}), CommandSyntaxError);
  assert.throws(() => bindTemplate("GET /a {@{if, a ==, x}}", {}), CommandSyntaxError);
});

Deno.test("tagged binding: values by index, error for a value inside a JSON string", () => {
  const b = bindTagged('GET /u/_doc/#{0} {"n": #{1}}', ["a b", { x: 1 }]);
  assert.deepEqual(b, { text: 'GET /u/_doc/{?} {"n": ?}', args: ["a b", { x: 1 }] });
  assert.throws(() => bindTagged('POST /u/_search {"n": "#{0}"}', ["x"]), /inside a JSON string/);
});

Deno.test("@{and} with positional arguments: a null value drops the member but still consumes it", () => {
  const b = bindTemplate('POST /a/_search {"f": [@{and, {"t": ?}}, {"r": ?}]}', [null, 5]);
  assert.deepEqual(JSON.parse(b.text.slice(15).replace("?", "5")), { f: [{ r: 5 }] });
  assert.deepEqual(b.args, [5]);
  const c = bindTemplate('POST /a/_search {"f": [@{and, {"t": ?}}, {"r": ?}]}', ["x", 5]);
  assert.deepEqual(c.args, ["x", 5]);
});
