// Runs contrib/fetch_node's Deno tests on Bun, where its plain-http sockets are Bun's own
// (`Bun.connect`): `npx -y bun contrib/_run_tests_bun.ts` prints "bun fetch_node tests ok". Only
// what those tests use of Deno is provided here (`Deno.test` with `t.step`, or with `ignore`, and
// the temporary files and command of the TLS test), on Node's APIs.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";

type TestFn = (t: { step(name: string, fn: () => unknown): Promise<boolean> }) => unknown;
const tests: [string, TestFn][] = [];
const ignored: string[] = [];
/** `Deno.test(name, fn)` and `Deno.test({ name, ignore, fn })`. */
function test(name: string | { name: string; ignore?: boolean; fn: TestFn }, fn?: TestFn): void {
  if (typeof name === "string") tests.push([name, fn!]);
  else if (name.ignore) ignored.push(name.name);
  else tests.push([name.name, name.fn]);
}

Object.assign(globalThis, {
  Deno: {
    test,
    makeTempDir: () => mkdtemp(join(tmpdir(), "bun-fetch-node-")),
    readTextFile: (path: string) => readFile(path, "utf8"),
    writeTextFile: (path: string, text: string) => writeFile(path, text),
    remove: (path: string, options?: { recursive?: boolean }) => rm(path, options),
    Command: class {
      constructor(readonly cmd: string, readonly options: { args: string[] }) {}
      output(): Promise<{ success: boolean }> {
        return new Promise((resolve) =>
          execFile(this.cmd, this.options.args, (error) => resolve({ success: error === null }))
        );
      }
    },
  },
});

await import("./_http1_test.ts");
await import("./_http1_conn_node_test.ts");
await import("./fetch_node_test.ts");
await import("./fetch_node_wire_test.ts");

let failed = 0;
for (const [name, fn] of tests) {
  try {
    await fn({
      step: async (_name, step) => {
        await step();
        return true;
      },
    });
  } catch (error) {
    failed++;
    console.error(`FAILED ${name}:`, error);
  }
}
if (failed > 0) {
  console.error(`${failed} of ${tests.length} failed`);
  process.exit(1);
}
for (const name of ignored) console.log(`ignored ${name}`);
console.log(`bun fetch_node tests ok (${tests.length})`);
process.exit(0);
