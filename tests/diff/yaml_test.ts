import assert from "node:assert/strict";
import { mayWrite } from "./yaml.ts";

Deno.test("mayWrite: writes by any method, reads by POST are not", () => {
  assert.equal(mayWrite("POST", "/_reindex?wait_for_completion=false"), true);
  assert.equal(mayWrite("POST", "/idx/_update_by_query"), true);
  assert.equal(mayWrite("PUT", "/_scripts/s1"), true);
  assert.equal(mayWrite("POST", "/idx/_update/1"), true);
  assert.equal(mayWrite("GET", "/_reindex"), false);
  assert.equal(mayWrite("HEAD", "/idx"), false);
  assert.equal(mayWrite("POST", "/idx/_search/template"), false);
  assert.equal(mayWrite("POST", "/_render/template"), false);
  assert.equal(mayWrite("POST", "/idx/_rank_eval"), false);
  assert.equal(mayWrite("POST", "/_scripts/painless/_execute"), false);
  assert.equal(mayWrite("POST", "/idx/_search?q=x"), false);
});
