// The console as a program: commands piped in and files on the command line (exit codes, stdout
// and stderr kept apart), and a person typing at the prompt through a pseudo-terminal (`script`).
import assert from "node:assert/strict";

const MAIN = new URL("../cli/main.ts", import.meta.url).pathname;

async function run(
  args: string[],
  stdin = "",
): Promise<{ code: number; out: string; err: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, ...args],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", SEARCHVISITOR_HISTORY: "/dev/null" },
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin));
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  const dec = new TextDecoder();
  return { code, out: dec.decode(stdout), err: dec.decode(stderr) };
}

Deno.test("cli: commands piped in run like a file; rows to stdout, exit 0", async () => {
  const { code, out, err } = await run(
    ["--engine", "--format", "ndjson"],
    [
      'PUT /people/_doc/1?refresh=true {"name": "Ada"}',
      "POST /_bulk?refresh=true",
      '{"index": {"_index": "people", "_id": "2"}}',
      '{"name": "Alan"}',
      "",
      ".format table",
      "GET /people/_count",
    ].join("\n"),
  );
  assert.equal(err, "");
  assert.equal(code, 0);
  assert.equal(out, '{"updated":1}\n{"updated":1}\n| COUNT |\n|-------|\n|     2 |\n(1 row)\n');
});

Deno.test("cli: a syntax error in a file says file:line:column with a caret, exit 2, nothing run", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/q.es`;
    await Deno.writeTextFile(file, 'PUT /p/_doc/1 {"a": 1}\n\nGET /p/_search\n{\n  "size": ,\n}\n');
    const { code, out, err } = await run(["--engine", file]);
    assert.equal(code, 2);
    assert.equal(out, "");
    assert.match(err, new RegExp(`^${file}:5:11: error: .*\\n  "size": ,\\n {10}\\^`));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli: exit codes say what failed, and the script stops at the first failure", async () => {
  const refused = await run(["--engine"], "GET /nowhere/_search\nGET /\n");
  assert.equal(refused.code, 1);
  assert.equal(refused.out, "");
  assert.match(
    refused.err,
    /^<stdin>:1: error: HTTP 404 index_not_found_exception: no such index \[nowhere\]/,
  );
  const down = await run(["--url", "http://127.0.0.1:9", "-"], "GET /\n");
  assert.equal(down.code, 3);
  assert.match(down.err, /Could not reach http:\/\/127\.0\.0\.1:9 .* GET \//);
  const usage = await run(["--engine", "--url", "http://h"]);
  assert.equal(usage.code, 64);
  assert.match(usage.err, /give either --url or --engine/);
  const missing = await run(["--engine", "/nonexistent/q.es"]);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /^\/nonexistent\/q\.es: error: cannot read it/);
});

Deno.test("cli: the password never reaches the output, even when the cluster is down", async () => {
  const r = await run(
    ["--url", "http://127.0.0.1:9", "--user", "elastic:s3cret-pw", "-"],
    "GET /\n",
  );
  assert.equal(r.code, 3);
  assert.doesNotMatch(r.out + r.err, /s3cret-pw/);
});

Deno.test("cli: --engine --load streams an NDJSON file in, then the commands see it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/docs.ndjson`;
    const docs = Array.from({ length: 4500 }, (_, i) => JSON.stringify({ i, even: i % 2 === 0 }));
    await Deno.writeTextFile(file, docs.join("\n") + "\n");
    const { code, out, err } = await run(
      ["--engine", "--load", file, "--index", "nums", "--format", "json"],
      'GET /nums/_count {"query": {"term": {"even": true}}}\n',
    );
    assert.equal(err, "");
    assert.equal(code, 0);
    assert.match(out, /^Loaded 4,500 docs from .*docs\.ndjson in [\d.]+ s \([\d,]+ docs\/s\)\n/);
    assert.match(out, /"COUNT": 2250/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// --- a person at a terminal -------------------------------------------------------------------

const hasScript = (() => {
  try {
    return new Deno.Command("script", { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
})();

/** A terminal session: type keys, wait for text on the screen (ANSI codes stripped). */
class Terminal {
  #child: Deno.ChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  screen = "";
  #done: Promise<void>;

  constructor(command: string) {
    this.#child = new Deno.Command("script", {
      args: ["-qfec", `stty cols 72 rows 40; exec ${command}`, "/dev/null"],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      env: { TERM: "xterm", NO_COLOR: "1", SEARCHVISITOR_HISTORY: "/dev/null" },
    }).spawn();
    this.#writer = this.#child.stdin.getWriter();
    const dec = new TextDecoder();
    const stdout = this.#child.stdout;
    this.#done = (async () => {
      for await (const chunk of stdout) {
        // deno-lint-ignore no-control-regex
        this.screen += dec.decode(chunk, { stream: true }).replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "");
      }
    })();
  }

  async type(keys: string): Promise<void> {
    for (const key of keys) {
      await this.#writer.write(new TextEncoder().encode(key));
      await new Promise((r) => setTimeout(r, 2));
    }
  }

  /** Waits until `pattern` appears after `from` (a guard against hanging, not a timing check). */
  async waitFor(pattern: RegExp, from = 0): Promise<string> {
    // Two minutes: the machine may be loaded; a hang still fails the test.
    for (let i = 0; i < 2400; i++) {
      const m = this.screen.slice(from).match(pattern);
      if (m) return m[0];
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`never saw ${pattern} on the screen:\n${this.screen}`);
  }

  async close(): Promise<number> {
    await this.#writer.close().catch(() => {});
    const status = await this.#child.status;
    await this.#done;
    await this.#child.stderr.cancel();
    return status.code;
  }
}

