// One JSON request through the data source's transport (retries, auth, timeouts as configured).
// Errors come back as the driver's ResponseError; allowNotFound hands a 404 back instead.

import type { DataSource, Method } from "../driver/mod.ts";

/** A parsed answer. */
export interface Reply {
  status: number;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/** Sends one request and parses its JSON answer. */
export async function call(
  ds: DataSource,
  method: Method,
  path: string,
  body?: unknown,
  options: { allowNotFound?: boolean; ndjson?: string; idempotent?: boolean } = {},
): Promise<Reply> {
  const res = await ds.transport.request({
    method,
    path,
    ...(options.ndjson !== undefined
      ? { body: options.ndjson, ndjson: true }
      : body === undefined
      ? {}
      : { body: JSON.stringify(body) }),
    ...(options.allowNotFound ? { allowNotFound: true } : {}),
    ...(options.idempotent ? { idempotent: true } : {}),
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
