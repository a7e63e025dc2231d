// Kept search commands shared by builders of one structure: a builder made per read (the usual
// `lambda.query(i).eq("f", v)` with another value each time) finds the command text another
// builder of the same shape compiled, and binds its own values. The shape key names everything
// that makes the text (node kinds, operators, fields, flags, projection, order, paging's presence)
// and no value: values are only ever arguments, taken from the tree in the order the compiler
// binds them. Bounded; vector conditions are left to the compiler.

import { likeValue, type SortKey } from "./compiler.ts";
import type { ConditionNode } from "./nodes.ts";
import type { ExactNeeds } from "./_runtime.ts";

/** A field name in a key: length-prefixed, so that no name can read as another key's tokens. */
function name(field: string): string {
  return `${field.length}:${field}`;
}

/**
 * The shape key of a tree (appended to `key`) and its bound values (pushed to `args`, in the
 * compiler's order), or undefined when the tree has a condition whose text is not kept.
 */
function shapeOf(n: ConditionNode, args: unknown[]): string | undefined {
  switch (n.kind) {
    case "compare":
      args.push(n.value);
      return `c${n.op}${name(n.field)}`;
    case "in":
      args.push(n.values);
      return `${n.negated ? "I" : "i"}${name(n.field)}`;
    case "between":
      args.push(n.low, n.high);
      return `${n.negated ? "B" : "b"}${name(n.field)}`;
    case "exists":
      return `${n.negated ? "E" : "e"}${name(n.field)}`;
    case "like":
      args.push(likeValue(n));
      return `${n.negated ? "L" : "l"}${n.mode}${name(n.field)}`;
    case "match":
      args.push(n.text);
      return `${n.phrase ? "p" : "m"}${name(n.field)}`;
    case "vector":
      return undefined;
    case "not": {
      const item = shapeOf(n.item, args);
      return item === undefined ? undefined : `!(${item})`;
    }
    case "or":
    case "and": {
      // Items bind in their order (the compiler puts scoring ones under `must`, which their
      // kinds in the key decide).
      let key = `${n.kind === "or" ? "|" : "&"}${n.items.length}(`;
      for (const item of n.items) {
        const k = shapeOf(item, args);
        if (k === undefined) return undefined;
        key += k + ",";
      }
      return key + ")";
    }
  }
}

/** What a search's text depends on beside its tree, and its first and last arguments. */
export interface SearchShape {
  readonly index: string;
  readonly where: ConditionNode | null;
  readonly source?: readonly string[];
  readonly sort: readonly SortKey[];
  readonly versions?: "seq_no" | "external";
  readonly from?: number;
  readonly size: number;
}

/** A command's shape key and its arguments. */
export interface Shape {
  /** Everything that makes the text, and no value. */
  readonly key: string;
  /** The arguments, in the compiler's order. */
  readonly args: unknown[];
}

/** The shape of a search, or undefined when it is not kept. */
export function searchShape(spec: SearchShape): Shape | undefined {
  const args: unknown[] = [spec.index];
  let key = "s";
  if (spec.where !== null) {
    const where = shapeOf(spec.where, args);
    if (where === undefined) return undefined;
    key += where;
  }
  if (spec.source !== undefined) {
    key += `_${spec.source.length}`;
    for (const f of spec.source) key += name(f);
  }
  for (const s of spec.sort) key += `^${s.order}${name(s.field)}`;
  if (spec.versions !== undefined) key += `v${spec.versions}`;
  if (spec.from !== undefined && spec.from > 0) {
    key += "f";
    args.push(spec.from);
  }
  args.push(spec.size);
  return { key, args };
}

/** The shape of the `_count` of a query, or undefined when it is not kept. */
export function countShape(index: string, where: ConditionNode | null): Shape | undefined {
  const args: unknown[] = [index];
  if (where === null) return { key: "n", args };
  const key = shapeOf(where, args);
  return key === undefined ? undefined : { key: "n" + key, args };
}

/** A shape's kept texts, one per resolver, and what its resolver depends on. */
export interface KeptShape {
  readonly needs: ExactNeeds;
  /** Resolver → text (weak: a mapping read again leaves its old text to the collector). */
  readonly texts: WeakMap<object, string>;
}

/** At most this many shapes are kept; beyond, the map starts over (an app has a few hundred). */
const MAX_SHAPES = 512;
const shapes = new Map<string, KeptShape>();

/** The kept shape of a key, made by `make` when there is none. */
export function keptShape(key: string, make: () => ExactNeeds): KeptShape {
  let kept = shapes.get(key);
  if (kept === undefined) {
    if (shapes.size >= MAX_SHAPES) shapes.clear();
    kept = { needs: make(), texts: new WeakMap() };
    shapes.set(key, kept);
  }
  return kept;
}
