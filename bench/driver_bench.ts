// Benchmarks of the command language hot path, each group with a baseline in the same run.
// Run: deno bench -A bench/driver_bench.ts

import { parseScript } from "../driver/command/command_tokenizer.ts";
import { bindScript } from "../driver/command/command_binder.ts";

// (a) parsing: cold (a unique text every iteration) vs cached
const SEARCH = `POST /users/_search
{
  "query": { "bool": { "must": [ { "term": { "name": ? } }, { "range": { "age": { "gte": ? } } } ] } },
  "size": ?, "sort": [ { "age": "desc" } ]
}`;
let counter = 0;
/** Results are kept here so the engine cannot drop the work. */
export let sink: unknown;

Deno.bench("parseScript search, cached", { group: "parse", baseline: true }, () => {
  parseScript(SEARCH);
});
Deno.bench("parseScript search, cold (unique text)", { group: "parse" }, () => {
  parseScript(SEARCH + "\n# " + counter++);
});

// (b) binding a cached command vs a hand-written template literal with JSON.stringify
Deno.bench("hand-written search: template literal + JSON.stringify", {
  group: "bind search",
  baseline: true,
}, () => {
  const name = "alice", age = 30, size = 10;
  sink = {
    method: "POST",
    path: "/users/_search",
    body: `{"query":{"bool":{"must":[{"term":{"name":${
      JSON.stringify(name)
    }}},{"range":{"age":{"gte":${JSON.stringify(age)}}}}]}},"size":${
      JSON.stringify(size)
    },"sort":[{"age":"desc"}]}`,
  };
});
Deno.bench("bindScript(parseScript(...)) search, 3 placeholders", { group: "bind search" }, () => {
  sink = bindScript(parseScript(SEARCH), ["alice", 30, 10]);
});

const INSERT = 'POST /idx/_doc {"f1": ?, "f2": ?, "f3": ?, "f4": ?, "f5": ?, ' +
  '"f6": ?, "f7": ?, "f8": ?, "f9": ?, "f10": ?}';
const DOC: unknown[] = ["a", 1, true, "b", 2.5, null, "c", 3, false, "d e f"];

Deno.bench("hand-written insert: template literal + JSON.stringify", {
  group: "bind insert",
  baseline: true,
}, () => {
  const v = DOC;
  const s = JSON.stringify;
  sink = {
    method: "POST",
    path: "/idx/_doc",
    body: `{"f1":${s(v[0])},"f2":${s(v[1])},"f3":${s(v[2])},"f4":${s(v[3])},"f5":${s(v[4])},` +
      `"f6":${s(v[5])},"f7":${s(v[6])},"f8":${s(v[7])},"f9":${s(v[8])},"f10":${s(v[9])}}`,
  };
});
Deno.bench("bindScript(parseScript(...)) insert, 10 placeholders", {
  group: "bind insert",
}, () => {
  sink = bindScript(parseScript(INSERT), DOC);
});

// (c) tokenizing a 1 MB _bulk body vs JSON.parse of each line
const lines: string[] = [];
let size = 0;
for (let k = 0; size < 1024 * 1024; k++) {
  const action = JSON.stringify({ index: { _index: "logs", _id: String(k) } });
  const doc = JSON.stringify({
    "@timestamp": new Date(Date.UTC(2024, 0, 1, 0, 0, k)).toISOString(),
    level: k % 7 === 0 ? "ERROR" : "INFO",
    message: `request ${k} from "client-${k % 13}" took ${k % 97} ms\tok`,
    bytes: k * 31,
    ratio: k / 7,
    tags: ["web", "edge", `node-${k % 5}`],
    geo: { lat: 52.5 + k / 1e4, lon: 13.4, city: "Zürich" },
  });
  lines.push(action, doc);
  size += action.length + doc.length + 2;
}
const BULK_BODY = lines.join("\n") + "\n";
const BULK = "POST /_bulk\n" + BULK_BODY;

Deno.bench(`JSON.parse of each line (${lines.length} lines, ${BULK_BODY.length} chars)`, {
  group: "bulk 1 MB",
  baseline: true,
}, () => {
  let n = 0;
  for (const line of BULK_BODY.split("\n")) if (line) n += JSON.parse(line) ? 1 : 0;
  sink = n;
});
Deno.bench("parseScript of the _bulk command (validates, compacts)", { group: "bulk 1 MB" }, () => {
  const script = parseScript(BULK);
  if (script.commands[0]!.body![0]!.length !== BULK_BODY.length) throw new Error("bad body");
});

// (d) path values: the one-segment and index-name checks vs bare encodeURIComponent
Deno.bench("hand-written path: encodeURIComponent of index and id", {
  group: "bind path",
  baseline: true,
}, () => {
  sink = `/${encodeURIComponent("users")}/_doc/${encodeURIComponent("a/b 1")}`;
});
Deno.bench("bindScript(parseScript(...)) DELETE /{?}/_doc/{?} (checked)", {
  group: "bind path",
}, () => {
  sink = bindScript(parseScript("DELETE /{?}/_doc/{?}"), ["users", "a/b 1"]);
});
