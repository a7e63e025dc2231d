// `rare_terms`: the terms held by at most `max_doc_count` docs, rarest first. Counts are exact
// here (Elasticsearch estimates with a cuckoo filter, whose `precision` is accepted and checked).

import { consumeBuckets } from "../_index/limits.ts";
import { type AggInput, badField, fieldOf, keyFilter, valueFormat } from "./agg_values.ts";
import type { SubRunner } from "./bucket_aggs.ts";
import {
  addToBucket,
  docParts,
  type KeyBucket,
  type Part,
  partComparator,
} from "./compound_keys.ts";
import type { JsonObject } from "../_json.ts";

const MAX_MAX_DOC_COUNT = 100;

/** The `rare_terms` aggregation. */
export function rareTermsAgg(
  body: JsonObject,
  inputs: AggInput[],
  sub: SubRunner | null,
  name: string,
): JsonObject {
  const field = fieldOf(body, name, "rare_terms");
  const max = Number(body.max_doc_count ?? 1);
  if (!(max > 0)) {
    throw badField(
      "rare_terms",
      "max_doc_count",
      `[max_doc_count] must be greater than 0. Found [${body.max_doc_count}] in [${name}]`,
    );
  }
  if (max > MAX_MAX_DOC_COUNT) {
    throw badField(
      "rare_terms",
      "max_doc_count",
      `[max_doc_count] must be smaller than or equal to [${MAX_MAX_DOC_COUNT}]. Found [${body.max_doc_count}] in [${name}]`,
    );
  }
  if (body.precision !== undefined && !(Number(body.precision) >= 0.00001)) {
    throw badField(
      "rare_terms",
      "precision",
      `[precision] must be greater than 0.00001. Found [${body.precision}] in [${name}]`,
    );
  }
  const include = keyFilter(body.include);
  const exclude = keyFilter(body.exclude);
  const { maps, info } = docParts(inputs, field, (v) => v, body);
  const buckets = new Map<string, KeyBucket<Part>>();
  maps.forEach((m, k) => {
    for (const [doc, parts] of m) {
      for (const key of parts) {
        if (key === null) continue;
        addToBucket(buckets, key, k, doc);
      }
    }
  });
  const compare = partComparator(info?.type === "ip");
  const rare = [...buckets.values()]
    .filter((b) => b.count <= max && (!include || include(b.key!)) && !(exclude && exclude(b.key!)))
    .sort((a, b) => a.count - b.count || compare(a.key, b.key));
  consumeBuckets(rare.length);
  const text = valueFormat(body, info);
  return {
    buckets: rare.map((b) => {
      const key = info?.kind === "boolean"
        ? { key: b.key, key_as_string: b.key ? "true" : "false" }
        : text && typeof b.key !== "string"
        ? { key: b.key, key_as_string: text(Number(b.key)) }
        : { key: b.key };
      return { ...key, doc_count: b.count, ...(sub ? sub(b.docs) : {}) };
    }),
  };
}
