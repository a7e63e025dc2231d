import assert from "node:assert/strict";
import { methodOf, type Origin, requestBytes, requestHead, targetOf } from "./_http1_request.ts";

const latin1 = (bytes: Uint8Array) => String.fromCharCode(...bytes);

Deno.test("_http1_request: origins are cached; paths are encoded as fetch sends them", () => {
  const origins = new Map<string, Origin>();
  const a = targetOf("http://[::1]:9200/a b/é?q=1#frag", origins, "t");
  assert.deepEqual(a.origin, {
    key: "http://[::1]:9200",
    secure: false,
    host: "::1",
    port: 9200,
    hostHeader: "[::1]:9200",
  });
  assert.equal(a.path, "/a%20b/%C3%A9?q=1");
  assert.equal(a.url, "http://[::1]:9200/a%20b/%C3%A9?q=1");
  assert.equal(targetOf("http://[::1]:9200/x", origins, "t").origin, a.origin);
  assert.equal(targetOf("https://es", origins, "t").origin.port, 443);
  assert.equal(targetOf("https://es", origins, "t").path, "/");
  assert.throws(() => targetOf("http://u:p@es/", new Map(), "t"), TypeError);
  // What the URL parser changes is sent as fetch sends it (dot segments resolved, `\\` a `/`,
  // the characters it percent-encodes encoded); a plain target is left alone.
  const cases: [string, string][] = [
    ["/p/_doc/a\\b", "/p/_doc/a/b"],
    ["/p/./_doc/1", "/p/_doc/1"],
    ["/p/x/../_doc/1", "/p/_doc/1"],
    ["/p/x/%2E%2e/_doc/1?v", "/p/_doc/1?v"],
    ['/p/_doc/{x}`?q=name:"a b"<>\'', "/p/_doc/%7Bx%7D%60?q=name:%22a%20b%22%3C%3E%27"],
    ["/.tasks/_doc/a.b?q=x.y", "/.tasks/_doc/a.b?q=x.y"],
    ["/p/_search?q=a|b^c[d]", "/p/_search?q=a|b^c[d]"],
  ];
  for (const [path, sent] of cases) {
    assert.equal(targetOf(`http://es:9200${path}`, origins, "t").path, sent, path);
    const parsed = new URL(`http://es:9200${path}`);
    assert.equal(parsed.pathname + parsed.search, sent, `${path} (the URL parser)`);
  }
  assert.equal(methodOf("post", "t"), "POST");
  assert.equal(methodOf("Purge", "t"), "Purge");
  assert.throws(() => methodOf("TRACE", "t"), TypeError);
});

Deno.test("_http1_request: latin1 header values are one byte each, the body UTF-8", () => {
  const target = targetOf("http://es:9200/p/_doc", new Map(), "t");
  const bytes = requestBytes({
    method: "POST",
    target,
    init: { headers: { "X-Name": "café", "content-type": "application/json" }, body: '"é"' },
    who: "t",
  });
  const text = latin1(bytes);
  const head = text.slice(0, text.indexOf("\r\n\r\n"));
  assert.deepEqual(head.split("\r\n"), [
    "POST /p/_doc HTTP/1.1",
    "host: es:9200",
    "x-name: caf\xe9",
    "content-type: application/json",
    "content-length: 4",
  ]);
  // The body's "é" is two UTF-8 bytes, the header's one latin1 byte.
  assert.deepEqual([...bytes.subarray(bytes.length - 4)], [0x22, 0xc3, 0xa9, 0x22]);
  const empty = latin1(requestBytes({ method: "PUT", target, init: {}, who: "t" }));
  assert.match(empty, /content-length: 0\r\n\r\n$/);
  const raw = requestBytes({
    method: "PUT",
    target,
    init: { body: new Uint8Array([0, 255]) },
    who: "t",
  });
  assert.deepEqual([...raw.subarray(raw.length - 2)], [0, 255]);
  assert.match(latin1(raw), /content-length: 2\r\n\r\n/);
});

Deno.test("_http1_request: a headers object sent again is written as it is now", () => {
  const target = targetOf("http://es:9200/", new Map(), "t");
  const headers: Record<string, string> = { authorization: "Basic a" };
  const head = (init: RequestInit) => requestHead({ method: "GET", target, init, who: "t" }).head;
  assert.match(head({ headers }), /authorization: Basic a\r\n/);
  assert.match(head({ headers }), /authorization: Basic a\r\n/);
  headers.authorization = "Basic b";
  assert.match(head({ headers }), /authorization: Basic b\r\n/);
  headers["x-opaque-id"] = "q";
  assert.match(head({ headers }), /authorization: Basic b\r\nx-opaque-id: q\r\n\r\n$/);
  delete headers.authorization;
  assert.doesNotMatch(head({ headers }), /authorization/);
  // A header refused once is refused again, not taken from a cache.
  const bad = { "x-a": "1\r\nx-b: 2" };
  assert.throws(() => head({ headers: bad }), TypeError);
  assert.throws(() => head({ headers: bad }), TypeError);
  // Without a body the head is the whole request; with one it stops before content-length.
  const post = requestHead({ method: "POST", target, init: { body: "{}" }, who: "t" });
  assert.equal(post.body, "{}");
  assert.match(post.head, /content-type: text\/plain;charset=UTF-8\r\n$/);
});
