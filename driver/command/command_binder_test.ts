import assert from "node:assert/strict";
import { bindScript, bindSingle } from "./command_binder.ts";
import { parseScript } from "./command_tokenizer.ts";
import { BindError } from "../errors.ts";

function bind(text: string, args: unknown[] = []) {
  return bindScript(parseScript(text), args);
}

function bindError(text: string, args: unknown[], index: number | undefined, message: RegExp) {
  assert.throws(() => bind(text, args), (error: unknown) => {
    assert.ok(error instanceof BindError, String(error));
    assert.equal(error.index, index);
    assert.match(error.message, message);
    assert.equal(error.command !== undefined, true);
    return true;
  });
}

Deno.test("binds body values, keys and path/query values in order", () => {
  const [c] = bind(
    'POST /logs-{?}/_search?routing={?} {"query": {"term": {?: ?}}, "size": ?}',
    ["2024.01", "r 1", "user", "alice", 5],
  );
  assert.equal(c!.method, "POST");
  assert.equal(c!.path, "/logs-2024.01/_search?routing=r%201");
  assert.equal(c!.body, '{"query":{"term":{"user":"alice"}},"size":5}');
  assert.equal(c!.ndjson, false);
  assert.deepEqual(c!.hints, {});
  assert.equal(c!.line, 1);
});

Deno.test("an injected string stays one JSON string", () => {
  const [c] = bind('PUT /i/_doc/1 {"name": ?, "k": 1}', ['"}, "x": {']);
  assert.deepEqual(JSON.parse(c!.body!), { name: '"}, "x": {', k: 1 });
});

Deno.test("path arguments stay one segment", () => {
  for (
    const [id, encoded] of [["../_all", "..%2F_all"], ["a/b", "a%2Fb"], ["x?y", "x%3Fy"], [
      "#frag",
      "%23frag",
    ]]
  ) {
    const [c] = bind("GET /i/_doc/{?}", [id]);
    assert.equal(c!.path, `/i/_doc/${encoded}`);
    assert.equal(decodeURIComponent(c!.path.split("/")[3]!), id);
    assert.equal(c!.path.split("/").length, 4);
  }
});

Deno.test("arguments are consumed across hints, path, query, body and commands", () => {
  const out = bind(
    '/*+ overwrite_find_limit=? */ GET /{?}/_search?q={?} {"query": ?}\nDELETE /i/_doc/{?}',
    [3, "idx", "x", { match_all: {} }, "7"],
  );
  assert.equal(out[0]!.path, "/idx/_search?q=x");
  assert.equal(out[0]!.body, '{"size":3,"query":{"match_all":{}}}');
  assert.deepEqual(out[0]!.hints, { overwrite_find_limit: 3 });
  assert.equal(out[1]!.path, "/i/_doc/7");
  assert.equal(out[1]!.line, 2);
});

Deno.test("count mismatch names both numbers", () => {
  bindError(
    'GET /{?}/_search {"a": ?, "b": ?}',
    [1, 2],
    undefined,
    /the command has 3 placeholders but 2 arguments were given/,
  );
  bindError("GET /i", [1], undefined, /has 0 placeholders but 1 argument was given/);
  bindError("GET /{?}", [], undefined, /has 1 placeholder but 0 arguments were given/);
});

Deno.test("bad arguments name the index and the placeholder position", () => {
  bindError(
    'POST /i/_doc {"a": ?, "b": ?}',
    [1, undefined],
    2,
    /argument 2: value is undefined.*line 1, column 28/,
  );
  bindError('POST /i/_doc {"a": ?}', [NaN], 1, /NaN/);
  bindError('POST /i/_doc {"a": ?}', [Infinity], 1, /Infinity/);
  bindError('POST /i/_doc {"a": ?}', [() => 1], 1, /function/);
  bindError('POST /i/_doc {"a": ?}', [Symbol("x")], 1, /symbol/);
  const circular: Record<string, unknown> = {};
  circular.me = circular;
  bindError('POST /i/_doc {"a": ?}', [circular], 1, /circular/);
  bindError("GET /i/_doc/{?}", [undefined], 1, /argument 1: value is undefined.*path placeholder/);
  bindError("GET /i/_search?q={?}", [null], 1, /query placeholder/);
  bindError("POST /i/_doc {?: 1}", [3], 1, /an object key must be a string, got number/);
  bindError("/*+ route=? */ GET /i/_search", [{}], 1, /hint value/);
  bindError(
    "/*+ overwrite_find_limit=? */ GET /i/_search",
    [-1],
    1,
    /argument 1: hint overwrite_find_limit needs a non-negative integer, got -1.*hint placeholder/,
  );
  bindError(
    "/*+ overwrite_find_skip=? */ GET /i/_search",
    ["10"],
    1,
    /got "10"/,
  );
});

