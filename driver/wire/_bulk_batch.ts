// executeBatch: single-document writes sent as one `_bulk` request. Items the server rejects with
// 429 (es_rejected_execution_exception) are sent again, alone, after a backoff, up to maxRetries
// times; any other failure ends in a BulkError that lists every item.

import { BulkError, type BulkItem, ResponseError, type ServerErrorCause } from "../errors.ts";
import type { BoundCommand } from "../command/_command.ts";
import { type BulkEntry, toBulkEntry } from "./_batch.ts";
import type { CallOptions, Executor } from "./_executor.ts";
import { isJsonObject } from "./_json.ts";

/** One count per command (1 written, 0 for a noop update or a missing document) and the ids. */
export interface BatchResult {
  counts: number[];
  keys: string[];
}

interface ItemAnswer {
  action: string;
  detail: Record<string, unknown>;
}

function parseItems(status: number, text: string, expected: number): ItemAnswer[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const items = isJsonObject(body) && Array.isArray(body.items) ? body.items : undefined;
  if (!items || items.length !== expected) {
    throw new ResponseError(status, body ?? text, {
      command: `POST /_bulk (batch of ${expected}): the response does not list ${expected} item(s)`,
    });
  }
  return items.map((item) => {
    const [action, detail] = isJsonObject(item) ? Object.entries(item)[0] ?? ["", {}] : ["", {}];
    return { action, detail: isJsonObject(detail) ? detail : {} };
  });
}

function toBulkItem(answer: ItemAnswer, index: number): BulkItem {
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
  const answers: ItemAnswer[] = new Array(entries.length);
  let pending = entries.map((_, i) => i);
  for (let attempt = 0;; attempt++) {
    if (attempt > 0) {
      await executor.transport.backoff(attempt, { method: "POST", path: "/_bulk", ...call });
    }
    const body = pending.flatMap((i) => entries[i]!.lines).join("\n") + "\n";
    const response = await executor.bulk(body, refresh, call);
    const items = parseItems(response.status, response.body, pending.length);
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
  const keys = items.filter((i) => i.action === "index" || i.action === "create")
    .map((i) => i.id).filter((id): id is string => id !== undefined);
  return { counts, keys };
}
