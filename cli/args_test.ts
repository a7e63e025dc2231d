import assert from "node:assert/strict";
import { parseArgs, UsageError } from "./args.ts";

Deno.test("parseArgs: user and password, formats, files after --", () => {
  const o = parseArgs([
    "--url=http://h:9200",
    "--user",
    "elastic:pa:ss",
    "--format",
    "ndjson",
    "--",
    "--odd",
  ]);
  assert.equal(o.url, "http://h:9200");
  assert.equal(o.user, "elastic");
  assert.equal(o.password, "pa:ss");
  assert.equal(o.format, "ndjson");
  assert.deepEqual(o.files, ["--odd"]);
  assert.equal(parseArgs(["--user", "bob"]).password, undefined);
});

Deno.test("parseArgs: mistakes are usage errors that say what to do", () => {
  const cases: [string[], RegExp][] = [
    [["--url"], /--url needs a value/],
    [["--timing=yes"], /--timing takes no value/],
    [["--format", "csv"], /--format takes table, json, ndjson; got csv/],
    [["--wat"], /unknown option --wat; --help lists the options/],
    [["--opensearch"], /--opensearch goes with --engine/],
  ];
  for (const [args, message] of cases) {
    assert.throws(
      () => parseArgs(args),
      (e: unknown) => e instanceof UsageError && message.test(e.message),
    );
  }
});
