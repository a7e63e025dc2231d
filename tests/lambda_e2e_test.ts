// LambdaTemplate end to end on every backend of the behaviour suite (tests/README.md): every operator,
// combinations, and one test per dbVisitor defect it fixes (or/and ignored, group arguments lost,
// like broken, isNull argument shift, double build, eq as match, no empty-where guard, batch
// inserts failing, count with sort/_source).
import assert from "node:assert/strict";
import { BulkError, IllegalStateError, IncorrectResultSizeError } from "../driver/mod.ts";
import { type BackendScope, backendTest, suiteIndex } from "./support/backend.ts";
import { Column, JdbcTemplate, PageObject, Table } from "../template/mod.ts";
import { LambdaTemplate } from "../lambda/mod.ts";

const PEOPLE_INDEX = suiteIndex("lx_people");
const DOCS = suiteIndex("lx_docs");
const ODD = suiteIndex("lx_odd");

@Table(PEOPLE_INDEX)
class Person {
  @Column({ primary: true })
  id = "";
  @Column()
  name = "";
  @Column()
  bio: string | null = null;
  @Column()
  city: string | null = null;
  @Column({ type: "number" })
  age = 0;
  @Column({ type: "date" })
  born: Date | null = null;
  @Column({ type: "bigint" })
  score: bigint | null = null;
  @Column()
  email: string | null = null;
}

const person = (p: Partial<Person>) => Object.assign(new Person(), p);

const PEOPLE = [
  person({
    id: "1",
    name: "Ann Lee",
    city: "Oslo",
    age: 31,
    born: new Date("1993-02-01T00:00:00Z"),
    score: 10n,
    email: "ann@x.no",
    bio: "likes fjords",
  }),
  person({
    id: "2",
    name: "ann",
    city: "Bergen",
    age: 17,
    born: new Date("2007-05-05T00:00:00Z"),
    score: 20n,
    email: null,
    bio: "young",
  }),
  person({
    id: "3",
    name: "Bob*Star",
    city: "Oslo",
    age: 45,
    born: new Date("1979-12-31T23:00:00Z"),
    score: 30n,
    bio: "a star",
  }),
  person({ id: "4", name: "Bob?Q", city: null, age: 60, born: null, score: null }),
  person({ id: "5", name: "back\\slash", city: "Tromsø", age: 17, score: 50n, email: "b@x.no" }),
];

interface Sent {
  method: string;
  path: string;
  body: string;
}

async function setup(t: BackendScope, indexRefresh = true) {
  const sent: Sent[] = [];
  const recording = (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    sent.push({
      method: init?.method ?? "GET",
      path: url.pathname + url.search,
      body: String(init?.body ?? ""),
    });
    return t.fetch(String(input), init ?? {});
  };
  const ds = t.dataSource({ fetch: recording, indexRefresh });
  const jdbc = new JdbcTemplate(ds);
  await jdbc.execute(`PUT /${PEOPLE_INDEX} {"mappings": {"properties": {
    "id": {"type": "keyword"},
    "name": {"type": "text", "fields": {"keyword": {"type": "keyword"}}},
    "bio": {"type": "text"}, "city": {"type": "keyword"}, "email": {"type": "keyword"},
    "age": {"type": "integer"}, "born": {"type": "date"}, "score": {"type": "long"}}}}`);
  const lambda = new LambdaTemplate(ds);
  sent.length = 0;
  return { lambda, jdbc, ds, sent };
}

async function seeded(t: BackendScope) {
  const ctx = await setup(t);
  assert.equal(await ctx.lambda.insert(Person).applyEntity(PEOPLE).executeSumResult(), 5);
  ctx.sent.length = 0;
  return ctx;
}

const ids = (rows: readonly { id: string }[]) => rows.map((r) => r.id).sort();

