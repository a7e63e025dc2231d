import assert from "node:assert/strict";
import { BulkFileError, bulkLoad, type BulkLoadOptions, lines } from "./bulk_load.ts";

const enc = new TextEncoder();

function sender(bodies: string[]): BulkLoadOptions["send"] {
  return (path, body) => {
    bodies.push(`${path}\n${body}`);
    let ok = 0;
    for (const line of body.trim().split("\n")) {
      if (/^\{"(index|create|update|delete)"/.test(line)) ok++;
    }
    return Promise.resolve({ ok, failures: [] });
  };
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

Deno.test("lines: UTF-8 split across chunks, CRLF, no final newline; bytes read grow to the size", async () => {
  const bytes = enc.encode("é1\r\nñ2\nlast");
  const chunks = [bytes.slice(0, 1), bytes.slice(1, 6), bytes.slice(6)];
  const out = await collect(lines((async function* () {
    yield* chunks;
  })()));
  assert.deepEqual(out.map((l) => l.text), ["é1", "ñ2", "last"]);
  assert.equal(out.at(-1)!.read, bytes.byteLength);
});

Deno.test("bulkLoad: a _bulk file keeps its actions, deletes have no source, batches are bounded", async () => {
  const file = [
    '{"index": {"_index": "a", "_id": "1"}}',
    '{"n": 1}',
    '{"delete": {"_index": "a", "_id": "2"}}',
    '{"create": {"_id": "3"}}',
    '{"n": 3}',
    "",
  ].join("\n");
  const bodies: string[] = [];
  const seen: number[] = [];
  const result = await bulkLoad([enc.encode(file)], {
    index: "dflt",
    batchDocs: 2,
    send: sender(bodies),
    onProgress: (p) => seen.push(p.docs),
  });
  assert.equal(result.docs, 3);
  assert.deepEqual(seen, [2, 3]);
  assert.equal(bodies.length, 2);
  assert.equal(
    bodies[1],
    '/_bulk\n{"create":{"_id":"3","_index":"dflt"}}\n{"n": 3}\n',
  );
  assert.match(bodies[0]!, /\{"delete": \{"_index": "a", "_id": "2"\}\}\n$/);
});

Deno.test("bulkLoad: bad files fail with the line number and what to do", async () => {
  const send = sender([]);
  const cases: [string, RegExp, string?][] = [
    ['{"n": 1}\n', /line 1: a file of plain documents needs an index/],
    ['{"n": 1}\n{oops\n', /line 2: not JSON/, "i"],
    ['{"index": {}}\n{"n": 1}\n{"n": 2}\n', /line 3: expected an action line/, "i"],
    ['{"index": {"_index": "i"}}\n', /line 1: the file ends after an action line/],
    ["[1]\n", /line 1: each line must be a JSON object/, "i"],
  ];
  for (const [text, message, index] of cases) {
    await assert.rejects(bulkLoad([enc.encode(text)], { index, send }), (e: unknown) => {
      assert.ok(e instanceof BulkFileError);
      assert.match(e.message, message);
      return true;
    });
  }
});

Deno.test("bulkLoad: refused items are counted and the first five reasons kept", async () => {
  const docs = Array.from({ length: 8 }, (_, i) => JSON.stringify({ i })).join("\n");
  const result = await bulkLoad([enc.encode(docs)], {
    index: "i",
    send: (_path, body) => {
      const n = body.trim().split("\n").length / 2;
      return Promise.resolve({
        ok: 1,
        failures: Array.from({ length: n - 1 }, (_, k) => `bad ${k}`),
      });
    },
  });
  assert.equal(result.docs, 1);
  assert.equal(result.failed, 7);
  assert.deepEqual(result.firstFailures, ["bad 0", "bad 1", "bad 2", "bad 3", "bad 4"]);
});

Deno.test("bulkLoad: reads the file as it goes (never ahead of what was sent by more than a batch)", async () => {
  let produced = 0;
  const sentAt: number[] = [];
  async function* file() {
    for (let i = 0; i < 50; i++) {
      produced++;
      yield enc.encode(JSON.stringify({ i }) + "\n");
    }
  }
  await bulkLoad(file(), {
    index: "i",
    batchDocs: 10,
    send: () => {
      sentAt.push(produced);
      return Promise.resolve({ ok: 10, failures: [] });
    },
  });
  assert.deepEqual(sentAt, [10, 20, 30, 40, 50]);
});
