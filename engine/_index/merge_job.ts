// A segment merge run in the background: the copying works in slices of a few milliseconds and
// gives the event loop back between them, so searches and writes go on against the old segments.

import { fieldMapOf } from "./field_map.ts";
import type { Segment } from "./segment.ts";
import { buildSegment } from "./segment_builder.ts";
import { type MergeInput, type MergeSteps, mergeSteps, ordinalMaps } from "./segment_merge.ts";
import { carryDeletedVectors } from "./vectors.ts";
import type { Mappings } from "./types.ts";
import { KeptDoc } from "./kept_doc.ts";
import { searchesActive } from "./search_pressure.ts";

/** Documents whose texts are packed between two pauses of a merge (see {@link MergeJob.step}). */
const PACK_BLOCK = 512;

/**
 * The longest a slice of a merge runs while searches are being answered (milliseconds; see
 * search_pressure.ts): each search that arrives meanwhile waits for the whole slice, so a full
 * slice (4 ms, given when segments pile up behind the merge) would add its length to every
 * search queued behind it. Short slices with no pause between them keep most of the pace.
 */
export const WAITING_SLICE_MS = 0.5;

/**
 * Runs `task` later (after pending I/O and timers; after `delayMs` or more when given); returns a
 * function that cancels it.
 */
export type Defer = (task: () => void, delayMs?: number) => () => void;

/** The default {@link Defer}: a timer (a web standard on every runtime). */
export const deferByTimer: Defer = (task, delayMs = 0) => {
  const timer = setTimeout(task, delayMs);
  return () => clearTimeout(timer);
};

/** What a finished merge produced, with the inputs' deletions as they were when it started. */
export interface MergeResult {
  /** The merged segment. */
  readonly segment: Segment;
  /** Per input, old ordinal → new ordinal (-1 = already deleted when the merge started). */
  readonly maps: readonly Int32Array[];
  /** Per input, the deletions the merge saw (deletions made later are not in `segment`). */
  readonly seen: readonly (Uint8Array | null)[];
}

/**
 * One merge of `inputs`: `step(ms)` works until `ms` milliseconds have passed or it is done.
 * The inputs' deletion arrays must be copy-on-write (never changed once handed over).
 *
 * @example
 * ```ts
 * import { MergeJob } from "./merge_job.ts";
 * const job = new MergeJob([], { properties: {} });
 * while (!job.step(5));
 * if (job.result!.segment.maxDoc !== 0) throw new Error("empty merge");
 * ```
 */
export class MergeJob {
  /** The segments being merged, with their deletions at the start. */
  readonly inputs: readonly MergeInput[];
  /** Live documents being merged. */
  readonly docCount: number;
  #steps: MergeSteps;
  #mappings: Mappings;
  #result: MergeResult | null = null;
  #built: MergeResult | null = null;
  #pack: Generator<void, void, void> | null = null;

  constructor(inputs: readonly MergeInput[], mappings: Mappings) {
    this.inputs = inputs.map((i) => ({ segment: i.segment, deleted: i.deleted }));
    let live = 0;
    for (const { segment, deleted } of this.inputs) {
      live += segment.maxDoc;
      if (deleted) { for (let i = 0; i < deleted.length; i++) live -= deleted[i]!; }
    }
    this.docCount = live;
    this.#steps = mergeSteps(this.inputs);
    this.#mappings = mappings;
  }

  /** The merge's outcome once `step` returned true. */
  get result(): MergeResult | null {
    return this.#result;
  }

  /**
   * Works for about `ms` milliseconds (at least one step); true when the merge is done: the
   * merged segment built and its documents' texts packed into its own store, in steps too (the
   * packing of a large segment took a single stall of 100 ms and more at the swap). A finite
   * slice started while searches are being answered (see search_pressure.ts) is cut to
   * {@link WAITING_SLICE_MS}: the next slice follows as soon as the caller gives it.
   */
  step(ms: number): boolean {
    if (this.#result && this.#pack === null) return true;
    if (ms > WAITING_SLICE_MS && ms !== Infinity && searchesActive()) ms = WAITING_SLICE_MS;
    const until = performance.now() + ms;
    if (!this.#built) {
      let r = this.#steps.next();
      while (!r.done && performance.now() < until) r = this.#steps.next();
      if (!r.done) return false;
      const seen = this.inputs.map((i) => i.deleted);
      let built: MergeResult;
      if (r.value) built = { ...r.value, seen };
      else {
        // Copying cannot merge these (vectors, or a field indexed two ways): index them again.
        const { docs, maps } = ordinalMaps(this.inputs);
        const segment = buildSegment(docs, fieldMapOf(this.#mappings));
        carryDeletedVectors(
          segment.vectors,
          this.inputs.map((i) => ({ vectors: i.segment.vectors, deleted: i.deleted })),
        );
        built = { segment, maps, seen };
      }
      this.#built = built;
      this.#pack = KeptDoc.packSteps(built.segment.docs, PACK_BLOCK);
    }
    const pack = this.#pack!;
    while (!pack.next().done) if (performance.now() >= until) return false;
    this.#pack = null;
    this.#result = this.#built;
    return true;
  }

  /** Runs the merge to its end now (for callers that must wait, and for back-pressure). */
  finish(): MergeResult {
    while (!this.step(Infinity));
    return this.#result!;
  }

  /** Stops the work; the job cannot be resumed. */
  cancel(): void {
    this.#steps.return(null);
  }
}

/**
 * The deletions made on the inputs since the merge started (`now`, per input), as deletions of
 * the merged segment: the array (null when none) and its count.
 */
export function carriedDeletions(
  result: MergeResult,
  now: readonly (Uint8Array | null)[],
): { deleted: Uint8Array | null; count: number } {
  let deleted: Uint8Array | null = null;
  let count = 0;
  for (let k = 0; k < now.length; k++) {
    const current = now[k];
    const seen = result.seen[k];
    if (!current || current === seen) continue;
    const map = result.maps[k]!;
    for (let i = 0; i < current.length; i++) {
      if (!current[i] || seen?.[i]) continue;
      const m = map[i]!;
      if (m < 0) continue;
      deleted ??= new Uint8Array(result.segment.maxDoc);
      if (!deleted[m]) {
        deleted[m] = 1;
        count++;
      }
    }
  }
  return { deleted, count };
}
