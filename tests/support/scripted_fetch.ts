// A fetch for the transport's unit tests that plays scripted answers and records its calls,
// marked as the transport's marks say (`searchvisitor.inProcessFetch`, `searchvisitor.networkFetch`).

/** One scripted answer: a response, or a promise of one (which may reject or never settle). */
export type Step = (url: string, init: RequestInit) => Promise<Response> | Response;

/** What the transport was called with, in order. */
export interface ScriptedCall {
  url: string;
  init: RequestInit;
}

/**
 * A fetch carrying the mark `mark` that plays `steps` in turn (the last one again), recording the
 * calls.
 */
export function scriptedFetch(
  mark: symbol,
  ...steps: Step[]
): { fetch: (url: string, init: RequestInit) => Promise<Response>; calls: ScriptedCall[] } {
  const calls: ScriptedCall[] = [];
  const fetch = (url: string, init: RequestInit): Promise<Response> => {
    calls.push({ url, init });
    const step = steps[Math.min(calls.length - 1, steps.length - 1)]!;
    const out = step(url, init);
    return out instanceof Response ? Promise.resolve(out) : out;
  };
  Object.defineProperty(fetch, mark, { value: true });
  return { fetch, calls };
}