Deno.test("whole-body placeholder: object, array or JSON text", () => {
  assert.equal(bind("PUT /i/_doc/1 ?", [{ a: [1] }])[0]!.body, '{"a":[1]}');
  assert.equal(bind("PUT /i/_doc/1 ?", [' {"a": 1} '])[0]!.body, '{"a": 1}');
  bindError("PUT /i/_doc/1 ?", ["{oops"], 1, /JSON text of an object or array/);
  bindError("PUT /i/_doc/1 ?", [5], 1, /whole body must be an object/);
  bindError("PUT /i/_doc/1 ?", [null], 1, /got null/);
});

Deno.test("NDJSON line placeholders: object, array of lines, NDJSON text", () => {
  const text = 'POST /_bulk\n{"index": {"_index": "i"}}\n?\n?';
  const [c] = bind(text, [{ a: 1 }, [{ delete: { _id: "1" } }, { index: {} }, { b: 2 }]]);
  assert.equal(
    c!.body,
    '{"index":{"_index":"i"}}\n{"a":1}\n{"delete":{"_id":"1"}}\n{"index":{}}\n{"b":2}\n',
  );
  assert.equal(c!.ndjson, true);
  const [d] = bind("POST /_bulk ?", ['{"index":{}}\n{"a":1}\n']);
  assert.equal(d!.body, '{"index":{}}\n{"a":1}\n');
  bindError("POST /_bulk ?", [[]], 1, /no NDJSON lines/);
});

Deno.test("hints: limit/skip set size/from on _search, creating a body", () => {
  const [a] = bind("/*+ overwrite_find_limit=10, overwrite_find_skip=? */ GET /i/_search", [20]);
  assert.equal(a!.body, '{"size":10,"from":20}');
  const [b] = bind('/*+ overwrite_find_limit=1 */ GET /i/_search {"size": 100, "query": {}}');
  assert.deepEqual(JSON.parse(b!.body!), { size: 1, query: {} });
});

Deno.test("hints: as_count rewrites to _count and keeps only query", () => {
  const [c] = bind(
    '/*+ overwrite_find_as_count */ POST /i/_search?routing=r {"query": {"term": {"a": ?}}, "sort": ["a"], "size": 5, "_source": false}',
    [1],
  );
  assert.equal(c!.path, "/i/_count?routing=r");
  assert.equal(c!.body, '{"query":{"term":{"a":1}}}');
  assert.deepEqual(c!.hints, { overwrite_find_as_count: true });
});

Deno.test("hints: _msearch gets size/from on every search line; unknown hints are kept", () => {
  const [c] = bind(
    '/*+ overwrite_find_limit=2, Route=x */ GET /_msearch\n{"index": "a"}\n{"query": {}}\n{}\n{"size": 9}',
  );
  assert.equal(
    c!.body,
    '{"index":"a"}\n{"size":2,"query":{}}\n{}\n{"size":2}\n',
  );
  assert.deepEqual(c!.hints, { overwrite_find_limit: 2, route: "x" });
  const [d] = bind('/*+ trace, overwrite_find_limit=3 */ POST /i/_doc {"a": 1}');
  assert.equal(d!.body, '{"a":1}');
});

Deno.test("a value with newlines cannot add NDJSON lines", () => {
  const [c] = bind('POST /_bulk\n{"index": {}}\n{"msg": ?}', ['x"}\n{"delete": {"_id": "1"}}\n']);
  const lines = c!.body!.split("\n");
  assert.equal(lines.length, 3);
  assert.equal(lines[2], "");
  assert.equal(JSON.parse(lines[1]!).msg, 'x"}\n{"delete": {"_id": "1"}}\n');
});

Deno.test("hint placeholders of a later command come after the earlier command's arguments", () => {
  const out = bind(
    'PUT /a/_doc/{?} {"n": ?}\n/*+ overwrite_find_skip=? */ POST /a/_search {"query": {"term": {"n": ?}}}',
    ["1", 10, 5, 10],
  );
  assert.equal(out[0]!.path, "/a/_doc/1");
  assert.equal(out[0]!.body, '{"n":10}');
  assert.equal(out[1]!.body, '{"from":5,"query":{"term":{"n":10}}}');
  assert.deepEqual(out[1]!.hints, { overwrite_find_skip: 5 });
});

