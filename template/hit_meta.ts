// The version of a row's document, from the hit metadata the driver reads for each row (a search
// hit with `seq_no_primary_term` or `version`, an `_mget` doc, a single GET), and back again into
// the `if_seq_no` / `if_primary_term` of a conditional write.

import type { HitMeta } from "../driver/mod.ts";
import type { FieldMeta } from "./entity.ts";

/**
 * The version value of one hit for a version field: `"seqNo:primaryTerm"` or the external
 * `_version` number; undefined when the hit does not carry it.
 */
export function versionOf(hit: HitMeta, kind: FieldMeta["version"]): string | number | undefined {
  if (kind === "external") return hit.version ?? undefined;
  const { seqNo, primaryTerm } = hit;
  return seqNo !== null && primaryTerm !== null ? `${seqNo}:${primaryTerm}` : undefined;
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
 * import { parseSeqNoVersion } from "./internal.ts";
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
