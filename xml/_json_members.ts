// JSON-aware trimming for `<trim>`, `<where>` and `<set>`: skips strings (also Kibana's """…"""),
// comments and `#{…}`/`${…}`/`@{…}` placeholders, so a comma or override inside them is never
// touched.

/** The end (exclusive) of the string, comment or placeholder starting at `i`, or -1. */
function skipOpaque(text: string, i: number): number {
  const c = text.charCodeAt(i);
  const next = text.charCodeAt(i + 1);
  if (c === 0x22) {
    if (text.startsWith('"""', i)) {
      const end = text.indexOf('"""', i + 3);
      return end < 0 ? text.length : end + 3;
    }
    let j = i + 1;
    while (j < text.length) {
      const d = text.charCodeAt(j);
      if (d === 0x22) return j + 1;
      j += d === 0x5c ? 2 : 1;
    }
    return text.length;
  }
  if ((c === 0x23 || c === 0x24 || c === 0x40) && next === 0x7b) return skipBraces(text, i + 2);
  if (c === 0x23 || (c === 0x2f && next === 0x2f)) {
    const end = text.indexOf("\n", i);
    return end < 0 ? text.length : end;
  }
  if (c === 0x2f && next === 0x2a) {
    const end = text.indexOf("*/", i + 2);
    return end < 0 ? text.length : end + 2;
  }
  return -1;
}

// A placeholder's body may hold braces, strings and nested rules: count them.
function skipBraces(text: string, from: number): number {
  let depth = 1;
  let i = from;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = skipOpaque(text, i);
      continue;
    }
    if (c === 0x7b) depth++;
    else if (c === 0x7d && --depth === 0) return i + 1;
    i++;
  }
  return text.length;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

/**
 * Removes the commas left behind by members that did not render: a comma at the start, after
 * `[`, `{` or another comma, at the end, or before `]`/`}`. White space is kept.
 */
export function dropDanglingCommas(text: string): string {
  if (!text.includes(",")) return text;
  const out: string[] = [];
  let last = 0x5b; // '[' stands for "start": a comma here is dangling
  let pending = -1; // index in `out` of the last comma written, removed if it turns out dangling
  let from = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    const end = skipOpaque(text, i);
    if (end >= 0) {
      if (c === 0x22 || text.charCodeAt(i + 1) === 0x7b) last = 0x22;
      i = end;
      continue;
    }
    if (c === 0x2c) {
      out.push(text.slice(from, i));
      from = i + 1;
      if (last !== 0x5b && last !== 0x7b && last !== 0x2c) {
        out.push(",");
        pending = out.length - 1;
        last = 0x2c;
      }
    } else if (c === 0x5d || c === 0x7d) {
      if (last === 0x2c) out[pending] = "";
      last = c;
    } else if (!isSpace(c)) last = c;
    i++;
  }
  out.push(text.slice(from));
  if (last === 0x2c) out[pending] = "";
  return out.join("");
}

/** Splits a `|`-separated override list (`AND |OR `, `,`). */
export function splitOverrides(list: string | undefined): string[] {
  return list === undefined ? [] : list.split("|").filter((s) => s.length > 0);
}

/**
 * Strips every leading override (then every trailing one) of the white-space-trimmed body,
 * repeatedly and case-insensitively, so `, ,` after vanished members leaves nothing behind.
 */
export function stripOverrides(
  body: string,
  prefixes: readonly string[],
  suffixes: readonly string[],
): string {
  let start = 0;
  let end = body.length;
  const skip = () => {
    while (start < end && isSpace(body.charCodeAt(start))) start++;
    while (end > start && isSpace(body.charCodeAt(end - 1))) end--;
  };
  skip();
  for (let again = prefixes.length > 0; again;) {
    again = false;
    for (const p of prefixes) {
      if (
        end - start >= p.length &&
        body.slice(start, start + p.length).toLowerCase() === p.toLowerCase()
      ) {
        start += p.length;
        skip();
        again = true;
      }
    }
  }
  for (let again = suffixes.length > 0; again;) {
    again = false;
    for (const s of suffixes) {
      if (
        end - start >= s.length && body.slice(end - s.length, end).toLowerCase() === s.toLowerCase()
      ) {
        end -= s.length;
        skip();
        again = true;
      }
    }
  }
  return body.slice(start, end);
}
