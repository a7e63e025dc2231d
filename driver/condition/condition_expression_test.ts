import assert from "node:assert/strict";
import { BindError, CommandSyntaxError } from "../errors.ts";
import { ConditionExpression, type ConditionParseOptions } from "./condition_expression.ts";

const parseCondition = (source: string, options?: ConditionParseOptions) =>
  new ConditionExpression(source, options);

class Person {
  name = "ann";
  get secret(): string {
    return "from the prototype";
  }
  greet(): string {
    return "hi";
  }
}

const ARGS = {
  name: "ann",
  empty: "",
  zero: 0,
  one: 1,
  big: 10n,
  yes: true,
  no: false,
  nothing: null,
  tags: ["a", "b"],
  none: [],
  set: new Set([1, 2]),
  map: new Map<string, unknown>([["k", 5], ["size", 7]]),
  page: { size: 20, from: 0 },
  nested: { a: { b: [{ c: "deep" }] } },
  date: new Date("2024-01-02T00:00:00Z"),
  later: new Date("2024-06-01T00:00:00Z"),
  person: new Person(),
  json: JSON.parse('{"__proto__": {"polluted": true}, "constructor": 1}'),
};

// The grammar table: expression → value (as a test when boolean, else via value()).
const TABLE: [string, unknown][] = [
  // literals
  ["true", true],
  ["false", false],
  ["null", null],
  ["12", 12],
  ["-3.5e2", -350],
  ["'a\\'b'", "a'b"],
  ['"tab\\there"', "tab\there"],
  ["'\\u0041'", "A"],
  ["[1, 'x', null]", [1, "x", null]],
  ["[]", []],
  // paths
  ["name", "ann"],
  ["nested.a.b[0].c", "deep"],
  ["nested['a']['b'][0]['c']", "deep"],
  ["tags[1]", "b"],
  ["tags[5]", undefined],
  ["missing.deeper.still", undefined],
  ["page.size", 20],
  ["map.k", 5],
  ["map.size", 7],
  ["person.name", "ann"],
  ["person.secret", undefined],
  ["person.greet", undefined],
  ["name.toString", undefined],
  ["tags.map", undefined],
  ["json.polluted", undefined],
  // sizes
  ["tags.size()", 2],
  ["tags.length", 2],
  ["tags.length()", 2],
  ["name.length", 3],
  ["set.size()", 2],
  ["map.size()", 2],
  ["page.size()", 2],
  ["none.isEmpty()", true],
  ["empty.isEmpty()", true],
  ["missing.size()", undefined],
  // equality without coercion
  ["'1' == 1", false],
  ["1 == 1", true],
  ["one == 1", true],
  ["zero == ''", false],
  ["yes == 1", false],
  ["big == 10", true],
  ["nothing == null", true],
  ["missing == null", true],
  ["missing != null", false],
  ["name != null", true],
  ["name == 'ann'", true],
  ['name == "ann"', true],
  ["date == date", true],
  ["tags == tags", true],
  ["[1] == [1]", false],
  // ordering
  ["one < 2", true],
  ["one <= 1", true],
  ["one > 1", false],
  ["one >= 1", true],
  ["big > 9", true],
  ["'abc' < 'abd'", true],
  ["date < later", true],
  ["missing > 1", false],
  ["nothing < 1", false],
  // logic, both spellings, precedence
  ["yes and no", false],
  ["yes && no", false],
  ["yes or no", true],
  ["yes || no", true],
  ["not no", true],
  ["!no", true],
  ["!!yes", true],
  ["not missing", true],
  ["no or yes and no", false],
  ["(no or yes) and yes", true],
  ["not (one == 1)", false],
  ["missing or yes", true],
  ["name != null and name.length > 2", true],
  // in
  ["'a' in tags", true],
  ["'z' in tags", false],
  ["'z' not in tags", true],
  ["1 in set", true],
  ["'k' in map", true],
  ["'size' in page", true],
  ["'constructor' in page", false],
  ["one in [1, 2]", true],
  ["'1' in [1, 2]", false],
  ["1 in nothing", false],
  // +
  ["'*' + name + '*'", "*ann*"],
  ["one + 2", 3],
  ["big + big", 20n],
];

Deno.test("test language: the grammar table", () => {
  for (const [source, expected] of TABLE) {
    const e = parseCondition(source);
    assert.deepEqual(e.value(ARGS), expected, source);
    if (typeof expected === "boolean") assert.equal(e.test(ARGS), expected, source);
  }
});

Deno.test("test language: null and missing are false as tests, other values are refused", () => {
  assert.equal(parseCondition("nothing").test(ARGS), false);
  assert.equal(parseCondition("missing").test(ARGS), false);
  for (
    const source of ["name", "one", "zero", "tags", "empty", "page", "yes and name", "not one"]
  ) {
    assert.throws(
      () => parseCondition(source).test(ARGS),
      (e: unknown) => e instanceof BindError && /not true\/false; compare it/.test(e.message),
      source,
    );
  }
});

