// The one JSON-object shape and guard of the engine (request bodies, documents and mappings),
// and the name Jackson gives a value's token, which Elasticsearch's parse errors quote.

/** A parsed JSON object. */
export type JsonObject = Record<string, unknown>;

/** True for a JSON object: not null, not an array. */
export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * The token Jackson reads a JSON value as (`START_OBJECT`, `START_ARRAY`, `VALUE_STRING`,
 * `VALUE_NUMBER`, `VALUE_BOOLEAN`, `VALUE_NULL`), as Elasticsearch's parse errors name it.
 */
export function jsonTokenName(value: unknown): string {
  if (Array.isArray(value)) return "START_ARRAY";
  if (value === null) return "VALUE_NULL";
  if (typeof value === "object") return "START_OBJECT";
  if (typeof value === "number" || typeof value === "bigint") return "VALUE_NUMBER";
  if (typeof value === "boolean") return "VALUE_BOOLEAN";
  return "VALUE_STRING";
}
