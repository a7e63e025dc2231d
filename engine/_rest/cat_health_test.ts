import assert from "node:assert/strict";
import { Engine } from "../engine.ts";

// Recorded from Elasticsearch 9.5.4 (cluster.name searchvisitor-real, one index with a replica
// the one node cannot hold), at 2026-12-02T13:37:37Z.
const REAL = [
  "epoch      timestamp cluster            status node.total node.data shards pri relo init unassign unassign.pri pending_tasks max_task_wait_time active_shards_percent",
  "1796218657 13:37:37  searchvisitor-real yellow          1         1      1   1    0    0        1            0             0                  -                 50.0%",
  "",
].join("\n");

Deno.test("_cat/health counts the unassigned primaries apart, as Elasticsearch 9.5 does", async () => {
  const engine = new Engine({
    now: () => Date.UTC(2026, 11, 2, 13, 37, 37),
    node: { clusterName: "searchvisitor-real" },
  });
  try {
    await engine.fetch("http://engine/x1", { method: "PUT" });
    const text = await (await engine.fetch("http://engine/_cat/health?v")).text();
    assert.equal(text, REAL);
    const up = await (await engine.fetch("http://engine/_cat/health?h=up,u&v")).text();
    assert.equal(up, "up u\n 0 1\n");
  } finally {
    engine.close();
  }
  const os = new Engine({ flavour: "opensearch" });
  try {
    const [row] = await (await os.fetch("http://engine/_cat/health?format=json")).json();
    assert.equal("unassign.pri" in row, false);
  } finally {
    os.close();
  }
});
