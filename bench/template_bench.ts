// Template-layer benchmarks, each against a baseline in the same run:
//   deno bench -A bench/template_bench.ts
// 1. mapping 10,000 hits to entities vs JSON.parse of the same response alone (target ≤ 1.3×);
// 2. named binding of a cached statement vs positional binding of the same command.
import { DataSource, ResultSet } from "../driver/mod.ts";
import { bindTemplate, Column, documentMapper, JdbcTemplate, Table } from "../template/mod.ts";
import { mapResultSet } from "../template/internal.ts";

@Table("users")
class User {
  @Column({ primary: true })
  id = "";
  @Column("user_name")
  name = "";
  @Column()
  age = 0;
  @Column("home_city")
  city = "";
  @Column()
  tags: string[] = [];
}

const HITS = 10_000;
const hits = Array.from({ length: HITS }, (_, i) => ({
  _index: "users",
  _id: String(i),
  _score: 1,
  _source: {
    id: String(i),
    user_name: `user ${i}`,
    age: 20 + (i % 50),
    home_city: ["Oslo", "Lima", "Pune"][i % 3],
    tags: ["a", "b"],
  },
}));
const responseText = JSON.stringify({
  took: 5,
  timed_out: false,
  hits: { total: { value: HITS, relation: "eq" }, max_score: 1, hits },
});
const docRows = hits.map((h) => [h._id, JSON.stringify(h._source)]);
const toUser = documentMapper(User);

Deno.bench("JSON.parse of the 10k-hit response", {
  group: "map",
  baseline: true,
  warmup: 30,
  n: 150,
}, () => {
  JSON.parse(responseText);
});

Deno.bench("JSON.parse + map 10k hits to entities (template mapping)", {
  group: "map",
  warmup: 30,
  n: 150,
}, () => {
  const body = JSON.parse(responseText);
  const out: User[] = [];
  for (const h of body.hits.hits) out.push(toUser(h._id, h._source));
});

Deno.bench(
  "ResultSet of _DOC text → 10k entities (one JSON.parse per row)",
  { group: "map", warmup: 30, n: 150 },
  () => {
    mapResultSet(new ResultSet(["_ID", "_DOC"], docRows), User);
  },
);

const fakeFetch = () =>
  Promise.resolve(new Response(responseText, { headers: { "content-type": "application/json" } }));
const jdbc = new JdbcTemplate(new DataSource({ nodes: ["http://bench.local"], fetch: fakeFetch }));
const SEARCH = 'POST /users/_search {"query": {"match_all": {}}, "size": 10000}';

Deno.bench(
  "fetch + text + JSON.parse (hand-written)",
  { group: "end-to-end", baseline: true },
  async () => {
    const res = await fakeFetch();
    JSON.parse(await res.text());
  },
);

const conn = await new DataSource({ nodes: ["http://bench.local"], fetch: fakeFetch })
  .getConnection();
Deno.bench(
  "driver Statement.executeQuery alone (no mapping)",
  { group: "end-to-end" },
  async () => {
    await conn.createStatement().executeQuery(SEARCH);
  },
);

Deno.bench(
  "JdbcTemplate.queryForList(cmd, [], User) over the same fetch",
  { group: "end-to-end" },
  async () => {
    await jdbc.queryForList(SEARCH, [], User);
  },
);

const NAMED =
  'POST /users/_search {"query": {"bool": {"filter": [{"term": {"user_name": #{name}}}, {"range": {"age": {"gte": #{age}}}}]}}, "size": #{size}}';
const POSITIONAL =
  'POST /users/_search {"query": {"bool": {"filter": [{"term": {"user_name": ?}}, {"range": {"age": {"gte": ?}}}]}}, "size": ?}';
const args = { name: "alice", age: 30, size: 10 };

Deno.bench("positional binding (array as is)", { group: "bind", baseline: true }, () => {
  jdbc.bind(POSITIONAL, [args.name, args.age, args.size]);
});

Deno.bench("named binding of a cached statement", { group: "bind" }, () => {
  bindTemplate(NAMED, args);
});

Deno.bench("hand-written template literal + JSON.stringify", { group: "bind" }, () => {
  `POST /users/_search {"query": {"bool": {"filter": [{"term": {"user_name": ${
    JSON.stringify(args.name)
  }}}, {"range": {"age": {"gte": ${args.age}}}}]}}, "size": ${args.size}}`;
});