Deno.test("test language: mismatched types are errors that name the operands, never coerced", () => {
  const cases: [string, RegExp][] = [
    ["name < 1", /cannot order a string \(name\) and a number \(1\)/],
    ["yes > no", /cannot order a boolean/],
    ["name + one", /cannot add a string \(name\) and a number \(one\)/],
    ["one + big", /cannot add a number/],
    ["'a' in name", /name must be an array, Set, Map or object/],
    ["one.size() > 0", /\.size\(\) needs a string, array/],
    ["tags[yes]", /an index must be a string or a number/],
  ];
  for (const [source, message] of cases) {
    assert.throws(
      () => parseCondition(source, { where: "users.xml, line 3, column 9" }).value(ARGS),
      (e: unknown) =>
        e instanceof BindError && message.test(e.message) &&
        /users\.xml, line 3, column 9/.test(e.message),
      source,
    );
  }
});

Deno.test("test language: values never reach the message (they may be secrets)", () => {
  assert.throws(
    () => parseCondition("password < 3").test({ password: "hunter2" }),
    (e: unknown) => e instanceof BindError && !e.message.includes("hunter2"),
  );
});

Deno.test("test language: syntax errors are CommandSyntaxErrors inside the expression, or the caller's", () => {
  assert.throws(
    () => parseCondition("a ==\n  == b"),
    (e: unknown) =>
      e instanceof CommandSyntaxError && e.line === 2 && e.column === 3 &&
      /unexpected "==".* in the test/.test(e.message),
  );
  const seen: [string, number][] = [];
  assert.throws(
    () =>
      parseCondition("a & b", {
        syntaxError: (problem, offset) => {
          seen.push([problem, offset]);
          throw new RangeError("mine");
        },
      }),
    (e: unknown) => e instanceof RangeError && e.message === "mine",
  );
  assert.deepEqual(seen, [['unexpected character "&"; use &&', 2]]);
});

Deno.test("test language: :name is the same name (the argument form of @{} rules)", () => {
  assert.equal(parseCondition(":p.q[0] == 1").test({ p: { q: [1] } }), true);
  assert.equal(parseCondition(":name + :name").value(ARGS), "annann");
  assert.equal(parseCondition("not :no and :yes").test(ARGS), true);
  assert.throws(() => parseCondition(":__proto__"), /not reachable/);
  assert.throws(() => parseCondition(": name"), /unexpected character ":"/);
});

Deno.test("test language: length and depth are bounded, without exhausting the stack", () => {
  const cases = [
    "(".repeat(5000) + "a" + ")".repeat(5000),
    "!".repeat(5000) + "a",
    "a" + ".b".repeat(5000),
    Array(3000).fill("a").join(" and "),
    "x".repeat(20_000),
  ];
  for (const source of cases) {
    assert.throws(
      () => parseCondition(source),
      (e: unknown) => e instanceof CommandSyntaxError && /deeper than|longer than/.test(e.message),
    );
  }
  assert.equal(parseCondition("(".repeat(50) + "yes" + ")".repeat(50)).test(ARGS), true);
});

Deno.test("test language: a lookup function is the variable source", () => {
  const e = parseCondition("item.id in ids");
  const vars = new Map<string, unknown>([["item", { id: 2 }], ["ids", [1, 2]]]);
  assert.equal(e.test((name) => vars.get(name)), true);
});

Deno.test("test language: user['constructor'] and user['__proto__'] are refused as user.constructor is", () => {
  const refused = [
    "user.constructor",
    "user['constructor']",
    'user["constructor"]',
    "user['__proto__']",
    "user['__proto__'].polluted == true",
    "user['prototype'] == null",
    "a[0]['constructor'].name",
    "user['constructor'] in list",
  ];
  for (const source of refused) {
    assert.throws(
      () => parseCondition(source),
      (e: unknown) =>
        e instanceof CommandSyntaxError && /"(constructor|__proto__|prototype)" is not reachable/
          .test(e.message),
      source,
    );
  }
  // The caret points at the string, where the problem is.
  const error = (() => {
    try {
      parseCondition("user['__proto__']");
    } catch (e) {
      return e as CommandSyntaxError;
    }
  })();
  assert.equal(error?.column, 6);
  // Other string indexes still read own members; a key computed at run time reads as missing.
  assert.equal(parseCondition("user['name'] == 'ann'").test({ user: { name: "ann" } }), true);
  const computed = parseCondition("user[k] == null");
  assert.equal(computed.test({ user: { constructor: 1 }, k: "constructor" }), true);
  assert.equal(computed.test({ user: {}, k: "__proto__" }), true);
});
