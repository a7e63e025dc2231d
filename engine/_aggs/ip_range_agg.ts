// `ip_range`: buckets of `ip` values by `from`/`to` addresses or a CIDR `mask`, keyed and
// bounded as Elasticsearch writes them (`*-10.0.0.5`, `10.0.0.0/25` with `from`/`to`).

import { illegalArgument, parsingError } from "../_errors.ts";
import { consumeBuckets } from "../_index/limits.ts";
import { type AggInput, eachValue, fieldOf } from "./agg_values.ts";
import type { JsonObject } from "../_json.ts";
import { keyedRanges } from "./buckets_path.ts";
import { bigIntToIp, ipToBigInt } from "../_index/ip_address.ts";

function address(v: unknown): bigint {
  const n = typeof v === "string" ? ipToBigInt(v) : null;
  if (n === null) throw illegalArgument(`'${String(v)}' is not an IP string literal.`);
  return n;
}

interface IpRange {
  key: string;
  from?: bigint;
  to?: bigint;
}

function rangeOf(r: JsonObject): IpRange {
  if (r.mask !== undefined) {
    const m = /^(.+)\/(\d{1,3})$/.exec(String(r.mask));
    if (!m) throw illegalArgument(`Expected [ip/prefix] but was [${r.mask}]`);
    const base = address(m[1]);
    const v4 = base >> 32n === 0xffffn;
    const prefix = Number(m[2]) + (v4 ? 96 : 0);
    if (prefix > 128) throw illegalArgument(`Illegal prefix length [${m[2]}] in [${r.mask}]`);
    const size = 1n << BigInt(128 - prefix);
    const from = base & ~(size - 1n);
    const to = from + size;
    return { key: String(r.key ?? r.mask), from, ...(to < 1n << 128n ? { to } : {}) };
  }
  const from = r.from === undefined || r.from === null ? undefined : address(r.from);
  const to = r.to === undefined || r.to === null ? undefined : address(r.to);
  const text = (n?: bigint) => (n === undefined ? "*" : bigIntToIp(n));
  return {
    key: typeof r.key === "string" ? r.key : `${text(from)}-${text(to)}`,
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined ? { to } : {}),
  };
}

/** The `ip_range` aggregation. */
export function ipRangeAgg(
  body: JsonObject,
  inputs: AggInput[],
  sub: ((docs: Map<number, number[]>) => JsonObject) | null,
  name: string,
): JsonObject {
  const field = fieldOf(body, name, "ip_range");
  if (!Array.isArray(body.ranges)) throw parsingError(`[ranges] must be an array`);
  const ranges = (body.ranges as JsonObject[]).map(rangeOf);
  const per = ranges.map(() => new Map<number, number[]>());
  eachValue(inputs, field, (v, doc, input) => {
    const ip = ipToBigInt(String(v));
    if (ip === null) return;
    const k = inputs.indexOf(input);
    ranges.forEach((r, i) => {
      if ((r.from !== undefined && ip < r.from) || (r.to !== undefined && ip >= r.to)) return;
      let list = per[i]!.get(k);
      if (!list) per[i]!.set(k, list = []);
      if (list[list.length - 1] !== doc) list.push(doc);
    });
  });
  const buckets = ranges.map((r, i) => {
    consumeBuckets(1);
    let n = 0;
    for (const l of per[i]!.values()) n += l.length;
    const b: JsonObject = { key: r.key };
    if (r.from !== undefined) b.from = bigIntToIp(r.from);
    if (r.to !== undefined) b.to = bigIntToIp(r.to);
    b.doc_count = n;
    return sub ? { ...b, ...sub(per[i]!) } : b;
  });
  return { buckets: body.keyed === true ? keyedRanges(buckets) : buckets };
}
