// The nested objects under one path, as documents of their own. Elasticsearch indexes each nested
// object as a hidden document beside its parent; here segments hold the parent documents only, so
// the objects of a segment are read from the parents' sources and built into a segment of their own
// the first time a nested query, aggregation or inner hit needs them. That segment is kept beside the
// parent segment (segments never change), so later searches reuse it; deletions carry over from the
// parents. A nested query, aggregation or inner hit then runs on the objects as on any documents.

import type { FieldMap } from "../_index/field_map.ts";
import { isJsonObject } from "../_json.ts";
import type { Segment } from "../_index/segment.ts";
import { buildSegment } from "../_index/segment_builder.ts";
import type { SegmentView, ShardSnapshot } from "../_index/shard_snapshot.ts";
import { objectsSnapshot } from "../_index/shard_stats.ts";
import type { StoredDoc } from "../_index/types.ts";
import type { ExecContext } from "./exec_context.ts";

/** Where a nested object sits: the nested field and the offset in its array, outermost first. */
export interface NestedStep {
  /** The nested field, relative to the step before it (full path for the first). */
  readonly field: string;
  /** Position in that field's array (0 for a single object). */
  readonly offset: number;
}

/** One nested object read from a source: its steps and its source wrapped under its full path. */
export interface NestedObject {
  /** The object as a document: `{a: {b: object}}` for path `a.b`, so full field names reach it. */
  readonly source: Record<string, unknown>;
  /** Nested fields and offsets leading to it. */
  readonly steps: readonly NestedStep[];
}

/** Wraps a value back under a dotted path. */
export function underPath(path: string, value: Record<string, unknown>): Record<string, unknown> {
  const parts = path.split(".");
  let out = value;
  for (let i = parts.length - 1; i >= 0; i--) out = { [parts[i]!]: out };
  return out;
}

/**
 * The objects under `path` in a source, in source order (arrays of arrays flattened). `nested`
 * tells which paths are nested, so each object knows its offsets at every nested level.
 */
export function nestedObjectsOf(
  source: unknown,
  path: string,
  nested: ReadonlySet<string>,
): NestedObject[] {
  const parts = path.split(".");
  let level: { value: Record<string, unknown>; steps: NestedStep[]; from: number }[] = [
    { value: isJsonObject(source) ? source : {}, steps: [], from: 0 },
  ];
  for (let p = 0; p < parts.length; p++) {
    const prefix = parts.slice(0, p + 1).join(".");
    const counted = nested.has(prefix) || p === parts.length - 1;
    const next: typeof level = [];
    for (const item of level) {
      if (!Object.hasOwn(item.value, parts[p]!)) continue;
      const raw = item.value[parts[p]!];
      const list = (Array.isArray(raw) ? raw.flat(Infinity) : [raw]).filter(isJsonObject);
      const field = parts.slice(item.from, p + 1).join(".");
      list.forEach((value, offset) =>
        next.push(
          counted
            ? { value, steps: [...item.steps, { field, offset }], from: p + 1 }
            : { value, steps: item.steps, from: item.from },
        )
      );
    }
    level = next;
  }
  return level.map((o) => ({ source: underPath(path, o.value), steps: o.steps }));
}

/** The objects of one segment under one path. */
interface ObjectSegment {
  readonly segment: Segment;
  /** Local ordinal of each object's parent document. */
  readonly parent: Int32Array;
  /** Where each object sits in its parent. */
  readonly steps: readonly (readonly NestedStep[])[];
}

const segmentCache = new WeakMap<Segment, WeakMap<FieldMap, Map<string, ObjectSegment>>>();

