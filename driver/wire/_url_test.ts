import assert from "node:assert/strict";
import { parseCloudId, parseConnectionUrl, parseNode } from "./_url.ts";

Deno.test("jdbc URL: hosts split on ;, default port, properties case-insensitive", () => {
  const parsed = parseConnectionUrl(
    "jdbc:dbvisitor:elastic://h1:9201;h2/ignored?USER=u&Password=p%40ss&indexRefresh=TRUE&socketTimeout=500&maxRetries=0",
  );
  assert.deepEqual(parsed, {
    nodes: ["http://h1:9201", "http://h2:9200"],
    auth: { username: "u", password: "p@ss" },
    timeoutMs: 500,
    maxRetries: 0,
    indexRefresh: true,
  });
});

Deno.test("jdbc URL: https, username, apiKey, token, IPv6, prefix case", () => {
  assert.deepEqual(parseConnectionUrl("JDBC:dbvisitor:Elastic://[::1]:9300?https=true"), {
    nodes: ["https://[::1]:9300"],
  });
  assert.deepEqual(parseConnectionUrl("jdbc:dbvisitor:elastic://h?username=a&password=b").auth, {
    username: "a",
    password: "b",
  });
  assert.deepEqual(parseConnectionUrl("jdbc:dbvisitor:elastic://h?apiKey=K1").auth, {
    apiKey: "K1",
  });
  assert.deepEqual(parseConnectionUrl("jdbc:dbvisitor:elastic://h?token=T").auth, { bearer: "T" });
  assert.deepEqual(parseConnectionUrl("jdbc:dbvisitor:elastic://h?bearer=T").auth, { bearer: "T" });
  assert.equal(parseConnectionUrl("jdbc:dbvisitor:elastic://h?timeoutMs=75").timeoutMs, 75);
});

Deno.test("http URLs: credentials go to auth, never into the node", () => {
  assert.deepEqual(parseConnectionUrl("http://u:p%21@es.local:9201/"), {
    nodes: ["http://es.local:9201"],
    auth: { username: "u", password: "p!" },
  });
  assert.deepEqual(parseConnectionUrl("https://es.local").nodes, ["https://es.local:9200"]);
  assert.deepEqual(parseConnectionUrl("http://es.local:80/prefix").nodes, [
    "http://es.local:80/prefix",
  ]);
  assert.deepEqual(parseConnectionUrl("http://h:9200?indexRefresh=true").indexRefresh, true);
  assert.deepEqual(parseNode("localhost:9200"), { node: "http://localhost:9200" });
  assert.deepEqual(parseNode("https://a:b@h:1"), {
    node: "https://h:1",
    auth: { username: "a", password: "b" },
  });
});

Deno.test("bad connection strings are TypeErrors that hide the password", () => {
  for (
    const url of [
      "mysql://h?password=s3cret",
      "jdbc:dbvisitor:elastic://?password=s3cret",
      "jdbc:dbvisitor:elastic://a:b:c?password=s3cret",
      "jdbc:dbvisitor:elastic://h?password=s3cret&maxRetries=x",
      "jdbc:dbvisitor:elastic://h?password=s3cret&indexRefresh=maybe",
    ]
  ) {
    assert.throws(() => parseConnectionUrl(url), (e: unknown) => {
      assert.ok(e instanceof TypeError, url);
      assert.doesNotMatch(e.message, /s3cret/);
      return true;
    });
  }
  assert.throws(() => parseNode("ftp://h"), /only http and https/);
});

Deno.test("Elastic Cloud ids become https node URLs", () => {
  assert.equal(
    parseCloudId(`my-deployment:${btoa("us-east-1.aws.found.io$abc123$def456")}`),
    "https://abc123.us-east-1.aws.found.io:443",
  );
  assert.equal(parseCloudId(`x:${btoa("host.io:9243$es1$kb1")}`), "https://es1.host.io:9243");
  assert.throws(() => parseCloudId("x:!!!"), /not base64/);
  assert.throws(() => parseCloudId(`x:${btoa("only-host")}`), /host\$elasticsearch-id/);
});
