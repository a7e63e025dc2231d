// contrib/fetch_deno: the behaviour both adapters keep (./_fetch_adapter_suite.ts), then its own.
import assert from "node:assert/strict";
import { denoFetch } from "./fetch_deno.ts";
import { fetchAdapterSuite } from "./_fetch_adapter_suite.ts";
import { DataSource } from "../driver/mod.ts";
import { JdbcTemplate } from "../template/mod.ts";
import { httpServer as rawServer } from "../tests/support/loopback_servers.ts";

fetchAdapterSuite({ name: "denoFetch", make: denoFetch });

/**
 * A throwaway CA and a certificate for 127.0.0.1 it signed (rustls, under `Deno.connectTls`,
 * refuses a CA certificate used as the server's own), or undefined without openssl.
 */
async function selfSigned(): Promise<{ key: string; cert: string; ca: string } | undefined> {
  const dir = await Deno.makeTempDir();
  const run = async (args: string[]) =>
    (await new Deno.Command("openssl", { args, stdout: "null", stderr: "null" }).output())
      .success;
  try {
    const ok = await run(
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=ca"]
        .concat(["-keyout", `${dir}/ca.key`, "-out", `${dir}/ca.pem`]),
    ) &&
      await run(
        ["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=t"]
          .concat(["-keyout", `${dir}/k.pem`, "-out", `${dir}/r.csr`]),
      ) &&
      (await Deno.writeTextFile(`${dir}/ext`, "subjectAltName=IP:127.0.0.1\n"), true) &&
      await run(
        ["x509", "-req", "-in", `${dir}/r.csr`, "-CA", `${dir}/ca.pem`, "-CAkey", `${dir}/ca.key`]
          .concat(["-CAcreateserial", "-days", "1", "-extfile", `${dir}/ext`])
          .concat(["-out", `${dir}/c.pem`]),
      );
    if (!ok) return undefined;
    return {
      key: await Deno.readTextFile(`${dir}/k.pem`),
      cert: await Deno.readTextFile(`${dir}/c.pem`),
      ca: await Deno.readTextFile(`${dir}/ca.pem`),
    };
  } catch {
    return undefined; // no openssl on this machine
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("denoFetch: https with a trusted CA, reused; an untrusted one is a connect failure", async (t) => {
  const pair = await selfSigned();
  if (pair === undefined) return void t.step({ name: "openssl missing", ignore: true, fn() {} });
  const { createServer } = await import("node:https");
  let connections = 0;
  const server = createServer({ key: pair.key, cert: pair.cert }, (_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"hits":{"total":{"value":0,"relation":"eq"},"hits":[]}}');
  });
  server.on("secureConnection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
  const trusted = denoFetch({ tls: { caCerts: [pair.ca] } });
  const untrusted = denoFetch();
  try {
    const jdbc = new JdbcTemplate(new DataSource({ nodes: [url], fetch: trusted }));
    for (let i = 0; i < 3; i++) assert.deepEqual(await jdbc.queryForList("POST /p/_search {}"), []);
    assert.equal(connections, 1);
    const error = await untrusted(`${url}/`).catch((e) => e);
    assert.equal(error.code, "TLS");
    assert.match(error.message, /^tcp connect error: the TLS handshake/);
  } finally {
    trusted.close();
    untrusted.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
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

Deno.test("denoFetch: a large request body is written whole, and the next request follows it", async () => {
  const sizes: number[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    sizes.push((await req.bytes()).byteLength);
    return new Response("{}");
  });
  const fetch = denoFetch();
  try {
    const url = `http://127.0.0.1:${server.addr.port}/_bulk`;
    // 8 MiB of NDJSON (more than a socket takes in one write) and a multi-byte character.
    const line = JSON.stringify({ index: { _index: "p" } }) + "\n" +
      JSON.stringify({ t: "é".repeat(500) }) + "\n";
    const body = line.repeat(Math.ceil(8 * 1024 * 1024 / line.length));
    const res = await fetch(url, { method: "POST", body });
    assert.equal(await res.text(), "{}");
    assert.equal((await fetch(url, { method: "POST", body: "{}" })).status, 200);
    assert.deepEqual(sizes, [new TextEncoder().encode(body).byteLength, 2]);
  } finally {
    fetch.close();
    await server.shutdown();
  }
});
