// What builders need from their LambdaTemplate to run: the JdbcTemplate, the refresh policy and
// the exact-field resolver for an index (from its cached mapping).

import type { JdbcTemplate } from "../template/mod.ts";
import type { ExactResolver, SortKey } from "./compiler.ts";
import type { ConditionNode } from "./nodes.ts";
import { hasVectorCondition, type VectorDialect } from "./vectors.ts";
import type { FieldTypes } from "./field_types.ts";

/** The running side of a LambdaTemplate, as builders see it. */
export interface Runtime {
  /** Runs the compiled commands. */
  readonly jdbc: JdbcTemplate;
  /** Whether by-query writes refresh the index first (so their count covers every write). */
  readonly refresh: boolean;
  /** The mapping of an index if it is cached, read and current; what `toCommand()` shows. */
  knownTypes(index: string): FieldTypes | undefined;
  /** The exact-field resolver for a command on `index` with these conditions and sort keys. */
  resolver(
    index: string,
    where: ConditionNode | null,
    sort: readonly SortKey[],
  ): Promise<ExactResolver>;
  /**
   * `resolver`'s answer when it needs no I/O (mappings not read, no exact field, or the index's
   * mapping cached, read and current), else undefined. The same mapping gives the same resolver
   * object, so a command compiled with it can be kept and reused.
   */
  resolverNow(index: string, needs: ExactNeeds): ExactResolver | undefined;
  /** `vectorFields`' answer when the mapping is cached, read and current, else undefined. */
  vectorFieldsNow(index: string): readonly string[] | undefined;
  /**
   * The `dense_vector` fields of `index` (from its cached mapping; none when mappings are not
   * read): Elasticsearch 9 leaves them out of `_source` unless they are named, so entity reads
   * name them.
   */
  vectorFields(index: string): Promise<readonly string[]>;
  /** How an order by vector similarity on `field` of `index` is sent, and the field's similarity. */
  vectorPlan(
    index: string,
    field: string,
  ): Promise<{ dialect: Exclude<VectorDialect, "auto">; similarity?: string }>;
}

/** What a command's resolver depends on: its exact fields, and whether it has a vector condition. */
export interface ExactNeeds {
  /** The fields of its conditions and sort keys that need an exact form (no metadata field). */
  readonly fields: readonly string[];
  /** Whether a condition is a vector threshold (its form depends on the dialect). */
  readonly vector: boolean;
}

const META_FIELDS = new Set(["_id", "_index", "_routing"]);

/** The exact needs of a command with these conditions and sort keys. */
export function exactNeedsOf(where: ConditionNode | null, sort: readonly SortKey[]): ExactNeeds {
  const fields = exactFields(where);
  for (const s of sort) fields.add(s.field);
  const out: string[] = [];
  for (const f of fields) if (!META_FIELDS.has(f)) out.push(f);
  return { fields: out, vector: hasVectorCondition(where) };
}

/** The fields of a tree whose conditions need an exact form. */
export function exactFields(
  where: ConditionNode | null,
  out: Set<string> = new Set(),
): Set<string> {
  if (where === null) return out;
  switch (where.kind) {
    case "and":
    case "or":
      for (const item of where.items) exactFields(item, out);
      break;
    case "not":
      exactFields(where.item, out);
      break;
    case "compare":
    case "in":
    case "between":
    case "like":
      out.add(where.field);
      break;
  }
  return out;
}