function objectSegment(segment: Segment, fields: FieldMap, path: string): ObjectSegment {
  let byFields = segmentCache.get(segment);
  if (!byFields) segmentCache.set(segment, byFields = new WeakMap());
  let byPath = byFields.get(fields);
  if (!byPath) byFields.set(fields, byPath = new Map());
  let built = byPath.get(path);
  if (!built) {
    const docs: StoredDoc[] = [];
    const parent: number[] = [];
    const steps: NestedStep[][] = [];
    segment.docs.forEach((doc, d) => {
      for (const o of nestedObjectsOf(doc.source, path, fields.nested)) {
        // The object keeps its parent's identity, as Elasticsearch reports it in inner hits.
        docs.push({ ...doc, source: o.source });
        parent.push(d);
        steps.push([...o.steps]);
      }
    });
    built = { segment: buildSegment(docs, fields), parent: Int32Array.from(parent), steps };
    byPath.set(path, built);
  }
  return built;
}

/** The objects under one path of a snapshot, searchable like documents. */
export interface NestedScope {
  /** The objects, one document each, in parent order. */
  readonly snapshot: ShardSnapshot;
  /** Global ordinal of each object's parent in the outer snapshot. */
  readonly parent: Int32Array;
  /** Where each object sits in its parent. */
  readonly steps: readonly (readonly NestedStep[])[];
}

const scopeCache = new WeakMap<ShardSnapshot, WeakMap<FieldMap, Map<string, NestedScope>>>();

/** The nested objects under `path` of the context's snapshot (built once per segment and path). */
export function nestedScope(ctx: ExecContext, path: string): NestedScope {
  let byFields = scopeCache.get(ctx.snapshot);
  if (!byFields) scopeCache.set(ctx.snapshot, byFields = new WeakMap());
  let byPath = byFields.get(ctx.fields.full);
  if (!byPath) byFields.set(ctx.fields.full, byPath = new Map());
  let scope = byPath.get(path);
  if (scope) return scope;
  const views: SegmentView[] = [];
  const parent: number[] = [];
  const steps: (readonly NestedStep[])[] = [];
  let base = 0;
  let live = 0;
  const parents: { view: number; parent: Int32Array }[] = [];
  for (const [vi, v] of ctx.snapshot.views.entries()) {
    const objects = objectSegment(v.segment, ctx.fields.full, path);
    let deleted: Uint8Array | null = null;
    if (v.deleted) {
      deleted = new Uint8Array(objects.parent.length);
      objects.parent.forEach((p, i) => deleted![i] = v.deleted![p]!);
    }
    objects.parent.forEach((p, i) => {
      parent.push(v.base + p);
      steps.push(objects.steps[i]!);
      if (!deleted?.[i]) live++;
    });
    if (objects.parent.length) {
      views.push({ segment: objects.segment, deleted, base });
      parents.push({ view: vi, parent: objects.parent });
    }
    base += objects.parent.length;
  }
  // On one shard of a multi-shard index, the objects score with that shard's statistics.
  const snapshot = objectsSnapshot(ctx.snapshot, { views, live, parents });
  scope = { snapshot, parent: Int32Array.from(parent), steps };
  byPath.set(path, scope);
  origins.set(scope.snapshot, { outer: ctx.snapshot, path, scope });
  return scope;
}

const origins = new WeakMap<
  ShardSnapshot,
  { outer: ShardSnapshot; path: string; scope: NestedScope }
>();

/**
 * For a doc of a scope's snapshot (a nested object): its nested path and the steps leading to it
 * from the root document. Null for a snapshot of root documents.
 */
export function nestedIdentity(
  snapshot: ShardSnapshot,
  doc: number,
): { path: string; steps: readonly NestedStep[] } | null {
  const origin = origins.get(snapshot);
  if (!origin) return null;
  const own = origin.scope.steps[doc]!;
  // Own steps start at the parent object, which sits in its array at offset 0 of its own source.
  const prefix = nestedIdentity(origin.outer, origin.scope.parent[doc]!)?.steps ?? [];
  return { path: origin.path, steps: [...prefix, ...own.slice(prefix.length)] };
}

/** The execution context of the objects of `path`: they see the fields of their own scope. */
export function scopeContext(ctx: ExecContext, scope: NestedScope, path: string): ExecContext {
  return { ...ctx, snapshot: scope.snapshot, fields: ctx.fields.scope(path) };
}
