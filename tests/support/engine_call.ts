// One JSON call against an in-process engine, for the engine's own tests: `call` gives the parsed
// reply with its status as `code`, `exchange` the status, parsed reply, headers and text apart.

/** Anything with the engine's `fetch`. */
export interface Fetches {
  fetch(input: string, init?: RequestInit): Promise<Response>;
}

/** A parsed JSON reply (loosely typed for assertions) plus its HTTP status as `code`. */
// deno-lint-ignore no-explicit-any
export type Reply = Record<string, any>;

/** One exchange with the engine: the status, the parsed reply, its headers and its text. */
export interface Exchange {
  status: number;
  /** The reply parsed as JSON (an empty object when it is empty or not JSON, as `_cat` text). */
  body: Reply;
  headers: Headers;
  /** The reply as sent, for exact integers and text formats. */
  text: string;
}

/**
 * Sends `body` to `path` — as NDJSON when it is a string (`_bulk`, `_msearch`, or text meant to be
 * read as sent), else as JSON — and returns the whole exchange: the one way the engine's tests
 * reach an engine.
 */
export function exchange(
  engine: Fetches,
  method: string,
  path: string,
  body?: unknown,
): Promise<Exchange> {
  return send(engine, method, path, body, {});
}

/**
 * Sends `body` like {@linkcode exchange}, asking for JSON (`accept: application/json`, so `_cat`
 * answers JSON too); `body` is `undefined` when the reply is empty (HEAD, 204).
 */
export async function jsonReply(
  engine: Fetches,
  method: string,
  path: string,
  body?: unknown,
  // deno-lint-ignore no-explicit-any
): Promise<{ status: number; body: any; text: string }> {
  const r = await send(engine, method, path, body, { accept: "application/json" });
  return { status: r.status, body: r.text ? r.body : undefined, text: r.text };
}

async function send(
  engine: Fetches,
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<Exchange> {
  const ndjson = typeof body === "string";
  const init: RequestInit = {
    method,
    headers: { ...headers, "content-type": ndjson ? "application/x-ndjson" : "application/json" },
  };
  if (body !== undefined) init.body = ndjson ? body : JSON.stringify(body);
  const res = await engine.fetch(`http://engine${path}`, init);
  const text = await res.text();
  const json = /^\s*[{[]/.test(text) ? JSON.parse(text) : {};
  return { status: res.status, body: json, headers: res.headers, text };
}

/**
 * Sends `body` to `path` like {@linkcode exchange} and returns the parsed reply with its status as
 * `code`; an empty reply (HEAD, 204) is just `{ code }`.
 */
export async function call(
  engine: Fetches,
  method: string,
  path: string,
  body?: unknown,
): Promise<Reply> {
  const r = await exchange(engine, method, path, body);
  return { ...r.body, code: r.status };
}

/** An error reply as `[status, type, reason]`, for one-line assertions. */
export function failure(r: Reply): [number, string, string] {
  return [r.code, r.error?.type, r.error?.reason];
}
