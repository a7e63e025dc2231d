// The searchable side of one index: segments added at refresh, deletions, occasional merges.

import { fieldMapOf } from "./field_map.ts";
import { hashId } from "./id_index.ts";
import { KeptDoc } from "./kept_doc.ts";
import type { Segment } from "./segment.ts";
import { buildSegment } from "./segment_builder.ts";
import { mergeSegments } from "./segment_merge.ts";
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
      const old = this.#find(id);
      if (old) this.#delete(old.seg, old.ord, copied);
      if (doc) added.push(doc);
    }
    if (added.length) {
      const live: LiveSegment = {
        segment: buildSegment(added, fieldMapOf(mappings)),
        deleted: null,
        deletedCount: 0,
      };
      this.#segments.push(live);
      // Indexed: from now on a kept document's source lives only as text in the segment's store.
      KeptDoc.pack(added);
    }
    this.#docCount += added.length;
    this.#segments = this.#segments.filter((s) => s.deletedCount < s.segment.maxDoc);
    const mostlyDeleted = this.#segments.some((s) =>
      s.deletedCount * 2 > s.segment.maxDoc && s.segment.maxDoc > 1000
    );
    if (this.#segments.length > MAX_SEGMENTS || mostlyDeleted) this.#merge(mappings);
    this.#snapshot = null;
  }

  /** The live (not deleted) entry of `id`: at most one segment holds one. */
  #find(id: string): { seg: LiveSegment; ord: number } | undefined {
    const hash = hashId(id);
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

  /** Merges the smaller (and mostly deleted) segments into one, dropping deleted documents. */
  #merge(mappings: Mappings): void {
    const bySize = [...this.#segments].sort((a, b) => a.segment.maxDoc - b.segment.maxDoc);
    const victims = new Set(bySize.slice(0, Math.max(0, this.#segments.length - MAX_SEGMENTS / 2)));
    // Segments that are mostly deleted are rewritten too, so dead documents do not pile up.
    for (const s of this.#segments) if (s.deletedCount * 2 > s.segment.maxDoc) victims.add(s);
    const inputs = this.#segments.filter((s) => victims.has(s));
    // Copied as indexed (no parsing or analysis again); rebuilt only when that cannot be done.
    let segment = mergeSegments(inputs);
    if (!segment) {
      const docs: StoredDoc[] = [];
      for (const s of inputs) {
        s.segment.docs.forEach((d, i) => {
          if (!s.deleted?.[i]) docs.push(d);
        });
      }
      segment = buildSegment(docs, fieldMapOf(mappings));
    }
    const docs = segment.docs;
    const merged: LiveSegment = { segment, deleted: null, deletedCount: 0 };
    this.#segments = [...this.#segments.filter((s) => !victims.has(s)), merged];
    KeptDoc.pack(docs); // the merged segment's texts in one store; the old stores are let go
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
