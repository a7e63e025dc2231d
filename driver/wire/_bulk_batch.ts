// executeBatch: single-document writes sent as one `_bulk` request. Items the server rejects with
// 429 (es_rejected_execution_exception) are sent again, alone, after a backoff, up to maxRetries
// times; any other failure ends in a BulkError that lists every item.

import { type JsonReply, parseJsonBody } from "./_json_body.ts";
import { BulkError, type BulkItem, ResponseError } from "../errors.ts";
import type { BoundCommand } from "../command/command.ts";
import { type BulkEntry, toBulkEntry } from "./_batch.ts";
import type { CallOptions, Executor } from "./_executor.ts";
import { isJsonObject } from "../_json.ts";
import { type BulkAnswer, generatedKeys, readBulkAnswer, toBulkItem } from "./_bulk_items.ts";

/** One count per command (1 written, 0 for a noop update or a missing document) and the ids. */
export interface BatchResult {
  counts: number[];
  keys: string[];
}

/** The answers of a `_bulk` response that must list `expected` items. */
function parseItems(reply: Omit<JsonReply, "command">, expected: number): BulkAnswer[] {
  const status = reply.status;
  const body: unknown = parseJsonBody({ ...reply, command: `POST /_bulk (batch of ${expected})` });
  const items = isJsonObject(body) && Array.isArray(body.items) ? body.items : undefined;
  if (!items || items.length !== expected) {
    throw new ResponseError(status, body, {
      command: `POST /_bulk (batch of ${expected}): the response does not list ${expected} item(s)`,
    });
  }
  return items.map(readBulkAnswer);
}

function failed(item: BulkItem): boolean {
  return item.error !== undefined || (item.status >= 300 && item.status !== 404) ||
    (item.status === 404 && item.action !== "delete");
}

/**
 * Sends the batch.
 *
 * @param executor The connection's executor.
 * @param commands The bound single-document writes.
 * @param call The caller's signal and timeout.
 * @returns The counts and the generated ids.
 */
export async function runBatch(
  executor: Executor,
  commands: readonly BoundCommand[],
  call: CallOptions,
): Promise<BatchResult> {
  const entries: BulkEntry[] = commands.map((c, i) => toBulkEntry(c, i + 1));
  const refresh = entries.find((e) => e.refresh !== undefined)?.refresh;
  const answers: BulkAnswer[] = new Array(entries.length);
  let pending = entries.map((_, i) => i);
  for (let attempt = 0;; attempt++) {
    if (attempt > 0) {
      await executor.transport.backoff(attempt, { method: "POST", path: "/_bulk", ...call });
    }
    const body = pending.flatMap((i) => entries[i]!.lines).join("\n") + "\n";
    const response = await executor.bulk(body, refresh, call);
    const items = parseItems({
      status: response.status,
      text: response.body,
      contentType: response.headers.get("content-type") ?? "",
      redactSecrets: (t) => executor.transport.redactSecrets(t),
    }, pending.length);
    const retry: number[] = [];
    items.forEach((answer, k) => {
      const rejected = answer.detail.status === 429;
      if (rejected && attempt < executor.transport.maxRetries) retry.push(pending[k]!);
      else answers[pending[k]!] = answer;
    });
    if (retry.length === 0) break;
    pending = retry;
  }
  const items = answers.map(toBulkItem);
  if (items.some(failed)) {
    const error = new BulkError(items, { command: `POST /_bulk (batch of ${items.length})` });
    error.message += `; the ${error.successCount} successful item(s) were written`;
    throw error;
  }
  const counts = answers.map((a) =>
    a.detail.result === "noop" || a.detail.result === "not_found" ? 0 : 1
  );
  return { counts, keys: generatedKeys(items) };
}
