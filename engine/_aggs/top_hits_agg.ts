// The `top_hits` aggregation: the best documents of a bucket, rendered like search hits.

import type { AggInput } from "./agg_values.ts";
import { illegalArgument } from "../_errors.ts";
import { indexOfSorted } from "../_index/sorted_search.ts";
import type { Hits } from "../_query/doc_set.ts";
import { type HitOptions, renderHits } from "../_hits/hits_render.ts";
import { asNestedHit } from "../_hits/inner_hits.ts";
import {
  compareValues,
  missingValue,
  parseSort,
  presentSortValue,
  sortReader,
  type SortValue,
} from "../_hits/sort.ts";
import { parseSourceFilter } from "../_hits/source_filter.ts";
import { topK } from "../_hits/top_k.ts";

/** The score of `doc` among the top-level matches (0 when unscored). */
export function scoreOf(scored: Hits | undefined, doc: number): number {
  if (!scored?.scores) return 0;
  const at = indexOfSorted(scored.docs, doc);
  return at < 0 ? 0 : scored.scores[at]!;
}

/** Renders `{hits: {total, max_score, hits}}` for the bucket's docs. */
export function topHitsAgg(
  body: Record<string, unknown>,
  inputs: AggInput[],
  name: string,
): Record<string, unknown> {
  const size = Number(body.size ?? 3);
  const from = Number(body.from ?? 0);
  for (const input of inputs) {
    const max = input.ctx.maxInnerResultWindow ?? 100;
    if (from + size > max) {
      throw illegalArgument(
        `Top hits result window is too large, the top hits aggregator [${name}]'s from + size must be less than or equal to: [${max}] but was [${
          from + size
        }]. This limit can be set by changing the [index.max_inner_result_window] index level setting.`,
      );
    }
  }
  const sort = parseSort(body.sort, null);
  const cands: Array<{ t: number; doc: number; score: number; sort: SortValue[] | null }> = [];
  inputs.forEach((input, t) => {
    const readers = sort.map((k) => {
      // A field of nested objects sorted outside its scope: every doc lacks it here (Elasticsearch
      // refuses this in a search's sort, but not in top_hits).
      const outside = k.nested ? undefined : input.ctx.fields.full.byPath.get(k.field);
      if (outside && !input.ctx.fields.byPath.has(k.field)) {
        const none = missingValue(k, outside);
        return () => none;
      }
      return sortReader(k, input.ctx, t * 2 ** 32);
    });
    for (const doc of input.docs) {
      const score = scoreOf(input.scored, doc);
      cands.push({ t, doc, score, sort: sort.length ? readers.map((r) => r(doc, score)) : null });
    }
  });
  const compare = (a: number, b: number): number => {
    const x = cands[a]!;
    const y = cands[b]!;
    if (x.sort && y.sort) {
      for (let k = 0; k < sort.length; k++) {
        const c = compareValues(x.sort[k]!, y.sort[k]!, sort[k]!);
        if (c) return c;
      }
    } else if (x.score !== y.score) return y.score - x.score;
    return x.t - y.t || x.doc - y.doc;
  };
  const page = topK(cands.length, from + size, compare).slice(from).map((i) => {
    const c = cands[i]!;
    if (!c.sort) return c;
    const fields = inputs[c.t]!.ctx.fields.full.byPath;
    return {
      ...c,
      sort: c.sort.map((v, k) => presentSortValue(v, fields.get(sort[k]!.field)?.type)),
    };
  });
  const targets = inputs.map((i) => ({
    index: i.ctx.index,
    snapshot: i.ctx.snapshot,
    mappings: {},
    maxResultWindow: 10000,
  }));
  const options: HitOptions = {
    source: parseSourceFilter(body._source, new URLSearchParams()),
    scores: sort.length === 0 || body.track_scores === true,
    sort: sort.length > 0,
    version: body.version === true,
    seqNoPrimaryTerm: body.seq_no_primary_term === true,
    storedFieldsNone: false,
    docvalueFields: [],
    fields: [],
  };
  let maxScore: number | null = null;
  if (options.scores) {
    for (const c of cands) if (maxScore === null || c.score > maxScore) maxScore = c.score;
  }
  const hits = renderHits(
    page,
    targets,
    { total: { value: cands.length, relation: "eq" }, maxScore },
    options,
  );
  // Under a `nested` aggregation the docs are nested objects, shown with `_nested`.
  hits.hits = page.map((c, i) =>
    asNestedHit((hits.hits as Record<string, unknown>[])[i]!, targets[c.t]!.snapshot, c.doc)
  );
  return { hits };
}
