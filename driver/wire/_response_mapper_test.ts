import assert from "node:assert/strict";
import { mapResponse, type Outcome } from "./_response_mapper.ts";
import { classify } from "./_endpoint.ts";
import { InvalidResponseError, PartialResultsError, ResponseError } from "../errors.ts";
import { ResultSet } from "../jdbc/result_set.ts";
import type { Method } from "../command/command.ts";

function map(
  method: Method,
  path: string,
  body: unknown,
  status = 200,
  contentType = "application/json",
): Outcome[] {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return mapResponse(classify(method, path), {
    status,
    text,
    contentType,
    command: `${method} ${path}`,
  });
}

function only(outcomes: Outcome[]): ResultSet {
  const [first] = outcomes;
  assert.equal(first!.kind, "rows");
  if (first!.kind !== "rows") throw new Error();
  return new ResultSet(first!.table.columns, first!.table.rows, first!.meta);
}

Deno.test("hits.total: ES 6 number, gte, absent; scroll and PIT ids", () => {
  const es6 = only(map("POST", "/i/_search", { hits: { total: 5, hits: [] } }));
  assert.deepEqual(es6.total, { value: 5, relation: "eq" });
  const gte = only(map("POST", "/i/_search?scroll=1m", {
    _scroll_id: "abc",
    hits: { total: { value: 10000, relation: "gte" }, hits: [{ _id: "1", _source: false }] },
  }));
  assert.deepEqual(gte.total, { value: 10000, relation: "gte" });
  assert.equal(gte.scrollId, "abc");
  assert.deepEqual(gte.toArray(), [{ _ID: "1", _DOC: null }]);
  const pit = only(map("POST", "/_search", { pit_id: "p2", hits: { hits: [] } }));
  assert.equal(pit.total, null);
  assert.equal(pit.pitId, "p2");
  assert.equal(only(map("POST", "/i/_pit?keep_alive=1m", { id: "p1" })).pitId, "p1");
  assert.equal(only(map("POST", "/i/_search/point_in_time", { pit_id: "o1" })).pitId, "o1");
});

Deno.test("_source of a missing document is zero rows; a missing index is an error", () => {
  const missing = {
    error: { type: "resource_not_found_exception", reason: "Document not found [i]/[1]" },
    status: 404,
  };
  assert.equal(only(map("GET", "/i/_source/1", missing, 404)).rowCount, 0);
  assert.throws(
    () =>
      map(
        "GET",
        "/i/_source/1",
        { error: { type: "index_not_found_exception" }, status: 404 },
        404,
      ),
    ResponseError,
  );
});

Deno.test("_reindex without total (a task) gives a row; counts trimmed by filter_path read 0", () => {
  const task = only(map("POST", "/_reindex?wait_for_completion=false", { task: "n:1" }));
  assert.deepEqual(task.toArray(), [{ task: "n:1" }]);
  assert.deepEqual(map("POST", "/i/_update_by_query?wait_for_completion=false", { task: "n:2" }), [
    { kind: "count", count: 0, keys: [] },
  ]);
  assert.deepEqual(map("POST", "/i/_update_by_query?filter_path=took", { took: 3 }), [
    { kind: "count", count: 0, keys: [] },
  ]);
  assert.deepEqual(map("POST", "/i/_count?filter_path=-count", {})[0]!.kind, "rows");
  assert.deepEqual(map("PUT", "/i/_doc/7", { _id: "7", result: "updated" }), [
    { kind: "count", count: 1, keys: ["7"] },
  ]);
  assert.deepEqual(map("DELETE", "/i", { acknowledged: true }), [{
    kind: "count",
    count: 1,
    keys: [],
  }]);
  assert.deepEqual(map("DELETE", "/_pit", { succeeded: true, num_freed: 1 }), [
    { kind: "count", count: 1, keys: [] },
  ]);
});

