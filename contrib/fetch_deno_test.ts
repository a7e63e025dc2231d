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

/** Whether this host has an IPv6 loopback to listen on. */
function hasIpv6Loopback(): boolean {
  try {
    Deno.listen({ hostname: "::1", port: 0 }).close();
    return true;
  } catch {
    return false;
  }
}

Deno.test({
  name: "denoFetch: localhost reaches a server on the loopback address it did not resolve first",
  ignore: !hasIpv6Loopback(),
  fn: async () => {
    // Deno.connect tries only the first address of a name; fetch tries each. Here localhost
    // resolves to 127.0.0.1 first (or only) and the server listens on ::1 alone; on hosts where
    // localhost is ::1 first it is a server started on 127.0.0.1 that a denoFetch missed.
    const servers = ["::1", "127.0.0.1"].map((hostname) =>
      Deno.serve({ hostname, port: 0, onListen() {} }, () => new Response(hostname))
    );
    const fetch = denoFetch();
    try {
      for (const server of servers) {
        const res = await fetch(`http://localhost:${server.addr.port}/`);
        assert.equal(await res.text(), server.addr.hostname);
      }
      // A port nothing listens on stays a connect failure, as before.
      const free = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const port = (free.addr as Deno.NetAddr).port;
      free.close();
      await assert.rejects(fetch(`http://localhost:${port}/`), /tcp connect error.*ECONNREFUSED/);
    } finally {
      fetch.close();
      await Promise.all(servers.map((s) => s.shutdown()));
    }
  },
});
