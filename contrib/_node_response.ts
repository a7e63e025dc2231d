// The response contrib/fetch_node hands back: shaped like a web `Response` (status, headers,
// body stream, text/json/bytes/arrayBuffer/blob/formData, clone) without its construction cost,
// which on Node is a large share of a small request. Its headers are a `Headers` over the parsed
// fields, its body a `ReadableStream` made only when asked for; `text()` reads the bytes direct.

import type { BodySink } from "./_body_sink.ts";
import type { ResponseHead } from "./_http1.ts";

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const UTF8 = new TextDecoder();
const EMPTY = new Uint8Array(0);

/** A plain `Uint8Array` over the same bytes (a `node:buffer` Buffer is a subclass). */
function plain(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return (bytes.constructor === Uint8Array
    ? bytes
    : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)) as Uint8Array<ArrayBuffer>;
}

/** Names asked for so far and whether they are tokens (a program asks for a few, often). */
const NAMES = new Map<string, boolean>();

/** Only a token can name a field (and be searched for in the head's lines). */
function isName(key: string): boolean {
  let valid = NAMES.get(key);
  if (valid === undefined) {
    valid = TOKEN.test(key);
    if (NAMES.size >= 256) NAMES.clear();
    NAMES.set(key, valid);
  }
  return valid;
}

function checked(name: string, value?: string): string {
  const key = String(name).toLowerCase();
  if (!TOKEN.test(key)) throw new TypeError(`invalid header name ${JSON.stringify(name)}`);
  if (value !== undefined && /[\0\r\n]/.test(value)) {
    throw new TypeError(`invalid value for header ${key}`);
  }
  return key;
}

/**
 * `Headers` over a response's fields: lowercased names, repeated fields joined with ", ". Reads
 * (`get`, `has`) search the head's field lines; the map of names is built only when the headers
 * are changed or listed.
 */
export class FieldHeaders implements Headers {
  readonly #head: Pick<ResponseHead, "get" | "fields">;
  #map: Map<string, string> | undefined;
  #cookies: string[] | undefined;

  constructor(head: Pick<ResponseHead, "get" | "fields">) {
    this.#head = head;
  }

  #built(): Map<string, string> {
    if (this.#map === undefined) {
      this.#map = new Map();
      for (const [name, value] of this.#head.fields) this.#add(name, value);
    }
    return this.#map;
  }

  #add(key: string, value: string): void {
    const map = this.#map!;
    if (key === "set-cookie") (this.#cookies ??= []).push(value);
    const had = map.get(key);
    map.set(key, had === undefined ? value : `${had}, ${value}`);
  }

  get(name: string): string | null {
    const map = this.#map;
    if (map !== undefined) {
      return map.get(name) ?? map.get(String(name).toLowerCase()) ?? null;
    }
    const key = String(name).toLowerCase();
    return isName(key) ? this.#head.get(key) : null;
  }
  has(name: string): boolean {
    return this.get(name) !== null;
  }
  append(name: string, value: string): void {
    const v = String(value).trim();
    const key = checked(name, v);
    this.#built();
    this.#add(key, v);
  }
  set(name: string, value: string): void {
    const v = String(value).trim();
    const key = checked(name, v);
    this.#built().delete(key);
    if (key === "set-cookie") this.#cookies = undefined;
    this.#add(key, v);
  }
  delete(name: string): void {
    const key = checked(name);
    this.#built().delete(key);
    if (key === "set-cookie") this.#cookies = undefined;
  }
  getSetCookie(): string[] {
    this.#built();
    return [...this.#cookies ?? []];
  }
  forEach(
    callback: (value: string, key: string, parent: this) => void,
    thisArg?: unknown,
  ): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
  }
  *entries(): IterableIterator<[string, string]> {
    const map = this.#built();
    for (const key of [...map.keys()].sort()) {
      if (key === "set-cookie") {
        for (const cookie of this.#cookies ?? []) yield [key, cookie];
      } else yield [key, map.get(key)!];
    }
  }
  *keys(): IterableIterator<string> {
    for (const [key] of this.entries()) yield key;
  }
  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

/** A `Response` read from a socket by contrib/fetch_node. */
export class NodeResponse implements Response {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  readonly url: string;
  readonly redirected = false;
  readonly type: ResponseType = "basic";
  readonly #sink: BodySink | undefined;
  #stream: ReadableStream<Uint8Array<ArrayBuffer>> | undefined;
  #web: Response | undefined;
  #used = false;

  /**
   * @param head The status line read (status and reason phrase).
   * @param headers The response's header fields.
   * @param url The request's URL.
   * @param sink Where the body arrives; undefined when the response has none.
   */
  constructor(
    head: Pick<ResponseHead, "status" | "statusText">,
    headers: Headers,
    url: string,
    sink: BodySink | undefined,
  ) {
    this.status = head.status;
    this.statusText = head.statusText;
    this.headers = headers;
    this.url = url;
    this.#sink = sink;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    if (this.#web !== undefined) return this.#web.body;
    const sink = this.#sink;
    if (sink === undefined) return null;
    return this.#stream ??= new ReadableStream<Uint8Array<ArrayBuffer>>({
      pull: async (controller) => {
        this.#used = true;
        const chunk = await sink.next();
        if (chunk === undefined) controller.close();
        else controller.enqueue(plain(chunk));
      },
      cancel: (reason) => sink.cancel(reason),
    }, { highWaterMark: 0 });
  }