backendTest("every operator, end to end", async (t) => {
  const { lambda } = await seeded(t);
  const q = () => lambda.query(Person);
  const cases: [string, Promise<Person[]>, string[]][] = [
    ["eq", q().eq("city", "Oslo").queryForList(), ["1", "3"]],
    ["ne (missing matches)", q().ne("city", "Oslo").queryForList(), ["2", "4", "5"]],
    ["gt", q().gt("age", 45).queryForList(), ["4"]],
    ["ge", q().ge("age", 45).queryForList(), ["3", "4"]],
    ["lt", q().lt("age", 18).queryForList(), ["2", "5"]],
    ["le", q().le("age", 31).queryForList(), ["1", "2", "5"]],
    ["in", q().in("city", ["Bergen", "Tromsø"]).queryForList(), ["2", "5"]],
    ["notIn", q().notIn("city", ["Oslo"]).queryForList(), ["2", "4", "5"]],
    ["in []", q().in("city", []).queryForList(), []],
    ["between", q().between("age", 17, 31).queryForList(), ["1", "2", "5"]],
    ["notBetween", q().notBetween("age", 17, 31).queryForList(), ["3", "4"]],
    ["isNull (missing or null)", q().isNull("email").queryForList(), ["2", "3", "4"]],
    ["isNotNull", q().isNotNull("email").queryForList(), ["1", "5"]],
    ["like prefix", q().like("name", "Bob%").queryForList(), ["3", "4"]],
    ["like contains", q().like("name", "%b%").queryForList(), ["3", "4", "5"]],
    ["like suffix", q().like("name", "%Lee").queryForList(), ["1"]],
    ["likeRight", q().likeRight("name", "an").queryForList(), ["2"]],
    ["likeLeft", q().likeLeft("name", "Q").queryForList(), ["4"]],
    ["notLike", q().notLike("name", "Bob%").queryForList(), ["1", "2", "5"]],
    ["notLikeRight", q().notLikeRight("name", "a").queryForList(), ["1", "3", "4", "5"]],
    ["notLikeLeft", q().notLikeLeft("name", "Lee").queryForList(), ["2", "3", "4", "5"]],
    ["match", q().match("bio", "star").queryForList(), ["3"]],
    ["matchPhrase", q().matchPhrase("bio", "likes fjords").queryForList(), ["1"]],
  ];
  for (const [name, rows, expected] of cases) assert.deepEqual(ids(await rows), expected, name);
});

backendTest(
  "defect 15: or() between conditions is real OR (selectByIds-style lookups)",
  async (t) => {
    const { lambda } = await seeded(t);
    const rows = await lambda.query(Person).eq("id", "1").or().eq("id", "4").or().eq("id", "9")
      .queryForList();
    assert.deepEqual(ids(rows), ["1", "4"]);
    // AND binds tighter: city=Oslo OR (age<18 AND city=Bergen)
    const mixed = await lambda.query(Person).eq("city", "Oslo").or().lt("age", 18).eq(
      "city",
      "Bergen",
    )
      .queryForList();
    assert.deepEqual(ids(mixed), ["1", "2", "3"]);
  },
);

backendTest(
  "defect 16: groups keep their arguments; not() negates; nesting to any depth",
  async (t) => {
    const { lambda } = await seeded(t);
    const q = lambda.query(Person)
      .and((g) => g.eq("city", "Oslo").or().eq("city", "Bergen"))
      .not((g) => g.lt("age", 18));
    assert.deepEqual(ids(await q.queryForList()), ["1", "3"]);
    const deep = lambda.query(Person).or((g) =>
      g.not((n) => n.or((o) => o.and((a) => a.ge("age", 18).isNotNull("city"))))
    );
    // NOT (age >= 18 AND city present) → 2 (17), 4 (no city), 5 (17)
    assert.deepEqual(ids(await deep.queryForList()), ["2", "4", "5"]);
  },
);

backendTest(
  "defect 17: like values are escaped — *, ? and \\ match themselves — and later arguments stay in place",
  async (t) => {
    const { lambda } = await seeded(t);
    assert.deepEqual(ids(await lambda.query(Person).like("name", "%b*S%").queryForList()), ["3"]);
    assert.deepEqual(ids(await lambda.query(Person).like("name", "%b?Q").queryForList()), ["4"]);
    assert.deepEqual(ids(await lambda.query(Person).like("name", "%k\\s%").queryForList()), ["5"]);
    assert.deepEqual(ids(await lambda.query(Person).like("name", "%?%").queryForList()), ["4"]);
    const after = await lambda.query(Person).like("name", "%*%").eq("city", "Oslo").gt("age", 40)
      .queryForList();
    assert.deepEqual(ids(after), ["3"]);
  },
);

