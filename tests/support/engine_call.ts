// One JSON call against an in-process engine, for the engine's own tests: the parsed reply with
// its status as `code`.

/** Anything with the engine's `fetch`. */
export interface Fetches {
  fetch(input: string, init?: RequestInit): Promise<Response>;
}

/** A parsed JSON reply (loosely typed for assertions) plus its HTTP status as `code`. */
// deno-lint-ignore no-explicit-any
export type Reply = Record<string, any>;

/**
 * Sends `body` to `path` — as NDJSON when it is a string (`_bulk`, `_msearch`), else as JSON — and
 * returns the parsed reply with `code`; an empty reply (HEAD, 204) is just `{ code }`.
 */
export async function call(
  engine: Fetches,
  method: string,
  path: string,
  body?: unknown,
): Promise<Reply> {
  const ndjson = typeof body === "string";
  const init: RequestInit = {
    method,
    headers: { "content-type": ndjson ? "application/x-ndjson" : "application/json" },
  };
  if (body !== undefined) init.body = ndjson ? body : JSON.stringify(body);
  const res = await engine.fetch(`http://engine${path}`, init);
  const text = await res.text();
  return { ...(text === "" ? {} : JSON.parse(text)), code: res.status };
}

/** An error reply as `[status, type, reason]`, for one-line assertions. */
export function failure(r: Reply): [number, string, string] {
  return [r.code, r.error?.type, r.error?.reason];
}
