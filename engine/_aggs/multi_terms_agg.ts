// `multi_terms`: terms buckets keyed by the values of several fields at once (`["rock", 2021]`),
// ordered by count (or key, or a sub-aggregation's value) like `terms`.

import { illegalArgument, parsingError } from "../_errors.ts";
import { consumeBuckets } from "../_index/limits.ts";
import { formatDateAt } from "../_index/dates.ts";
import type { FieldInfo } from "../_index/field_map.ts";
import { type AggInput, orderSign, positiveSetting } from "./agg_values.ts";
import { compareOrderValues, orderPathValue } from "./buckets_path.ts";
import type { SubRunner } from "./bucket_aggs.ts";
import {
  addToBucket,
  combinations,
  docParts,
  type KeyBucket,
  type Part,
  partComparator,
} from "./compound_keys.ts";
import type { JsonObject } from "../_json.ts";

interface Bucket extends KeyBucket<Part[]> {
  sub?: JsonObject;
}

function termSpecs(body: JsonObject, name: string): JsonObject[] {
  const terms = body.terms;
  const list = Array.isArray(terms) ? terms : [];
  if (list.length < 2) {
    throw illegalArgument(
      `The [terms] parameter in the aggregation [${name}] must be present and have at least 2 fields or scripts.${
        list.length === 1 ? " For a single field user terms aggregation." : ""
      }`,
    );
  }
  return list.map((t) => {
    if (t === null || typeof t !== "object" || Array.isArray(t)) {
      throw parsingError(`[multi_terms] each of [terms] must be an object`);
    }
    const spec = t as JsonObject;
    if (typeof spec.field !== "string") {
      throw illegalArgument(`[multi_terms] each of [terms] requires a [field] in [${name}]`);
    }
    return spec;
  });
}

/** A key part as Elasticsearch writes it: dates in their format, booleans as booleans. */
function partValue(info: FieldInfo | undefined, spec: JsonObject, p: Part): unknown {
  if (info?.kind === "date") {
    const format = typeof spec.format === "string" ? spec.format : info.format;
    return formatDateAt(Number(p), { nanos: info.nanos, format });
  }
  if (info?.kind === "boolean") return p === 1;
  return p;
}

function readOrder(body: JsonObject): [string, number][] {
  const order = body.order ?? [{ _count: "desc" }, { _key: "asc" }];
  const parts = (Array.isArray(order) ? order : [order]).flatMap((o) =>
    o !== null && typeof o === "object" ? Object.entries(o as JsonObject) : []
  );
  return parts.map((
    [path, dir],
  ) => [path === "_term" ? "_key" : path, orderSign("multi_terms", dir)]);
}

/** The `multi_terms` aggregation. */
export function multiTermsAgg(
  body: JsonObject,
  inputs: AggInput[],
  sub: SubRunner | null,
  name: string,
): JsonObject {
  const specs = termSpecs(body, name);
  const size = positiveSetting({ body, type: "multi_terms", name }, "size", 10);
  const minDocCount = Number(body.min_doc_count ?? 1);
  const orders = readOrder(body);
  const fields = specs.map((spec) => docParts(inputs, spec.field as string, (v) => v, spec));
  const compares = fields.map((f) => partComparator(f.info?.type === "ip"));
  const buckets = new Map<string, Bucket>();
  inputs.forEach((input, k) => {
    for (const doc of input.docs) {
      const lists: Part[][] = [];
      for (const f of fields) {
        const got = f.maps[k]!.get(doc);
        if (!got) break;
        lists.push(got);
      }
      if (lists.length < fields.length) continue;
      for (const key of combinations(lists)) {
        addToBucket(buckets, key, k, doc);
      }
    }
  });
  const compareKey = (a: Bucket, b: Bucket): number => {
    for (let i = 0; i < a.key.length; i++) {
      const c = compares[i]!(a.key[i]!, b.key[i]!);
      if (c) return c;
    }
    return 0;
  };
  const subOf = (b: Bucket): JsonObject => (b.sub ??= sub ? sub(b.docs) : {});
  const metric = (b: Bucket, path: string): number | string => orderPathValue(subOf(b), path);
  const all = [...buckets.values()].filter((b) => b.count >= minDocCount);
  all.sort((a, b) => {
    for (const [path, sign] of orders) {
      const c = path === "_key"
        ? compareKey(a, b)
        : path === "_count"
        ? a.count - b.count
        : compareOrderValues(metric(a, path), metric(b, path));
      if (c) return c * sign;
    }
    return b.count - a.count || compareKey(a, b);
  });
  const top = all.slice(0, size);
  consumeBuckets(top.length);
  let other = 0;
  for (const b of all.slice(size)) other += b.count;
  return {
    doc_count_error_upper_bound: 0,
    sum_other_doc_count: other,
    buckets: top.map((b) => {
      const key = b.key.map((p, i) => partValue(fields[i]!.info, specs[i]!, p));
      return {
        key,
        key_as_string: key.map(String).join("|"),
        doc_count: b.count,
        ...(body.show_term_doc_count_error === true ? { doc_count_error_upper_bound: 0 } : {}),
        ...subOf(b),
      };
    }),
  };
}
