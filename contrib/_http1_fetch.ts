// The `fetch` function of contrib/fetch_deno and contrib/fetch_node, runtime-independent: the
// URL, method, headers and body checked (./_http1_request.ts), the request turned into what the
// runtime's connection writes, and queued on the origin's pool (./_http1_pool.ts).

import { Http1Agent, Job, type PooledConn, type PoolRuntime } from "./_http1_pool.ts";
import { methodOf, type Origin, type RequestParts, targetOf } from "./_http1_request.ts";

/** A `fetch` on a pool of HTTP/1.1 connections; `close()` ends its idle connections. */
export interface Http1Fetch {
  /** Sends one request, like `fetch(url, init)` with a string URL. */
  (url: string, init?: RequestInit): Promise<Response>;
  /** Closes the idle connections (busy ones close when their exchange ends); call it when done. */
  close(): void;
}

/** What {@linkcode http1Fetch} is made of. */
export interface Http1FetchParts<P, C extends PooledConn<P>> {
  /** The adapter's name, for error messages. */
  readonly who: string;
  /** The pool sizes and the runtime's connections. */
  readonly pool: PoolRuntime<P, C>;
  /** The request as the runtime's connection writes it. */
  payload(parts: RequestParts): P;
}

/** Creates the `fetch` function over a pool of the runtime's connections. */
export function http1Fetch<P, C extends PooledConn<P>>(
  parts: Http1FetchParts<P, C>,
): Http1Fetch {
  const { who, payload: encode } = parts;
  const agent = new Http1Agent<P, C>(parts.pool);
  const origins = new Map<string, Origin>();
  const fetchFn = (url: string, init: RequestInit = {}): Promise<Response> =>
    new Promise<Response>((resolve, reject) => {
      const signal = init.signal ?? undefined;
      if (signal?.aborted) return reject(signal.reason);
      let target;
      let payload;
      let method;
      try {
        target = targetOf(String(url), origins, who);
        method = methodOf(init.method, who);
        payload = encode({ method, target, init, who });
      } catch (error) {
        return reject(error);
      }
      agent.submit(
        target.origin,
        new Job<P, C>({ url: target.url, method, payload, signal }, resolve, reject),
      );
    });
  // The mark tells the driver this fetch keeps the network contract (it honours its signal and
  // never delivers more than a declared content-length), so it reads it like the built-in one;
  // the second that it reads only `aborted`, `reason` and abort listeners of a signal, so the
  // driver may hand it its light signal instead of an AbortController per attempt.
  return Object.assign(fetchFn, {
    close: (): void => agent.close(),
    [Symbol.for("searchvisitor.networkFetch")]: true,
    [Symbol.for("searchvisitor.lightSignal")]: true,
  });
}
