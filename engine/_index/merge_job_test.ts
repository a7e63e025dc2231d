import assert from "node:assert/strict";
import { fieldMapOf } from "./field_map.ts";
import { KeptDoc } from "./kept_doc.ts";
import { MergeJob } from "./merge_job.ts";
import { SEARCH_QUIET_MS, searchBegins } from "./search_pressure.ts";
import { buildSegment } from "./segment_builder.ts";
import type { Mappings } from "./types.ts";

const MAPPINGS: Mappings = { properties: { t: { type: "text" }, n: { type: "integer" } } };

/** Segments of `per` documents each, every eighth document of the first deleted. */
function inputs(count: number, per: number) {
  const fields = fieldMapOf(MAPPINGS);
  return Array.from({ length: count }, (_, s) => {
    const docs = Array.from({ length: per }, (_, k) => {
      const i = s * per + k;
      const source = { t: `w${i % 97} w${i % 13} the`, n: i };
      return new KeptDoc({
        id: String(i),
        source,
        text: JSON.stringify(source),
        version: 1,
        seqNo: i,
      });
    });
    const deleted = s === 0 ? new Uint8Array(per).map((_, i) => i % 8 === 0 ? 1 : 0) : null;
    return { segment: buildSegment(docs, fields), deleted };
  });
}

/** What a merged segment holds, to compare two merges of the same inputs. */
function contents(job: MergeJob) {
  const { segment, maps } = job.result!;
  const t = segment.fields.get("t")!;
  const terms = [...t.terms.keys()].sort();
  return {
    maxDoc: segment.maxDoc,
    ids: segment.docs.map((d) => d.id),
    sources: segment.docs.map((d) => JSON.stringify(d.source)),
    postings: terms.map((term) => [term, [...t.terms.get(term)!.docs]]),
    maps: maps.map((m) => [...m]),
  };
}

Deno.test("a merge stepped while searches are answered: short slices, the same segment", () => {
  const plain = new MergeJob(inputs(4, 5_000), MAPPINGS);
  plain.finish();
  const stepped = new MergeJob(inputs(4, 5_000), MAPPINGS);
  const end = searchBegins();
  let steps = 0;
  try {
    // A slice asked for a minute is cut short: 18,000 documents are not merged in one.
    while (!stepped.step(60_000)) steps++;
  } finally {
    end();
  }
  assert.ok(steps > 0);
  assert.deepEqual(contents(stepped), contents(plain));
  assert.equal(stepped.result!.segment.maxDoc, 4 * 5_000 - 625);
});

Deno.test("a merge with no search around runs the slice it is given", async () => {
  await new Promise((resolve) => setTimeout(resolve, SEARCH_QUIET_MS + 5));
  const job = new MergeJob(inputs(2, 2_000), MAPPINGS);
  assert.equal(job.step(60_000), true);
  const again = new MergeJob(inputs(2, 2_000), MAPPINGS);
  assert.deepEqual(contents(job), contents(again.finish() && again));
});
