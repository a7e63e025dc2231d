import assert from "node:assert/strict";
import { ResponseError } from "../driver/mod.ts";
import { demoTarget, lacking, optionalStep, urlArgument } from "./_demo_target.ts";

const refusal = (status: number, type: string, reason: string) =>
  new ResponseError(status, { error: { type, reason }, status });

Deno.test("urlArgument reads --url URL and --url=URL, and refuses anything else", () => {
  assert.equal(urlArgument([]), undefined);
  assert.equal(urlArgument(["--url", "http://h:9200"]), "http://h:9200");
  assert.equal(urlArgument(["--", "--url=http://h:9201"]), "http://h:9201");
  assert.throws(() => urlArgument(["--url"]), /--url needs a value/);
  assert.throws(() => urlArgument(["--uri", "x"]), /unknown argument "--uri"/);
});

Deno.test("lacking names a missing module or type, and nothing for other failures", () => {
  const noHandler = refusal(
    400,
    "",
    "no handler found for uri [/a/_delete_by_query] and method [POST]",
  );
  assert.match(lacking(noHandler) ?? "", /_delete_by_query/);
  const noType = refusal(
    400,
    "mapper_parsing_exception",
    "No handler for type [dense_vector] declared on field [e]",
  );
  assert.match(lacking(new Error("wrapped", { cause: noType })) ?? "", /dense_vector/);
  // A search says what it lacks in its root cause, under "all shards failed".
  const noPainless = new ResponseError(400, {
    error: {
      type: "search_phase_execution_exception",
      reason: "all shards failed",
      root_cause: [{
        type: "query_shard_exception",
        reason: "failed to create query: script_lang not supported [painless]",
      }],
    },
    status: 400,
  });
  assert.match(lacking(noPainless) ?? "", /script_lang not supported \[painless\]/);
  assert.equal(lacking(refusal(404, "index_not_found_exception", "no such index [a]")), undefined);
  assert.equal(lacking(new Error("no handler found for uri [/x]")), undefined);
});

Deno.test("optionalStep skips a lacking step only on a real cluster", async () => {
  const missing = () => Promise.reject(refusal(400, "", "no handler found for uri [/_x]"));
  const real = await demoTarget(["--url", "http://127.0.0.1:1"], () => {
    throw new Error("not started");
  });
  const printed: string[] = [];
  const log = console.log;
  console.log = (line: string) => printed.push(line);
  try {
    await optionalStep(real, missing);
  } finally {
    console.log = log;
  }
  assert.deepEqual(printed, [
    "  skipped: the cluster lacks what this step needs — no handler found for uri [/_x]",
  ]);
  await assert.rejects(
    optionalStep(real, () => Promise.reject(refusal(404, "index_not_found_exception", "x"))),
    ResponseError,
  );
  const embedded = await demoTarget(
    [],
    () => Promise.resolve({ url: "http://127.0.0.1:2", close: () => Promise.resolve() }),
  );
  await assert.rejects(optionalStep(embedded, missing), /no handler found/);
});
