// Sorting by a field of nested objects (`sort: [{"offers.price": {"nested": {"path": "offers",
// "filter": …}}}]`): a document's sort value comes from its objects under the path that match the
// filter, combined by the sort's `mode` (min ascending, max descending by default).

import { parsingError } from "../_errors.ts";
import type { FieldInfo } from "../_index/field_map.ts";
import type { ExecContext } from "../_query/exec_context.ts";
import { nestedScope, scopeContext } from "../_query/nested_objects.ts";
import { checkNestedPath } from "../_query/nested_query.ts";
import { execute } from "../_query/query_exec.ts";
import type { QueryNode } from "../_query/query_nodes.ts";
import { parseQuery } from "../_query/query_parser.ts";

/** The `nested` option of a field sort. */
export interface NestedSort {
  /** The nested path (full). */
  readonly path: string;
  /** Only objects matching this count. */
  readonly filter?: QueryNode;
  /** At most this many objects per document count (the first ones). */
  readonly maxChildren?: number;
  /** A deeper nested level. */
  readonly nested?: NestedSort;
}

/** Parses a sort's `nested` object. */
export function parseNestedSort(raw: unknown): NestedSort {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw parsingError(`[nested] must be an object`);
  }
  const o = raw as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (!["path", "filter", "max_children", "nested"].includes(k)) {
      throw parsingError(`[nested] unknown field [${k}]`);
    }
  }
  if (typeof o.path !== "string") throw parsingError(`[nested] failed to parse field [path]`);
  return {
    path: o.path,
    ...(o.filter === undefined ? {} : { filter: parseQuery(o.filter) }),
    ...(o.max_children === undefined ? {} : { maxChildren: Number(o.max_children) }),
    ...(o.nested === undefined ? {} : { nested: parseNestedSort(o.nested) }),
  };
}

type Value = number | bigint | string | null;

/** The parts of a sort key a nested reader needs. */
interface Key {
  readonly field: string;
  readonly order: 1 | -1;
  readonly mode?: string;
  readonly nested?: NestedSort;
}

/** What a sort reads in one target: its documents, its fields and its name. */
export type SortTarget = Pick<ExecContext, "snapshot" | "fields" | "index" | "flavour">;

/** Builds the reader of a field sort for one set of docs (the leaf objects here). */
type LeafReader<K> = (
  k: K,
  on: SortTarget,
  shardDocBase: number,
) => (global: number, score: number) => Value;

/**
 * A reader of a nested field sort: per document, the values of its matching objects (at every
 * level of `nested`) combined by the mode. `leaf` reads one object's value (the field sort
 * without `nested`); `missing` gives the value of a document without any.
 */
export function nestedSortReader<K extends Key>(
  k: K,
  on: SortTarget,
  leaf: LeafReader<K>,
  missing: (k: K, info: FieldInfo) => Value,
): (global: number, score: number) => Value {
  const { snapshot, fields, index } = on;
  let ctx: ExecContext = { snapshot, fields, now: Date.now(), index };
  // Per level: each object's parent and whether it passes the level's filter.
  const levels: { parent: Int32Array; allowed: Uint8Array | null; max: number }[] = [];
  for (let n: NestedSort | undefined = k.nested; n; n = n.nested) {
    checkNestedPath(ctx, n);
    const scope = nestedScope(ctx, n.path);
    const objects = scopeContext(ctx, scope, n.path);
    let allowed: Uint8Array | null = null;
    if (n.filter) {
      allowed = new Uint8Array(scope.snapshot.maxDoc);
      for (const d of execute(n.filter, objects, "filter").docs) allowed[d] = 1;
    }
    levels.push({ parent: scope.parent, allowed, max: n.maxChildren ?? Infinity });
    ctx = objects;
  }
  const info = ctx.fields.byPath.get(k.field);
  const read = leaf({ ...k, nested: undefined }, {
    snapshot: ctx.snapshot,
    fields: ctx.fields,
    index,
  }, 0);
  if (!info) return () => null;
  const none = missing(k, info);
  // Leaf objects per document, by walking the levels down once.
  let owners: Int32Array = new Int32Array(0);
  levels.forEach((level, i) => {
    const next = new Int32Array(level.parent.length).fill(-1);
    const seen = new Map<number, number>();
    level.parent.forEach((p, o) => {
      const owner = i === 0 ? p : owners[p]!;
      if (owner < 0 || (level.allowed && !level.allowed[o])) return;
      const n = seen.get(owner) ?? 0;
      if (n >= level.max) return;
      seen.set(owner, n + 1);
      next[o] = owner;
    });
    owners = next;
  });
  const byDoc = new Map<number, number[]>();
  owners.forEach((owner, o) => {
    if (owner < 0) return;
    let list = byDoc.get(owner);
    if (!list) byDoc.set(owner, list = []);
    list.push(o);
  });
  const mode = k.mode ?? (k.order === 1 ? "min" : "max");
  return (global, score) => {
    const values: Value[] = [];
    for (const o of byDoc.get(global) ?? []) {
      const v = read(o, score);
      if (v !== none && v !== null) values.push(v);
    }
    if (values.length === 0) return none;
    if (mode === "sum" || mode === "avg") {
      const sum = values.reduce<number>((a, v) => a + Number(v), 0);
      return mode === "sum" ? sum : sum / values.length;
    }
    return values.reduce((a, v) => ((mode === "max" ? v! > a! : v! < a!) ? v : a));
  };
}
