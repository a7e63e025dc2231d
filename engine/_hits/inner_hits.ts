// `inner_hits` of a `nested` query: the nested objects of each hit that match the nested query.
// Nested objects are indexed flat, so each object of the hit's array is matched on its own here:
// the objects become the documents of a small throwaway shard, and the nested query runs on it.

import { parsingError } from "../_errors.ts";
import { Shard } from "../_index/shard.ts";
import { fieldMapOf } from "../_index/field_map.ts";
import type { Mappings, StoredDoc } from "../_index/types.ts";
import type { QueryNode } from "../_query/query_nodes.ts";
import { parseQuery } from "../_query/query_parser.ts";
import { matchLive } from "../_query/query_exec.ts";
import { float32 } from "../_query/score.ts";
import { applySourceFilter, parseSourceFilter, type SourceFilter } from "./source_filter.ts";

/** One `inner_hits` section of a `nested` query. */
export interface NestedInnerHits {
  /** The key under `inner_hits` (`name`, else the path). */
  readonly name: string;
  /** The nested path. */
  readonly path: string;
  /** The nested query's own query, run per object. */
  readonly query: QueryNode;
  /** First inner hit shown. */
  readonly from: number;
  /** Inner hits shown (3 unless set). */
  readonly size: number;
  /** `_source` filtering of the objects. */
  readonly source: SourceFilter;
}

const NO_PARAMS = new URLSearchParams();

function count(raw: unknown, name: string, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) {
    throw parsingError(`[inner_hits] [${name}] must be a non-negative integer, got [${raw}]`);
  }
  return n;
}

/** Every `nested` query with `inner_hits` in a raw query body, in document order. */
export function findNestedInnerHits(json: unknown, out: NestedInnerHits[] = []): NestedInnerHits[] {
  if (Array.isArray(json)) {
    for (const v of json) findNestedInnerHits(v, out);
    return out;
  }
  if (json === null || typeof json !== "object") return out;
  for (const [key, value] of Object.entries(json as Record<string, unknown>)) {
    const o = value as Record<string, unknown> | null;
    if (
      key === "nested" && o !== null && typeof o === "object" && typeof o.path === "string" &&
      o.inner_hits !== null && typeof o.inner_hits === "object"
    ) {
      const ih = o.inner_hits as Record<string, unknown>;
      out.push({
        name: typeof ih.name === "string" ? ih.name : o.path,
        path: o.path,
        query: parseQuery(o.query),
        from: count(ih.from, "from", 0),
        size: count(ih.size, "size", 3),
        source: parseSourceFilter(ih._source, NO_PARAMS),
      });
    }
    findNestedInnerHits(value, out);
  }
  return out;
}

/** The objects at a dotted path of a source: an array's items (with their offsets) or one object. */
function objectsAt(source: Record<string, unknown>, path: string): Record<string, unknown>[] {
  let value: unknown = source;
  for (const part of path.split(".")) {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return [];
    if (!Object.hasOwn(value, part)) return [];
    value = (value as Record<string, unknown>)[part];
  }
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return list.map((v) =>
    v !== null && typeof v === "object" && !Array.isArray(v) ? v as Record<string, unknown> : {}
  );
}

/** Wraps one object back under its path, so the nested query's full field names reach it. */
function underPath(path: string, object: Record<string, unknown>): Record<string, unknown> {
  const parts = path.split(".");
  let out: Record<string, unknown> = object;
  for (let i = parts.length - 1; i >= 0; i--) out = { [parts[i]!]: out };
  return out;
}

/** The `inner_hits` section of one hit, for each `nested` query that asked for it. */
export function renderInnerHits(
  specs: readonly NestedInnerHits[],
  hit: { index: string; id: string; source: Record<string, unknown> },
  mappings: Mappings,
  now: number,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const spec of specs) {
    const objects = objectsAt(hit.source, spec.path);
    const matched: { offset: number; score: number }[] = [];
    const docs: StoredDoc[] = objects.map((o, i) => ({
      id: String(i),
      source: underPath(spec.path, o),
      version: 1,
      seqNo: i,
      primaryTerm: 1,
    }));
    if (docs.length > 0) {
      const shard = new Shard();
      shard.refresh(docs.map((doc) => ({ id: doc.id, doc })), mappings);
      const ctx = {
        snapshot: shard.snapshot(),
        fields: fieldMapOf(mappings),
        now,
        index: hit.index,
      };
      const found = matchLive(spec.query, ctx, true);
      found.docs.forEach((d, i) => matched.push({ offset: d, score: found.scores?.[i] ?? 1 }));
    }
    matched.sort((a, b) => b.score - a.score || a.offset - b.offset);
    const page = matched.slice(spec.from, spec.from + spec.size);
    out[spec.name] = {
      hits: {
        total: { value: matched.length, relation: "eq" },
        max_score: matched.length ? float32(Math.max(...matched.map((m) => m.score))) : null,
        hits: page.map((m) => {
          const inner: Record<string, unknown> = {
            _index: hit.index,
            _id: hit.id,
            _nested: { field: spec.path, offset: m.offset },
            _score: float32(m.score),
          };
          // Filter paths are full (`comments.stars`); the object is shown on its own.
          const source = applySourceFilter(docs[m.offset]!.source, spec.source);
          if (source !== undefined) inner._source = objectsAt(source, spec.path)[0] ?? {};
          return inner;
        }),
      },
    };
  }
  return out;
}
