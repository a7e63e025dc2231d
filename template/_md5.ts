// MD5 (RFC 1321) of the UTF-8 bytes of a string, as 32 lower-case hex digits. WebCrypto has no
// MD5; `@{md5, :v}` needs it synchronously.

// Per-round shift amounts: each round repeats its four shifts four times.
const S: readonly number[] = [[7, 12, 17, 22], [5, 9, 14, 20], [4, 11, 16, 23], [6, 10, 15, 21]]
  .flatMap((shifts) => [...shifts, ...shifts, ...shifts, ...shifts]);
const K = Array.from(
  { length: 64 },
  (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) >>> 0,
);

/** The MD5 digest of `text` (UTF-8) as hex. */
export function md5Hex(text: string): string {
  const bytes = new TextEncoder().encode(text);
  const words = ((bytes.length + 8) >>> 6) + 1;
  const m = new Uint32Array(words * 16);
  for (let i = 0; i < bytes.length; i++) m[i >> 2]! |= bytes[i]! << ((i % 4) * 8);
  m[bytes.length >> 2]! |= 0x80 << ((bytes.length % 4) * 8);
  const bits = bytes.length * 8;
  m[words * 16 - 2] = bits >>> 0;
  m[words * 16 - 1] = Math.floor(bits / 2 ** 32);
  let a0 = 0x67452301, b0 = 0xefcdab89, c0 = 0x98badcfe, d0 = 0x10325476;
  for (let block = 0; block < m.length; block += 16) {
    let a = a0, b = b0, c = c0, d = d0;
    for (let i = 0; i < 64; i++) {
      let f: number;
      let g: number;
      if (i < 16) [f, g] = [(b & c) | (~b & d), i];
      else if (i < 32) [f, g] = [(d & b) | (~d & c), (5 * i + 1) % 16];
      else if (i < 48) [f, g] = [b ^ c ^ d, (3 * i + 5) % 16];
      else [f, g] = [c ^ (b | ~d), (7 * i) % 16];
      const sum = (a + f + K[i]! + m[block + g]!) >>> 0;
      a = d;
      d = c;
      c = b;
      b = (b + ((sum << S[i]!) | (sum >>> (32 - S[i]!)))) >>> 0;
    }
    a0 = (a0 + a) >>> 0;
    b0 = (b0 + b) >>> 0;
    c0 = (c0 + c) >>> 0;
    d0 = (d0 + d) >>> 0;
  }
  let hex = "";
  for (const word of [a0, b0, c0, d0]) {
    for (let i = 0; i < 4; i++) hex += ((word >>> (i * 8)) & 0xff).toString(16).padStart(2, "0");
  }
  return hex;
}
