// A cell holding parsed JSON whose text form (`_DOC`, nested values) is made only when read, so
// mapping hits to objects never pays for a JSON.stringify it does not use.

/** A parsed JSON value shown as compact JSON text. */
export class JsonCell {
  readonly value: unknown;
  #text: string | undefined;

  constructor(value: unknown) {
    this.value = value;
  }

  /** The compact JSON text of the value (made once). */
  get text(): string {
    return this.#text ??= JSON.stringify(this.value);
  }
}

/** The value a row object or `getObject` shows for a cell. */
export function cellValue(cell: unknown): unknown {
  return cell instanceof JsonCell ? cell.text : cell;
}
