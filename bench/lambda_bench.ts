// LambdaTemplate benchmarks, each against a baseline in the same run:
//   deno bench -A bench/lambda_bench.ts
// 1. building and compiling a five-condition query (immutable builder → frozen nodes → command
//    text + arguments) vs a hand-written object literal + JSON.stringify (target ≤ 2×);
// 2. the same, plus the driver's binding of the compiled command (what a request really pays).
import { bindScript, DataSource, parseScript } from "../driver/mod.ts";
import { Column, Table } from "../template/mod.ts";
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
