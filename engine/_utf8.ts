// The one UTF-8 size of a string in the engine (index names, ids, scripts, terms, stored sources,
// reply lengths), counted without encoding. It agrees with `TextEncoder` and with the driver's
// count: a surrogate pair is 4 bytes, a lone surrogate 3 (it is written as U+FFFD).

const NON_ASCII = /[\u0080-\uffff]/;

/** The UTF-8 size of `text`: a surrogate pair counts 4, a lone surrogate 3 (as U+FFFD). */
export function utf8Length(text: string): number {
  if (!NON_ASCII.test(text)) return text.length;
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c < 0xdc00) {
      const next = text.charCodeAt(i + 1);
      bytes += 2; // a pair: 4 bytes for its 2 units; a lone high surrogate: 3 bytes (U+FFFD)
      if (next >= 0xdc00 && next < 0xe000) i++;
    } else bytes += 2;
  }
  return bytes;
}
