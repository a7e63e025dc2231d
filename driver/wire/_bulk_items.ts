// Reading the `items` of a `_bulk` response, once for every caller: a statement's `_bulk` command
// (its update count), executeBatch (its per-item retries and counts) and the BulkWriter.

import type { BulkItem, ServerErrorCause } from "../errors.ts";
import { isJsonObject, type JsonObject } from "../_json.ts";

/** One item as the server wrote it: `{"<action>": {…detail}}`. */
export interface BulkAnswer {
  /** `index`, `create`, `update` or `delete` (empty when the item is malformed). */
  readonly action: string;
  /** The item's object: `status`, `_id`, `result`, `error`, … (empty when malformed). */
  readonly detail: JsonObject;
}

/**
 * Splits one entry of `items` into its action and detail.
 *
 * @param entry One element of the response's `items` array.
 * @returns The action and the detail object.
 */
export function readBulkAnswer(entry: unknown): BulkAnswer {
  const [action, detail] = isJsonObject(entry) ? Object.entries(entry)[0] ?? ["", {}] : ["", {}];
  return { action, detail: isJsonObject(detail) ? detail : {} };
}

/**
 * The item a BulkError lists: position, action, status, id and the server's error.
 *
 * @param answer The item's action and detail.
 * @param index The item's 0-based position in the request.
 * @returns The item.
 */
export function toBulkItem(answer: BulkAnswer, index: number): BulkItem {
  const d = answer.detail;
  const item: BulkItem = {
    index,
    action: answer.action,
    status: typeof d.status === "number" ? d.status : 0,
  };
  if (typeof d._id === "string") item.id = d._id;
  if (d.error !== undefined) {
    item.error = isJsonObject(d.error)
      ? d.error as ServerErrorCause
      : { type: "error", reason: String(d.error) };
  }
  return item;
}

/**
 * Every item of a `_bulk` response body, in request order (none when it has no `items`).
 *
 * @param body The parsed response body.
 * @returns The items, each with its 0-based position.
 */
export function bulkItemsOf(body: unknown): BulkItem[] {
  const entries = isJsonObject(body) && Array.isArray(body.items) ? body.items : [];
  return entries.map((entry, index) => toBulkItem(readBulkAnswer(entry), index));
}

/**
 * The ids the server generated or took for `index` and `create` items.
 *
 * @param items The items, in request order.
 * @returns Their ids, in order.
 */
export function generatedKeys(items: readonly BulkItem[]): string[] {
  return items.filter((i) => i.action === "index" || i.action === "create")
    .map((i) => i.id).filter((id): id is string => id !== undefined);
}
