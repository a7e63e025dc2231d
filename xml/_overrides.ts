// `<trim>`'s overrides: the prefixes and suffixes (`AND |OR `, `,`) stripped from a body. The
// commas left inside a member list are the driver's `dropDanglingCommas`.

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

/** An override to strip, matched case-insensitively when it has letters. */
export interface Override {
  /** The override as written. */
  readonly text: string;
  /** Lower-cased, when the override has letters (else undefined: compared as is). */
  readonly lower: string | undefined;
}

/** Splits a `|`-separated override list (`AND |OR `, `,`). */
export function splitOverrides(list: string | undefined): Override[] {
  if (list === undefined) return [];
  return list.split("|").filter((s) => s.length > 0).map((text) => ({
    text,
    lower: /[a-zA-Z]/.test(text) ? text.toLowerCase() : undefined,
  }));
}

function matchesAt(body: string, at: number, o: Override): boolean {
  if (o.lower === undefined) return body.startsWith(o.text, at);
  return body.slice(at, at + o.lower.length).toLowerCase() === o.lower;
}

/**
 * Strips every leading override (then every trailing one) of the white-space-trimmed body,
 * repeatedly and case-insensitively, so `, ,` after vanished members leaves nothing behind.
 */
export function stripOverrides(
  body: string,
  prefixes: readonly Override[],
  suffixes: readonly Override[],
): string {
  let start = 0;
  let end = body.length;
  while (start < end && isSpace(body.charCodeAt(start))) start++;
  while (end > start && isSpace(body.charCodeAt(end - 1))) end--;
  for (let again = prefixes.length > 0; again;) {
    again = false;
    for (const p of prefixes) {
      if (end - start >= p.text.length && matchesAt(body, start, p)) {
        start += p.text.length;
        while (start < end && isSpace(body.charCodeAt(start))) start++;
        again = true;
      }
    }
  }
  for (let again = suffixes.length > 0; again;) {
    again = false;
    for (const o of suffixes) {
      const at = end - o.text.length;
      if (at >= start && matchesAt(body, at, o)) {
        end = at;
        while (end > start && isSpace(body.charCodeAt(end - 1))) end--;
        again = true;
      }
    }
  }
  return start === 0 && end === body.length ? body : body.slice(start, end);
}