Deno.test("non-JSON 2xx text on a read is one row `value`", () => {
  assert.deepEqual(
    only(map("GET", "/_nodes/hot_threads", "::: node-1", 200, "text/plain")).toArray(),
    [
      { value: "::: node-1" },
    ],
  );
});

Deno.test("_cat/health has the reference columns; ES 6 mappings sit under the type", () => {
  const health = only(map("GET", "/_cat/health?format=json", [{
    epoch: "1",
    timestamp: "10:00:00",
    cluster: "c",
    status: "green",
    "node.total": "1",
    "node.data": "1",
    shards: "2",
    pri: "2",
    relo: "0",
    init: "0",
    unassign: "0",
    pending_tasks: "0",
    max_task_wait_time: "-",
    active_shards_percent: "100.0%",
  }]));
  assert.deepEqual(health.getColumns().slice(0, 12), [
    "CLUSTER",
    "STATUS",
    "NODE.TOTAL",
    "NODE.DATA",
    "SHARDS",
    "PRI",
    "RELO",
    "INIT",
    "UNASSIGN",
    "PENDING_TASKS",
    "MAX_TASK_WAIT_TIME",
    "ACTIVE_SHARDS_PERCENT",
  ]);
  assert.deepEqual(health.getColumns().slice(12), ["EPOCH", "TIMESTAMP"]);
  assert.equal(health.toArray()[0]!.STATUS, "green");
  const es6 = only(map("GET", "/old/_mapping", {
    old: { mappings: { doc: { properties: { tags: { type: "nested", properties: {} } } } } },
  }));
  assert.deepEqual(es6.toArray(), [{
    NAME: "old",
    MAPPING: "tags",
    FIELD: null,
    TYPE: "nested",
    NESTED: true,
    OPTION: '{"type":"nested","properties":{}}',
  }]);
});

Deno.test("2xx garbage (truncated JSON, HTML, empty, bare value) is InvalidResponseError, never rows", () => {
  const cases: [Method, string, string, string, RegExp][] = [
    [
      "POST",
      "/i/_search",
      '{"hits":{"total":{"value":3},"hits":[{"_id":"1"',
      "application/json",
      /not valid JSON/,
    ],
    ["POST", "/i/_search", "<html><body>Login</body></html>", "text/html", /HTML page/],
    ["POST", "/i/_count", "", "application/json", /empty where a JSON body is due/],
    ["PUT", "/i/_doc/1", "", "", /empty/],
    ["POST", "/i/_doc", "<html>ok</html>", "text/html; charset=utf-8", /HTML/],
    ["POST", "/_bulk", "true", "application/json", /bare JSON value/],
    ["GET", "/i/_doc/1", "{", "application/json", /not valid JSON/],
  ];
  for (const [method, path, body, type, why] of cases) {
    assert.throws(() => map(method, path, body, 200, type), (e: unknown) => {
      assert.ok(e instanceof InvalidResponseError, `${method} ${path}: ${e}`);
      assert.equal(e.status, 200);
      assert.equal(e.contentType, type);
      assert.ok(e.excerpt.length <= 121);
      assert.match(e.message, why);
      assert.match(
        e.message,
        new RegExp(`HTTP 200 \\(${type === "" ? "no content type" : type.split(";")[0]}`),
      );
      return true;
    });
  }
  const long = '<a href="http://admin:hunter2@proxy/">' + "x".repeat(5000);
  assert.throws(() => map("POST", "/i/_search", long, 200, "text/html"), (e: unknown) => {
    assert.ok(e instanceof InvalidResponseError);
    assert.ok(e.message.length < 400, "a short excerpt, not the whole page");
    assert.doesNotMatch(e.message + e.excerpt + JSON.stringify(e), /hunter2/);
    return true;
  });
});

