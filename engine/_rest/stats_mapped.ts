// What `_stats` (and `_cat`) read from an index's mappings and documents: what it holds (documents,
// segments, bytes), fields of a type (completion, fielddata, vectors) and how many vector values
// the searchable documents hold.

import { sourceSize } from "../_index/kept_doc.ts";
import { offHeapBytesPerVector } from "../_index/vectors.ts";
import type { JsonObject } from "../_json.ts";
import { matchPattern } from "../_index/name_pattern.ts";
import type { IndexState } from "../_state/index_state.ts";
import type { RequestContext } from "./context.ts";

/** What one index (or one shard of it) holds: its live documents and their source bytes. */
export interface Holding {
  index: IndexState;
  /** Searchable documents. */
  docs: number;
  /** Deleted documents not merged away yet. */
  deleted: number;
  /** Segments. */
  segments: number;
  /** Source bytes (the store size the engine reports). */
  bytes: number;
  /** Shards this part stands for: all of the index's, or one. */
  shards: number;
  /** True when this is the part of the index that carries its operation counters. */
  counters: boolean;
  /** True for one shard's part (`level=shards`), false or absent for an index or more. */
  perShard?: boolean;
}

/**
 * Estimated store size of an index: each shard's commit point, its visible sources plus a
 * per-doc overhead.
 */
export function storeSize(index: IndexState): number {
  let bytes = index.shardCount * index.commitBytes;
  for (const doc of index.visible.values()) bytes += sourceSize(doc) + 64;
  return bytes;
}

/**
 * The documents one source makes in Lucene, as `_stats` and `_cat/indices` count them: itself and
 * each object under a `nested` path (at any depth).
 */
export function luceneDocsOf(source: JsonObject, nested: readonly string[]): number {
  let n = 1;
  for (const path of nested) n += objectsAt(source, path.split("."));
  return n;
}

function objectsAt(at: unknown, keys: readonly string[]): number {
  if (Array.isArray(at)) return at.reduce((sum: number, x) => sum + objectsAt(x, keys), 0);
  if (at === null || typeof at !== "object") return 0;
  if (keys.length === 0) return 1;
  return objectsAt((at as JsonObject)[keys[0]!], keys.slice(1));
}

/** Searchable documents as Lucene counts them (nested objects included). */
export function luceneDocCount(index: IndexState): number {
  const nested = fieldsOfType(index.mappings, ["nested"]);
  if (nested.length === 0) return index.searchableCount;
  let n = 0;
  for (const v of index.searchTarget().snapshot.views) {
    v.segment.docs.forEach((doc, i) => {
      if (!v.deleted?.[i]) n += luceneDocsOf(doc.source, nested);
    });
  }
  return n;
}

/** The whole index as one part: its searchable documents, deleted ones not merged yet, segments. */
export function holdingOf(index: IndexState): Holding {
  const snapshot = index.searchTarget().snapshot;
  return {
    index,
    docs: luceneDocCount(index),
    deleted: snapshot.maxDoc - snapshot.docCount,
    segments: snapshot.views.length,
    bytes: storeSize(index),
    shards: index.shardCount,
    counters: true,
  };
}

/** One part per shard: documents by where their routing sends them; counters on shard 0. */
export function shardParts(index: IndexState): Holding[] {
  const whole = holdingOf(index);
  if (index.shardCount <= 1) return [{ ...whole, shards: 1, perShard: true }];
  const parts: Holding[] = Array.from({ length: index.shardCount }, (_, shard) => ({
    index,
    docs: 0,
    deleted: 0,
    segments: 0,
    bytes: index.commitBytes,
    shards: 1,
    counters: shard === 0,
    perShard: true,
  }));
  const nested = fieldsOfType(index.mappings, ["nested"]);
  for (const doc of index.visible.values()) {
    const part = parts[index.shardOf(doc.routing ?? doc.id)]!;
    part.docs += luceneDocsOf(doc.source, nested);
    part.bytes += sourceSize(doc) + 64;
  }
  parts[0]!.deleted = whole.deleted;
  for (const p of parts) p.segments = p.docs > 0 ? 1 : 0;
  return parts;
}

