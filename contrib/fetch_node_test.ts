// contrib/fetch_node: the behaviour both adapters keep (./_fetch_adapter_suite.ts), then its own.
import assert from "node:assert/strict";
import { nodeFetch } from "./fetch_node.ts";
import { fetchAdapterSuite } from "./_fetch_adapter_suite.ts";
import { DataSource } from "../driver/mod.ts";
import { JdbcTemplate } from "../template/mod.ts";

fetchAdapterSuite({ name: "nodeFetch", make: nodeFetch });

/** A throwaway self-signed certificate for 127.0.0.1, or undefined without openssl. */
async function selfSigned(): Promise<{ key: string; cert: string } | undefined> {
  const dir = await Deno.makeTempDir();
  try {
    const { success } = await new Deno.Command("openssl", {
      args: ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=t"]
        .concat(["-addext", "subjectAltName=IP:127.0.0.1"])
        .concat(["-keyout", `${dir}/k.pem`, "-out", `${dir}/c.pem`]),
      stdout: "null",
      stderr: "null",
    }).output();
    if (!success) return undefined;
    return {
      key: await Deno.readTextFile(`${dir}/k.pem`),
      cert: await Deno.readTextFile(`${dir}/c.pem`),
    };
  } catch {
    return undefined; // no openssl on this machine
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("nodeFetch: https with a trusted CA, reused; an untrusted one is a connect failure", async (t) => {
  const pair = await selfSigned();
  if (pair === undefined) return void t.step({ name: "openssl missing", ignore: true, fn() {} });
  const { createServer } = await import("node:https");
  let connections = 0;
  const server = createServer(pair, (_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"hits":{"total":{"value":0,"relation":"eq"},"hits":[]}}');
  });
  server.on("secureConnection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
  const trusted = nodeFetch({ tls: { ca: pair.cert } });
  const untrusted = nodeFetch();
  try {
    const jdbc = new JdbcTemplate(new DataSource({ nodes: [url], fetch: trusted }));
    for (let i = 0; i < 3; i++) assert.deepEqual(await jdbc.queryForList("POST /p/_search {}"), []);
    assert.equal(connections, 1);
    const error = await untrusted(`${url}/`).catch((e) => e);
    assert.equal(error.code, "DEPTH_ZERO_SELF_SIGNED_CERT");
    assert.match(error.message, /^tcp connect error: the TLS handshake/);
  } finally {
    trusted.close();
    untrusted.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
