// contrib/fetch_node's connection on a scripted wire: the fallback of a refused `localhost` to
// the other loopback address (the rule of ./_http1.ts), shown on every path a runtime takes,
// whatever this host's resolver and runtime do for `localhost` (Bun's own sockets already try
// both loopback addresses, so the suite's localhost tests pass there either way).
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { Conn, type NodePayload, type Wire } from "./_http1_conn_node.ts";
import type { ConnOwner } from "./_http1_pool.ts";
import { Job } from "./_http1_pool.ts";
import type { Origin } from "./_http1_request.ts";

/** A wire the test drives: it connects, refuses or answers when told. */
class ScriptedWire implements Wire {
  destroyed = false;
  writableLength = 0;
  readonly written: string[] = [];
  constructor(readonly conn: Conn, readonly address: string | undefined) {}
  write(data: string | Uint8Array): boolean {
    this.written.push(typeof data === "string" ? data : Buffer.from(data).toString("latin1"));
    return true;
  }
  cork(): void {}
  uncork(): void {}
  pause(): void {}
  resume(): void {}
  ref(): void {}
  unref(): void {}
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    queueMicrotask(() => this.conn.onClose());
  }
  /** The connection failed before it stood. */
  refuse(error: object): void {
    this.destroyed = true;
    this.conn.onError(
      Object.assign(new Error(`connect ${(error as { code: string }).code}`), error),
    );
    this.conn.onClose();
  }
  connect(): void {
    this.conn.ready = this.conn.tcp = true;
  }
  /** The connection stood, then was reset by the server. */
  reset(): void {
    this.destroyed = true;
    this.conn.onError(Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }));
    this.conn.onClose();
  }
  answer(text: string): void {
    this.conn.onData(Buffer.from(text, "latin1"));
  }
}

const REQUEST = "POST /p/_doc HTTP/1.1\r\nhost: h\r\ncontent-length: 2\r\n\r\n{}";

/** A connection to `host` on scripted wires, with one request on it. */
function scripted(host: string) {
  const wires: ScriptedWire[] = [];
  const events: string[] = [];
  const owner: ConnOwner<Conn> = {
    release: () => events.push("release"),
    closed: () => events.push("closed"),
  };
  const origin: Origin = {
    key: `http://${host}:9200`,
    hostHeader: `${host}:9200`,
    secure: false,
    host,
    port: 9200,
  };
  const conn = new Conn(owner, origin, {
    keepAliveMs: 30_000,
    open: (c, _origin, address) => {
      const wire = new ScriptedWire(c, address);
      wires.push(wire);
      return wire;
    },
  });
  const controller = new AbortController();
  const response = new Promise<Response>((resolve, reject) => {
    conn.run(
      new Job<NodePayload, Conn>(
        {
          url: `${origin.key}/p/_doc`,
          method: "POST",
          payload: REQUEST,
          signal: controller.signal,
        },
        resolve,
        reject,
      ),
    );
  });
  return { conn, wires, events, response, controller };
}

Deno.test("Conn: a refused localhost is tried on the other loopback address, the request with it", async () => {
  const { wires, events, response } = scripted("localhost");
  assert.equal(wires.length, 1);
  assert.equal(wires[0]!.address, undefined); // the name, as the runtime resolves it
  wires[0]!.refuse({ code: "ECONNREFUSED", address: "127.0.0.1" });
  // 127.0.0.1 was the address refused: ::1 is next, and nothing was sent on the first.
  assert.deepEqual(wires.map((w) => w.address), [undefined, "::1"]);
  assert.deepEqual(events, []);
  wires[1]!.connect();
  assert.deepEqual(wires[1]!.written, [REQUEST]);
  wires[1]!.answer("HTTP/1.1 201 Created\r\ncontent-length: 2\r\n\r\n{}");
  const res = await response;
  assert.equal(res.status, 201);
  assert.equal(await res.text(), "{}");
  assert.deepEqual(events, ["release"]);
});

Deno.test("Conn: a localhost refused on every loopback address reports the first failure", async () => {
  const { wires, events, response } = scripted("es.localhost");
  wires[0]!.refuse({ code: "ECONNREFUSED" }); // no address said: both loopbacks are tried
  assert.deepEqual(wires.map((w) => w.address), [undefined, "127.0.0.1"]);
  wires[1]!.refuse({ code: "ECONNREFUSED", address: "127.0.0.1" });
  assert.deepEqual(wires.map((w) => w.address), [undefined, "127.0.0.1", "::1"]);
  wires[2]!.refuse({ code: "EADDRNOTAVAIL", address: "::1" });
  assert.equal(wires.length, 3);
  const error = await response.catch((e) => e);
  assert.equal(error.code, "ECONNREFUSED");
  assert.match(error.message, /^tcp connect error: could not connect to es\.localhost:9200/);
  assert.deepEqual(events, ["closed"]);
});

Deno.test("Conn: another name, another failure, a sent request or an abort never fall back", async () => {
  // Not localhost: refused is refused, on no other address.
  const other = scripted("localhost.example.com");
  other.wires[0]!.refuse({ code: "ECONNREFUSED", address: "10.0.0.1" });
  assert.equal(other.wires.length, 1);
  assert.equal((await other.response.catch((e) => e)).code, "ECONNREFUSED");
  // A failed lookup is not a refusal.
  const lookup = scripted("localhost");
  lookup.wires[0]!.refuse({ code: "ENOTFOUND" });
  assert.equal(lookup.wires.length, 1);
  assert.equal((await lookup.response.catch((e) => e)).code, "ENOTFOUND");
  // Connected, the request written, then reset: it may have reached the server, never re-sent.
  const sent = scripted("localhost");
  sent.wires[0]!.connect();
  sent.wires[0]!.reset();
  assert.equal(sent.wires.length, 1);
  const reset = await sent.response.catch((e) => e);
  assert.equal(reset.code, "ECONNRESET");
  assert.doesNotMatch(reset.message, /tcp connect error/);
  // Aborted while connecting: the connection is killed, no other address is tried.
  const aborted = scripted("localhost");
  aborted.conn.kill(new Error("gave up"));
  await assert.rejects(aborted.response, /gave up/);
  // Its close (here, as the killed socket reports it) opens nothing.
  await Promise.resolve();
  assert.equal(aborted.wires.length, 1);
  assert.deepEqual(aborted.events, ["closed"]);
});