const partial = {
  _shards: {
    total: 3,
    successful: 2,
    skipped: 0,
    failed: 1,
    failures: [{
      shard: 1,
      index: "logs",
      node: "n2id",
      reason: { type: "node_disconnected_exception", reason: "[n2] disconnected" },
    }],
  },
  hits: { total: { value: 2, relation: "eq" }, hits: [{ _id: "a", _source: {} }] },
};

Deno.test("a search answer with failed shards is a PartialResultsError, never rows", () => {
  const error = (() => {
    try {
      map("POST", "/logs/_search", partial);
    } catch (e) {
      return e;
    }
  })();
  assert.ok(error instanceof PartialResultsError, String(error));
  assert.equal(error.shards.failed, 1);
  assert.deepEqual(error.shards.failures[0]!.index, "logs");
  assert.match(error.message, /1 of 3 shards failed.*\[logs\]\[1\] on n2id: node_disconnected/);
  assert.throws(
    () => map("POST", "/_msearch", { responses: [{ hits: { hits: [] } }, partial] }),
    (e: unknown) => e instanceof PartialResultsError && /sub-search 2/.test(e.message),
  );
  // Every shard answered (failed: 0): rows, no shard failures.
  const whole = only(
    map("POST", "/logs/_search", { ...partial, _shards: { total: 3, failed: 0 } }),
  );
  assert.equal(whole.shardFailures, undefined);
});

Deno.test("allow_partial_search_results=true reads the rows and exposes what is missing", () => {
  const path = "/logs/_search?allow_partial_search_results=true";
  const text = JSON.stringify(partial);
  const [outcome] = mapResponse(classify("POST", path), {
    status: 200,
    text,
    contentType: "",
    command: path,
    allowPartial: true,
  });
  if (outcome?.kind !== "rows") throw new Error("rows expected");
  const rs = new ResultSet(outcome.table.columns, outcome.table.rows, outcome.meta);
  assert.equal(rs.rowCount, 1);
  assert.deepEqual([rs.shardFailures?.failed, rs.shardFailures?.total], [1, 3]);
  assert.equal(rs.shardFailures?.failures[0]?.reason.type, "node_disconnected_exception");
});

Deno.test("a 2xx of the wrong shape is an InvalidResponseError, never 0 rows or a count of 1", () => {
  const wrong: [Method, string, unknown][] = [
    // A JSON array where an object is due.
    ["POST", "/i/_search", []],
    ["POST", "/i/_count", [{ count: 3 }]],
    ["PUT", "/i/_doc/1", [{ result: "created" }]],
    ["POST", "/_bulk", []],
    ["POST", "/i/_update/1", []],
    ["DELETE", "/i/_doc/1", []],
    ["POST", "/i/_delete_by_query", []],
    ["POST", "/_mget", []],
    ["POST", "/_msearch", []],
    ["GET", "/i/_doc/1", []],
    ["POST", "/_reindex", []],
    // An object without what the API must answer.
    ["POST", "/i/_search", { took: 1 }],
    ["POST", "/i/_search", { hits: { total: 3 } }],
    ["POST", "/i/_search", { hits: { hits: {} } }],
    ["POST", "/i/_count", {}],
    ["POST", "/i/_count", { count: "3" }],
    ["PUT", "/i/_doc/1", { acknowledged: true }],
    ["POST", "/i/_doc", {}],
    ["PUT", "/i/_create/1", { _id: "1" }],
    ["POST", "/i/_update/1", { _id: "1" }],
    ["DELETE", "/i/_doc/1", { _id: "1" }],
    ["POST", "/_bulk", { errors: false }],
    ["POST", "/i/_update_by_query", { total: 2 }],
    ["POST", "/i/_delete_by_query", {}],
    ["POST", "/_mget", { hits: [] }],
    ["GET", "/i/_doc/1", { _id: "1" }],
    ["POST", "/_msearch", { hits: { hits: [] } }],
    ["POST", "/_msearch", { responses: [{ took: 1 }] }],
  ];
  for (const [method, path, body] of wrong) {
    assert.throws(
      () => map(method, path, body),
      (e) => e instanceof InvalidResponseError && e.code === "INVALID_RESPONSE",
      `${method} ${path} ${JSON.stringify(body)}`,
    );
  }
});