/** Fields of the mappings with one of `types`, as dotted paths (multi-fields included). */
export function fieldsOfType(mapping: unknown, types: readonly string[], prefix = ""): string[] {
  const out: string[] = [];
  const props = (mapping as { properties?: Record<string, unknown> } | undefined)?.properties;
  for (const [name, def] of Object.entries(props ?? {})) {
    const path = prefix + name;
    const d = def as { type?: string; fields?: Record<string, unknown> };
    if (d.type !== undefined && types.includes(d.type)) out.push(path);
    for (const [sub, subDef] of Object.entries(d.fields ?? {})) {
      if (types.includes((subDef as { type?: string }).type ?? "")) out.push(`${path}.${sub}`);
    }
    out.push(...fieldsOfType(def, types, `${path}.`));
  }
  return out;
}

/** The fields of `types` in the indices' mappings that match one of `patterns`, sorted. */
export function fieldList(
  indices: readonly IndexState[],
  patterns: string[],
  types: string[],
): string[] {
  if (patterns.length === 0) return [];
  const names = new Set<string>();
  for (const i of indices) for (const f of fieldsOfType(i.mappings, types)) names.add(f);
  return [...names].filter((n) => patterns.some((g) => matchPattern(g, n))).sort();
}

/** Bytes of each vector file of one field (or all of them), as `_stats` names them. */
export interface VectorFiles {
  /** Values held. */
  count: number;
  /** BBQ bits and corrections. */
  veb: number;
  /** Raw elements. */
  vec: number;
  /** Scalar-quantised codes and corrections. */
  veq: number;
  /** Whether the field has an HNSW graph file (whose size the engine does not know: 0). */
  vex: boolean;
}

/**
 * What an index's segments hold of indexed `dense_vector` values, deleted documents' too (until
 * merged away), as Elasticsearch counts them: per field path, the values and vector file bytes.
 */
export function denseVectorHoldings(index: IndexState): Map<string, VectorFiles> {
  const out = new Map<string, VectorFiles>();
  for (const view of index.searchTarget().snapshot.views) {
    for (const [path, col] of view.segment.vectors) {
      const spec = col.spec;
      if (spec.type !== "dense_vector" || !spec.indexed) continue;
      if (col.count === 0 && !col.retained) continue;
      const per = offHeapBytesPerVector(spec);
      let files = out.get(path);
      if (!files) {
        const kind = spec.indexType ?? (spec.elementType === "float" ? "int8_hnsw" : "hnsw");
        files = { count: 0, veb: 0, vec: 0, veq: 0, vex: kind.endsWith("hnsw") };
        out.set(path, files);
      }
      // Deleted documents' vectors that Elasticsearch's merges keep count too.
      const held = col.count + (col.retained?.count ?? 0);
      files.count += held;
      files.veb += held * per.veb;
      files.vec += held * per.vec;
      files.veq += held * per.veq;
    }
  }
  return out;
}

/** How many `dense_vector` (or `sparse_vector`) values the searchable documents hold. */
export function vectorValues(index: IndexState, metric: string): number {
  const type = metric === "dense_vector" ? ["dense_vector"] : ["sparse_vector"];
  const fields = fieldsOfType(index.mappings, type);
  if (fields.length === 0) return 0;
  let n = 0;
  for (const doc of index.visible.values()) {
    for (const f of fields) if (valueAt(doc.source, f) !== undefined) n++;
  }
  return n;
}

function valueAt(source: JsonObject, path: string): unknown {
  if (Object.hasOwn(source, path)) return source[path];
  let at: unknown = source;
  for (const key of path.split(".")) {
    if (at === null || typeof at !== "object" || !Object.hasOwn(at, key)) return undefined;
    at = (at as JsonObject)[key];
  }
  return at;
}

/** The open scrolls and points in time per index name (each holds every shard of its indices). */
export function openContextsByIndex(
  ctx: RequestContext,
): Map<string, { scrolls: number; pits: number }> {
  const out = new Map<string, { scrolls: number; pits: number }>();
  for (const c of ctx.state.search.openContexts()) {
    for (const t of c.targets) {
      const entry = out.get(t.index) ?? { scrolls: 0, pits: 0 };
      if (c.kind === "scroll") entry.scrolls++;
      else entry.pits++;
      out.set(t.index, entry);
    }
  }
  return out;
}
