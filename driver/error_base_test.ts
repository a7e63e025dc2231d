import assert from "node:assert/strict";
import { redact } from "./error_base.ts";

Deno.test("redact: user info to the last @ of the run, secret parameters to the next &", () => {
  assert.equal(redact("http://u:p@h:9200/x"), "http://***@h:9200/x");
  assert.equal(redact("see https://u:p@ss@h/ and ftp://a@b"), "see https://***@h/ and ftp://***@b");
  assert.equal(redact("a@b http://h/x"), "a@b http://h/x");
  assert.equal(
    redact("http://h/x?user=u&password=Zq7Pw;Kx9Vt&n=1"),
    "http://h/x?user=u&password=***&n=1",
  );
  assert.equal(redact("no url here"), "no url here");
});

Deno.test("redact: linear on long texts (a.a.a…, x://x://…), so an error over a long command stays cheap", () => {
  // Each would take minutes with a backtracking pattern; the assertion is on the result.
  const long = "a.".repeat(200_000);
  assert.equal(redact(long), long);
  const schemes = "x://".repeat(100_000) + "u:p@h";
  assert.equal(redact(schemes), "x://***@h");
});
