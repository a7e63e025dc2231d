// Mapper-layer benchmarks against the JdbcTemplate call doing the same request, in one run:
//   deno bench -A bench/mapper_bench.ts
// The fetch is faked (a fixed 20-hit response), so the figures are the library's own cost:
// argument collection, declared result shape and, for pages, the body rewrite.
import { DataSource } from "../driver/mod.ts";
import {
  bound,
  Configuration,
  PageObject,
  type PageResult,
  Query,
  SimpleMapper,
} from "../mapper/mod.ts";
import { Column, JdbcTemplate, Table } from "../template/mod.ts";

@Table("users")
class User {
  @Column({ primary: true })
  id = "";
  @Column("user_name")
  name = "";
  @Column()
  age = 0;
}

const hits = Array.from({ length: 20 }, (_, i) => ({
  _index: "users",
  _id: String(i),
  _source: { user_name: `user ${i}`, age: 20 + i },
}));
const responseText = JSON.stringify({
  took: 1,
  hits: { total: { value: 20, relation: "eq" }, hits },
});
const fetch = () =>
  Promise.resolve(new Response(responseText, { headers: { "content-type": "application/json" } }));
const ds = new DataSource({ nodes: ["http://bench.local"], fetch });

const SEARCH =
  'POST /users/_search {"query": {"bool": {"filter": [{"term": {"user_name": #{name}}}, {"range": {"age": {"gte": #{age}}}}]}}}';

@SimpleMapper({ entity: User })
class UserMapper {
  @Query(SEARCH)
  find(_args: { name: string; age: number }): Promise<User[]> {
    return bound();
  }
  @Query(SEARCH, { returns: "page" })
  page(_args: { name: string; age: number }, _page: PageObject): Promise<PageResult<User>> {
    return bound();
  }
}

const jdbc = new JdbcTemplate(ds);
const mapper = new Configuration().newSession(ds).createMapper(UserMapper);
const args = { name: "alice", age: 30 };

Deno.bench("JdbcTemplate.queryForList(text, args, User)", {
  group: "search",
  baseline: true,
  warmup: 500,
  n: 5000,
}, async () => {
  await jdbc.queryForList(SEARCH, args, User);
});

Deno.bench("mapper @Query list", { group: "search", warmup: 500, n: 5000 }, async () => {
  await mapper.find(args);
});

Deno.bench("mapper @Query page (from/size/track_total_hits added)", {
  group: "search",
  warmup: 500,
  n: 5000,
}, async () => {
  await mapper.page(args, new PageObject(1, 10));
});
