// The searchable side of one index: segments added at refresh, deletions, occasional merges.

import { fieldMapOf } from "./field_map.ts";
import { hashId, IdFilter } from "./id_index.ts";
import { KeptDoc } from "./kept_doc.ts";
import { carriedDeletions, type Defer, deferByTimer, MergeJob } from "./merge_job.ts";
import type { Segment } from "./segment.ts";
import { buildSegment } from "./segment_builder.ts";
import { type SegmentView, ShardSnapshot } from "./shard_snapshot.ts";
import type { Mappings, StoredDoc } from "./types.ts";
import { quantizeSteps } from "./vectors.ts";
import { searchesActive } from "./search_pressure.ts";

export { ShardSnapshot };

const MAX_SEGMENTS = 12;
/** Past this many segments a running background merge is finished at once (back-pressure). */
const MAX_SEGMENTS_MERGING = 4 * MAX_SEGMENTS;
/** Up to this many segments a running merge yields to searches (see `MergeOptions`). */
const PACED_SEGMENTS = 2 * MAX_SEGMENTS;

/** How a shard runs its merges. */
export interface MergeOptions {
  /** Schedules the next slice of a background merge (default: a zero-delay timer). */
  readonly defer?: Defer;
  /** Milliseconds of merging per slice (default 4). */
  readonly sliceMs?: number;
  /**
   * Milliseconds of merging per slice while searches are being answered (default 0.5; see
   * search_pressure.ts), each slice followed by a pause of {@link MergeOptions.busyPauseMs}.
   */
  readonly busySliceMs?: number;
  /**
   * Milliseconds between two slices while searches are being answered (default 3): the merge
   * then takes about a seventh of the time, and a search waits at most one short slice for it.
   */
  readonly busyPauseMs?: number;
  /**
   * Merges of fewer live documents run at once, inside the refresh (default 20,000); a new
   * segment with at least as many quantised vectors of a field has their codes made in the
   * background (smaller ones on their first kNN search).
   */
  readonly backgroundMinDocs?: number;
}

/** Merge counters, as `_stats` reports them under `merges`. */
export interface MergeCounters {
  /** Merges running now (0 or 1). */
  current: number;
  /** Live documents in the running merge. */
  currentDocs: number;
  /** Merges completed. */
  total: number;
  /** Documents merged by completed merges. */
  totalDocs: number;
  /** Wall time of completed merges, from start to swap, in ms. */
  totalMillis: number;
}

interface LiveSegment {
  segment: Segment;
  deleted: Uint8Array | null;
  deletedCount: number;
}

/** One index's search structures. Writes become visible at `refresh`; `snapshot` freezes a view. */
export class Shard {
  #segments: LiveSegment[] = [];
  #docCount = 0;
  #snapshot: ShardSnapshot | null = null;
  #job: { job: MergeJob; live: LiveSegment[]; started: number; cancel: () => void } | null = null;
  #defer: Defer;
  #sliceMs: number;
  #busySliceMs: number;
  #busyPauseMs: number;
  #backgroundMinDocs: number;
  #mappings: Mappings | null = null;
  /** Every id the segments hold (and some they held): a new id skips their tables. */
  #ids = new IdFilter(0);
  /** Cancels each background quantisation still running. */
  #quantizing = new Set<() => void>();
  /** Merge counters for `_stats`. */
  readonly merges: MergeCounters = {
    current: 0,
    currentDocs: 0,
    total: 0,
    totalDocs: 0,
    totalMillis: 0,
  };

  constructor(options: MergeOptions = {}) {
    this.#defer = options.defer ?? deferByTimer;
    this.#sliceMs = options.sliceMs ?? 4;
    this.#busySliceMs = Math.min(this.#sliceMs, options.busySliceMs ?? 0.5);
    this.#busyPauseMs = options.busyPauseMs ?? 3;
    this.#backgroundMinDocs = options.backgroundMinDocs ?? 20_000;
  }

