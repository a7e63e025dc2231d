/**
 * The getters of the current hit's metadata (score, sort values, highlight, named queries, index,
 * version, sequence number, primary term), on top of `getHit()`.
 *
 * @module
 */

import { CellReader } from "./cell_reader.ts";
import type { HitMeta } from "./hit_meta.ts";

/**
 * The hit getters of a row cursor, each reading one field of `getHit()`. {@linkcode ResultSet} is
 * the one to use; this base class only holds the getters.
 *
 * @example
 * ```ts
 * import { HitReader, ResultSet } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const rs = new ResultSet(["_ID", "_DOC"], [["1", null]], { hits: [{ _id: "1", _score: 0.5 }] });
 * rs.next();
 * assert.ok(rs instanceof HitReader);
 * assert.equal(rs.getScore(), 0.5);
 * ```
 */
export abstract class HitReader extends CellReader {
  /**
   * Returns the metadata of the current hit.
   *
   * @returns The current hit's metadata.
   */
  abstract getHit(): HitMeta;

  /**
   * Returns the current hit's `_score`, or null (sorted without scores, or not a hit).
   *
   * @returns The score, or null.
   */
  getScore(): number | null {
    return this.getHit().score;
  }

  /**
   * Returns the current hit's sort values (what `search_after` takes), or null.
   *
   * @returns The sort values, or null.
   */
  getSortValues(): readonly unknown[] | null {
    return this.getHit().sort;
  }

  /**
   * Returns the highlighted fragments of one field of the current hit, or of all fields.
   *
   * @param field A field name; omit it for every field.
   * @returns The fragments (empty when none), or every field's fragments (null when none).
   */
  getHighlight(field: string): readonly string[];
  /** Every field's highlighted fragments of the current hit, or null (see the first overload). */
  getHighlight(): Readonly<Record<string, readonly string[]>> | null;
  getHighlight(
    field?: string,
  ): readonly string[] | Readonly<Record<string, readonly string[]>> | null {
    const highlight = this.getHit().highlight;
    return field === undefined ? highlight : highlight?.[field] ?? [];
  }

  /**
   * Returns the names of the named queries the current hit matched.
   *
   * @returns The names (empty when none).
   */
  getMatchedQueries(): readonly string[] {
    return this.getHit().matchedQueries;
  }

  /**
   * Returns the concrete index of the current hit, or null.
   *
   * @returns The index name, or null.
   */
  getIndex(): string | null {
    return this.getHit().index;
  }

  /**
   * Returns the current hit's `_version`, or null (searches need `"version": true`).
   *
   * @returns The version, or null.
   */
  getVersion(): number | null {
    return this.getHit().version;
  }

  /**
   * Returns the current hit's `_seq_no`, or null (searches need `"seq_no_primary_term": true`).
   *
   * @returns The sequence number, or null.
   */
  getSeqNo(): number | null {
    return this.getHit().seqNo;
  }

  /**
   * Returns the current hit's `_primary_term`, or null.
   *
   * @returns The primary term, or null.
   */
  getPrimaryTerm(): number | null {
    return this.getHit().primaryTerm;
  }
}
