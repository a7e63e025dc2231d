// The canned answer of the in-process benchmarks (bench/inproc_report.ts and the in-process
// ladder of bench/e2e_report.ts): one builder, so both harnesses hand both sides the same
// response at the same cost.
//
// The response carries the headers the embedded engine's answer to a search carries
// (`content-type: application/json; charset=UTF-8`, `x-elastic-product: Elasticsearch`). It is
// built with the first in its init and the second appended: on Deno 2.9 a `Response` whose init
// names two headers costs about 2 µs more to build than one naming one header and given the
// second by `append` (the same header list), a cost that belongs to neither side of a
// comparison but would be added to both and so shrink their ratio.

import type { FetchFunction } from "../driver/mod.ts";

const INIT: ResponseInit = { headers: { "content-type": "application/json; charset=UTF-8" } };

/** A response with `text` as its body and the engine's two headers. */
export function cannedResponse(text: string): Response {
  const res = new Response(text, INIT);
  res.headers.append("x-elastic-product", "Elasticsearch");
  return res;
}

/**
 * A fetch that answers every request with `text` (see {@linkcode cannedResponse}); marked
 * in-process (as the engine's `engine.fetch` is) unless `inProcess` is false.
 */
export function cannedFetch(text: string, options: { inProcess?: boolean } = {}): FetchFunction {
  const fetch: FetchFunction = () => Promise.resolve(cannedResponse(text));
  if (options.inProcess !== false) {
    Object.defineProperty(fetch, Symbol.for("searchvisitor.inProcessFetch"), { value: true });
  }
  return fetch;
}