  /** Searchable (live) documents. */
  get docCount(): number {
    return this.#docCount;
  }

  /**
   * Makes pending writes searchable: `doc: null` deletes, a doc adds or replaces by id. `fresh`
   * says the writer already knows no segment holds the id (it looked when writing, and segments
   * gain ids only here), which spares looking again in every segment. `unique`: the changes name
   * each id once (else the last change of an id counts).
   */
  refresh(
    changes: Iterable<{ id: string; doc: StoredDoc | null; fresh?: boolean }>,
    mappings: Mappings,
    unique = false,
  ): void {
    let latest: Iterable<{ id: string; doc: StoredDoc | null; fresh?: boolean }> = changes;
    if (!unique) {
      const last = new Map<string, { id: string; doc: StoredDoc | null; fresh?: boolean }>();
      for (const c of changes) last.set(c.id, c);
      latest = last.values();
    }
    const copied = new Set<LiveSegment>();
    const added: StoredDoc[] = [];
    let any = false;
    for (const { id, doc, fresh } of latest) {
      any = true;
      const old = fresh ? undefined : this.#find(id);
      if (old) this.#delete(old.seg, old.ord, copied);
      if (doc) added.push(doc);
    }
    if (!any) return;
    if (added.length) {
      this.#remember(added);
      const live: LiveSegment = {
        segment: buildSegment(added, fieldMapOf(mappings)),
        deleted: null,
        deletedCount: 0,
      };
      this.#segments.push(live);
      this.#quantizeLater(live.segment);
      // Indexed: from now on a kept document's source lives only as text in the segment's store.
      KeptDoc.pack(added);
    }
    this.#docCount += added.length;
    this.#segments = this.#segments.filter((s) => s.deletedCount < s.segment.maxDoc);
    const mostlyDeleted = this.#segments.some((s) =>
      s.deletedCount * 2 > s.segment.maxDoc && s.segment.maxDoc > 1000
    );
    this.#mappings = mappings;
    this.#snapshot = null;
    if (this.#job && this.#segments.length > MAX_SEGMENTS_MERGING) this.#finishJob();
    if (!this.#job && (this.#segments.length > MAX_SEGMENTS || mostlyDeleted)) this.#merge();
  }

  /**
   * Puts the ids of documents about to be added in the filter; a full filter is first rebuilt
   * from the ids the segments still hold (dropping deleted ones), with room for twice as many.
   */
  #remember(added: readonly StoredDoc[]): void {
    let filter = this.#ids;
    if (filter.count + added.length > filter.capacity) {
      let live = 0;
      for (const s of this.#segments) live += s.segment.maxDoc - s.deletedCount;
      filter = new IdFilter(2 * (live + added.length));
      for (const s of this.#segments) {
        const { docs } = s.segment;
        const deleted = s.deleted;
        for (let i = 0; i < docs.length; i++) {
          if (deleted === null || !deleted[i]) filter.add(hashId(docs[i]!.id));
        }
      }
      this.#ids = filter;
    }
    for (let i = 0; i < added.length; i++) filter.add(hashId(added[i]!.id));
  }

  /** The live (not deleted) entry of `id`: at most one segment holds one. */
  #find(id: string): { seg: LiveSegment; ord: number } | undefined {
    const hash = hashId(id);
    if (!this.#ids.mayHold(hash)) return undefined;
    for (let i = this.#segments.length - 1; i >= 0; i--) {
      const seg = this.#segments[i]!;
      const ord = seg.segment.ids.get(id, hash);
      if (ord !== undefined && !seg.deleted?.[ord]) return { seg, ord };
    }
    return undefined;
  }

  /** The searchable document with this id, as of the last refresh. */
  get(id: string): StoredDoc | undefined {
    const found = this.#find(id);
    return found && found.seg.segment.docs[found.ord];
  }

  /** Every searchable document, segment by segment. */
  *liveDocs(): IterableIterator<StoredDoc> {
    for (const s of this.#segments) {
      const docs = s.segment.docs;
      for (let i = 0; i < docs.length; i++) if (!s.deleted?.[i]) yield docs[i]!;
    }
  }

  #delete(seg: LiveSegment, ord: number, copied: Set<LiveSegment>): void {
    if (!copied.has(seg)) {
      // Copy on write: snapshots keep the old deletion set.
      seg.deleted = seg.deleted ? seg.deleted.slice() : new Uint8Array(seg.segment.maxDoc);
      copied.add(seg);
    }
    seg.deleted![ord] = 1;
    seg.deletedCount++;
    this.#docCount--;
  }

