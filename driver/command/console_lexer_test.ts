import assert from "node:assert/strict";
import {
  ConsoleLexer,
  type LexMode,
  markerEnd,
  splitTopLevel,
  stringEnd,
  targetStart,
  topLevelMembers,
} from "./console_lexer.ts";
import { CommandSyntaxError } from "../errors.ts";

/** The tokens of `text` read in one mode, as `kind:text` (spaces left out). */
function tokens(text: string, mode: LexMode = "body"): string[] {
  const lexer = new ConsoleLexer(text);
  const out: string[] = [];
  while (lexer.next(mode)) {
    if (lexer.kind !== "space") {
      out.push(`${lexer.kind}:${lexer.token()}${lexer.closed ? "" : "…"}`);
    }
  }
  return out;
}

Deno.test("body tokens: strings, comments, hints, slots, placeholders and structure", () => {
  assert.deepEqual(
    tokens('/*+ limit=? */ {"a\\"": """x " y""", ?: [1.5e3, -2, true], "b": #{n}} # end'),
    [
      "hint:/*+ limit=? */",
      "open:{",
      'string:"a\\""',
      "colon::",
      'triple:"""x " y"""',
      "comma:,",
      "slot:?",
      "colon::",
      "open:[",
      "word:1.5e3",
      "comma:,",
      "word:-2",
      "comma:,",
      "word:true",
      "close:]",
      "comma:,",
      'string:"b"',
      "colon::",
      "named:#{n}",
      "close:}",
      "comment:# end",
    ],
  );
  assert.deepEqual(tokens('${f} @{if, a, {"k": "}"}} \\#{x} // c\n;'), [
    "splice:${f}",
    'rule:@{if, a, {"k": "}"}}',
    "escape:\\#{",
    "word:x",
    "close:}",
    "comment:// c",
    "semi:;",
  ]);
});

Deno.test("target tokens: # and /* are path text, {?} is a slot, a space ends the run", () => {
  assert.deepEqual(tokens("/*/_doc/{?}?q=#x&r=#{r} {", "target"), [
    "other:/*/_doc/",
    "pathSlot:{?}",
    "other:?q=#x&r=",
    "named:#{r}",
    "open:{",
  ]);
});

Deno.test("string insides: only ${…}, #{…} and their escapes are tokens", () => {
  const inside = (text: string, mode: LexMode) => tokens(text, mode);
  assert.deepEqual(inside('a \\" ${x} \\${y} #{z} @{w}', "string"), [
    'other:a \\" ',
    "splice:${x}",
    "other: ",
    "escape:\\${",
    "other:y} ",
    "named:#{z}",
    "other: @{w}",
  ]);
  // In a """ string a backslash escapes nothing but a marker.
  assert.deepEqual(inside("\\\\${x}", "triple"), ["other:\\", "escape:\\${", "other:x}"]);
  assert.deepEqual(inside("\\\\${x}", "string"), ["other:\\\\", "splice:${x}"]);
});

Deno.test("unclosed strings, comments and placeholders run to the end, marked not closed", () => {
  assert.deepEqual(tokens('{"a": "open'), ["open:{", 'string:"a"', "colon::", 'string:"open…']);
  assert.deepEqual(tokens("1 /* open"), ["word:1", "comment:/* open…"]);
  assert.deepEqual(tokens("#{a.b"), ["named:#{a.b…"]);
  assert.deepEqual(tokens("@{and, [1}"), ["rule:@{and, [1}…"]);
  assert.deepEqual(tokens('"""a "" b'), ['triple:"""a "" b…']);
});

Deno.test("a range bounds every token: nothing is read past the end", () => {
  const text = '{"a": "bc"} "tail"';
  const lexer = new ConsoleLexer(text, 6, 8);
  assert.equal(lexer.next(), true);
  assert.deepEqual([lexer.kind, lexer.token(), lexer.closed], ["string", '"b', false]);
  assert.equal(lexer.next(), false);
  assert.equal(markerEnd("#{a} }", 0, 3), -1);
  assert.equal(stringEnd('"ab"', 0, 3), -1);
});

