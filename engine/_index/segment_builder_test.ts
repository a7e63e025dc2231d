import assert from "node:assert/strict";
import { buildSegment } from "./segment_builder.ts";
import { fieldMapOf } from "./field_map.ts";
import { keepSourceText } from "./raw_source.ts";
import { numAt } from "./segment.ts";
import type { StoredDoc } from "./types.ts";

const fields = fieldMapOf({
  properties: {
    n: { type: "long" },
    u: { type: "unsigned_long" },
    d: { type: "double" },
    k: { type: "keyword" },
  },
});

function doc(id: string, text: string | null, source?: Record<string, unknown>): StoredDoc {
  const parsed = source ?? JSON.parse(text!);
  if (text !== null) keepSourceText(parsed, text);
  return { id, source: parsed, version: 1, seqNo: 0, primaryTerm: 1 };
}

Deno.test("whole numbers beyond 2^53 are indexed exactly from the source text; doubles stay beside them", () => {
  const segment = buildSegment([
    doc("a", '{"n": 9007199254740993, "k": 9007199254740993, "d": 9007199254740993}'),
    doc("b", '{"n": 9007199254740992, "u": 18446744073709551615}'),
    doc("c", '{"n": [9223372036854775807, 9007199254740995, 3]}'),
    doc("d", '{"n": 7}'),
    doc("e", null, { n: 2 ** 60 }), // a changed source without text: its double is its value
  ], fields);
  const n = segment.fields.get("n")!;
  const values = (d: number) => {
    const out = [];
    for (let i = n.dvStart[d]!; i < n.dvStart[d + 1]!; i++) out.push(numAt(n, i));
    return out;
  };
  assert.deepEqual(values(0), [9007199254740993n]);
  assert.deepEqual(values(1), [9007199254740992n]);
  assert.deepEqual(values(2), [3, 9007199254740995n, 9223372036854775807n]);
  assert.deepEqual(values(3), [7]);
  assert.deepEqual(values(4), [2n ** 60n]);
  assert.equal(n.numValues![0], 9007199254740992); // the nearest double is kept for speed
  // Points are ordered by double, then exactly: 2^53 before 2^53 + 1 although their doubles tie.
  const points = [...n.pointValues!.keys()].map((p) => n.pointExact![p] ?? n.pointValues![p]);
  assert.deepEqual(points, [
    3,
    7,
    9007199254740992n,
    9007199254740993n,
    9007199254740995n,
    2n ** 60n,
    9223372036854775807n,
  ]);
  assert.deepEqual([...n.pointDocs!], [2, 3, 1, 0, 2, 4, 2]);
  assert.equal(numAt(segment.fields.get("u")!, 0), 18446744073709551615n);
  // Keyword terms carry the literal's digits; a double field keeps doubles only.
  assert.deepEqual(segment.fields.get("k")!.strValues, ["9007199254740993"]);
  const d = segment.fields.get("d")!;
  assert.equal(d.exact ?? null, null);
  assert.equal(numAt(d, 0), 9007199254740992);
});

Deno.test("a segment of safe integers carries no exact table", () => {
  const segment = buildSegment(
    [doc("a", '{"n": 9007199254740991}'), doc("b", '{"n": -5}')],
    fields,
  );
  const n = segment.fields.get("n")!;
  assert.equal(n.exact, null);
  assert.equal(n.pointExact, null);
  assert.equal(numAt(n, 0), 9007199254740991);
});