  /**
   * Merges the smaller (and mostly deleted) segments into one, dropping deleted documents: at
   * once when small, else as a background job (one per shard) that searches do not wait for.
   */
  #merge(): void {
    const bySize = [...this.#segments].sort((a, b) => a.segment.maxDoc - b.segment.maxDoc);
    const victims = new Set(bySize.slice(0, Math.max(0, this.#segments.length - MAX_SEGMENTS / 2)));
    // Segments that are mostly deleted are rewritten too, so dead documents do not pile up.
    for (const s of this.#segments) if (s.deletedCount * 2 > s.segment.maxDoc) victims.add(s);
    const live = this.#segments.filter((s) => victims.has(s));
    const job = new MergeJob(live, this.#mappings ?? {});
    const running = { job, live, started: performance.now(), cancel: () => {} };
    this.#job = running;
    this.merges.current = 1;
    this.merges.currentDocs = job.docCount;
    if (job.docCount < this.#backgroundMinDocs) return this.#finishJob();
    const slice = (): void => {
      if (this.#job !== running) return;
      // Searches slow the merge down only while segments are not piling up behind it: past
      // twice the usual count it runs full slices again, well before a refresh must finish it
      // at once (MAX_SEGMENTS_MERGING).
      const busy = searchesActive() && this.#segments.length <= PACED_SEGMENTS;
      if (job.step(busy ? this.#busySliceMs : this.#sliceMs)) this.#swap();
      else running.cancel = this.#defer(slice, busy ? this.#busyPauseMs : 0);
    };
    running.cancel = this.#defer(slice);
  }

  /** Runs the current merge to its end now and swaps it in. */
  #finishJob(): void {
    const running = this.#job;
    if (!running) return;
    running.cancel();
    running.job.finish();
    this.#swap();
  }

  /** Puts the finished merge in place of its inputs, with the deletions made meanwhile. */
  #swap(): void {
    const { job, live, started } = this.#job!;
    const result = job.result!;
    this.#job = null;
    const { deleted, count } = carriedDeletions(result, live.map((s) => s.deleted));
    const victims = new Set(live);
    const kept = this.#segments.filter((s) => !victims.has(s));
    const segment = result.segment;
    if (count < segment.maxDoc) {
      kept.push({ segment, deleted, deletedCount: count });
      this.#quantizeLater(segment);
    }
    this.#segments = kept;
    this.#snapshot = null;
    // The merge packed the merged segment's texts in one store (in steps): the old stores go.
    const m = this.merges;
    m.current = 0;
    m.currentDocs = 0;
    m.total++;
    m.totalDocs += job.docCount;
    m.totalMillis += performance.now() - started;
    // Refreshes during a long merge may have added enough segments for the next one.
    const mostlyDeleted = this.#segments.some((s) =>
      s.deletedCount * 2 > s.segment.maxDoc && s.segment.maxDoc > 1000
    );
    if (this.#segments.length > MAX_SEGMENTS || mostlyDeleted) this.#merge();
  }

  /** True while a background merge is running. */
  get merging(): boolean {
    return this.#job !== null;
  }

  /**
   * Synchronously, as `_forcemerge` waits for it: finishes a running merge, then merges until at
   * most `maxSegments` segments are left (Infinity: no more), or with `onlyDeletes` rewrites the
   * segments holding deletions.
   */
  forceMerge(maxSegments: number, onlyDeletes = false): void {
    const target = Math.max(1, maxSegments);
    for (;;) {
      this.#finishJob(); // also one a swap started
      const segs = this.#segments;
      let live: LiveSegment[];
      if (onlyDeletes) live = segs.filter((s) => s.deletedCount > 0);
      else if (segs.length > target) {
        const victims = new Set(
          [...segs].sort((a, b) => a.segment.maxDoc - b.segment.maxDoc)
            .slice(0, segs.length - target + 1),
        );
        live = segs.filter((s) => victims.has(s));
      } else if (segs.length === 1 && target === 1 && segs[0]!.deletedCount > 0) live = [...segs];
      else return;
      if (live.length === 0) return;
      const job = new MergeJob(live, this.#mappings ?? {});
      this.#job = { job, live, started: performance.now(), cancel: () => {} };
      this.merges.current = 1;
      this.merges.currentDocs = job.docCount;
      this.#finishJob();
      if (onlyDeletes) return this.#finishJob();
    }
  }

  /**
   * Makes the quantised codes of `segment`'s large quantised vector columns in slices between
   * other work, as Elasticsearch quantises at flush and merge, so that a kNN search seldom has
   * codes to make (one arriving meanwhile takes on the work where it stands).
   */
  #quantizeLater(segment: Segment): void {
    const columns = [...segment.vectors.values()].filter((c) =>
      c.spec.quantizedBits && c.count >= this.#backgroundMinDocs
    );
    if (columns.length === 0) return;
    const steps = quantizeSteps(columns);
    let cancel = (): void => {};
    const stop = (): void => cancel();
    this.#quantizing.add(stop);
    const slice = (): void => {
      const busy = searchesActive();
      const until = performance.now() + (busy ? this.#busySliceMs : this.#sliceMs);
      let r = steps.next();
      while (!r.done && performance.now() < until) r = steps.next();
      if (r.done) this.#quantizing.delete(stop);
      else cancel = this.#defer(slice, busy ? this.#busyPauseMs : 0);
    };
    cancel = this.#defer(slice);
  }

  /**
   * Stops a running merge and background quantisation (the index was closed or deleted); the
   * old segments stay.
   */
  cancelMerge(): void {
    for (const stop of this.#quantizing) stop();
    this.#quantizing.clear();
    const running = this.#job;
    if (!running) return;
    this.#job = null;
    running.cancel();
    running.job.cancel();
    this.merges.current = 0;
    this.merges.currentDocs = 0;
  }

  /** A cheap immutable view of the searchable state. */
  snapshot(): ShardSnapshot {
    if (!this.#snapshot) {
      const views: SegmentView[] = [];
      let base = 0;
      for (const s of this.#segments) {
        views.push({ segment: s.segment, deleted: s.deleted, base });
        base += s.segment.maxDoc;
      }
      this.#snapshot = new ShardSnapshot(views, this.#docCount);
      SHARDS.set(this.#snapshot, this);
    }
    return this.#snapshot;
  }

  /** The typed arrays of its id filter (for measuring memory). */
  get idFilterArrays(): readonly ArrayBufferView[] {
    return this.#ids.arrays;
  }
}

// The shard each snapshot was taken of (for measuring memory: its id filter is the shard's).
const SHARDS = new WeakMap<ShardSnapshot, Shard>();

/**
 * The shard `snapshot` was taken of, while it is held.
 *
 * @example
 * ```ts
 * import { Shard, shardOf } from "./shard.ts";
 * const shard = new Shard();
 * console.assert(shardOf(shard.snapshot()) === shard);
 * ```
 */
export function shardOf(snapshot: ShardSnapshot): Shard | undefined {
  return SHARDS.get(snapshot);
}
