import assert from "node:assert/strict";
import { listenFailure, parseArgs } from "./main.ts";

const noEnv = () => undefined;

Deno.test("engine CLI: options, defaults and one-line errors", () => {
  const ok = parseArgs(["--port", "0", "--opensearch"], noEnv);
  assert.equal(ok.kind, "serve");
  if (ok.kind === "serve") {
    assert.equal(ok.flavour, "opensearch");
    assert.equal(ok.serve.hostname, "127.0.0.1");
    assert.equal(ok.serve.port, 0);
  }
  const v8 = parseArgs(["--version", "8.15.0"], noEnv);
  assert.equal(v8.kind === "serve" && v8.version, "8.15.0");
  assert.deepEqual(parseArgs(["--version"], noEnv), { kind: "version" });
  assert.deepEqual(parseArgs(["--help"], noEnv), { kind: "help" });
  for (
    const bad of [["--bogus"], ["--port", "70000"], ["--port", "x"], ["--port"], [
      "--version",
      "nine",
    ]]
  ) {
    const r = parseArgs(bad, noEnv);
    assert.equal(r.kind, "error", bad.join(" "));
    assert.ok(r.kind === "error" && !r.message.includes("\n"));
  }
});

Deno.test("engine CLI: a non-loopback host needs credentials and warns", () => {
  assert.equal(parseArgs(["--host", "0.0.0.0"], noEnv).kind, "error");
  const withEnv = parseArgs(
    ["--host", "0.0.0.0", "--user", "elastic"],
    (n) => n === "ENGINE_PASSWORD" ? "pw" : undefined,
  );
  assert.equal(withEnv.kind, "serve");
  assert.ok(withEnv.kind === "serve" && /not loopback/.test(withEnv.warning ?? ""));
  assert.equal(withEnv.kind === "serve" && withEnv.serve.auth?.password, "pw");
  assert.equal(parseArgs(["--user", "elastic"], noEnv).kind, "error", "a user needs a password");
  const keys = parseArgs(["--api-key", "id:key", "--cors", "http://a.test"], noEnv);
  assert.ok(keys.kind === "serve" && keys.serve.auth?.apiKeys?.[0] === "id:key");
});

Deno.test("engine CLI: a taken port is one clear line", () => {
  const line = listenFailure(
    Object.assign(new Error("x"), { code: "EADDRINUSE" }),
    9200,
    "127.0.0.1",
  );
  assert.equal(line, "port 9200 on 127.0.0.1 is already in use; pick another with --port");
});
