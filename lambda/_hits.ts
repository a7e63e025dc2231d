// Hits as plain maps: the document's fields plus its `_id` (Elasticsearch never allows an `_id`
// field inside a document, so the name is free).

import type { ResultSet } from "../driver/mod.ts";
import { takeDocHits } from "../driver/internal.ts";

/** `{ _id, ...document }`; a `"__proto__"` field stays a field instead of changing the prototype. */
function docMap(id: unknown, doc: unknown): Record<string, unknown> {
  const row: Record<string, unknown> = { _id: id };
  // Object.assign copies by assignment, where `__proto__` would set the prototype: only a
  // document without that field is copied by it (the runtime's copy, no list of entries).
  if (doc !== null && typeof doc === "object" && !Object.hasOwn(doc, "__proto__")) {
    return Object.assign(row, doc);
  }
  if (doc !== null && typeof doc === "object") {
    for (const [k, v] of Object.entries(doc)) {
      if (k === "__proto__") {
        Object.defineProperty(row, k, {
          value: v,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else row[k] = v;
    }
  }
  return row;
}

/** Reads every remaining row of a search result set as `{ _id, ...document }`. */
export function readDocs(rs: ResultSet): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const hits = takeDocHits(rs);
  if (hits !== undefined) {
    // A search's rows, read from the hits in one pass (as getString/getJson would give them).
    for (const hit of hits) {
      const id = hit._id;
      const source = hit._source;
      out.push(docMap(
        id === undefined || id === null ? "" : String(id),
        source !== null && typeof source === "object" ? source : null,
      ));
    }
    return out;
  }
  while (rs.next()) out.push(docMap(rs.getString("_ID"), rs.getJson("_DOC")));
  return out;
}

/** A streamed row (`_ID`, `_DOC` as JSON text) as `{ _id, ...document }`. */
export function docOfRow(row: Record<string, unknown>): Record<string, unknown> {
  const doc = row._DOC;
  return docMap(row._ID ?? null, typeof doc === "string" ? JSON.parse(doc) : doc);
}
