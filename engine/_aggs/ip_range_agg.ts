// `ip_range`: buckets of `ip` values by `from`/`to` addresses or a CIDR `mask`, keyed and
// bounded as Elasticsearch writes them (`*-10.0.0.5`, `10.0.0.0/25` with `from`/`to`).

import { illegalArgument, parsingError } from "../_errors.ts";
import { consumeBuckets } from "../_index/limits.ts";
import { type AggInput, eachValue, fieldOf } from "./agg_values.ts";
import type { JsonObject } from "../_json.ts";
import { keyedRanges } from "./buckets_path.ts";

const V4_PREFIX = 0xffffn << 32n;

/** An IPv4 or IPv6 address as a 128-bit number (IPv4 mapped into IPv6), or null. */
export function ipToBigInt(text: string): bigint | null {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4) {
    const parts = v4.slice(1).map(Number);
    if (parts.some((p) => p > 255)) return null;
    return V4_PREFIX |
      BigInt(((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!);
  }
  if (!text.includes(":")) return null;
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = (s: string) => (s === "" ? [] : s.split(":"));
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  const fill = 8 - head.length - tail.length;
  if (fill < 0 || (halves.length === 1 && fill !== 0)) return null;
  let n = 0n;
  for (const g of [...head, ...Array(fill).fill("0"), ...tail]) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
    n = (n << 16n) | BigInt(parseInt(g, 16));
  }
  return n;
}

/** Writes a 128-bit address back: dotted IPv4 when it is a mapped IPv4, else compressed IPv6. */
export function bigIntToIp(n: bigint): string {
  if (n >> 32n === 0xffffn) {
    const v = Number(n & 0xffffffffn);
    return [v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255].join(".");
  }
  const groups: number[] = [];
  for (let i = 7; i >= 0; i--) groups.push(Number((n >> BigInt(i * 16)) & 0xffffn));
  // Compress the longest run of zero groups (two or more).
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(":");
  return `${hex.slice(0, best).join(":")}::${hex.slice(best + bestLen).join(":")}`;
}

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