backendTest(
  "defect 18: isNull/isNotNull add no argument; conditions after them bind correctly",
  async (t) => {
    const { lambda } = await seeded(t);
    const q = lambda.query(Person).isNull("email").isNotNull("city").eq("city", "Oslo");
    const cmd = q.toCommand();
    assert.equal(cmd.args.length, (cmd.text.match(/\?/g) ?? []).length);
    assert.deepEqual(ids(await q.queryForList()), ["3"]);
    // explicit null and a missing field are both "null"
    assert.deepEqual(ids(await lambda.query(Person).eq("email", null).queryForList()), [
      "2",
      "3",
      "4",
    ]);
  },
);

backendTest("defect 19: one builder run several ways gives the same answers", async (t) => {
  const { lambda } = await seeded(t);
  const q = lambda.query(Person).eq("city", "Oslo").orderBy("age");
  assert.equal(await q.queryForCount(), 2);
  assert.deepEqual((await q.queryForList()).map((p) => p.id), ["1", "3"]);
  assert.equal(await q.queryForCount(), 2);
  assert.deepEqual((await q.queryForList()).map((p) => p.id), ["1", "3"]);
});

backendTest(
  "defect 21: eq is exact (text → .keyword, mapping read once) and orderBy is ascending",
  async (t) => {
    const { lambda, sent } = await seeded(t);
    assert.deepEqual(ids(await lambda.query(Person).eq("name", "Ann Lee").queryForList()), ["1"]);
    assert.deepEqual(ids(await lambda.query(Person).eq("name", "ann").queryForList()), ["2"]);
    assert.deepEqual(ids(await lambda.query(Person).match("name", "ann").queryForList()), [
      "1",
      "2",
    ]);
    const sorted = await lambda.query(Person).isNotNull("city").orderBy("name").queryForList();
    assert.deepEqual(sorted.map((p) => p.name), ["Ann Lee", "Bob*Star", "ann", "back\\slash"]);
    const desc = await lambda.query(Person).orderBy("age", "desc").orderBy("name").queryForList();
    assert.deepEqual(desc.map((p) => p.id), ["4", "3", "1", "2", "5"]);
    assert.equal(sent.filter((s) => s.path.endsWith("/_mapping")).length, 1, "mapping read once");
    const search = sent.find((s) => s.path.includes("_search"))!;
    assert.match(search.body, /"term":\{"name\.keyword":"Ann Lee"\}/);
  },
);

backendTest(
  "an exact condition on a text field without a keyword sub-field is a clear error, before searching",
  async (t) => {
    const { lambda, sent } = await seeded(t);
    await assert.rejects(
      lambda.query(Person).eq("bio", "young").queryForList(),
      /eq\("bio"\): the field is "text" with no keyword sub-field.*use match\(\)/,
    );
    assert.equal(sent.filter((s) => s.path.includes("_search")).length, 0);
  },
);

backendTest(
  "defect 22: update and delete refuse to run without a condition unless allowEmptyWhere()",
  { requires: ["by-query"] },
  async (t) => {
    const { lambda, sent } = await seeded(t);
    await assert.rejects(
      lambda.delete(Person).doDelete(),
      (e: unknown) =>
        e instanceof IllegalStateError &&
        new RegExp(`every document of "${PEOPLE_INDEX}".*allowEmptyWhere\\(\\)`).test(e.message),
    );
    await assert.rejects(lambda.update(Person).updateTo("city", "X").doUpdate(), IllegalStateError);
    await assert.rejects(lambda.update(Person).eq("id", "1").doUpdate(), /nothing to set/);
    assert.equal(sent.length, 0, "nothing was sent");
    assert.equal(await lambda.update(Person).allowEmptyWhere().updateTo("city", "X").doUpdate(), 5);
    assert.equal(await lambda.query(Person).eq("city", "X").queryForCount(), 5);
    assert.equal(await lambda.delete(Person).allowEmptyWhere().doDelete(), 5);
    assert.equal(await lambda.query(Person).queryForCount(), 0);
  },
);

