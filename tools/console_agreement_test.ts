import assert from "node:assert/strict";
import { difference, driverReading, examplesOf, ndjsonPaths } from "./console_agreement.ts";
import { NDJSON_ENDPOINTS } from "../driver/command/_ndjson_endpoints.ts";

const schema = {
  endpoints: [
    {
      urls: [{ path: "/_bulk" }, { path: "/{index}/_bulk" }],
      requestMediaType: ["application/x-ndjson"],
    },
    { urls: [{ path: "/_search" }], requestMediaType: ["application/json"] },
    { urls: [{ path: "/_cat/health" }] },
  ],
  types: [
    {
      kind: "request",
      name: { namespace: "_global.search", name: "Request" },
      examples: {
        One: { method_request: "GET /_search", value: '{"size": 1}' },
        NoBody: { method_request: "POST _refresh" },
        NoMethod: { value: "{}" },
      },
    },
    { kind: "interface", name: { namespace: "x", name: "Y" }, examples: { Z: { value: "{}" } } },
  ],
};

Deno.test("examplesOf: the request examples as console text; ndjsonPaths: the NDJSON URLs", () => {
  assert.deepEqual(examplesOf(schema), [
    { name: "_global.search/One", text: 'GET /_search\n{"size": 1}' },
    { name: "_global.search/NoBody", text: "POST _refresh\n" },
  ]);
  assert.deepEqual(ndjsonPaths(schema), ["/_bulk", "/{index}/_bulk"]);
});

Deno.test("driverReading and difference: alike, one side refusing, bodies and NDJSON", () => {
  const search = driverReading('GET /i/_search/\n{"size": 1}');
  assert.deepEqual(search, { method: "GET", path: "/i/_search", body: { size: 1 } });
  assert.equal(
    difference({ method: "GET", path: "/i/_search", body: { size: 1 } }, search),
    undefined,
  );
  assert.match(
    difference({ method: "GET", path: "/i/_search", body: { size: 2 } }, search)!,
    /body/,
  );
  assert.match(difference({ method: "POST", path: "/i/_search", body: {} }, search)!, /method/);
  const refused = driverReading("GET /i/_search\n[1, 2,]");
  assert.equal(typeof refused, "string");
  assert.match(
    difference({ method: "GET", path: "/i/_search", body: [1, 2] }, refused)!,
    /only Kibana/,
  );
  assert.equal(difference("bad", refused), undefined);
  const bulk = driverReading('POST /_bulk\n{"index": {}}\n{"a": 1}');
  assert.deepEqual(bulk, { method: "POST", path: "/_bulk", body: [{ index: {} }, { a: 1 }] });
  // Kibana reads a one-line NDJSON body as that line.
  assert.equal(
    difference(
      { method: "POST", path: "/_bulk", body: { a: 1 } },
      driverReading('POST _bulk\n{"a":1}'),
    ),
    undefined,
  );
});

Deno.test("the driver's NDJSON table is the specification's list of x-ndjson requests", async () => {
  const spec = await import("npm:@elastic/request-converter@9.5.0/dist/schema.json", {
    with: { type: "json" },
  });
  assert.deepEqual([...NDJSON_ENDPOINTS].sort(), ndjsonPaths(spec.default));
});
