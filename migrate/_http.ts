// One JSON request through the data source's transport (retries, auth, timeouts as configured).
// Errors come back as the driver's ResponseError; allowNotFound hands a 404 back instead.

import type { DataSource, Method } from "../driver/mod.ts";

/** A parsed answer. */
export interface Reply {
  status: number;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/** One request of the migrator. */
export interface CallRequest {
  readonly method: Method;
  /** The path and query string, segments already encoded (see {@linkcode seg}). */
  readonly path: string;
  /** The JSON body (serialised here); none when undefined. */
  readonly body?: unknown;
  /** An NDJSON body, sent as it is (instead of `body`). */
  readonly ndjson?: string;
  /** A 404 is an answer, not an error. */
  readonly allowNotFound?: boolean;
  /** The request may be retried after a failure that left its outcome unknown. */
  readonly idempotent?: boolean;
}

/** Sends one request and parses its JSON answer. */
export async function call(ds: DataSource, request: CallRequest): Promise<Reply> {
  const { method, path, body, ndjson } = request;
  const res = await ds.transport.request({
    method,
    path,
    ...(ndjson !== undefined
      ? { body: ndjson, ndjson: true }
      : body === undefined
      ? {}
      : { body: JSON.stringify(body) }),
    ...(request.allowNotFound ? { allowNotFound: true } : {}),
    ...(request.idempotent ? { idempotent: true } : {}),
  });
  let parsed: unknown = undefined;
  try {
    parsed = res.body === "" ? undefined : JSON.parse(res.body);
  } catch {
    parsed = res.body;
  }
  return { status: res.status, body: parsed };
}

/** Encodes one path segment (an index or alias name, a document id). */
export function seg(name: string): string {
  return encodeURIComponent(name);
}
