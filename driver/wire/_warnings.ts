// The messages of `Warning` response headers (deprecations), read where a result set is asked
// for them: most answers carry none, and most reads never ask.

/** The warnings of the (most) answers that have none: one frozen list, not one per result. */
export const NO_WARNINGS: readonly string[] = Object.freeze([]);

/**
 * The messages of the `Warning` headers (`299 Elasticsearch-8.15.0 "message"`), in order; the
 * frozen empty list when there is none.
 */
export function warningsOfHeaders(headers: Headers): readonly string[] {
  const value = headers.get("warning");
  return value ? warningsOf(value) : NO_WARNINGS;
}

/** The messages of a `Warning` header's value (the value itself when none is quoted). */
export function warningsOf(value: string): string[] {
  const messages: string[] = [];
  for (const m of value.matchAll(/\d{3} \S+ "((?:[^"\\]|\\.)*)"/g)) {
    messages.push(m[1]!.replace(/\\(.)/g, "$1"));
  }
  return messages.length > 0 ? messages : [value];
}