  get bodyUsed(): boolean {
    if (this.#web !== undefined) return this.#web.bodyUsed;
    return this.#used || (this.#stream?.locked ?? false);
  }

  /** The body's bytes, read once (a stream already handed out is read through). */
  async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    const whole = this.#whole();
    if (whole !== undefined) return plain(whole);
    return plain(await this.#read());
  }

  async #read(): Promise<Uint8Array> {
    if (this.#web !== undefined) return new Uint8Array(await this.#web.arrayBuffer());
    if (this.bodyUsed) throw new TypeError("the response body is already used");
    this.#used = true;
    if (this.#sink === undefined) return new Uint8Array(0);
    if (this.#stream !== undefined) {
      return new Uint8Array(await new Response(this.#stream).arrayBuffer());
    }
    return await this.#sink.all();
  }

  /**
   * The whole body when it has already arrived and nothing else read it (the common case of a
   * small answer): taken at once, without a promise per step. Else undefined.
   */
  #whole(): Uint8Array | undefined {
    if (this.#web !== undefined || this.#used || this.#stream !== undefined) return undefined;
    const sink = this.#sink;
    const whole = sink === undefined ? EMPTY : sink.takeWhole();
    if (whole !== undefined) this.#used = true;
    return whole;
  }

  text(): Promise<string> {
    const whole = this.#whole();
    if (whole !== undefined) return Promise.resolve(UTF8.decode(whole));
    return this.#read().then((bytes) => UTF8.decode(bytes));
  }

  json(): Promise<unknown> {
    const whole = this.#whole();
    if (whole === undefined) return this.#read().then((bytes) => JSON.parse(UTF8.decode(bytes)));
    try {
      return Promise.resolve(JSON.parse(UTF8.decode(whole)));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes();
    return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
      ? bytes.buffer
      : bytes.slice().buffer;
  }

  /** Hands the body over to a web `Response`, for what only it offers (blob, form data, clone). */
  #toWeb(): Response {
    if (this.#web === undefined) {
      if (this.bodyUsed) throw new TypeError("the response body is already used");
      this.#web = new Response(this.body, {
        status: this.status,
        statusText: this.statusText,
        headers: this.headers,
      });
    }
    return this.#web;
  }

  blob(): Promise<Blob> {
    return this.#toWeb().blob();
  }

  formData(): Promise<FormData> {
    return this.#toWeb().formData();
  }

  /** The body decoded as UTF-8, as a stream of strings (Deno's extension of `Response`). */
  textStream(): ReadableStream<string> {
    const body = this.body ??
      new ReadableStream<Uint8Array<ArrayBuffer>>({ start: (c) => c.close() });
    return body.pipeThrough(new TextDecoderStream());
  }

  clone(): Response {
    return this.#toWeb().clone();
  }
}
