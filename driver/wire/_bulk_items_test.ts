import assert from "node:assert/strict";
import { bulkItemsOf, generatedKeys, readBulkAnswer, toBulkItem } from "./_bulk_items.ts";

Deno.test("a bulk item is read into its action, status, id and error", () => {
  const created = readBulkAnswer({ create: { _id: "a1", status: 201, result: "created" } });
  assert.deepEqual(created.action, "create");
  assert.deepEqual(toBulkItem(created, 0), { index: 0, action: "create", status: 201, id: "a1" });
  const failed = toBulkItem(
    readBulkAnswer({
      update: { _id: "x", status: 404, error: { type: "document_missing_exception" } },
    }),
    3,
  );
  assert.deepEqual(failed.error, { type: "document_missing_exception" });
  assert.equal(failed.index, 3);
  const odd = toBulkItem(readBulkAnswer({ index: { status: 400, error: "bad" } }), 1);
  assert.deepEqual(odd.error, { type: "error", reason: "bad" });
});

Deno.test("a malformed bulk item reads as an empty answer, never a crash", () => {
  assert.deepEqual(readBulkAnswer(null), { action: "", detail: {} });
  assert.deepEqual(readBulkAnswer({ delete: 7 }), { action: "delete", detail: {} });
  assert.deepEqual(toBulkItem(readBulkAnswer([]), 0), { index: 0, action: "", status: 0 });
});

Deno.test("generated keys come from index and create items only", () => {
  const items = [
    { index: 0, action: "index", status: 201, id: "a" },
    { index: 1, action: "update", status: 200, id: "b" },
    { index: 2, action: "create", status: 201, id: "c" },
    { index: 3, action: "create", status: 201 },
  ];
  assert.deepEqual(generatedKeys(items), ["a", "c"]);
});

Deno.test("every item of a _bulk body is read in order; a body without items has none", () => {
  const body = {
    errors: true,
    items: [
      { index: { _id: "a", status: 201 } },
      { update: { _id: "b", status: 429, error: { type: "es_rejected_execution_exception" } } },
    ],
  };
  assert.deepEqual(bulkItemsOf(body), [
    { index: 0, action: "index", status: 201, id: "a" },
    {
      index: 1,
      action: "update",
      status: 429,
      id: "b",
      error: { type: "es_rejected_execution_exception" },
    },
  ]);
  assert.deepEqual(bulkItemsOf({ took: 1 }), []);
  assert.deepEqual(bulkItemsOf("<html>"), []);
});