backendTest(
  "defect 23: several entities are one _bulk request; failures are reported per item",
  async (t) => {
    const { lambda, sent } = await setup(t);
    const fresh = [
      person({ id: "a", name: "A" }),
      person({ name: "gen" }),
      person({ id: "b", name: "B" }),
    ];
    const keys = await lambda.insert(Person).applyEntity(fresh).executeGetKeys();
    assert.equal(sent.filter((s) => s.path.includes("_bulk")).length, 1);
    assert.equal(sent.length, 1);
    assert.equal(keys.length, 3);
    assert.deepEqual([keys[0], keys[2]], ["a", "b"]);
    assert.equal(fresh[1]!.id, keys[1], "the generated _id is written back into the entity");
    assert.equal((await lambda.query(Person).eq("_id", keys[1]!).queryForObject())?.name, "gen");
    // "a" exists: create refuses it, the other item is still written, and the error lists both.
    const again = lambda.insert(Person).applyEntity([
      person({ id: "a", name: "A2" }),
      person({ id: "c" }),
    ]);
    await assert.rejects(again.executeSumResult(), (e: unknown) => {
      assert.ok(e instanceof BulkError);
      assert.equal(e.successCount, 1);
      assert.deepEqual(e.failed.map((i) => [i.index, i.id, i.status]), [[0, "a", 409]]);
      return true;
    });
    assert.equal((await lambda.query(Person).eq("id", "a").queryForObject())?.name, "A");
    assert.equal(await lambda.query(Person).queryForCount(), 4);
  },
);

backendTest(
  "defect 24: queryForCount sends only the query, whatever select/order/page is set",
  async (t) => {
    const { lambda, sent } = await seeded(t);
    const q = lambda.query(Person).ge("age", 17).select("name").orderBy("age").initPage(2, 1);
    assert.equal(await q.queryForCount(), 5);
    const count = sent.find((s) => s.path.endsWith("/_count"))!;
    assert.deepEqual(Object.keys(JSON.parse(count.body)), ["query"]);
  },
);

backendTest("select, paging with totals, queryForPage, queryForObject/Map/MapList", async (t) => {
  const { lambda } = await seeded(t);
  const page = new PageObject(0, 2);
  const q = lambda.query(Person).select("name", "age").orderBy("age").orderBy("name");
  const pages: string[][] = [];
  for (let i = 0; i < 3; i++, page.nextPage()) {
    pages.push((await q.usePage(page).queryForList()).map((p) => p.name));
  }
  assert.deepEqual(pages, [["ann", "back\\slash"], ["Ann Lee", "Bob*Star"], ["Bob?Q"]]);
  assert.equal(page.getTotalCount(), 5);
  assert.equal(page.getTotalPage(), 3);
  const projected = (await q.initPage(1, 0).queryForList())[0]!;
  assert.equal(projected.city, null, "fields not selected keep their defaults");
  const result = await q.initPage(2, 2, 1).queryForPage();
  assert.deepEqual([result.data.map((p) => p.name), result.totalCount, result.currentPage], [
    ["Ann Lee", "Bob*Star"],
    5,
    2,
  ]);
  assert.equal(await lambda.query(Person).eq("id", "nope").queryForObject(), null);
  await assert.rejects(
    lambda.query(Person).eq("city", "Oslo").queryForObject(),
    (e: unknown) => e instanceof IncorrectResultSizeError && e.actual === 2,
  );
  const one = await lambda.query(Person).eq("id", "3").queryForObject();
  assert.ok(one instanceof Person);
  assert.ok(one.born instanceof Date && one.born.toISOString() === "1979-12-31T23:00:00.000Z");
  assert.deepEqual(
    await lambda.query(`${PEOPLE_INDEX}`).eq("id", "4").select("name").queryForMap(),
    {
      _id: "4",
      name: "Bob?Q",
    },
  );
  const maps = await lambda.query(`${PEOPLE_INDEX}`).in("_id", ["1", "2"]).select("city").orderBy(
    "id",
  )
    .queryForMapList();
  assert.deepEqual(maps, [{ _id: "1", city: "Oslo" }, { _id: "2", city: "Bergen" }]);
});

backendTest("dates and bigints bind as Elasticsearch expects", async (t) => {
  const { lambda, sent } = await seeded(t);
  const born = await lambda.query(Person).between(
    "born",
    new Date("1979-01-01"),
    new Date("1994-01-01"),
  )
    .queryForList();
  assert.deepEqual(ids(born), ["1", "3"]);
  assert.deepEqual(
    ids(await lambda.query(Person).gt("born", new Date("2000-01-01")).queryForList()),
    ["2"],
  );
  assert.deepEqual(ids(await lambda.query(Person).ge("score", 30n).queryForList()), ["3", "5"]);
  assert.deepEqual(ids(await lambda.query(Person).in("score", [10n, 50n]).queryForList()), [
    "1",
    "5",
  ]);
  const huge = 2n ** 63n - 1n;
  await lambda.query(Person).eq("score", huge).queryForList();
  assert.match(
    sent.at(-1)!.body,
    /"term":\{"score":9223372036854775807\}/,
    "exact digits, no rounding",
  );
  assert.match(sent.find((s) => s.body.includes("born"))!.body, /"gte":"1979-01-01T00:00:00.000Z"/);
});

