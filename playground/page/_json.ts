// The page's two small helpers: the JSON object test and the escaping of text for HTML and SVG.

/** A parsed JSON object. */
export type Json = Record<string, unknown>;

/** True for a JSON object (not an array, not null). */
export function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Escapes text for HTML or SVG content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
