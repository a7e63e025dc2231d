// Name patterns, as Elasticsearch matches index, alias, field, setting and `_source` path names
// (its "simple match"): `*` stands for any run of characters, every other character (`?` too)
// for itself. The one matcher of names; the `wildcard` query's Lucene syntax (`*`, `?`, `\`) is a
// different language and lives in automaton.ts.

const compiled = new Map<string, (name: string) => boolean>();

/** True when `text` holds a `*`, so that it names a set rather than one name. */
export function isPattern(text: string): boolean {
  return text.includes("*");
}

/**
 * A matcher for one pattern, compiled once (the most recent 512 patterns are kept).
 *
 * @param pattern The pattern, e.g. `logs-*` or `user.*.name`.
 * @returns A test of a whole name against the pattern.
 */
export function nameMatcher(pattern: string): (name: string) => boolean {
  let match = compiled.get(pattern);
  if (match === undefined) {
    match = compile(pattern);
    if (compiled.size >= 512) compiled.delete(compiled.keys().next().value!);
    compiled.set(pattern, match);
  }
  return match;
}

/**
 * Splits a comma-separated list of names or patterns (`a, b*,c`), trimming each and dropping
 * empty ones.
 *
 * @param value The list as written; null or undefined for none.
 * @returns The names, in order.
 */
export function nameList(value: string | null | undefined): string[] {
  return value === null || value === undefined || value === ""
    ? []
    : value.split(",").map((s) => s.trim()).filter((s) => s !== "");
}

/**
 * Matches a whole name against a pattern.
 *
 * @param pattern The pattern.
 * @param name The name.
 * @returns Whether the name matches.
 */
export function matchPattern(pattern: string, name: string): boolean {
  return nameMatcher(pattern)(name);
}

function compile(pattern: string): (name: string) => boolean {
  if (!pattern.includes("*")) return (name) => name === pattern;
  if (pattern === "*") return () => true;
  const parts = pattern.split("*");
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  const middle = parts.slice(1, -1).filter((p) => p !== "");
  const least = first.length + last.length + middle.reduce((n, p) => n + p.length, 0);
  return (name) => {
    if (name.length < least || !name.startsWith(first) || !name.endsWith(last)) return false;
    // Each middle part at its first place after the previous one: the leftmost choice never
    // loses a match, so this is linear in the name's length and never backtracks.
    let at = first.length;
    const end = name.length - last.length;
    for (const part of middle) {
      const found = name.indexOf(part, at);
      if (found < 0 || found + part.length > end) return false;
      at = found + part.length;
    }
    return true;
  };
}
