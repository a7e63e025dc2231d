// LambdaTemplate benchmarks, each against a baseline in the same run:
//   deno bench -A bench/lambda_bench.ts
// 1. building and compiling a five-condition query (immutable builder → frozen nodes → command
//    text + arguments) vs a hand-written object literal + JSON.stringify (target ≤ 2×);
// 2. the same, plus the driver's binding of the compiled command (what a request really pays);
// 3. stream() over 100,000 documents of the embedded engine vs JdbcTemplate.stream of the same
//    command (the layer's own cost); docs/s and the peak heap growth are printed at the end.
import { DataSource } from "../driver/mod.ts";
import { bindScript, parseScript } from "../driver/internal.ts";
import { Engine } from "../engine/mod.ts";
import { Column, JdbcTemplate, Table } from "../template/mod.ts";
import { LambdaTemplate } from "../lambda/mod.ts";

@Table("users")
class User {
  @Column({ primary: true })
  id = "";
  @Column("user_name")
  name = "";
  @Column()
  age = 0;
  @Column()
  city = "";
  @Column()
  born: Date | null = null;
}

const lambda = new LambdaTemplate(new DataSource("http://127.0.0.1:9200"));
const since = new Date("1990-01-01T00:00:00Z");
let n = 0;

function built() {
  const age = 20 + (n++ % 50);
  return lambda.query(User)
    .eq("city", "Oslo")
    .ge("age", age)
    .in("name", ["ann", "bob"])
    .like("name", "a%")
    .gt("born", since)
    .orderBy("age", "desc")
    .toCommand();
}

function literal() {
  const age = 20 + (n++ % 50);
  return JSON.stringify({
    query: {
      bool: {
        filter: [
          { term: { city: "Oslo" } },
          { range: { age: { gte: age } } },
          { terms: { user_name: ["ann", "bob"] } },
          { prefix: { user_name: { value: "a" } } },
          { range: { born: { gt: since } } },
        ],
      },
    },
    sort: [{ age: { order: "desc" } }],
    size: 10000,
    track_total_hits: true,
  });
}

Deno.bench("hand-written object literal + JSON.stringify", {
  group: "five conditions",
  baseline: true,
}, () => {
  literal();
});

Deno.bench("LambdaTemplate: build + compile (toCommand)", { group: "five conditions" }, () => {
  built();
});

Deno.bench("literal + JSON.stringify + a request line", {
  group: "to driver text",
  baseline: true,
}, () => {
  "POST /users/_search " + literal();
});

Deno.bench("LambdaTemplate: build + compile + driver binding", { group: "to driver text" }, () => {
  const cmd = built();
  bindScript(parseScript(cmd.text), cmd.args);
});

// ---- stream over 100,000 documents ----
const STREAMED = 100_000;
const engine = new Engine({ refreshIntervalMs: -1 });
const streamDs = new DataSource({ nodes: ["http://bench.local"], fetch: engine.fetch });
const jdbc = new JdbcTemplate(streamDs);
const loader = new LambdaTemplate(jdbc, { refresh: false });
await jdbc.execute(
  'PUT /people {"mappings": {"properties": {"city": {"type": "keyword"}, "age": {"type": "integer"}}}}',
);
for (let start = 0; start < STREAMED; start += 10_000) {
  const docs = Array.from({ length: 10_000 }, (_, i) => ({
    _id: String(start + i),
    name: `person ${start + i}`,
    city: ["Oslo", "Lima", "Pune"][(start + i) % 3],
    age: (start + i) % 90,
  }));
  await loader.insert("people").applyMap(docs).executeSumResult();
}
await jdbc.execute("POST /people/_refresh");

const lambdaStream = new LambdaTemplate(jdbc);
const everyone = lambdaStream.query("people").ge("age", 0);
const command = everyone.toCommand();
const PAGE = 1000;
let samples: number[] = [];
let rate = 0;

Deno.bench("JdbcTemplate.stream of the compiled command (rows)", {
  group: "stream 100k",
  baseline: true,
  n: 5,
  warmup: 1,
}, async () => {
  let n = 0;
  for await (const _ of jdbc.stream(command, undefined, { pageSize: PAGE })) n++;
  if (n !== STREAMED) throw new Error(`streamed ${n}`);
});

Deno.bench("LambdaTemplate.query(...).stream() (documents)", {
  group: "stream 100k",
  n: 5,
  warmup: 1,
}, async () => {
  const before = Deno.memoryUsage().heapUsed;
  const t0 = performance.now();
  const heap: number[] = [];
  let n = 0;
  for await (const _ of everyone.stream({ pageSize: PAGE })) {
    if (++n % 10_000 === 0) heap.push(Deno.memoryUsage().heapUsed - before);
  }
  samples = heap;
  rate = n / ((performance.now() - t0) / 1000);
  if (n !== STREAMED) throw new Error(`streamed ${n}`);
});

globalThis.addEventListener("unload", () => {
  const mb = samples.map((b) => (b / 1e6).toFixed(0)).join(", ");
  console.log(
    `stream(): ${Math.round(rate).toLocaleString("en")} docs/s (last run), pages of ${PAGE}; ` +
      `heap growth (MB) after every 10,000 of ${STREAMED.toLocaleString("en")} documents: ${mb}`,
  );
});
