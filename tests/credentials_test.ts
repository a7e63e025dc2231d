// Credentials never leave the objects that hold them: every way of building a data source (good
// and malformed connection strings, node URLs with user info, auth options of every kind) and
// every object and error the library makes from it is searched for sentinel secrets in its
// message, cause chain, stack, String(), JSON.stringify and inspection (Deno and node:util).
import assert from "node:assert/strict";
import { inspect } from "node:util";
import { DataSource, type DataSourceOptions } from "../driver/mod.ts";
import { JdbcTemplate } from "../template/mod.ts";

const PW = "Pw-Sentinel-7f3a";
const KEY = "Key-Sentinel-91bd";
const TOKEN = "Tok-Sentinel-c0de";
const SECRETS = [PW, KEY, TOKEN, btoa(`elastic:${PW}`), btoa(`id:${KEY}`)];

/** Every text view of a value, following causes. */
function views(value: unknown, depth = 0): string {
  if (value === null || value === undefined || depth > 6) return "";
  let out = "";
  try {
    out += String(value) + "\n" + JSON.stringify(value) + "\n";
  } catch {
    out += "(unserialisable)\n";
  }
  out += Deno.inspect(value, { showHidden: true, depth: 10, getters: true }) + "\n";
  out += inspect(value, { showHidden: true, depth: 10, getters: true }) + "\n";
  if (value instanceof Error) {
    out += (value.stack ?? "") + "\n" + views(value.cause, depth + 1);
    for (const key of Object.getOwnPropertyNames(value)) {
      out += views((value as unknown as Record<string, unknown>)[key], depth + 1);
    }
  }
  return out;
}

function assertClean(what: string, value: unknown): void {
  const text = views(value);
  for (const secret of SECRETS) {
    assert.ok(!text.includes(secret), `${what} shows a secret:\n${text.slice(0, 2000)}`);
  }
}

const MALFORMED = [
  `http://elastic:${PW}#x@localhost:9200`,
  `http://elastic:${PW}@bad host:9200`,
  `http://elastic:${PW}@[::1:9200`,
  `https://elastic:${PW}@h:99999`,
  `http://elastic:a?${PW}@h:9200`,
  `jdbc:dbvisitor:elastic://[h:9200?user=elastic&password=${PW}`,
  `jdbc:dbvisitor:elastic://elastic:${PW}@h:9200`,
  `jdbc:dbvisitor:elastic://h:9200?password=${PW}&timeoutMs=abc`,
  `jdbc:dbvisitor:elastic://h:9200?apiKey=${KEY}&maxRetries=x`,
  `jdbc:dbvisitor:elastic://h:9200?token=${TOKEN}#x&indexRefresh=maybe`,
  `jdbc:dbvisitor:elastic://h:9200?password=a b ${PW}&compression=perhaps`,
  `ftp://elastic:${PW}@h`,
  `elastic:${PW}@h:9200`,
];

const GOOD: (string | DataSourceOptions)[] = [
  `jdbc:dbvisitor:elastic://h1:9200;h2:9200?user=elastic&password=${PW}`,
  `jdbc:dbvisitor:elastic://h:9200?user=elastic&password=${PW}#frag`,
  `jdbc:dbvisitor:elastic://h:9200?apiKey=${KEY}`,
  `jdbc:dbvisitor:elastic://h:9200?token=${TOKEN}`,
  `http://elastic:${encodeURIComponent(PW + "# @")}@localhost:9200`,
  { nodes: ["http://h:9200"], auth: { username: "elastic", password: PW } },
  { nodes: ["http://h:9200"], auth: { apiKey: KEY } },
  { nodes: ["http://h:9200"], auth: { apiKey: { id: "id", apiKey: KEY } } },
  { nodes: ["http://h:9200"], auth: { bearer: TOKEN } },
  { nodes: [`http://elastic:${PW}@h:9200`, "http://h2:9200"] },
  { nodes: ["http://h:9200"], headers: { authorization: `Bearer ${TOKEN}` } },
];

Deno.test("malformed connection strings and node URLs: no secret in any error view", () => {
  for (const url of MALFORMED) {
    const error = assert.throws(() => new DataSource(url), (e: unknown) => {
      assertClean(url, e);
      return e instanceof TypeError;
    });
    assert.equal(error, undefined);
  }
  for (const node of [`http://u:${PW}#@h`, `http://u:${PW}@[::1`, `http://u:${PW}@h:70000`]) {
    assert.throws(() => new DataSource({ nodes: [node] }), (e: unknown) => {
      assertClean(node, e);
      return true;
    });
  }
  assert.throws(
    () => new DataSource({ nodes: ["http://h"], auth: { apiKey: "" } }),
    (e: unknown) => (assertClean("empty apiKey", e), true),
  );
});

Deno.test("every object built from credentials, and every runtime error, hides them", async () => {
  for (const config of GOOD) {
    const what = typeof config === "string" ? config : JSON.stringify(Object.keys(config));
    let sentAuth = "";
    const fetch = (url: string, init: RequestInit) => {
      sentAuth = new Headers(init.headers).get("authorization") ?? "";
      if (url.includes("/refused")) {
        return Promise.reject(
          new TypeError("fetch failed", {
            cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
          }),
        );
      }
      // A proxy that echoes the request headers in its pages (a login page answers 200).
      if (url.includes("/html200") || url.endsWith(":9200/")) {
        return Promise.resolve(
          new Response(`<html>hello ${sentAuth}</html>`, {
            headers: { "content-type": "text/html" },
          }),
        );
      }
      return Promise.resolve(new Response(`<html>denied: ${sentAuth}</html>`, { status: 401 }));
    };
    const ds = typeof config === "string"
      ? new DataSource(config, { fetch, maxRetries: 1, retryBaseDelayMs: 1 })
      : new DataSource({ ...config, fetch, maxRetries: 1, retryBaseDelayMs: 1 });
    const conn = await ds.getConnection();
    const stmt = conn.createStatement();
    const ps = conn.prepareStatement("GET /idx/_doc/{?}");
    const jdbc = new JdbcTemplate(ds);
    for (const [name, obj] of Object.entries({ ds, conn, stmt, ps, jdbc, t: ds.transport })) {
      assertClean(`${what}: ${name}`, obj);
    }
    const denied = await stmt.executeQuery("GET /idx/_search").catch((e) => e);
    assert.ok(denied instanceof Error);
    assert.ok(sentAuth !== "", `${what}: the credentials were sent`);
    assertClean(`${what}: 401 error`, denied);
    const html200 = await stmt.executeQuery("GET /html200/_search").catch((e) => e);
    assert.equal(html200?.code, "INVALID_RESPONSE", `${what}: ${html200}`);
    assertClean(`${what}: HTML 200 echoing the headers`, html200);
    const info200 = await conn.serverInfo().catch((e) => e);
    assertClean(`${what}: server info from an HTML 200`, info200);
    const refused = await stmt.executeQuery("GET /refused").catch((e) => e);
    assert.match(String(refused), /ECONNREFUSED/);
    assertClean(`${what}: connection error`, refused);
    const info = await conn.serverInfo().catch((e) => e);
    assertClean(`${what}: server info error`, info);
    await conn.close();
  }
});
