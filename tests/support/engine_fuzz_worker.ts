// The fuzzer's engine, in a worker so that a request that hangs or crashes can be timed out and
// the engine replaced without losing the run. Messages: {reset} or a request; answers carry the
// status, the start of the body and the worker's heap.

/// <reference lib="deno.worker" />

import { getHeapStatistics } from "node:v8";
import { Engine } from "../../engine/mod.ts";

interface Job {
  id: number;
  reset?: boolean;
  /** With `reset`: the heap the fresh engine is told it has. */
  heapBytes?: number;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

const logs: string[] = [];
// A short refresh interval: `refresh=wait_for` answers within the budget, as it would with the
// default one second.
// The heap this isolate may use, as serve() tells a served engine (indexing pressure is sized
// from it).
const isolateHeap = getHeapStatistics().heap_size_limit;
const make = (heapBytes = isolateHeap) =>
  new Engine({ refreshIntervalMs: 50, heapBytes, log: (line) => logs.push(line) });
let engine = make();

self.onmessage = async (event: MessageEvent<Job>) => {
  const job = event.data;
  if (job.reset) {
    engine.close();
    engine = make(job.heapBytes);
    self.postMessage({ id: job.id, status: 0, head: "", heap: Deno.memoryUsage().heapUsed });
    return;
  }
  let status = -1;
  let head = "";
  try {
    const res = await engine.fetch(job.url, {
      method: job.method,
      headers: job.headers,
      body: job.body as BodyInit | undefined,
    });
    status = res.status;
    head = (await res.text()).slice(0, 400);
  } catch (e) {
    // engine.fetch rejects only for arguments fetch itself refuses (a bad URL or header)
    status = -2;
    head = String(e).slice(0, 200);
  }
  const log = logs.splice(0);
  self.postMessage({ id: job.id, status, head, heap: Deno.memoryUsage().heapUsed, log });
};