Deno.test("the tokens of any text cover it exactly, in every mode", () => {
  const alphabet = [
    '"',
    '"""',
    "'",
    "\\",
    "#",
    "#{",
    "${",
    "@{",
    "{",
    "}",
    "[",
    "]",
    "?",
    "{?}",
    "/",
    "*",
    "/*+",
    "*/",
    "//",
    ",",
    ":",
    ";",
    " ",
    "\n",
    "a",
    "GET",
    "1",
    "é",
  ];
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let k = 0; k < 2000; k++) {
    let text = "";
    const length = Math.floor(random() * 20);
    for (let j = 0; j < length; j++) text += alphabet[Math.floor(random() * alphabet.length)];
    for (const mode of ["body", "target", "rule", "string", "triple"] as const) {
      const lexer = new ConsoleLexer(text);
      let joined = "";
      let count = 0;
      while (lexer.next(mode)) {
        assert.ok(lexer.pos > lexer.start, `empty token in ${JSON.stringify(text)} (${mode})`);
        joined += lexer.token();
        count++;
      }
      assert.equal(joined, text, mode);
      assert.ok(count <= text.length);
    }
  }
});

Deno.test("strict strings: the driver's JSON errors, with their position", () => {
  const at = (text: string) => {
    try {
      stringEnd(text, 0, text.length, true);
    } catch (e) {
      assert.ok(e instanceof CommandSyntaxError);
      return `${e.column}: ${e.message.split(" (")[0]}`;
    }
    return "no error";
  };
  assert.match(at('"a\\x"'), /^3: .*bad escape/);
  assert.match(at('"a\tb"'), /^3: .*control character/);
  assert.match(at('"a\nb"'), /^1: .*unterminated string/);
  assert.match(at('"""abc'), /^1: .*unterminated """ string/);
  assert.equal(stringEnd('"a\\u00e9\\n" x', 0, 11, true), 11);
});

Deno.test("splitTopLevel cuts a rule's parts as the template reads them", () => {
  const parts = (text: string, max?: number) =>
    splitTopLevel(text, 0, text.length, max).map(([s, e]) => text.slice(s, e));
  assert.deepEqual(parts("if, a == 'x,\\'y', {\"b\": [1, 2]}, #{c,d}"), [
    "if",
    " a == 'x,\\'y'",
    ' {"b": [1, 2]}',
    " #{c,d}",
  ]);
  assert.deepEqual(parts('and, {"a": 1}, {"b": 2}', 2), ["and", ' {"a": 1}, {"b": 2}']);
  assert.deepEqual(parts(""), [""]);
});

Deno.test("topLevelMembers: keys and value offsets of an object text, comments skipped", () => {
  const json = '{ "a" : {"x": [1, "]"]} , ?: ?, "c": """t""" /* } */ }';
  assert.deepEqual(
    topLevelMembers(json)!.map((m) => [m.key, json.slice(m.valueStart, m.end)]),
    [["a", '{"x": [1, "]"]}'], [undefined, "?"], ["c", '"""t"""']],
  );
  assert.deepEqual(topLevelMembers("{}"), []);
  assert.equal(topLevelMembers('"a"'), undefined);
});

Deno.test("targetStart: the same line, the next line, or none", () => {
  assert.equal(targetStart("GET\t/i", 3), 4);
  assert.equal(targetStart("GET #x", 3), 4); // the driver then refuses the # in the target
  assert.equal(targetStart("POST\n\n  _refresh", 4), 8);
  for (
    const text of ["GET", "GET ;", "GET {", "GET\n[1]", "GET\n# c", "GET\n// c", "GET\nput /i"]
  ) {
    assert.equal(targetStart(text, 3), -1, text);
  }
});

Deno.test("skipTriviaStrict: the driver's whitespace and comments, stopping at a hint or not", () => {
  const text = "  // a\n # b\n /* c */ /*+ h */ x";
  const lexer = new ConsoleLexer(text);
  assert.equal(lexer.skipTriviaStrict("stop"), text.indexOf("/*+"));
  assert.equal(lexer.newline, true);
  assert.equal(lexer.skipTriviaStrict("skip"), text.indexOf("x"));
  assert.equal(lexer.pos, text.indexOf("x"));
  assert.equal(lexer.newline, false);
  // The driver knows no `#{`: it is a comment to the end of the line.
  assert.equal(new ConsoleLexer("#{a}\nb").skipTriviaStrict("skip"), 5);
  // The range bounds it.
  assert.equal(new ConsoleLexer("a    b", 1, 3).skipTriviaStrict("skip"), 3);
  assert.throws(
    () => new ConsoleLexer("  /* open").skipTriviaStrict("stop"),
    (e: unknown) =>
      e instanceof CommandSyntaxError && /unterminated comment/.test(e.message) &&
      e.column === 3,
  );
});

Deno.test("skipSpace: whitespace only, with whether a line break was crossed", () => {
  const lexer = new ConsoleLexer(" \t\uFEFF\f# x");
  assert.equal(lexer.skipSpace(), 4);
  assert.equal(lexer.newline, false);
  const next = new ConsoleLexer("x \r\n y", 1);
  assert.equal(next.skipSpace(), 5);
  assert.equal(next.newline, true);
});
