import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

type Json = Reply;

Deno.test("ip_range: from/to keys, CIDR masks with bounds, keyed, sub-aggregations", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/net", { mappings: { properties: { ip: { type: "ip" } } } });
  for (const [i, ip] of ["10.0.0.1", "10.0.0.100", "10.0.0.200", "192.168.1.1"].entries()) {
    await call(engine, "PUT", `/net/_doc/${i}`, { ip });
  }
  await call(engine, "POST", "/net/_refresh");
  const res = await call(engine, "POST", "/net/_search", {
    size: 0,
    aggs: {
      r: {
        ip_range: {
          field: "ip",
          ranges: [{ to: "10.0.0.100" }, { from: "10.0.0.100" }, { mask: "10.0.0.0/25" }],
        },
        aggs: { n: { value_count: { field: "ip" } } },
      },
      k: {
        ip_range: { field: "ip", keyed: true, ranges: [{ key: "lan", mask: "192.168.0.0/16" }] },
      },
    },
  });
  assert.equal(res.code, 200, JSON.stringify(res));
  assert.deepEqual(res.aggregations.r.buckets, [
    { key: "*-10.0.0.100", to: "10.0.0.100", doc_count: 1, n: { value: 1 } },
    { key: "10.0.0.100-*", from: "10.0.0.100", doc_count: 3, n: { value: 3 } },
    { key: "10.0.0.0/25", from: "10.0.0.0", to: "10.0.0.128", doc_count: 2, n: { value: 2 } },
  ]);
  // Keyed buckets sit under their key and do not repeat it.
  assert.deepEqual(res.aggregations.k.buckets, {
    lan: { from: "192.168.0.0", to: "192.169.0.0", doc_count: 1 },
  });
  const bad = await call(engine, "POST", "/net/_search", {
    aggs: { r: { ip_range: { field: "ip", ranges: [{ from: "nope" }] } } },
  });
  assert.equal(bad.code, 400);
  assert.match(JSON.stringify(bad.error), /'nope' is not an IP string literal/);
  engine.close();
});
