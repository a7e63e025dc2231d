// The searchable side of one index: segments added at refresh, deletions, occasional merges.

import { fieldMapOf } from "./field_map.ts";
import type { Segment } from "./segment.ts";
import { buildSegment } from "./segment_builder.ts";
import { type SegmentView, ShardSnapshot } from "./shard_snapshot.ts";
import type { Mappings, StoredDoc } from "./types.ts";

export { ShardSnapshot };

const MAX_SEGMENTS = 12;

interface LiveSegment {
  segment: Segment;
  deleted: Uint8Array | null;
  deletedCount: number;
}

/** One index's search structures. Writes become visible at `refresh`; `snapshot` freezes a view. */
export class Shard {
  #segments: LiveSegment[] = [];
  #where = new Map<string, LiveSegment>();
  #docCount = 0;
  #snapshot: ShardSnapshot | null = null;

  /** Searchable (live) documents. */
  get docCount(): number {
    return this.#docCount;
  }

  /** Makes pending writes searchable: `doc: null` deletes, a doc adds or replaces by id. */
  refresh(changes: Iterable<{ id: string; doc: StoredDoc | null }>, mappings: Mappings): void {
    const latest = new Map<string, StoredDoc | null>();
    for (const c of changes) latest.set(c.id, c.doc);
    if (latest.size === 0) return;
    const copied = new Set<LiveSegment>();
    const added: StoredDoc[] = [];
    for (const [id, doc] of latest) {
      const old = this.#where.get(id);
      if (old) {
        this.#delete(old, id, copied);
        this.#where.delete(id);
      }
      if (doc) added.push(doc);
    }
    if (added.length) {
      const live: LiveSegment = {
        segment: buildSegment(added, fieldMapOf(mappings)),
        deleted: null,
        deletedCount: 0,
      };
      this.#segments.push(live);
      for (const d of added) this.#where.set(d.id, live);
    }
    this.#docCount += added.length;
    this.#segments = this.#segments.filter((s) => s.deletedCount < s.segment.maxDoc);
    const mostlyDeleted = this.#segments.some((s) =>
      s.deletedCount * 2 > s.segment.maxDoc && s.segment.maxDoc > 1000
    );
    if (this.#segments.length > MAX_SEGMENTS || mostlyDeleted) this.#merge(mappings);
    this.#snapshot = null;
  }

  #delete(seg: LiveSegment, id: string, copied: Set<LiveSegment>): void {
    const ord = seg.segment.ids.get(id)!;
    if (!copied.has(seg)) {
      // Copy on write: snapshots keep the old deletion set.
      seg.deleted = seg.deleted ? seg.deleted.slice() : new Uint8Array(seg.segment.maxDoc);
      copied.add(seg);
    }
    seg.deleted![ord] = 1;
    seg.deletedCount++;
    this.#docCount--;
  }

  /** Merges the smaller (and mostly deleted) segments into one, dropping deleted documents. */
  #merge(mappings: Mappings): void {
    const bySize = [...this.#segments].sort((a, b) => a.segment.maxDoc - b.segment.maxDoc);
    const victims = new Set(bySize.slice(0, Math.max(0, this.#segments.length - MAX_SEGMENTS / 2)));
    // Segments that are mostly deleted are rewritten too, so dead documents do not pile up.
    for (const s of this.#segments) if (s.deletedCount * 2 > s.segment.maxDoc) victims.add(s);
    const docs: StoredDoc[] = [];
    for (const s of this.#segments) {
      if (!victims.has(s)) continue;
      s.segment.docs.forEach((d, i) => {
        if (!s.deleted?.[i]) docs.push(d);
      });
    }
    const merged: LiveSegment = {
      segment: buildSegment(docs, fieldMapOf(mappings)),
      deleted: null,
      deletedCount: 0,
    };
    this.#segments = [...this.#segments.filter((s) => !victims.has(s)), merged];
    for (const d of docs) this.#where.set(d.id, merged);
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
    }
    return this.#snapshot;
  }
}
