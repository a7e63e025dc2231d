// IP addresses as 128-bit numbers (IPv4 mapped into IPv6), the order the real engines keep `ip`
// values in (sorts, ranges, CIDR terms), and written back as they print them.

const V4_PREFIX = 0xffffn << 32n;

/**
 * An IPv4 or IPv6 address as a 128-bit number (IPv4 mapped into IPv6), or null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ipToBigInt } from "./ip_address.ts";
 * assert.ok(ipToBigInt("::1")! < ipToBigInt("10.0.0.1")!);
 * assert.equal(ipToBigInt("::ffff:10.0.0.1"), ipToBigInt("10.0.0.1"));
 * assert.equal(ipToBigInt("10.0.0.256"), null);
 * ```
 */
export function ipToBigInt(text: string): bigint | null {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4) {
    const parts = v4.slice(1).map(Number);
    if (parts.some((p) => p > 255)) return null;
    return V4_PREFIX |
      BigInt(((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!);
  }
  if (!text.includes(":")) return null;
  // An IPv4 tail (`::ffff:10.0.0.1`, `0:0::ffff:9.0.0.1`) stands for the last two groups.
  const quad = /^(.*:)(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(text);
  if (quad) {
    const low = ipToBigInt(quad[2]!);
    if (low === null) return null;
    const v = Number(low & 0xffffffffn);
    text = `${quad[1]}${(v >>> 16).toString(16)}:${(v & 0xffff).toString(16)}`;
  }
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

/**
 * Writes a 128-bit address back: dotted IPv4 when it is a mapped IPv4, else compressed IPv6.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bigIntToIp, ipToBigInt } from "./ip_address.ts";
 * assert.equal(bigIntToIp(ipToBigInt("2001:0db8:0:0:0:0:0:7")!), "2001:db8::7");
 * assert.equal(bigIntToIp(ipToBigInt("0:0::ffff:9.0.0.1")!), "9.0.0.1");
 * ```
 */
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

/** An inclusive range of addresses. */
export interface IpSpan {
  /** The lowest address. */
  readonly from: bigint;
  /** The highest address. */
  readonly to: bigint;
}

/**
 * The addresses a `term` value on an `ip` field stands for: one address, or every address of a
 * CIDR block (`10.0.0.0/8`, `2001:db8::/32`). Throws the real engines' message for bad text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bigIntToIp, ipSpan } from "./ip_address.ts";
 * const s = ipSpan("10.1.2.3/16");
 * assert.equal(bigIntToIp(s.from), "10.1.0.0");
 * assert.equal(bigIntToIp(s.to), "10.1.255.255");
 * ```
 */
export function ipSpan(text: string): IpSpan {
  const slash = text.lastIndexOf("/");
  if (slash < 0) {
    const n = ipToBigInt(text);
    if (n === null) throw new Error(`'${text}' is not an IP string literal.`);
    return { from: n, to: n };
  }
  const addr = text.slice(0, slash);
  const bits = text.slice(slash + 1);
  const base = ipToBigInt(addr);
  if (base === null) throw new Error(`'${addr}' is not an IP string literal.`);
  const v4 = !addr.includes(":");
  if (!v4 && base >> 32n === 0xffffn) {
    throw new Error(
      `CIDR notation is not allowed with IPv6-mapped IPv4 address [${addr} as it introduces ambiguity as to whether the prefix length should be interpreted as a v4 prefix length or a v6 prefix length`,
    );
  }
  const prefix = /^\d{1,3}$/.test(bits) ? Number(bits) + (v4 ? 96 : 0) : NaN;
  if (!(prefix <= 128)) {
    throw new Error(`Illegal prefix length [${bits}] in [${text}]. Must be 0-${v4 ? 32 : 128}`);
  }
  const size = 1n << BigInt(128 - prefix);
  const from = base & ~(size - 1n);
  return { from, to: from + size - 1n };
}

/**
 * Whether a `term` value is an address or a CIDR block (a lenient search skips `ip` fields when
 * it is not).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isIpText } from "./ip_address.ts";
 * assert.deepEqual(["10.0.0.1", "::1/64", "brown fox"].map(isIpText), [true, true, false]);
 * ```
 */
export function isIpText(v: unknown): boolean {
  try {
    ipSpan(String(v));
    return true;
  } catch {
    return false;
  }
}
