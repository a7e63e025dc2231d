import assert from "node:assert/strict";
import { classify, rewritePath } from "./_endpoint.ts";
import { UnsupportedFeatureError } from "../errors.ts";
import type { Method } from "../command/command.ts";

const kind = (method: Method, path: string) => classify(method, path).kind;

Deno.test("classify: reads", () => {
  assert.equal(kind("HEAD", "/idx"), "head");
  assert.equal(kind("GET", "/idx/_search?size=1"), "search");
  assert.equal(kind("POST", "/_search/scroll"), "search");
  assert.equal(kind("DELETE", "/_search/scroll"), "write");
  assert.equal(kind("POST", "/idx/_msearch"), "msearch");
  assert.equal(kind("POST", "/idx/_mget"), "mget");
  assert.equal(kind("POST", "/idx/_count"), "count");
  assert.equal(kind("GET", "/idx/_doc/1"), "doc_get");
  assert.equal(kind("GET", "/idx/_source/1"), "source_get");
  assert.equal(kind("GET", "/_cat/indices"), "cat");
  assert.equal(kind("GET", "/idx/_mapping"), "mapping");
  assert.equal(kind("GET", "/_settings"), "settings");
  assert.equal(kind("GET", "/idx/_aliases"), "aliases");
  assert.equal(kind("GET", "/_cluster/health"), "read");
  assert.equal(kind("POST", "/idx/_pit?keep_alive=1m"), "read");
  assert.equal(kind("POST", "/idx/_explain/1"), "read");
});

Deno.test("classify: writes", () => {
  assert.equal(kind("POST", "/idx/_doc"), "doc_write");
  assert.equal(kind("PUT", "/idx/_doc/1"), "doc_write");
  assert.equal(kind("PUT", "/idx/_create/1"), "doc_write");
  assert.equal(kind("POST", "/idx/_update/1"), "update");
  assert.equal(kind("DELETE", "/idx/_doc/1"), "doc_delete");
  assert.equal(kind("POST", "/_bulk"), "bulk");
  assert.equal(kind("POST", "/idx/_update_by_query"), "update_by_query");
  assert.equal(kind("POST", "/idx/_delete_by_query"), "delete_by_query");
  assert.equal(kind("POST", "/_reindex"), "reindex");
  assert.equal(kind("PUT", "/idx"), "write");
  assert.equal(kind("DELETE", "/idx"), "write");
  assert.equal(kind("PUT", "/idx/_mapping"), "write");
  assert.equal(kind("POST", "/idx/_refresh"), "write");
  assert.equal(kind("DELETE", "/_pit"), "write");
});

function refreshed(method: Method, path: string): string {
  return rewritePath(classify(method, path), path, { indexRefresh: true });
}

Deno.test("indexRefresh adds refresh=true to document writes, merged into the query", () => {
  assert.equal(refreshed("PUT", "/idx/_doc/1"), "/idx/_doc/1?refresh=true");
  assert.equal(refreshed("PUT", "/idx/_doc/1?routing=a"), "/idx/_doc/1?routing=a&refresh=true");
  assert.equal(refreshed("POST", "/idx/_doc?"), "/idx/_doc?refresh=true");
  assert.equal(refreshed("POST", "/idx/_update/1"), "/idx/_update/1?refresh=true");
  assert.equal(refreshed("DELETE", "/idx/_doc/1"), "/idx/_doc/1?refresh=true");
  assert.equal(refreshed("POST", "/_bulk"), "/_bulk?refresh=true");
  assert.equal(refreshed("POST", "/i/_delete_by_query"), "/i/_delete_by_query?refresh=true");
  assert.equal(
    refreshed("POST", "/i/_update_by_query?conflicts=proceed"),
    "/i/_update_by_query?conflicts=proceed&refresh=true",
  );
});

Deno.test("indexRefresh never touches an explicit refresh, index-level or cluster endpoints", () => {
  assert.equal(refreshed("PUT", "/idx/_doc/1?refresh=wait_for"), "/idx/_doc/1?refresh=wait_for");
  assert.equal(refreshed("PUT", "/idx/_doc/1?Refresh=false"), "/idx/_doc/1?Refresh=false");
  assert.equal(refreshed("PUT", "/idx"), "/idx");
  assert.equal(refreshed("DELETE", "/idx"), "/idx");
  assert.equal(refreshed("PUT", "/_cluster/settings"), "/_cluster/settings");
  assert.equal(refreshed("PUT", "/_template/x"), "/_template/x");
  assert.equal(refreshed("POST", "/idx/_search"), "/idx/_search");
  const off = classify("PUT", "/idx/_doc/1");
  assert.equal(rewritePath(off, "/idx/_doc/1", { indexRefresh: false }), "/idx/_doc/1");
});

Deno.test("_cat gets format=json; another format is refused", () => {
  assert.equal(refreshed("GET", "/_cat/indices"), "/_cat/indices?format=json");
  assert.equal(refreshed("GET", "/_cat/indices?v"), "/_cat/indices?v&format=json");
  assert.equal(refreshed("GET", "/_cat/health?format=json"), "/_cat/health?format=json");
  assert.throws(
    () => refreshed("GET", "/_cat/indices?format=yaml"),
    (e: unknown) => e instanceof UnsupportedFeatureError && /format=yaml/.test(e.message),
  );
});

Deno.test("a literal % in a query string does not break the rewrite", () => {
  assert.equal(
    refreshed("PUT", "/idx/_doc/1?routing=100%"),
    "/idx/_doc/1?routing=100%&refresh=true",
  );
});
