// The version of each row's document, read from the response a result set came from: the hits
// of a search (`_seq_no`/`_primary_term` with `seq_no_primary_term`, `_version` with `version`),
// the docs of an `_mget`, or a single GET. Rows with no such metadata get undefined.

import type { FieldMeta } from "./entity.ts";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The per-row metadata objects of a response, in row order. */
export function rowMetadata(raw: unknown): readonly unknown[] {
  if (!isObject(raw)) return [];
  if (isObject(raw.hits) && Array.isArray(raw.hits.hits)) return raw.hits.hits.filter(isObject);
  if (Array.isArray(raw.docs)) return raw.docs.filter(isObject);
  if (raw._id !== undefined) return raw.found === false ? [] : [raw];
  return [];
}

/**
 * The version value of one hit for a version field: `"seqNo:primaryTerm"` or the external
 * `_version` number; undefined when the hit does not carry it.
 */
export function versionOf(hit: unknown, kind: FieldMeta["version"]): string | number | undefined {
  if (!isObject(hit)) return undefined;
  if (kind === "external") return typeof hit._version === "number" ? hit._version : undefined;
  const seq = hit._seq_no;
  const term = hit._primary_term;
  return typeof seq === "number" && typeof term === "number" ? `${seq}:${term}` : undefined;
}

/**
 * Splits the value of a version field (`"seqNo:primaryTerm"`, as reads fill it) into the
 * `if_seq_no` and `if_primary_term` a conditional write sends; undefined when it is not one.
 *
 * @param value The version field's value.
 * @returns The sequence number and primary term, or undefined.
 *
 * @example
 * ```ts
 * import { parseSeqNoVersion } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(parseSeqNoVersion("12:1"), { seqNo: 12, primaryTerm: 1 });
 * assert.equal(parseSeqNoVersion(""), undefined);
 * ```
 */
export function parseSeqNoVersion(
  value: unknown,
): { seqNo: number; primaryTerm: number } | undefined {
  if (typeof value !== "string") return undefined;
  const match = /^(\d+):(\d+)$/.exec(value);
  if (!match) return undefined;
  return { seqNo: Number(match[1]), primaryTerm: Number(match[2]) };
}
