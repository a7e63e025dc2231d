import assert from "node:assert/strict";
import { checkFile, checkUserCode } from "./check_layers.ts";

Deno.test("a room may import another room only through its mod.ts", () => {
  assert.deepEqual(
    checkFile("template/jdbc_template.ts", 'import { x } from "../driver/mod.ts";'),
    [],
  );
  const past = checkFile("template/jdbc_template.ts", 'import { x } from "../driver/binder.ts";');
  assert.equal(past.length, 1);
  assert.match(past[0]!.problem, /reaches past driver\/mod.ts/);
});

Deno.test("an upward import breaks the dependency direction", () => {
  const up = checkFile("driver/connection.ts", 'import { x } from "../template/mod.ts";');
  assert.equal(up.length, 1);
  assert.match(up[0]!.problem, /driver must not depend on template/);
  assert.equal(checkFile("template/a.ts", 'import "../engine/mod.ts";').length, 1);
});

Deno.test("library rooms use web standards only, adapters and tests excepted", () => {
  assert.equal(checkFile("driver/transport.ts", 'import http from "node:http";').length, 1);
  assert.equal(checkFile("engine/serve.ts", "const s = Deno.serve(() => r);").length, 1);
  assert.equal(checkFile("engine/serve_deno.ts", "const s = Deno.serve(() => r);").length, 0);
  assert.equal(checkFile("driver/a_test.ts", 'import assert from "node:assert/strict";').length, 0);
  assert.equal(checkFile("driver/a.ts", "// Deno.serve in a comment").length, 0);
});

Deno.test("imports inside doc comments are examples, not dependencies", () => {
  const text =
    '/**\n * ```ts\n * import assert from "node:assert/strict";\n * ```\n */\nexport const x = 1;';
  assert.deepEqual(checkFile("driver/a.ts", text), []);
  const after = '/** doc */\nimport http from "node:http";';
  assert.equal(checkFile("driver/a.ts", after)[0]!.line, 2);
});

Deno.test("benchmarks and test support may reach inside a room; other tests may not", () => {
  const spec = 'import { Shard } from "' + "../../engine/_index/shard.ts" + '";';
  assert.equal(checkFile("tests/support/test_index.ts", spec).length, 0);
  assert.equal(checkFile("bench/x/engine_bench.ts", spec).length, 0);
  assert.equal(checkFile("tests/x/engine_e2e_test.ts", spec).length, 1);
});

Deno.test("an engine stage imports only the stages below it", () => {
  const down = 'import { x } from "../_index/field_map.ts";';
  assert.deepEqual(checkFile("engine/_query/term_queries.ts", down), []);
  const up = checkFile(
    "engine/_query/named_queries.ts",
    'import { x } from "../_search/collect.ts";',
  );
  assert.equal(up.length, 1);
  assert.match(up[0]!.problem, /_query must not depend on _search/);
  const root = checkFile("engine/_index/shard.ts", 'import { Engine } from "../engine.ts";');
  assert.match(root[0]!.problem, /must not import engine\/engine.ts/);
  assert.deepEqual(checkFile("engine/_index/shard.ts", 'import { e } from "../_errors.ts";'), []);
  assert.deepEqual(
    checkFile("engine/_query/a.ts", 'import { isJsonObject } from "../_json.ts";'),
    [],
  );
  assert.deepEqual(
    checkFile("engine/_rest/a_test.ts", 'import { Engine } from "../engine.ts";'),
    [],
  );
});

Deno.test("the playground sits on top: it uses the library's doors, never the console", () => {
  assert.deepEqual(checkFile("playground/page/a.ts", 'import "../../driver/mod.ts";'), []);
  assert.deepEqual(checkFile("cli/main.ts", 'await import("../playground/mod.ts");'), []);
  const up = checkFile("playground/page/a.ts", 'import "../../cli/mod.ts";');
  assert.match(up[0]!.problem, /playground must not depend on cli/);
  assert.equal(checkFile("playground/page/a.ts", 'import http from "node:http";').length, 1);
  assert.equal(checkFile("playground/server_node.ts", 'import http from "node:http";').length, 0);
});

Deno.test("a sibling room may enter through internal.ts too, nothing deeper", () => {
  assert.deepEqual(
    checkFile("template/rules.ts", 'import { parseScript } from "../driver/internal.ts";'),
    [],
  );
  const deeper = checkFile("template/rules.ts", 'import { x } from "../driver/command/_lexer.ts";');
  assert.equal(deeper.length, 1);
  assert.match(deeper[0]!.problem, /reaches past driver\/mod.ts and driver\/internal.ts/);
  // The direction still holds through the second door.
  assert.equal(checkFile("driver/a.ts", 'import { x } from "../template/internal.ts";').length, 1);
});

Deno.test("a door names what it passes on from a sibling's internal.ts", () => {
  assert.deepEqual(
    checkFile("xml/mod.ts", 'export { ConditionExpression } from "../driver/internal.ts";'),
    [],
  );
  const whole = checkFile("xml/mod.ts", 'export * from "../driver/internal.ts";');
  assert.equal(whole.length, 1);
  assert.match(whole[0]!.problem, /re-exports driver\/internal.ts whole/);
});

Deno.test("users' code imports no internal door", () => {
  assert.deepEqual(
    checkUserCode("examples/a.ts", 'import { DataSource } from "../driver/mod.ts";'),
    [],
  );
  assert.equal(
    checkUserCode("examples/a.ts", 'import { parseScript } from "../driver/internal.ts";').length,
    1,
  );
  const page = '```ts\nimport { x } from "@searchvisitor/searchvisitor/driver/internal";\n```\n';
  const found = checkUserCode("docs/driver.md", page);
  assert.equal(found.length, 1);
  assert.equal(found[0]!.line, 2);
});

Deno.test("a door does not re-export from a helper of its room (the underscore rule)", () => {
  const helper = checkFile("driver/mod.ts", 'export {\n  a,\n  b,\n} from "./wire/_helper.ts";');
  assert.equal(helper.length, 1);
  assert.match(helper[0]!.problem, /re-exports from driver\/wire\/_helper\.ts/);
  assert.deepEqual(checkFile("driver/mod.ts", 'export { a } from "./wire/helper.ts";'), []);
  assert.deepEqual(checkFile("driver/mod.ts", 'import { a } from "./wire/_helper.ts";'), []);
  assert.deepEqual(checkFile("driver/wire/x.ts", 'export { a } from "./_helper.ts";'), []);
  assert.equal(checkFile("template/internal.ts", 'export { w } from "./_w.ts";').length, 1);
});
