// The one UTF-8 size of a string in the driver (request and response sizes, bulk batches),
// counted without encoding: what `TextEncoder` would write, so a lone surrogate counts 3 (it
// becomes U+FFFD). Internal to the driver.

/** The UTF-8 size of a string: a surrogate pair counts 4, a lone surrogate 3 (as U+FFFD). */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c < 0xdc00) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next < 0xe000) {
        bytes += 2; // 4 bytes for the 2 units of the pair
        i++;
      } else bytes += 2;
    } else bytes += 2;
  }
  return bytes;
}
