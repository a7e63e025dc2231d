// A cell holding parsed JSON whose text form (`_DOC`, nested values) is made only when read, so
// mapping hits to objects never pays for a JSON.stringify it does not use. Integers beyond 2^53
// are bigints in the parsed value and keep their digits in the text.

import { encodeJson } from "../command/value_encoder.ts";

/** A parsed JSON value shown as compact JSON text. */
export class JsonCell {
  readonly value: unknown;
  #text: string | undefined;

  constructor(value: unknown) {
    this.value = value;
  }

  /** The compact JSON text of the value (made once). */
  get text(): string {
    return this.#text ??= jsonText(this.value);
  }
}

/** The value a row object or `getObject` shows for a cell. */
export function cellValue(cell: unknown): unknown {
  return cell instanceof JsonCell ? cell.text : cell;
}

/**
 * The `_ID`, `_DOC` row of a hit or fetched document: the id as text ("" when absent) and the
 * source as a JSON cell (null when it is no object).
 */
export function docRow(id: unknown, source: unknown): unknown[] {
  return [
    id === undefined || id === null ? "" : String(id),
    source !== null && typeof source === "object" ? new JsonCell(source) : null,
  ];
}

/** Compact JSON text of a parsed value; a `bigint` is written with its exact digits. */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return encodeJson(value, 0); // only a bigint makes JSON.stringify throw on parsed JSON
  }
}
