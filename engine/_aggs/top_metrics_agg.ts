// `top_metrics`: the metrics of the document(s) that sort first, a lighter `top_hits` (the
// latest value of a field, the price at the highest score). Sort values and metrics are read
// from doc values; dates are written in their field's format.

import { illegalArgument } from "../_errors.ts";
import { formatDateAt } from "../_index/dates.ts";
import { setOwn } from "../_index/own.ts";
import { compareValues, parseSort, sortReader, type SortValue } from "../_hits/sort.ts";
import { type AggInput, positiveSetting } from "./agg_values.ts";
import { docParts } from "./compound_keys.ts";
import { scoreOf } from "./top_hits_agg.ts";
import type { JsonObject } from "../_json.ts";

/** Elasticsearch's default `index.top_metrics_max_size`. */
const MAX_SIZE = 10;

function metricFields(body: JsonObject): string[] {
  const raw = body.metrics;
  if (raw === undefined || raw === null) throw illegalArgument("Required [metrics]");
  const list = Array.isArray(raw) ? raw : [raw];
  return list.map((m) => {
    const field = (m as JsonObject | null)?.field;
    if (typeof field !== "string") throw illegalArgument("[top_metrics] metrics require a [field]");
    return field;
  });
}

/** The `top_metrics` aggregation. */
export function topMetricsAgg(body: JsonObject, inputs: AggInput[], name: string): JsonObject {
  const fields = metricFields(body);
  if (body.sort === undefined) throw illegalArgument("Required [sort]");
  const sort = parseSort(body.sort, null);
  if (sort.length !== 1) {
    throw illegalArgument(`[top_metrics] only supports sorting on a single field in [${name}]`);
  }
  const key = sort[0]!;
  const size = positiveSetting({ body, type: "top_metrics", name }, "size", 1);
  if (size > MAX_SIZE) {
    throw illegalArgument(
      `[top_metrics.size] must not be more than [${MAX_SIZE}] but was [${size}]. This limit can be set by changing the [index.top_metrics_max_size] index level setting.`,
    );
  }
  const cands: { input: number; doc: number; sort: SortValue }[] = [];
  inputs.forEach((input, t) => {
    const read = sortReader(key, input.ctx, t * 2 ** 32);
    for (const doc of input.docs) {
      const value = read(doc, scoreOf(input.scored, doc));
      // A document without a sort value has nothing to rank it by.
      if (value !== null) cands.push({ input: t, doc, sort: value });
    }
  });
  cands.sort((a, b) => compareValues(a.sort, b.sort, key) || a.input - b.input || a.doc - b.doc);
  const top = cands.slice(0, size);
  const parts = fields.map((f) => docParts(inputs, f, (v) => v));
  const sortInfo = inputs.map((i) => i.ctx.fields.byPath.get(key.field)).find((f) => f);
  return {
    top: top.map((c) => {
      const metrics: JsonObject = {};
      fields.forEach((f, i) => {
        const info = parts[i]!.info;
        const v = parts[i]!.maps[c.input]!.get(c.doc)?.[0] ?? null;
        setOwn(
          metrics,
          f,
          v === null
            ? null
            : info?.kind === "date"
            ? formatDateAt(Number(v), info)
            : typeof v === "bigint"
            ? Number(v)
            : v,
        );
      });
      const sortValue = sortInfo?.kind === "date" && typeof c.sort !== "string"
        ? formatDateAt(Number(c.sort), sortInfo)
        : c.sort;
      return { sort: [sortValue], metrics };
    }),
  };
}
