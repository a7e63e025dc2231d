import assert from "node:assert/strict";
import { CommandSyntaxError } from "../../driver/mod.ts";
import { prepare, segmentAt, splitCommands } from "./commands.ts";

const NONE = { positional: [], named: {} };

Deno.test("commands are cut at method lines; hints stay with their command", () => {
  const text = 'GET /a/_search\n{"size": 1}\n\n\n/*+ timeout=5s */\nPOST /b/_search\n{}\n';
  const parts = splitCommands(text);
  assert.deepEqual(parts.map((s) => [s.startLine, s.endLine]), [[1, 2], [5, 7]]);
  assert.equal(parts[1]!.text, "/*+ timeout=5s */\nPOST /b/_search\n{}");
  assert.equal(segmentAt(parts, 4)?.startLine, 1);
  assert.equal(segmentAt(parts, 5)?.startLine, 5);
  assert.deepEqual(splitCommands("no command here"), []);
});

Deno.test("a syntax error counts the editor's lines", () => {
  const parts = splitCommands('GET /a/_search\n\nGET /b/_search\n{"size": 1,,}');
  assert.throws(
    () => prepare(parts[1]!, NONE),
    (e) => e instanceof CommandSyntaxError && e.line === 4,
  );
});

Deno.test("positional arguments are taken from the offset; named ones through the template", () => {
  const [a, b] = splitCommands('GET /a/_search\n{"size": ?}\nGET /{?}/_doc/{?}');
  const args = { positional: [1, "x", "y/z"], named: {} };
  assert.deepEqual(prepare(a!, args, 0).args, [1]);
  const second = prepare(b!, args, 1);
  assert.deepEqual(second.args, ["x", "y/z"]);
  assert.equal(second.parsed.commands[0]!.line, 3);
  const [t] = splitCommands("GET /${index}/_doc/#{id}");
  const bound = prepare(t!, { positional: [], named: { index: "people", id: "7" } });
  assert.deepEqual(bound.args, ["7"]);
  assert.equal(bound.parsed.commands[0]!.pathTemplate, "/people/_doc/{?}");
});
