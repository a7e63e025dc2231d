// contrib/fetch_deno: the behaviour both adapters keep (tests/support/fetch_adapter_suite.ts),
// then its own.
import assert from "node:assert/strict";
import { denoFetch } from "./fetch_deno.ts";
import { fetchAdapterSuite } from "../tests/support/fetch_adapter_suite.ts";
import { httpServer as rawServer } from "../tests/support/loopback_servers.ts";

fetchAdapterSuite({
  name: "denoFetch",
  make: denoFetch,
  trusting: (ca) => denoFetch({ tls: { caCerts: [ca] } }),
  untrustedCode: "TLS",
});

Deno.test("denoFetch: an idle connection does not keep the process alive", async () => {
  const srv = await rawServer((_req, res) => res.end("idle"));
  // A child that sends one request and ends without close(): it must exit by itself.
  const script = 'import { denoFetch } from "' + import.meta.resolve("./fetch_deno.ts") +
    '"; console.log(await (await denoFetch()(Deno.args[0])).text());';
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", script, `${srv.url}/`],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  // Only a guard against a hang: a child still running after 20 s is killed (and fails).
  let killed = false;
  const guard = setTimeout(() => {
    killed = true;
    child.kill();
  }, 20_000);
  try {
    const out = await child.output();
    assert.equal(killed, false, "the child did not exit with its connection idle");
    assert.equal(out.code, 0);
    assert.equal(new TextDecoder().decode(out.stdout).trim(), "idle");
  } finally {
    clearTimeout(guard);
    await srv.stop();
  }
});
