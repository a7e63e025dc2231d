// Document ids the bulk writer generates for items that bring none, so that an item whose
// request's outcome is unknown can be sent again without making a second document. Shaped like
// the engines' own: 20 characters of base64url (15 bytes: 6 of the time in milliseconds, so ids
// of one load sort together in the index's terms, and 9 random). Web standards only.

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const POOL = 9 * 256;

/** Makes ids; random bytes are drawn in blocks, not per id. */
export class DocumentIds {
  #random = new Uint8Array(POOL);
  #used = POOL;
  readonly #bytes = new Uint8Array(15);

  /** A new 20-character URL-safe id. */
  next(): string {
    const b = this.#bytes;
    let t = Date.now();
    for (let i = 5; i >= 0; i--) {
      b[i] = t % 256;
      t = Math.floor(t / 256);
    }
    if (this.#used === POOL) {
      crypto.getRandomValues(this.#random);
      this.#used = 0;
    }
    b.set(this.#random.subarray(this.#used, this.#used + 9), 6);
    this.#used += 9;
    let out = "";
    for (let i = 0; i < 15; i += 3) {
      const n = (b[i]! << 16) | (b[i + 1]! << 8) | b[i + 2]!;
      out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! +
        ALPHABET[n & 63]!;
    }
    return out;
  }
}
