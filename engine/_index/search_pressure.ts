// Whether searches are being answered in this event loop. Background work (a segment merge, the
// quantisation of new vectors) then runs in short slices with a pause after each, so a search
// queued behind it waits a fraction of a millisecond instead of a whole slice; with no search it
// runs in its full slices again. One counter per realm: every engine of a realm shares its event
// loop, so a search of one engine is held up by another's merge as much as by its own.

let running = 0;
let lastEnd = Number.NEGATIVE_INFINITY;

/** For this long after the last search ended, searches still count as arriving (milliseconds). */
export const SEARCH_QUIET_MS = 10;

/**
 * Marks a search as begun; the function returned marks it ended (once, however often called).
 *
 * @example
 * ```ts
 * import { searchBegins, searchesActive } from "./search_pressure.ts";
 * const end = searchBegins();
 * console.assert(searchesActive());
 * end();
 * end(); // counted once
 * ```
 */
export function searchBegins(): () => void {
  running++;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    running--;
    lastEnd = performance.now();
  };
}

/**
 * True while a search is being answered, or one ended within {@link SEARCH_QUIET_MS}.
 *
 * @example
 * ```ts
 * import { searchesActive } from "./search_pressure.ts";
 * console.assert(searchesActive(Number.POSITIVE_INFINITY) === false);
 * ```
 */
export function searchesActive(now: number = performance.now()): boolean {
  return running > 0 || now - lastEnd < SEARCH_QUIET_MS;
}
