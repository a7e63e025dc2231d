import assert from "node:assert/strict";
import { scan } from "./_template_scanner.ts";
import type { Segment } from "./_template_syntax.ts";
import { bindTemplate } from "./named_binding.ts";
import { CommandSyntaxError } from "../driver/mod.ts";

const kinds = (segments: Segment[]) =>
  segments.map((s) =>
    s.kind === "text"
      ? s.text
      : s.kind === "positional"
      ? `[${s.marker}]`
      : s.kind === "named"
      ? `[${s.marker} ${s.path.source}]`
      : s.kind === "splice"
      ? `[$ ${s.path.source}]`
      : `[@${s.rule.kind}]`
  ).join("");

Deno.test("comments are skipped: placeholders inside them are text", () => {
  const text = 'GET /a/_search # #{x} ?\n// ? #{y}\n{"a": /* #{z} ? */ #{v}}';
  assert.equal(kinds(scan(text)), 'GET /a/_search # #{x} ?\n// ? #{y}\n{"a": /* #{z} ? */ [? v]}');
});

Deno.test("hints keep their placeholders", () => {
  assert.equal(
    kinds(scan('/*+ overwrite_find_limit=#{n}, overwrite_find_skip=? */ POST /a/_search {"q": 1}')),
    '/*+ overwrite_find_limit=[? n], overwrite_find_skip=[?] */ POST /a/_search {"q": 1}',
  );
});

Deno.test("triple-quoted strings, ${} inside strings, path on the method line only", () => {
  assert.equal(
    kinds(scan('POST /a/_doc\n{"s": """x " \\#{no} ?""", "f": "${field}"}')),
    'POST /a/_doc\n{"s": """x " #{no} ?""", "f": "[$ field]"}',
  );
  assert.equal(kinds(scan("get /#{i}/_doc/#{d}")), "get /[{?} i]/_doc/[{?} d]");
});

Deno.test("_bulk NDJSON bodies: one slot per value across lines", () => {
  const text = 'POST /_bulk\n{"index": {"_index": "a", "_id": #{id}}}\n{"n": #{n}}\n';
  const b = bindTemplate(text, { id: "1", n: 2 });
  assert.equal(b.text, 'POST /_bulk\n{"index": {"_index": "a", "_id": ?}}\n{"n": ?}\n');
  assert.deepEqual(b.args, ["1", 2]);
});

Deno.test("a word that is not a method keeps the body state", () => {
  assert.equal(
    kinds(scan('PUT /a/_doc/1 {"x": true}\nDELETE /#{i}')),
    'PUT /a/_doc/1 {"x": true}\nDELETE /[{?} i]',
  );
});

Deno.test("\\${ is a literal ${, inside and outside JSON strings", () => {
  const b = bindTemplate('POST /a/_doc {"t": "cost \\${x}", "u": ?}', [1]);
  assert.equal(b.text, 'POST /a/_doc {"t": "cost ${x}", "u": ?}');
  assert.throws(() => bindTemplate('POST /a/_doc {"t": "${x}", "u": ?}', [1]), /literal/);
});

Deno.test("depth: rule calls and paths nested 100,000 deep are CommandSyntaxErrors, not RangeErrors", () => {
  const n = 100_000;
  const texts = [
    'POST /i/_search {"query": ' + "@{if, a, ".repeat(n) + "{}" + "}".repeat(n) + "}",
    'POST /i/_search {"query": {"bool": {"filter": [' + "@{and, ".repeat(n) + "{}" +
    "}".repeat(n) + "]}}}",
    'POST /i/_search {"query": #{' + "a.".repeat(n) + "b}}",
    'POST /i/_search {"query": #{a' + "[0]".repeat(n) + "}}",
    'POST /i/_search {"ids": @{in, :a' + ".b".repeat(n) + "}}",
  ];
  for (const text of texts) {
    assert.throws(
      () => bindTemplate(text, { a: true }),
      (e: unknown) =>
        e instanceof CommandSyntaxError && /nest deeper than 64|more than 64 steps/.test(e.message),
      text.slice(0, 40),
    );
  }
  // At the limit they still work.
  const inner = "@{if, a, ".repeat(63) + '{"match_all": {}}' + "}".repeat(63);
  assert.equal(
    bindTemplate(`POST /i/_search {"query": ${inner}}`, { a: true }).text,
    'POST /i/_search {"query": {"match_all": {}}}',
  );
  assert.deepEqual(
    bindTemplate('POST /i/_search {"q": #{' + "a.".repeat(63) + "b}}", {
      a: JSON.parse('{"a":'.repeat(62) + '{"b": 1}' + "}".repeat(62)),
    }).args,
    [1],
  );
});

Deno.test("a path on the line after the method is a path, as the driver reads it", () => {
  assert.equal(
    kinds(scan('POST\n  /a/_doc/#{id}?refresh=#{r}\n{"n": #{n}}')),
    'POST\n  /a/_doc/[{?} id]?refresh=[{?} r]\n{"n": [? n]}',
  );
  // A body or another command on the next line is not a path.
  assert.equal(kinds(scan("GET\n{#{q}}")), "GET\n{[? q]}");
});

Deno.test('a rule call skips JSON and """ strings as the driver does', () => {
  const bound = bindTemplate('POST /a/_search {@{and, {"q": """x } y"""}}}', {});
  assert.equal(bound.text, 'POST /a/_search {{"q": """x } y"""}}');
});