Deno.test("legitimate shapes stay readable: _cat, _mapping, noop, tasks, _msearch errors, filter_path", () => {
  const ok: [Method, string, unknown][] = [
    ["GET", "/_cat/indices", [{ index: "i" }]],
    ["GET", "/i/_mapping", { i: { mappings: {} } }],
    ["GET", "/_search/pipeline", { p: { request_processors: [] } }],
    ["PUT", "/_search/pipeline/p", { acknowledged: true }],
    ["POST", "/i/_search/point_in_time?keep_alive=1m", { pit_id: "x" }],
    ["POST", "/i/_update/1", { _id: "1", result: "noop" }],
    ["POST", "/i/_update/1", { _id: "1", result: "deleted" }],
    ["POST", "/i/_update_by_query?wait_for_completion=false", { task: "n:1" }],
    ["POST", "/i/_update_by_query", { updated: 0, total: 0 }],
    ["POST", "/_msearch", { responses: [{ hits: { hits: [] } }, { hits: { hits: [] } }] }],
    // filter_path: the caller trimmed the answer on purpose.
    ["POST", "/i/_search?filter_path=aggregations", { aggregations: { n: { value: 1 } } }],
    ["POST", "/i/_search?filter_path=hits.total", {}],
    ["POST", "/_bulk?filter_path=errors", { errors: false }],
    ["PUT", "/i/_doc/1?filter_path=_id", { _id: "1" }],
  ];
  for (const [method, path, body] of ok) map(method, path, body);
  const noop = map("POST", "/i/_update/1", { _id: "1", result: "noop" });
  assert.deepEqual(noop, [{ kind: "count", count: 0, keys: ["1"] }]);
  const aggs = only(map("POST", "/i/_search?filter_path=aggregations", { aggregations: {} }));
  assert.equal(aggs.rowCount, 0);
  assert.deepEqual(map("PUT", "/i/_doc/1?filter_path=_id", { _id: "1" }), [
    { kind: "count", count: 1, keys: ["1"] },
  ]);
  // A failed sub-search is the server's error, not a shape problem.
  assert.throws(
    () => map("POST", "/_msearch", { responses: [{ error: { type: "x" }, status: 400 }] }),
    (e) => e instanceof ResponseError && !(e instanceof InvalidResponseError) && e.status === 400,
  );
  // An array is never a trimmed object.
  assert.throws(() => map("POST", "/i/_search?filter_path=hits", []), InvalidResponseError);
});

Deno.test("counts past 2^53 read exactly: COUNT is a bigint cell, by-query counts bigints", () => {
  const big = "9007199254740993"; // 2^53 + 1: a double would read ...992
  const count = only(map("POST", "/i/_count", `{"count":${big}}`));
  assert.ok(count.next());
  assert.equal(count.getLong("COUNT"), BigInt(big));
  assert.equal(count.getObject("COUNT"), BigInt(big));
  const small = only(map("POST", "/i/_count", '{"count":7}'));
  small.next();
  assert.equal(small.getObject("COUNT"), 7);
  assert.deepEqual(map("POST", "/i/_update_by_query", `{"updated":${big}}`), [
    { kind: "count", count: BigInt(big), keys: [] },
  ]);
  assert.deepEqual(map("POST", "/i/_delete_by_query", `{"deleted":${big}}`), [
    { kind: "count", count: BigInt(big), keys: [] },
  ]);
  assert.deepEqual(map("POST", "/_reindex", `{"total":${big}}`), [
    { kind: "count", count: BigInt(big), keys: [] },
  ]);
  assert.deepEqual(map("POST", "/i/_delete_by_query", '{"deleted":4}'), [
    { kind: "count", count: 4, keys: [] },
  ]);
});
