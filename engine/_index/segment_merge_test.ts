import assert from "node:assert/strict";
import { fieldMapOf } from "./field_map.ts";
import { KeptDoc } from "./kept_doc.ts";
import type { Segment } from "./segment.ts";
import { buildSegment } from "./segment_builder.ts";
import { mergeSegments } from "./segment_merge.ts";
import type { Mappings, StoredDoc } from "./types.ts";

const MAPPINGS: Mappings = {
  properties: {
    title: { type: "text", fields: { raw: { type: "keyword" } } },
    tags: { type: "keyword" },
    n: { type: "long" },
    price: { type: "double" },
    at: { type: "date" },
    ok: { type: "boolean" },
    late: { type: "integer" }, // only in the second segment
  },
};

function doc(i: number, source: Record<string, unknown>): StoredDoc {
  const text = JSON.stringify(source).replace('"n":"BIG"', `"n":${9007199254740993n + BigInt(i)}`);
  return new KeptDoc({ id: String(i), source: JSON.parse(text), text, version: 1, seqNo: i });
}

function docs(from: number, count: number, late = false): StoredDoc[] {
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    const source: Record<string, unknown> = {
      title: i % 5 === 0 ? ["the quick fox", "fox again fox"] : `word${i % 7} the w${i % 3}`,
      tags: i % 4 === 0 ? ["b", "a", "b"] : i % 4 === 1 ? "solo" : [],
      n: i % 6 === 0 ? "BIG" : i * 3 - 10,
      price: i % 3 === 0 ? [2.5, -1] : i / 4,
      at: `2024-0${1 + (i % 9)}-1${i % 10}T10:00:00Z`,
    };
    if (i % 2) source.ok = i % 3 === 0;
    if (late) source.late = i;
    return doc(i, source);
  });
}

/** Everything a segment indexes, as plain data (terms sorted). */
function shape(segment: Segment): unknown {
  const plain = (a: unknown) => a && ArrayBuffer.isView(a) ? Array.from(a as Int32Array) : a;
  const fields: Record<string, unknown> = {};
  for (const [name, f] of [...segment.fields].sort(([a], [b]) => a < b ? -1 : 1)) {
    fields[name] = {
      ...Object.fromEntries(Object.entries(f).map(([k, v]) => [k, plain(v)])),
      terms: [...f.terms].sort(([a], [b]) => a < b ? -1 : 1).map(([t, p]) => [
        t,
        [p.docs, p.freqs, p.posStart, p.positions].map(plain),
      ]),
    };
  }
  return { ids: [...segment.ids], docs: segment.docs.map((d) => d.id), fields };
}

Deno.test("a merge copies postings, norms and doc values exactly as a rebuild indexes them", () => {
  const fields = fieldMapOf(MAPPINGS);
  const a = docs(0, 40);
  const b = docs(40, 30, true);
  const segA = buildSegment(a, fields);
  const segB = buildSegment(b, fields);
  const deleted = new Uint8Array(40);
  for (const i of [0, 3, 5, 17, 39]) deleted[i] = 1;
  const merged = mergeSegments([{ segment: segA, deleted }, { segment: segB, deleted: null }]);
  const live = [...a.filter((_, i) => !deleted[i]), ...b];
  assert.ok(merged);
  assert.deepEqual(shape(merged), shape(buildSegment(live, fields)));
  // Exact longs beyond 2^53 came through.
  assert.ok(merged.fields.get("n")!.exact?.some((v) => v === 9007199254740999n));
});

Deno.test("a merge drops terms whose every doc was deleted, and merges with no deletions", () => {
  const fields = fieldMapOf(MAPPINGS);
  const a = [doc(1, { title: "gone away", tags: "x" }), doc(2, { title: "stays", tags: "y" })];
  const segA = buildSegment(a, fields);
  const merged = mergeSegments([{ segment: segA, deleted: Uint8Array.of(1, 0) }])!;
  assert.deepEqual([...merged.fields.get("title")!.terms.keys()], ["stays"]);
  assert.deepEqual(shape(merged), shape(buildSegment([a[1]!], fields)));
  const b = docs(0, 12);
  const c = docs(12, 12);
  assert.deepEqual(
    shape(
      mergeSegments([
        { segment: buildSegment(b, fields), deleted: null },
        { segment: buildSegment(c, fields), deleted: null },
      ])!,
    ),
    shape(buildSegment([...b, ...c], fields)),
  );
});
