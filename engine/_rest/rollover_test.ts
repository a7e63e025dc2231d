// Rolling an alias over, against answers recorded from Elasticsearch 9.5.4 and OpenSearch 3.8.0.

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { jsonReply as json } from "../../tests/support/engine_call.ts";

Deno.test("rollover: conditions, dry run, the write index moving to the next name", async () => {
  const es = new Engine();
  await json(es, "PUT", "/logs-000001", { aliases: { logs: { is_write_index: true } } });
  await json(es, "PUT", "/logs-000001/_doc/1?refresh=true", { a: 1 });
  const dry = (await json(es, "POST", "/logs/_rollover?dry_run=true", {
    conditions: { max_docs: 1, max_age: "7d", max_primary_shard_size: "50gb" },
  })).body;
  assert.deepEqual(dry, {
    acknowledged: false,
    shards_acknowledged: false,
    old_index: "logs-000001",
    new_index: "logs-000002",
    rolled_over: false,
    dry_run: true,
    lazy: false,
    conditions: {
      "[max_docs: 1]": true,
      "[max_age: 7d]": false,
      "[max_primary_shard_size: 50gb]": false,
    },
  });
  const unmet = (await json(es, "POST", "/logs/_rollover", { conditions: { max_docs: 5 } })).body;
  assert.equal(unmet.rolled_over, false);
  assert.deepEqual(unmet.conditions, { "[max_docs: 5]": false });
  assert.equal((await json(es, "HEAD", "/logs-000002")).status, 404);
  const rolled = (await json(es, "POST", "/logs/_rollover")).body;
  assert.equal(rolled.rolled_over, true);
  assert.equal(rolled.new_index, "logs-000002");
  assert.deepEqual((await json(es, "GET", "/_alias/logs")).body, {
    "logs-000001": { aliases: { logs: { is_write_index: false } } },
    "logs-000002": { aliases: { logs: { is_write_index: true } } },
  });
  await json(es, "PUT", "/solo-1", { aliases: { solo: {} } });
  const solo = (await json(es, "POST", "/solo/_rollover")).body;
  assert.equal(solo.new_index, "solo-000002");
  assert.deepEqual(Object.keys((await json(es, "GET", "/_alias/solo")).body), ["solo-000002"]);
  const missing = await json(es, "POST", "/noidx/_rollover");
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error.type, "resource_not_found_exception");
  assert.equal(missing.body.error.reason, "rollover target [noidx] does not exist");
  const concrete = await json(es, "POST", "/solo-1/_rollover");
  assert.equal(concrete.status, 400);
  es.close();
  const os = new Engine({ flavour: "opensearch" });
  const osMissing = await json(os, "POST", "/my-data-stream/_rollover", {});
  assert.equal(osMissing.status, 400);
  assert.equal(osMissing.body.error.type, "illegal_argument_exception");
  await json(os, "PUT", "/logs-000001", { aliases: { logs: { is_write_index: true } } });
  const named = (await json(os, "POST", "/logs/_rollover/custom-1")).body;
  assert.equal(named.new_index, "custom-1");
  assert.equal("lazy" in named, false);
  os.close();
});
