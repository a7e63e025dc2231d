// One JSON call against an in-process engine, for the engine's own tests: the parsed reply with
// its status as `code`.

/** Anything with the engine's `fetch`. */
export interface Fetches {
  fetch(input: string, init?: RequestInit): Promise<Response>;
}

/** A parsed JSON reply (loosely typed for assertions) plus its HTTP status as `code`. */
// deno-lint-ignore no-explicit-any
export type Reply = Record<string, any>;

/** Sends `body` as JSON to `path` and returns the parsed reply with `code`. */
export async function call(
  engine: Fetches,
  method: string,
  path: string,
  body?: unknown,
): Promise<Reply> {
  const init: RequestInit = { method, headers: { "content-type": "application/json" } };
  if (body !== undefined) init.body = JSON.stringify(body);
  const res = await engine.fetch(`http://engine${path}`, init);
  return { ...(await res.json()), code: res.status };
}
