import assert from "node:assert/strict";
import { describeCycle, findCycles, importGraph } from "./check_cycles.ts";

function graphOf(files: Record<string, string>) {
  return importGraph(new Map(Object.entries(files)));
}

Deno.test("a chain of imports is no circle", () => {
  const graph = graphOf({
    "a/x.ts": 'import { y } from "./y.ts";',
    "a/y.ts": 'import { z } from "../b/z.ts";',
    "b/z.ts": "export const z = 1;",
  });
  assert.deepEqual(findCycles(graph), []);
});

Deno.test("a circle through type imports and re-exports is found, with the lines", () => {
  const graph = graphOf({
    "r/a.ts": 'import type { B } from "./b.ts";\nexport const a = 1;',
    "r/b.ts": '\n\nexport * from "./c.ts";',
    "r/c.ts": 'export type { A } from "./a.ts";',
    "r/d.ts": 'import { a } from "./a.ts";',
  });
  const cycles = findCycles(graph);
  assert.equal(cycles.length, 1);
  assert.deepEqual(cycles[0]!.files, ["r/a.ts", "r/b.ts", "r/c.ts"]);
  assert.equal(describeCycle(graph, cycles[0]!), "r/a.ts:1 → r/b.ts:3 → r/c.ts:1 → r/a.ts");
});

Deno.test("a circle across folders and dynamic imports counts; comments do not", () => {
  const graph = graphOf({
    "p/a.ts": 'const m = await import("../q/b.ts");',
    "q/b.ts": 'import "../p/a.ts";',
    "q/c.ts": '/** ```ts\n * import { b } from "./d.ts";\n * ``` */\nexport const c = 1;',
    "q/d.ts": 'import { c } from "./c.ts";',
  });
  assert.deepEqual(findCycles(graph).map((c) => c.path), [["p/a.ts", "q/b.ts", "p/a.ts"]]);
});

Deno.test("a larger group is reported with its size, and a file importing itself is a circle", () => {
  const graph = graphOf({
    "a.ts": 'import "./b.ts"; import "./c.ts";',
    "b.ts": 'import "./a.ts";',
    "c.ts": 'import "./b.ts";',
    "self.ts": 'import "./self.ts";',
  });
  const cycles = findCycles(graph);
  assert.equal(cycles.length, 2);
  assert.equal(describeCycle(graph, cycles[0]!), "a.ts:1 → b.ts:1 → a.ts (a group of 3 files)");
  assert.deepEqual(cycles[1]!.path, ["self.ts", "self.ts"]);
});

Deno.test("a long chain does not overflow the stack", () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 20_000; i++) files[`f${i}.ts`] = `import "./f${i + 1}.ts";`;
  files["f20000.ts"] = 'import "./f0.ts";';
  const cycles = findCycles(graphOf(files));
  assert.equal(cycles.length, 1);
  assert.equal(cycles[0]!.files.length, 20_001);
});
