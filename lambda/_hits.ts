// Hits as plain maps: the document's fields plus its `_id` (Elasticsearch never allows an `_id`
// field inside a document, so the name is free).

import type { ResultSet } from "../driver/mod.ts";

/** Reads every remaining row of a search result set as `{ _id, ...document }`. */
export function readHits(rs: ResultSet): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  while (rs.next()) {
    const doc = rs.getJson("_DOC");
    const row: Record<string, unknown> = { _id: rs.getString("_ID") };
    if (doc !== null && typeof doc === "object") {
      for (const [k, v] of Object.entries(doc)) {
        // A "__proto__" field stays a field instead of changing the row's prototype.
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
    out.push(row);
  }
  return out;
}
