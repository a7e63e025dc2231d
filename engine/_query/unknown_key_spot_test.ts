// An unknown key in a leaf query's body: refused at the key's value. Expected values are the
// answers of real Elasticsearch 9.5.4 and OpenSearch 3.8.0 (the same on both) to these bodies,
// over an index mapping `a` as a keyword and `n` as a long.

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";

const CASES: Array<[string, string, number]> = [
  ['{"query":{"term":{"a":{"value":"x","foo":1}}}}', "[term] query does not support [foo]", 42],
  ['{"query":{"range":{"n":{"gte":1,"foo":2}}}}', "[range] query does not support [foo]", 39],
  ['{"query":{"exists":{"field":"a","foo":"b"}}}', "[exists] query does not support [foo]", 39],
  [
    '{"query":{"prefix":{"a":{"value":"x","foo":true}}}}',
    "[prefix] query does not support [foo]",
    44,
  ],
  [
    '{"query":{"match_bool_prefix":{"a":{"query":"x","cutoff_frequency":0.1}}}}',
    "[match_bool_prefix] query does not support [cutoff_frequency]",
    68,
  ],
];

for (const flavour of ["elasticsearch", "opensearch"] as const) {
  Deno.test(`unknown query keys: refused at their value (${flavour})`, async () => {
    const engine = new Engine({ flavour });
    await engine.fetch("http://engine/probe", {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: '{"mappings":{"properties":{"a":{"type":"keyword"},"n":{"type":"long"}}}}',
    }).then((r) => r.body?.cancel());
    for (const [body, reason, col] of CASES) {
      const res = await engine.fetch("http://engine/probe/_search", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body,
      });
      assert.equal(res.status, 400);
      const { error } = await res.json();
      assert.deepEqual(error, {
        root_cause: [{ type: "parsing_exception", reason, line: 1, col }],
        type: "parsing_exception",
        reason,
        line: 1,
        col,
      });
    }
    engine.close();
  });
}
