// Lucene's lossy one-byte encoding of field lengths (SmallFloat int4), so BM25 scores match.

function longToInt4(i: number): number {
  const numBits = 32 - Math.clz32(i);
  if (numBits < 4) return i;
  const shift = numBits - 4;
  return ((i >>> shift) & 0x07) | ((shift + 1) << 3);
}

function int4ToLong(i: number): number {
  const bits = i & 0x07;
  const shift = (i >>> 3) - 1;
  return shift === -1 ? bits : (bits | 0x08) * 2 ** shift;
}

const NUM_FREE_VALUES = 255 - longToInt4(0x7fffffff);

/** Encodes a field length into one byte. */
export function encodeNorm(length: number): number {
  return length < NUM_FREE_VALUES ? length : NUM_FREE_VALUES + longToInt4(length - NUM_FREE_VALUES);
}

/** Decodes a norm byte back into the (approximate) field length. */
export function decodeNorm(byte: number): number {
  return byte < NUM_FREE_VALUES ? byte : NUM_FREE_VALUES + int4ToLong(byte - NUM_FREE_VALUES);
}

/** Decoded length for every norm byte. */
export const NORM_TABLE: Float64Array = Float64Array.from({ length: 256 }, (_, i) => decodeNorm(i));
