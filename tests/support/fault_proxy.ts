// A real loopback HTTP/1.1 proxy (raw TCP on 127.0.0.1) in front of an upstream such as the
// engine's server, which injects one fault into chosen requests: drop the connection after the
// upstream applied the request, answer 502/504 after applying it, answer 429 before applying it,
// stall, answer an HTML 200, or cut a 200 short. One request per connection. Tests only.

/** The faults the proxy can inject. */
export type Fault =
  | "drop-after-apply"
  | "502-after-apply"
  | "504-after-apply"
  | "429-before-apply"
  | "stall-after-apply"
  | "stall-before-apply"
  | "html-200"
  | "truncated-close"
  | "truncated-json";

interface Plan {
  fault: Fault;
  match: (method: string, path: string) => boolean;
  times: number;
}

const encoder = new TextEncoder();

/** The proxy: `url` to give the driver, `plan()` to arm a fault, `close()` at the end. */
export class FaultProxy {
  readonly #listener: Deno.Listener;
  readonly #upstream: string;
  readonly #conns = new Set<Deno.Conn>();
  readonly #plans: Plan[] = [];
  readonly #done: Promise<void>;
  /** Every request seen, as `METHOD path`, with the fault applied to it (if any). */
  readonly seen: { request: string; fault?: Fault }[] = [];

  constructor(upstream: string) {
    this.#upstream = upstream;
    this.#listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    this.#done = this.#accept();
  }

  /** The proxy's base URL. */
  get url(): string {
    return `http://127.0.0.1:${(this.#listener.addr as Deno.NetAddr).port}`;
  }

  /** Injects `fault` into the next `times` requests that match (default: every request). */
  plan(
    fault: Fault,
    match: (method: string, path: string) => boolean = () => true,
    times = 1,
  ): this {
    this.#plans.push({ fault, match, times });
    return this;
  }

  /** How many requests reached the proxy. */
  get count(): number {
    return this.seen.length;
  }

  async close(): Promise<void> {
    this.#listener.close();
    for (const conn of this.#conns) this.#closeConn(conn);
    await this.#done;
  }

  async #accept(): Promise<void> {
    for (;;) {
      let conn: Deno.Conn;
      try {
        conn = await this.#listener.accept();
      } catch {
        return;
      }
      this.#conns.add(conn);
      this.#serve(conn).catch(() => {}).finally(() => this.#closeConn(conn));
    }
  }

  #closeConn(conn: Deno.Conn): void {
    if (!this.#conns.delete(conn)) return;
    try {
      conn.close();
    } catch {
      // already closed
    }
  }

  async #serve(conn: Deno.Conn): Promise<void> {
    const request = await readRequest(conn);
    if (request === undefined) return;
    const { method, path, headers, body } = request;
    const plan = this.#plans.find((p) => p.times > 0 && p.match(method, path));
    if (plan) plan.times--;
    const fault = plan?.fault;
    this.seen.push({ request: `${method} ${path}`, fault });
    if (fault === "429-before-apply") {
      return write(
        conn,
        429,
        "application/json",
        JSON.stringify({
          error: { type: "es_rejected_execution_exception", reason: "rejected execution" },
          status: 429,
        }),
        { "retry-after": "0" },
      );
    }
    if (fault === "html-200") {
      return write(conn, 200, "text/html", "<html><body>Please log in</body></html>");
    }
    if (fault === "stall-before-apply") return await stall(conn);
    const res = await fetch(this.#upstream + path, {
      method,
      headers: { "content-type": headers.get("content-type") ?? "application/json" },
      body: body === "" ? undefined : body,
    });
    const text = await res.text();
    const type = res.headers.get("content-type") ?? "application/json";
    switch (fault) {
      case "drop-after-apply":
        return;
      case "502-after-apply":
      case "504-after-apply":
        return write(conn, Number(fault.slice(0, 3)), "text/html", "<html>Bad Gateway</html>");
      case "stall-after-apply":
        return await stall(conn);
      case "truncated-close": {
        const bytes = encoder.encode(text);
        const head = `HTTP/1.1 ${res.status} X\r\ncontent-type: ${type}\r\n` +
          `content-length: ${bytes.length}\r\nconnection: close\r\n\r\n`;
        await writeAll(conn, encoder.encode(head));
        await writeAll(conn, bytes.subarray(0, Math.floor(bytes.length / 2)));
        return;
      }
      case "truncated-json":
        return write(conn, res.status, type, text.slice(0, Math.floor(text.length / 2)));
      default:
        return write(conn, res.status, type, text);
    }
  }
}

async function stall(conn: Deno.Conn): Promise<void> {
  // Hold the connection until the client gives up (its read then ends).
  const buf = new Uint8Array(1024);
  while ((await conn.read(buf).catch(() => null)) !== null) {
    // discard
  }
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let off = 0;
  while (off < bytes.length) off += await conn.write(bytes.subarray(off));
}

async function write(
  conn: Deno.Conn,
  status: number,
  type: string,
  text: string,
  extra: Record<string, string> = {},
): Promise<void> {
  const bytes = encoder.encode(text);
  let head = `HTTP/1.1 ${status} X\r\ncontent-type: ${type}\r\ncontent-length: ${bytes.length}\r\n`;
  for (const [k, v] of Object.entries(extra)) head += `${k}: ${v}\r\n`;
  head += "connection: close\r\n\r\n";
  await writeAll(conn, encoder.encode(head));
  await writeAll(conn, bytes);
}

async function readRequest(
  conn: Deno.Conn,
): Promise<{ method: string; path: string; headers: Headers; body: string } | undefined> {
  const chunks: number[] = [];
  const buf = new Uint8Array(64 * 1024);
  let headerEnd = -1;
  while (headerEnd < 0) {
    const n = await conn.read(buf);
    if (n === null) return undefined;
    for (let k = 0; k < n; k++) chunks.push(buf[k]!);
    headerEnd = indexOfBlankLine(chunks);
  }
  const headText = new TextDecoder().decode(new Uint8Array(chunks.slice(0, headerEnd)));
  const [requestLine, ...lines] = headText.split("\r\n");
  const [method, path] = requestLine!.split(" ");
  const headers = new Headers();
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  const length = Number(headers.get("content-length") ?? 0);
  const bodyBytes = chunks.slice(headerEnd + 4);
  while (bodyBytes.length < length) {
    const n = await conn.read(buf);
    if (n === null) break;
    for (let k = 0; k < n; k++) bodyBytes.push(buf[k]!);
  }
  return {
    method: method!,
    path: path!,
    headers,
    body: new TextDecoder().decode(new Uint8Array(bodyBytes)),
  };
}

function indexOfBlankLine(bytes: number[]): number {
  for (let k = 0; k + 3 < bytes.length; k++) {
    if (bytes[k] === 13 && bytes[k + 1] === 10 && bytes[k + 2] === 13 && bytes[k + 3] === 10) {
      return k;
    }
  }
  return -1;
}
