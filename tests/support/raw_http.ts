// A served engine reached over raw HTTP/1.1 on loopback: the request line goes out byte for byte
// as written (no URL parser resolves `%2e%2e` on the way), the reply is parsed as JSON with its
// status as `code`, like tests/support/engine_call.ts does in process.

import { connect } from "node:net";
import { Engine, type EngineOptions, serve, type ServeOptions } from "../../engine/mod.ts";
import type { Reply } from "./engine_call.ts";

/** An engine behind `serve()` on a free loopback port. */
export class RawServer {
  readonly engine: Engine;
  #server?: Awaited<ReturnType<typeof serve>>;

  constructor(options: EngineOptions = {}) {
    this.engine = new Engine(options);
  }

  /** Starts listening. */
  async start(options: ServeOptions = {}): Promise<this> {
    this.#server = await serve(this.engine, options);
    return this;
  }

  /**
   * Sends one request with `target` exactly as given; a string body goes as NDJSON, anything else
   * as JSON (`Uint8Array` as is). No answer within `hangAfterMs` (60 s) rejects: the engine froze.
   */
  call(method: string, target: string, body?: unknown, hangAfterMs = 60_000): Promise<Reply> {
    const port = this.#server!.port;
    const ndjson = typeof body === "string";
    const bytes = body === undefined
      ? new Uint8Array()
      : body instanceof Uint8Array
      ? body
      : new TextEncoder().encode(ndjson ? body as string : JSON.stringify(body));
    const head = `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
      `Content-Type: ${ndjson ? "application/x-ndjson" : "application/json"}\r\n` +
      `Content-Length: ${bytes.byteLength}\r\nConnection: close\r\n\r\n`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`${method} ${target.slice(0, 80)}: no answer in ${hangAfterMs} ms`));
      }, hangAfterMs);
      const socket = connect(port, "127.0.0.1", () => {
        socket.write(head);
        socket.write(bytes);
      });
      const parts: Uint8Array[] = [];
      socket.on("data", (c: Uint8Array) => parts.push(c));
      socket.on("error", reject);
      socket.on("close", () => {
        clearTimeout(timer);
        const all = new Uint8Array(parts.reduce((n, c) => n + c.byteLength, 0));
        parts.reduce((at, c) => (all.set(c, at), at + c.byteLength), 0);
        const text = new TextDecoder().decode(all);
        const split = text.indexOf("\r\n\r\n");
        const code = Number(text.slice(0, split).split(" ")[1]);
        const payload = text.slice(split + 4);
        try {
          resolve({ ...(payload === "" ? {} : JSON.parse(payload)), code });
        } catch {
          resolve({ code, text: payload });
        }
      });
    });
  }

  /** Stops the server and the engine. */
  async close(): Promise<void> {
    await this.#server?.close();
    this.engine.close();
  }
}