backendTest(
  "update and delete: by key a plain _update/DELETE, else by query with true counts",
  { requires: ["by-query"] },
  async (t) => {
    const { lambda, sent } = await setup(t, false); // writes outside lambda: not refreshed
    await new LambdaTemplate(lambda.jdbc, { refresh: false }).insert(Person).applyEntity(PEOPLE)
      .executeSumResult();
    sent.length = 0;
    assert.equal(
      await lambda.update(Person).eq("city", "Oslo").updateTo("email", "oslo@x.no").doUpdate(),
      2,
    );
    assert.deepEqual(sent.map((s) => `${s.method} ${s.path.replace(/\?.*/, "")}`), [
      `GET /${PEOPLE_INDEX}/_mapping`,
      `POST /${PEOPLE_INDEX}/_refresh`,
      `POST /${PEOPLE_INDEX}/_update_by_query`,
    ]);
    assert.equal(await lambda.query(Person).eq("email", "oslo@x.no").queryForCount(), 2);
    sent.length = 0;
    assert.equal(await lambda.update(Person).eq("id", "2").updateTo("age", 18).doUpdate(), 1);
    assert.deepEqual(sent.map((s) => `${s.method} ${s.path}`), [
      `POST /${PEOPLE_INDEX}/_update/2?refresh=true`,
    ]);
    assert.equal(await lambda.update(Person).eq("id", "nope").updateTo("age", 1).doUpdate(), 0);
    assert.equal(await lambda.delete(Person).eq("id", "nope").doDelete(), 0);
    assert.equal(await lambda.delete(Person).eq("id", "2").doDelete(), 1);
    assert.equal(await lambda.delete(Person).lt("age", 40).or().isNull("city").doDelete(), 3);
    assert.deepEqual(ids(await lambda.query(Person).queryForList()), ["3"]);
    const sample = person({ id: "3", name: "Robert", age: 46 });
    assert.equal(await lambda.update(Person).eq("id", "3").updateToSample(sample).doUpdate(), 1);
    const bob = await lambda.query(Person).eq("id", "3").queryForObject();
    // city was never set on the sample (still null, its initial value): the stored one stays
    assert.deepEqual([bob?.name, bob?.age, bob?.city], ["Robert", 46, "Oslo"]);
  },
);

backendTest(
  "bare index names: maps in, maps out, _id as the key",
  { requires: ["by-query"] },
  async (t) => {
    const { lambda } = await setup(t);
    const keys = await lambda.insert(`${DOCS}`).applyMap([{ _id: "k1", n: 1, tag: "x" }, { n: 2 }])
      .executeGetKeys();
    assert.equal(keys[0], "k1");
    const rows = await lambda.query(`${DOCS}`).orderBy("n").queryForList();
    assert.deepEqual(rows.map((r) => [r._id, r.n]), [["k1", 1], [keys[1], 2]]);
    assert.equal(await lambda.update(`${DOCS}`).eq("_id", "k1").updateTo("n", 5).doUpdate(), 1);
    assert.equal(await lambda.query(`${DOCS}`).ge("n", 2).queryForCount(), 2);
    assert.equal(await lambda.delete(`${DOCS}`).eq("tag", "x").doDelete(), 1);
  },
);

backendTest("LambdaTemplate over a Connection or a JdbcTemplate", async (t) => {
  const { ds, jdbc } = await seeded(t);
  await using conn = await ds.getConnection();
  assert.equal(await new LambdaTemplate(conn).query(Person).eq("city", "Oslo").queryForCount(), 2);
  const viaJdbc = new LambdaTemplate(jdbc);
  assert.equal(viaJdbc.jdbc, jdbc);
  assert.equal(await viaJdbc.query(Person).queryForCount(), 5);
});

