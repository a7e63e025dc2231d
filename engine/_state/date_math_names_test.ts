import assert from "node:assert/strict";
import { resolveDateMathName, resolveDateMathNames } from "./date_math_names.ts";
import { Engine } from "../engine.ts";
import { exchange } from "../../tests/support/engine_call.ts";

const NOW = Date.UTC(2024, 2, 15, 22, 30); // 2024-03-15T22:30Z

Deno.test("date-math index names resolve like Elasticsearch", () => {
  assert.equal(resolveDateMathName("<logs-{now/d}>", NOW), "logs-2024.03.15");
  assert.equal(resolveDateMathName("<logs-{now/d-1d}>", NOW), "logs-2024.03.14");
  assert.equal(resolveDateMathName("<logs-{now/M{yyyy.MM}}>", NOW), "logs-2024.03");
  assert.equal(resolveDateMathName("<logs-{now/d{yyyy.MM.dd|+02:00}}>", NOW), "logs-2024.03.16");
  assert.equal(resolveDateMathName("<l-{now/d{yyyy.MM.dd|Asia/Tokyo}}>", NOW), "l-2024.03.16");
  assert.equal(resolveDateMathName("<l-{now/h{HH|America/New_York}}>", NOW), "l-18");
  assert.throws(
    () => resolveDateMathName("<l-{now/d{yyyy|Moon/Base}}>", NOW),
    /invalid dynamic name expression .*Unknown time-zone ID: Moon\/Base/,
  );
  assert.equal(resolveDateMathName("<a\\{b\\}-{now/y{yyyy}}>", NOW), "a{b}-2024");
  assert.equal(resolveDateMathName("plain", NOW), "plain");
  assert.equal(resolveDateMathNames("x,<y-{now/d}>", NOW), "x,y-2024.03.15");
  assert.throws(
    () => resolveDateMathName("<logs-{now/d>", NOW),
    /invalid dynamic name expression \[logs-{now\/d>\]. date math placeholder is open ended$/,
  );
  assert.throws(
    () => resolveDateMathName("<logs-}>", NOW),
    /invalid dynamic name expression \[logs-}>\]. invalid character at position \[6\]/,
  );
  assert.throws(() => resolveDateMathName("<logs-{nope}>", NOW), /must start with \[now\]/);
});

Deno.test("date-math names work URL-encoded on create, index and search", async () => {
  const engine = new Engine({ now: () => NOW });
  const call = (method: string, path: string, body?: unknown) =>
    exchange(engine, method, path, body);
  const name = encodeURIComponent("<logs-{now/d}>");
  const created = await call("PUT", `/${name}`);
  assert.equal(created.status, 200);
  assert.equal(created.body.index, "logs-2024.03.15");
  const doc = await call("PUT", `/${name}/_doc/1?refresh=true`, { a: 1 });
  assert.equal(doc.body._index, "logs-2024.03.15");
  const yesterday = encodeURIComponent("<logs-{now/d-1d}>");
  const indexed = await call("POST", `/${yesterday}/_doc?refresh=true`, { a: 2 });
  assert.equal(indexed.body._index, "logs-2024.03.14");
  const both = await call("POST", `/${name},${yesterday}/_search`);
  assert.equal(both.body.hits.total.value, 2);
  const bad = await call("GET", `/${encodeURIComponent("<logs-{now/d>")}/_search`);
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.type, "parse_exception");
  engine.close();
});
