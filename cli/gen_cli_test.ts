import assert from "node:assert/strict";
import { type GenHost, runGen } from "./gen_cli.ts";
import { runCli } from "./run.ts";
import { getEntityMeta, mappingOf } from "../template/mod.ts";

const TEMPLATE = new URL("../template/mod.ts", import.meta.url).href;
const SETUP = `PUT /shop-items
{"mappings": {"dynamic": "strict", "properties": {
  "sku": {"type": "keyword", "ignore_above": 32},
  "title": {"type": "text", "fields": {"raw": {"type": "keyword"}}},
  "dims": {"properties": {"w": {"type": "float"}, "h": {"type": "float"}}}}}}
`;

function host(files: Record<string, string>) {
  const written: Record<string, string> = {};
  let out = "";
  let err = "";
  const h: GenHost = {
    env: () => undefined,
    readText: (p) =>
      files[p] === undefined
        ? Promise.reject(new Error("no such file"))
        : Promise.resolve(files[p]!),
    writeText: (p, t) => {
      written[p] = t;
      return Promise.resolve();
    },
    out: (t) => (out += t),
    err: (t) => (err += t),
  };
  return { h, written, out: () => out, err: () => err };
}

Deno.test("gen --engine runs the setup files, writes --out, and the class round-trips", async () => {
  const io = host({ "setup.es": SETUP });
  const code = await runGen(
    [
      "--engine",
      "setup.es",
      "--index",
      "shop-items",
      "--out",
      "item.ts",
      "--class",
      "Item",
      "--import",
      TEMPLATE,
    ],
    io.h,
  );
  assert.equal(code, 0, io.err());
  assert.equal(io.out(), "");
  assert.match(io.err(), /wrote item\.ts/);
  const source = io.written["item.ts"]!;
  assert.match(source, /from the mapping of index "shop-items" \(embedded engine\)/);
  assert.match(source, /export class ItemDims \{/);
  const file = await Deno.makeTempFile({ suffix: ".ts" });
  try {
    await Deno.writeTextFile(file, source);
    const mod = await import(`file://${file}`);
    assert.equal(getEntityMeta(mod.Item).index, "shop-items");
    assert.deepEqual(mappingOf(mod.Item).mappings, {
      dynamic: "strict",
      properties: {
        sku: { type: "keyword", ignore_above: 32 },
        title: { type: "text", fields: { raw: { type: "keyword" } } },
        dims: { properties: { w: { type: "float" }, h: { type: "float" } } },
      },
    });
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("gen --mapping reads a saved _mapping reply", async () => {
  const io = host({
    "snap.json": JSON.stringify({ logs: { mappings: { properties: { at: { type: "date" } } } } }),
  });
  assert.equal(await runGen(["--mapping", "snap.json", "--index", "logs"], io.h), 0, io.err());
  assert.match(io.out(), /@Table\(\{ index: "logs" \}\)\nexport class Logs \{/);
  assert.match(io.out(), /from snap\.json \(index logs\)/);
});

Deno.test("gen: a bad command line, a missing index, an unreadable file", async () => {
  for (
    const [args, code, message] of [
      [["--engine"], 64, /needs --index NAME/],
      [
        ["--url", "http://h:1", "--engine", "--index", "a"],
        64,
        /one of --url, --engine and --mapping/,
      ],
      [["--index", "a", "x.es"], 64, /command files run only with --engine/],
      [["--engine", "--index", "a", "--colour"], 64, /unknown option --colour/],
      [["--engine", "--index", "nope"], 1, /index_not_found_exception: no such index \[nope\]/],
      [["--mapping", "missing.json", "--index", "a"], 2, /cannot read missing\.json/],
    ] as const
  ) {
    const io = host({});
    assert.equal(await runGen(args, io.h), code, `${args.join(" ")}: ${io.err()}`);
    assert.match(io.err(), message);
  }
  const help = host({});
  assert.equal(await runGen(["--help"], help.h), 0);
  assert.match(help.out(), /usage: searchvisitor gen/);
});

Deno.test("the console's runCli hands `gen` to runGen", async () => {
  let out = "";
  const code = await runCli({
    args: ["gen", "--help"],
    env: () => undefined,
    readText: () => Promise.reject(new Error("no files")),
    stdinIsTerminal: false,
    openPrompt: () => {
      throw new Error("not interactive");
    },
    out: (t) => (out += t),
    err: (t) => (out += t),
  });
  assert.equal(code, 0);
  assert.match(out, /^usage: searchvisitor gen /);
});
