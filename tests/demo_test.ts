// The README's first command, run as a user runs it: the whole demo against the embedded engine
// must exit 0 and walk through every access style.
import assert from "node:assert/strict";

const DEMO = new URL("../examples/demo.ts", import.meta.url);

Deno.test({
  name: "demo: `deno task demo` runs every tour to the end on the embedded engine",
  // The demo loads 171,075 cities; spawning a child Deno needs run permission.
  ignore: Deno.permissions.querySync({ name: "run" }).state !== "granted",
  fn: async () => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", DEMO.pathname],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    const err = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, `demo exited ${out.code}:\n${err}\n${text.slice(-2000)}`);
    assert.match(text, /loaded 171,075 \/ 171,075 cities/);
    // One heading per access style, in the order of the tours.
    const styles = [
      /── create the index from the City entity/,
      /drift from the entity: \[\]/,
      /── driver: PreparedStatement/,
      /── full-text search, named argument \(queryForList\)/,
      /── LambdaTemplate: /,
      /── mapper: @Query with a Page/,
      /── BaseMapper\./,
      /── vectors: /,
      /── XML mapper file /,
    ];
    let at = 0;
    for (const style of styles) {
      const m = style.exec(text.slice(at));
      assert.ok(m, `no section matching ${style} after offset ${at}`);
      at += m.index + m[0].length;
    }
    assert.match(text, /\ndone in \d+\.\d s\n/);
  },
});