Deno.test("a whole body or NDJSON line must encode to an object or array (a Date, bytes or a scalar toJSON are refused)", () => {
  for (const text of ["POST /i/_search ?", 'POST /_bulk\n{"index": {"_index": "i"}}\n?\n']) {
    for (const value of [new Date(0), new Uint8Array([1]), { toJSON: () => 5 }]) {
      assert.throws(
        () => bindScript(parseScript(text), [value]),
        /argument 1: a whole body must be a JSON object or array/,
      );
    }
  }
});

Deno.test("a bound value nested 100,000 deep is a BindError naming the argument, not a RangeError", () => {
  const n = 100_000;
  let array: unknown = 1;
  let object: unknown = 1;
  let map: unknown = 1;
  let set: unknown = 1;
  for (let i = 0; i < n; i++) {
    array = [array];
    object = { a: object };
    map = new Map([["a", map]]);
    set = new Set([set]);
  }
  // A toJSON that hands back another such object forever.
  const endless = { toJSON: (): unknown => endless2 };
  const endless2 = { toJSON: (): unknown => endless };
  const text = '{"a": "' + "x".repeat(10) + '"}';
  const deepText = '{"a":'.repeat(n) + "1" + "}".repeat(n);
  const cases: [string, unknown][] = [
    ['POST /i/_search {"query": ?}', array],
    ['POST /i/_search {"query": ?}', object],
    ['POST /i/_search {"query": ?}', map],
    ['POST /i/_search {"query": ?}', set],
    ['POST /i/_search {"query": ?}', endless],
    ["POST /i/_search ?", object],
    ["POST /i/_search ?", deepText],
    ["POST /_bulk\n?\n", [{ index: {} }, object]],
    ["POST /_bulk\n?\n", '{"index":{}}\n' + deepText],
  ];
  for (const [command, value] of cases) {
    assert.throws(
      () => bindScript(parseScript(command), [value]),
      (e: unknown) =>
        e instanceof BindError && e.index === 1 &&
        /argument 1.*nests deeper than 512 levels/.test(e.message),
      command,
    );
  }
  // 512 levels are fine, in values and in JSON text.
  let ok: unknown = 1;
  for (let i = 0; i < 511; i++) ok = [ok];
  assert.ok(
    bindScript(parseScript('POST /i/_search {"q": ?}'), [ok])[0]!.body!.startsWith('{"q":[[['),
  );
  assert.ok(bindScript(parseScript("POST /i/_search ?"), [text])[0]!.body === text);
  const okText = '{"a":'.repeat(512) + "1" + "}".repeat(512);
  assert.equal(bindScript(parseScript("POST /i/_search ?"), [okText])[0]!.body, okText);
});

Deno.test("bindSingle binds a one-command script as bindScript does, and refuses more", () => {
  const script = parseScript('POST /u/_search {"query": {"term": {"name": ?}}}');
  assert.deepEqual(bindSingle(script, ['a "b"']), bindScript(script, ['a "b"'])[0]);
  assert.throws(
    () => bindSingle(script, []),
    (e: unknown) =>
      e instanceof BindError && /1 placeholder but 0 arguments were given/.test(e.message),
  );
  assert.throws(() => bindSingle(parseScript("GET /a/_count\nGET /b/_count"), []), RangeError);
});

Deno.test("bindSingle gives the same command for the same primitive values, binds anew otherwise", () => {
  const script = parseScript('POST /u/_search {"query": {"term": {"n": ?}}, "size": ?}');
  const first = bindSingle(script, ["a", 2]);
  assert.equal(bindSingle(script, ["a", 2]), first);
  const other = bindSingle(script, ["b", 2]);
  assert.notEqual(other, first);
  assert.equal(other.body, '{"query":{"term":{"n":"b"}},"size":2}');
  assert.equal(bindSingle(script, ["a", 2]).body, first.body);
  // Another script with the same values is bound from its own text.
  const path = parseScript("GET /{?}/_count");
  assert.equal(bindSingle(path, ["a"]).path, "/a/_count");
  // An object argument may change between calls: it is bound every time.
  const value = { name: "x" };
  const withObject = bindSingle(script, [value, 1]);
  value.name = "y";
  const again = bindSingle(script, [value, 1]);
  assert.notEqual(again, withObject);
  assert.equal(again.body, '{"query":{"term":{"n":{"name":"y"}}},"size":1}');
  // A value that failed to bind is refused again, not taken from the last command.
  assert.throws(() => bindSingle(script, [Symbol("s"), 1]), BindError);
  assert.throws(() => bindSingle(script, [Symbol("s"), 1]), BindError);
  // NaN is no JSON value: refused every time.
  assert.throws(() => bindSingle(script, ["a", NaN]), BindError);
  assert.throws(() => bindSingle(script, ["a", NaN]), BindError);
});