Deno.test({
  name:
    "cli: a person types at the prompt: multi-line body, table fitting 72 columns, history, .help, Ctrl-C, Ctrl-D",
  ignore: !hasScript,
  fn: async () => {
    const term = new Terminal(`${Deno.execPath()} run -A ${MAIN} --engine --refresh`);
    try {
      await term.waitFor(/searchvisitor console: the embedded engine \(elasticsearch [\d.]+\)/);
      await term.waitFor(/sv> $/);
      let mark = term.screen.length;
      await term.type("PUT /people/_doc/1 {\r");
      await term.waitFor(/\.\.\.> $/, mark);
      await term.type(
        `  "name": "Ada Lovelace", "bio": "${"wrote the first program ".repeat(4)}"\r`,
      );
      await term.type("}\r");
      await term.waitFor(/OK, 1 affected\r?\n/, mark);
      mark = term.screen.length;
      await term.type("GET /people/_search\r");
      const table = await term.waitFor(/\| _ID[\s\S]*?\(1 row, total 1, took \d+ ms\)/, mark);
      const rows = table.split(/\r?\n/).filter((l) => l.startsWith("|"));
      assert.ok(rows.length > 3, "the long _DOC is folded onto more lines");
      for (const row of rows) assert.ok(row.length <= 72, `row wider than the terminal: ${row}`);
      mark = term.screen.length;
      await term.type(".format ndjson\r");
      await term.type("\x1b[A\x1b[A\r"); // up twice: GET /people/_search again
      await term.waitFor(/\{"_ID":"1","_DOC":"\{\\"name\\":\\"Ada Lovelace\\"/, mark);
      mark = term.screen.length;
      await term.type("POST /people/_search {\r");
      await term.type("\x03"); // Ctrl-C drops the half-typed command
      await term.type(".help\r");
      await term.waitFor(
        /\.format table\|json\|ndjson +how rows are printed \(now: ndjson\)/,
        mark,
      );
      mark = term.screen.length;
      await term.type("GET /people/_doc/{?}\r");
      await term.waitFor(/error: .*placeholder/, mark);
      await term.waitFor(/sv> $/, mark);
      await term.type("\x04");
      assert.equal(await term.close(), 0);
    } catch (error) {
      await term.close();
      throw error;
    }
  },
});

Deno.test({
  name:
    "cli: Ctrl-C during a .load stops it between requests; what was sent stays, the prompt goes on",
  ignore: !hasScript,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const file = `${dir}/big.ndjson`;
    const line = (i: number) => JSON.stringify({ i, text: "some words" });
    await Deno.writeTextFile(file, Array.from({ length: 300_000 }, (_, i) => line(i)).join("\n"));
    const term = new Terminal(`${Deno.execPath()} run -A ${MAIN} --engine`);
    try {
      await term.waitFor(/sv> $/);
      await term.type(`.load ${file} big\r`);
      await term.waitFor(/\d+% [\d,]+ docs +[\d,]+ docs\/s/); // the bar is drawn: the load runs
      await term.type("\x03");
      await term.waitFor(/error: interrupted \(Ctrl-C\)/);
      await term.waitFor(/sv> $/);
      let mark = term.screen.length;
      await term.type("POST /big/_refresh\r");
      await term.waitFor(/sv> $/, mark);
      mark = term.screen.length;
      await term.type("GET /big/_count\r");
      const count = await term.waitFor(/\|\s+\d+ \|\r?\n\(1 row\)/, mark);
      const loaded = Number(count.match(/(\d+)/)![1]);
      assert.ok(loaded > 0 && loaded < 300_000, `loaded ${loaded}`);
      assert.equal(loaded % 2000, 0, "whole requests only: a request is never cut in half");
      await term.type("\x04");
      assert.equal(await term.close(), 0);
    } catch (error) {
      await term.close();
      throw error;
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
