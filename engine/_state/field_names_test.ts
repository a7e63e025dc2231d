// Field names a document may not use, refused as the real engines refuse them. Expected values
// are the answers of real Elasticsearch 9.5.4 and OpenSearch 3.8.0 to the same documents.

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

/**
 * [error type, cause type or undefined] of each document's refusal, undefined when accepted; each
 * document goes to an index of its own.
 */
async function outcomes(flavour: "elasticsearch" | "opensearch", docs: string[]) {
  const engine = new Engine({ flavour });
  const out: Array<[string, string | undefined] | undefined> = [];
  for (const [i, doc] of docs.entries()) {
    const r = await call(engine, "POST", `/names-${i}/_doc/1`, JSON.parse(doc));
    out.push(r.error ? [r.error.type, r.error.caused_by?.type] : undefined);
  }
  engine.close();
  return out;
}

const DOCS = [
  '{".":"bar"}',
  '{"..":"bar"}',
  '{"foo":{".":"bar"}}',
  '{"a.":"x"}',
  '{".a":"x"}',
  '{"a..b":"x"}',
  '{"":"x"}',
  '{"foo":{"..":{"x":1}}}',
  '{"foo":{"":"x"}}',
  '{" ":"x"}',
  '{"a.b.":"x"}',
  '{"x":[{"..":1}]}',
];

Deno.test("Elasticsearch 9.5.4: empty, dots-only, leading-dot, double-dot and blank names", async () => {
  const refused = ["document_parsing_exception", "illegal_argument_exception"] as const;
  assert.deepEqual(await outcomes("elasticsearch", DOCS), [
    refused, // field name cannot contain only dots
    refused,
    refused,
    undefined, // "a." is accepted
    refused, // field name cannot contain only whitespace: ['.a']
    refused,
    refused, // field name cannot be an empty string
    refused,
    refused,
    ["document_parsing_exception", undefined], // Field name cannot contain only whitespace: [ ]
    undefined,
    refused,
  ]);
});

Deno.test("OpenSearch 3.8.0: the same names but a blank one, as mapper_parsing_exception", async () => {
  const refused = ["mapper_parsing_exception", "illegal_argument_exception"] as const;
  assert.deepEqual(await outcomes("opensearch", DOCS), [
    refused, // field name cannot contain only the character [.]
    refused,
    refused,
    undefined,
    refused, // object field starting or ending with a [.] makes object resolution ambiguous
    refused,
    refused,
    refused,
    refused,
    undefined, // " " is accepted
    undefined,
    refused,
  ]);
});
