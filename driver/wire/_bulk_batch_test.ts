import assert from "node:assert/strict";
import { DataSource } from "../jdbc/data_source.ts";
import { FakeEs } from "../../tests/support/fake_es.ts";
import { BulkError, ResponseError } from "../errors.ts";

const REJECTED = {
  status: 429,
  error: {
    type: "es_rejected_execution_exception",
    reason: "rejected execution of coordinating operation",
  },
};

function rejectingFake(timesRejected: number): FakeEs {
  let left = timesRejected;
  return new FakeEs().on((req) => {
    if (!req.path.startsWith("/_bulk")) return undefined;
    const actions = (req.body ?? "").split("\n").filter((l) => l.startsWith('{"index"'));
    const items = actions.map((line) => {
      const id = JSON.parse(line).index._id as string;
      if (id === "2" && left > 0) return { index: { _index: "i", _id: id, ...REJECTED } };
      return { index: { _index: "i", _id: id, result: "created", status: 201 } };
    });
    if (items.some((i) => i.index.status === 429)) left--;
    return Response.json({ took: 1, errors: items.some((i) => i.index.status === 429), items });
  });
}

async function batchOf(fake: FakeEs, ids: string[], maxRetries = 3): Promise<number[]> {
  const ds = new DataSource({
    nodes: ["http://h:9200"],
    fetch: fake.fetch,
    maxRetries,
    retryBaseDelayMs: 1,
  });
  const stmt = (await ds.getConnection()).createStatement();
  for (const id of ids) stmt.addBatch("PUT /i/_doc/{?} {}", [id]);
  return await stmt.executeBatch();
}

Deno.test("items rejected with 429 are sent again, alone", async () => {
  const fake = rejectingFake(2);
  assert.deepEqual(await batchOf(fake, ["1", "2", "3"]), [1, 1, 1]);
  assert.equal(fake.requests.length, 3);
  assert.equal((fake.requests[1]!.body ?? "").split("\n").filter((l) => l !== "").length, 2);
  assert.match(fake.requests[1]!.body ?? "", /"_id":"2"/);
});

Deno.test("429 after maxRetries is a BulkError listing every item", async () => {
  const fake = rejectingFake(10);
  const error = await batchOf(fake, ["1", "2", "3"], 1).catch((e) => e);
  assert.ok(error instanceof BulkError);
  assert.equal(fake.requests.length, 2);
  assert.deepEqual(error.items.map((i) => i.status), [201, 429, 201]);
  assert.equal(error.failed[0]!.error?.type, "es_rejected_execution_exception");
});

Deno.test("a bulk response without one item per command is a ResponseError", async () => {
  const fake = new FakeEs().on((req) =>
    req.path.startsWith("/_bulk") ? Response.json({ took: 1, errors: false, items: [] }) : undefined
  );
  await assert.rejects(batchOf(fake, ["1"]), ResponseError);
});
