// The one JSON-object shape and guard of the driver (response reading, hit metadata).

/** A parsed JSON object. */
export type JsonObject = Record<string, unknown>;

/** True for a JSON object: not null, not an array. */
export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
