import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { serve } from "../serve.ts";
import { readLines } from "./ndjson_lines.ts";
import { MAX_BODY_BYTES } from "./handle.ts";

function chunked(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(c) {
      for (let i = 0; i < bytes.length; i += size) c.enqueue(bytes.slice(i, i + size));
      c.close();
    },
  });
}

Deno.test("readLines splits as text.split does, whatever the chunk boundaries", async () => {
  const texts = [
    "",
    "\n",
    '{"index":{}}\n{"a":"é€😀"}\n',
    '{"index":{}}\r\n{"a":"ü"}\n\n\n{"delete":{"_id":"1"}}',
    "\uFEFF" + '{"index":{}}\n{"a":1}\n',
    "no newline at all",
  ];
  for (const text of texts) {
    const bytes = new TextEncoder().encode(text);
    for (const size of [1, 2, 3, 7, 1024]) {
      assert.deepEqual(
        await readLines(chunked(bytes, size), 1 << 20),
        new TextDecoder().decode(bytes).split("\n"),
        `${JSON.stringify(text)} in chunks of ${size}`,
      );
    }
  }
});

Deno.test("readLines stops reading once the body passes the limit", async () => {
  let pulled = 0;
  const endless = new ReadableStream<Uint8Array>({
    pull(c) {
      pulled++;
      c.enqueue(new Uint8Array(1000).fill(10));
    },
  });
  assert.equal(await readLines(endless, 10_500), null);
  assert.ok(pulled <= 12, `read ${pulled} chunks`);
});

async function gzip(text: string): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The answer without what differs from one engine to the next (`took`, index uuids). */
function comparable(body: unknown): unknown {
  return JSON.parse(
    JSON.stringify(
      body,
      (key, value) => key === "took" || key === "index_uuid" ? undefined : value,
    ),
  );
}

Deno.test("served _bulk: a body read line by line answers as one read whole (gzip)", async () => {
  const bodies = [
    '{"index":{"_index":"s","_id":"1"}}\n{"a":"é"}\n{"create":{"_index":"s","_id":"1"}}\n{"a":2}\n' +
    '\n{"index":{"_index":"s"}}\r\n{"a":\n{"delete":{"_index":"s","_id":"9"}}\n' +
    '{"update":{"_index":"s","_id":"1"}}\n{"doc":{"b":1}}\n',
    '{"index":{"_index":"s","_id":"1"}}\n{"a":1}', // no final newline
    '{"index":{"_index":"s","_id":"1","bogus":1}}\n{"a":1}\n', // malformed action line
    '{"index":{"_index":"s","_id":"1"}}\n', // missing source
    "\n\n",
  ];
  for (const body of bodies) {
    const answers = [];
    for (const encoding of ["identity", "gzip"]) {
      const engine = new Engine();
      const server = await serve(engine);
      try {
        const res = await fetch(`${server.url}/_bulk`, {
          method: "POST",
          headers: { "content-type": "application/x-ndjson", "content-encoding": encoding },
          body: encoding === "gzip" ? await gzip(body) : body,
        });
        const json = await res.json();
        answers.push({ status: res.status, body: comparable(json) });
      } finally {
        await server.close();
        engine.close();
      }
    }
    assert.deepEqual(answers[0], answers[1], JSON.stringify(body));
  }
});

Deno.test("served _bulk: a 60 MB body is taken whole, item by item in order", async () => {
  const engine = new Engine();
  const server = await serve(engine);
  try {
    await fetch(`${server.url}/big`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ mappings: { dynamic: false, properties: { n: { type: "long" } } } }),
    }).then((r) => r.body?.cancel());
    const pad = "é".repeat(5000); // 10 KB of UTF-8 per document
    const parts: string[] = [];
    let size = 0;
    let docs = 0;
    while (size < 60 * 1024 * 1024) {
      const line = docs === 7
        ? `{"create":{"_index":"big","_id":"3"}}\n{"n":7}\n` // a conflict: fails only its item
        : docs === 11
        ? `{"index":{"_index":"big","_id":"11"}}\n{"n":"eleven"}\n` // a bad long
        : `{"index":{"_index":"big","_id":"${docs}"}}\n{"n":${docs},"t":"${pad}"}\n`;
      parts.push(line);
      size += line.length + (line.includes(pad) ? pad.length : 0);
      docs++;
    }
    const body = new TextEncoder().encode(parts.join(""));
    assert.ok(body.length > 60 * 1024 * 1024 && body.length < MAX_BODY_BYTES);
    const res = await fetch(`${server.url}/_bulk?refresh=true`, {
      method: "POST",
      headers: { "content-type": "application/x-ndjson" },
      body,
    });
    assert.equal(res.status, 200);
    const answer = await res.json();
    assert.equal(answer.errors, true);
    assert.equal(answer.items.length, docs);
    assert.deepEqual(
      answer.items.map((item: Record<string, { _id: string }>) => Object.values(item)[0]!._id),
      Array.from({ length: docs }, (_, i) => i === 7 ? "3" : String(i)),
    );
    assert.equal(answer.items[7].create.status, 409);
    assert.equal(answer.items[7].create.error.type, "version_conflict_engine_exception");
    assert.equal(answer.items[11].index.status, 400);
    assert.equal(answer.items[12].index.status, 201);
    const count = await fetch(`${server.url}/big/_count`).then((r) => r.json());
    assert.equal(count.count, docs - 2);
  } finally {
    await server.close();
    engine.close();
  }
});

Deno.test("served _bulk: a body past http.max_content_length is a 413, declared or chunked", async () => {
  const engine = new Engine();
  const server = await serve(engine);
  try {
    const line = new TextEncoder().encode(`{"index":{"_index":"big"}}\n{"n":1}\n`);
    const mb = new Uint8Array(1024 * 1024);
    for (let i = 0; i + line.length <= mb.length; i += line.length) mb.set(line, i);
    mb.fill(10, mb.length - (mb.length % line.length));
    const count = MAX_BODY_BYTES / mb.length + 1;
    const declared = new Uint8Array(count * mb.length);
    for (let i = 0; i < count; i++) declared.set(mb, i * mb.length);
    const stream = () => {
      let sent = 0;
      return new ReadableStream<Uint8Array>({
        pull(c) {
          if (sent++ < count) c.enqueue(mb.slice());
          else c.close();
        },
      });
    };
    for (const body of [declared, stream()]) {
      const res = await fetch(`${server.url}/_bulk`, {
        method: "POST",
        headers: { "content-type": "application/x-ndjson" },
        body,
      });
      assert.equal(res.status, 413);
      const answer = await res.json();
      assert.equal(answer.status, 413);
      assert.equal(answer.error.type, "content_too_long");
      assert.equal(answer.error.root_cause[0].type, "content_too_long");
    }
    const indices = await fetch(`${server.url}/_cat/indices?format=json`).then((r) => r.json());
    assert.deepEqual(indices, [], "nothing of a refused body is indexed");
  } finally {
    await server.close();
    engine.close();
  }
});
