import assert from "node:assert/strict";
import { installScript, installSteps, jsBlocks } from "./install_paths.ts";

const PAGE = [
  "# x",
  "<!-- install: run -->",
  "",
  "```sh",
  "mkdir app && cd app",
  "```",
  "<!-- install: file app/a.mjs -->",
  "```js",
  'console.log("$HOME")',
  "```",
  "```js",
  "plain()",
  "```",
  "```sh",
  "not run",
  "```",
].join("\n");

Deno.test("installSteps: marked blocks in order, unmarked ones left out", () => {
  assert.deepEqual(installSteps(PAGE), [
    { kind: "run", text: "mkdir app && cd app", line: 2 },
    { kind: "file", path: "app/a.mjs", text: 'console.log("$HOME")', line: 7 },
  ]);
  assert.throws(() => installSteps("<!-- install: run -->\ntext"), /followed by a fenced block/);
  assert.throws(() => installSteps("<!-- install: run -->\n```sh\nx"), /not closed/);
});

Deno.test("installScript: run lines verbatim, files through a quoted here-document", () => {
  const script = installScript(installSteps(PAGE), "p.md");
  assert.equal(
    script,
    [
      'cd "$SV_WORK"',
      'echo "== p.md:2"',
      "mkdir app && cd app",
      'echo "== p.md:7"',
      'mkdir -p "$(dirname "$SV_WORK/app/a.mjs")"',
      `cat >"$SV_WORK/app/a.mjs" <<'__SV_FILE_END__'`,
      'console.log("$HOME")',
      "__SV_FILE_END__",
      "",
    ].join("\n"),
  );
});

Deno.test("jsBlocks: the js blocks that are not install files", () => {
  assert.deepEqual(jsBlocks(PAGE), [{ line: 11, text: "plain()" }]);
});
