import assert from "node:assert/strict";
import { Router } from "./router.ts";

function router(): Router<string> {
  return new Router<string>()
    .add("PUT", "/{index}", "create")
    .add("DELETE", "/{index}", "delete")
    .add(["GET", "POST"], "/_refresh", "refresh")
    .add("GET", "/{index}/_doc/{id}", "get")
    .add("POST", "/{index}/_update/{id}", "update");
}

Deno.test("router: parameters are decoded and literals win", () => {
  const r = router();
  assert.deepEqual(r.match("GET", "/my%20idx/_doc/a%2Fb"), {
    kind: "found",
    handler: "get",
    params: { index: "my idx", id: "a/b" },
  });
  assert.deepEqual(r.match("POST", "/_refresh"), { kind: "found", handler: "refresh", params: {} });
});

Deno.test("router: the most specific pattern decides the 405", () => {
  const r = router();
  assert.deepEqual(r.match("DELETE", "/_refresh"), {
    kind: "method_not_allowed",
    allowed: ["GET", "POST"],
  });
  assert.deepEqual(r.match("GET", "/idx/_update/1"), {
    kind: "method_not_allowed",
    allowed: ["POST"],
  });
});

Deno.test("router: unknown paths are not found", () => {
  assert.deepEqual(router().match("GET", "/a/b/c/d/e"), { kind: "not_found" });
  assert.deepEqual(router().match("GET", "/%E0%A4%A"), { kind: "not_found" });
});
