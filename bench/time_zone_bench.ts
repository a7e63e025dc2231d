// date_histogram and range queries in a named time zone (offsets from Intl, cached per day)
// against UTC and a fixed offset. 100,000 dates over three years.
//
//   deno bench -A bench/time_zone_bench.ts

import { Shard } from "../engine/_index/shard.ts";
import { searchApi, SearchContexts } from "../engine/_search/search_api.ts";
import type { Mappings, StoredDoc } from "../engine/_index/types.ts";
import type { SearchTarget } from "../engine/_index/search_target.ts";

const DOCS = 100_000;
const mappings: Mappings = { properties: { at: { type: "date" } } };
const start = Date.UTC(2021, 0, 1);
const docs: StoredDoc[] = Array.from({ length: DOCS }, (_, i) => ({
  id: String(i),
  source: {
    at: new Date(start + Math.floor((i * 7919) % (3 * 365 * 24)) * 3_600_000).toISOString(),
  },
  version: 1,
  seqNo: i,
  primaryTerm: 1,
}));
const shard = new Shard();
shard.refresh(docs.map((doc) => ({ id: doc.id, doc })), mappings);
const target: SearchTarget = {
  index: "tz",
  snapshot: shard.snapshot(),
  mappings,
  maxResultWindow: 10000,
};
const ctx = new SearchContexts();
const params = new URLSearchParams();
const histogram = (zone?: string) => ({
  size: 0,
  aggs: {
    d: {
      date_histogram: {
        field: "at",
        calendar_interval: "day",
        ...(zone ? { time_zone: zone } : {}),
      },
    },
  },
});
const range = (zone?: string) => ({
  query: {
    range: { at: { gte: "2022-03-01", lt: "2022-04-01", ...(zone ? { time_zone: zone } : {}) } },
  },
});

for (
  const [name, zone] of [["UTC", undefined], ["+01:00", "+01:00"], ["Europe/Paris", "Europe/Paris"]]
) {
  Deno.bench({ name: `day histogram, ${name}`, group: "histogram", baseline: !zone }, () => {
    searchApi(ctx, [target], histogram(zone), params);
  });
  Deno.bench({ name: `month range query, ${name}`, group: "range", baseline: !zone }, () => {
    searchApi(ctx, [target], range(zone), params);
  });
}
