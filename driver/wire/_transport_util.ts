// Small helpers of the transport: waits, signals, timeouts, error codes, secrets, gzip.

import { redact } from "../error_base.ts";
import { OutcomeUnknownError, type ResponseError, TimeoutError } from "../errors.ts";
import { networkErrorCode } from "./retry_policy.ts";
import type { TransportRequest } from "./transport_types.ts";

export function sleep(ms: number, req: TransportRequest): Promise<void> {
  return new Promise((resolve, reject) => {
    const signal = req.signal;
    if (signal?.aborted) return reject(timeoutError(req, 0, signal.reason));
    const onAbort = () => {
      clearTimeout(timer);
      reject(timeoutError(req, 0, signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** A ResponseError whose body is Elasticsearch's own error JSON (the node answered itself). */
export function fromServer(error: ResponseError): boolean {
  return typeof error.type === "string" || typeof error.reason === "string";
}

/** The parts of an authorization header that must never appear in an error. */
export function secretsOf(authorization: string): string[] {
  const space = authorization.indexOf(" ");
  const token = space < 0 ? authorization : authorization.slice(space + 1);
  const out = [authorization, token];
  try {
    const decoded = atob(token);
    const colon = decoded.indexOf(":");
    out.push(decoded);
    if (colon >= 0 && decoded.length - colon > 3) out.push(decoded.slice(colon + 1));
  } catch {
    // not base64: the token itself is the secret
  }
  return out.filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
}

export function check(
  name: string,
  value: number | undefined,
  fallback: number,
  min: number,
): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min) {
    throw new TypeError(`${name} must be a whole number of at least ${min}, got ${value}`);
  }
  return value;
}

/**
 * The rejection of a request that stopped: the caller's own reason when the caller's signal
 * aborted (what `fetch` gives too — by default a DOMException named `AbortError`), else a
 * TimeoutError for the deadline.
 */
export function timeoutError(
  req: TransportRequest,
  timeoutMs: number,
  cause: unknown,
): unknown {
  if (req.signal?.aborted) return callerAbort(req.signal);
  const what = `${req.method} ${redact(req.path)}`;
  const message = `${what} timed out after ${timeoutMs} ms; raise timeoutMs or narrow the request`;
  return new TimeoutError(message, { cause, command: req.command });
}

/** What a call rejects with when the caller's signal aborted it: the signal's reason. */
export function callerAbort(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The operation was aborted", "AbortError");
}

export function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}

export function codeOf(error: unknown): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return "ETIMEDOUT";
  }
  return networkErrorCode(error) ?? "no error code";
}

export function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

export async function gzip(text: string): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** How an attempt failed after its request may have reached the server. */
export interface LostAttempt {
  /** The node the attempt went to. */
  node: string;
  /** What happened, for the message: "no answer within 500 ms". */
  what: string;
  /** The error behind it. */
  cause: unknown;
  /** The status the server answered, when it did. */
  status?: number;
}

/** A request that is not idempotent failed after it may have reached the server. */
export function outcomeUnknown(req: TransportRequest, lost: LostAttempt): OutcomeUnknownError {
  const { node, what, cause, status } = lost;
  // A scroll page: the server may have moved its cursor past the page the lost answer held.
  const advice = /^\/_search\/scroll(?:[/?]|$)/.test(req.path)
    ? "it was not re-sent because the next page would silently skip the lost one. Start the " +
      "scroll again (or page with a point in time and search_after, which can be re-sent)"
    : "it was not re-sent because it is not idempotent. Read the data before writing again, " +
      "or mark the call idempotent";
  return new OutcomeUnknownError(
    `${req.method} ${redact(req.path)} on ${redact(node)}: ${what} after the request was ` +
      `sent, so whether the server applied it is unknown; ${advice}`,
    { sent: true, status, node, cause, command: req.command },
  );
}

/** The time a request had and what it did with it, for a {@linkcode deadlineError}. */
export interface SpentTime {
  /** The time limit of one attempt. */
  attemptMs: number;
  /** The time limit of the request, its retries included. */
  totalMs: number;
  /** How many attempts were made. */
  attempts: number;
  /** The nodes marked dead by then. */
  deadNodes: readonly string[];
  /** The last attempt's error. */
  cause: unknown;
}

/** The request's deadline passed (or every attempt timed out). */
export function deadlineError(req: TransportRequest, spent: SpentTime): TimeoutError {
  return new TimeoutError(
    `${req.method} ${redact(req.path)} timed out after ${spent.attemptMs} ms per attempt ` +
      `(${spent.attempts} attempt(s) within requestTimeoutMs ${spent.totalMs} ms; dead nodes: ${
        spent.deadNodes.map(redact).join(", ") || "none"
      }); raise timeoutMs or narrow the request`,
    { cause: spent.cause, command: req.command },
  );
}