backendTest(
  "field names that look like placeholders, markers or quotes stay field names",
  async (t) => {
    const { lambda } = await setup(t);
    await lambda.insert(`${ODD}`).applyMap([
      { _id: "1", "we?ird": "x", 'q"uote': "y", "{?}": "z", "#{a}": "w" },
      { _id: "2" },
    ]).executeSumResult();
    const idsOf = async (q: ReturnType<typeof lambda.query>) =>
      (await q.queryForMapList()).map((r) => r._id);
    assert.deepEqual(await idsOf(lambda.query(`${ODD}`).eq("we?ird", "x")), ["1"]);
    assert.deepEqual(await idsOf(lambda.query(`${ODD}`).eq('q"uote', "y")), ["1"]);
    assert.deepEqual(await idsOf(lambda.query(`${ODD}`).eq("{?}", "z").isNotNull("#{a}")), ["1"]);
  },
);

/** Points in time opened and not closed, from the requests sent. */
function openPits(sent: readonly Sent[]): number {
  const opened = sent.filter((s) => s.method === "POST" && /\/_pit\b/.test(s.path)).length;
  const closed = sent.filter((s) => s.method === "DELETE" && s.path.startsWith("/_pit")).length;
  assert.ok(opened > 0, "a point in time was used");
  return opened - closed;
}

backendTest(
  "stream(): every match once, in order, page by page; the point in time is always closed",
  {
    requires: ["pit-es"],
  },
  async (t) => {
    const { lambda, sent } = await setup(t);
    const many = Array.from(
      { length: 1234 },
      (_, i) =>
        person({ id: `s${i}`, name: `n${i}`, age: i % 100, city: i % 3 === 0 ? "Oslo" : "Bergen" }),
    );
    await lambda.insert(Person).applyEntity(many).executeSumResult();
    sent.length = 0;
    const q = lambda.query(Person).eq("city", "Oslo").orderBy("age").orderBy("id", "desc");
    const ages: number[] = [];
    const seen = new Set<string>();
    for await (const p of q.stream({ pageSize: 100 })) {
      assert.ok(p instanceof Person);
      ages.push(p.age);
      seen.add(p.id);
    }
    const expected = many.filter((p) => p.city === "Oslo");
    assert.equal(seen.size, expected.length);
    assert.deepEqual(ages, expected.map((p) => p.age).sort((a, b) => a - b));
    const pages = sent.filter((s) => s.path.includes("_search"));
    assert.ok(pages.length >= 5, "fetched in pages");
    assert.ok(
      pages.every((p) => !/"track_total_hits":\s*true/.test(p.body)),
      "no total counted per page",
    );
    assert.equal(openPits(sent), 0);
    // Early break: closed too. Maps for a bare index name, with _id.
    for await (
      const doc of lambda.query(`${PEOPLE_INDEX}`).select("name").stream({ pageSize: 10 })
    ) {
      assert.deepEqual(Object.keys(doc), ["_id", "name"]);
      break;
    }
    assert.equal(openPits(sent), 0);
    // A failing consumer: closed too.
    await assert.rejects(async () => {
      for await (const _ of q.stream({ pageSize: 10 })) throw new Error("consumer failed");
    }, /consumer failed/);
    assert.equal(openPits(sent), 0);
  },
);

backendTest(
  "OpenSearch flavour: conditions, counts and stream() (its point in time) work the same",
  {
    requires: ["pit-opensearch", "by-query"],
    embedded: { flavour: "opensearch" },
  },
  async (t) => {
    const { lambda, sent } = await setup(t, true);
    await lambda.insert(Person).applyEntity(PEOPLE).executeSumResult();
    const q = lambda.query(Person).eq("city", "Oslo").or().isNull("city").orderBy("age");
    assert.deepEqual((await q.queryForList()).map((p) => p.id), ["1", "3", "4"]);
    assert.equal(await q.queryForCount(), 3);
    const streamed: string[] = [];
    for await (const p of q.stream({ pageSize: 2 })) streamed.push(p.id);
    assert.deepEqual(streamed, ["1", "3", "4"]);
    assert.ok(sent.some((s) => s.method === "POST" && s.path.includes("/_search/point_in_time")));
    assert.equal(sent.at(-1)?.method, "DELETE", "the point in time is closed");
    assert.equal(await lambda.delete(Person).like("name", "%b%").doDelete(), 3);
  },
);
