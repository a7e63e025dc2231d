// BaseMapper end to end on every backend of the behaviour suite (tests/README.md): the reference's happy path, writes and reads by
// key with many ids, one _bulk for many entities, real counts, and optimistic concurrency.
import assert from "node:assert/strict";
import { BulkError, InvalidArgumentError, ResponseError } from "../driver/mod.ts";
import {
  BaseMapper,
  MapperError,
  OptimisticLockError,
  PageObject,
  SimpleMapper,
} from "../mapper/mod.ts";
import { Column, defineEntity, Table } from "../template/mod.ts";
import { type BackendScope, backendTest, suiteIndex } from "./support/backend.ts";
import { mapperFixture } from "./support/mapper_fixture.ts";

const ACCOUNTS = suiteIndex("accounts");
const DOCS = suiteIndex("docs");
const LOOSE = suiteIndex("loose");

@Table(ACCOUNTS)
class Account {
  @Column({ primary: true })
  id = "";
  @Column("owner_name")
  owner: string | null = "";
  @Column()
  balance: number | null = 0;
  @Column({ version: true })
  version = "";
}

@SimpleMapper({ entity: Account })
class AccountMapper extends BaseMapper<Account> {}

const MAPPING =
  `PUT /${ACCOUNTS} {"mappings": {"properties": {"owner_name": {"type": "keyword"}, "balance": {"type": "long"}}}}`;

function account(id: string, owner: string, balance: number): Account {
  return Object.assign(new Account(), { id, owner, balance });
}

async function accounts(t: BackendScope, refresh = true) {
  const f = await mapperFixture(t, { refresh }, [MAPPING]);
  return { ...f, mapper: f.session.createMapper(AccountMapper) };
}

backendTest(
  "the reference's happy path: insert 1, selectById, update 1, deleteById 1, then null",
  async (t) => {
    const { mapper } = await accounts(t);
    assert.equal(await mapper.insert(account("a1", "ann", 10)), 1);
    const read = await mapper.selectById("a1");
    assert.ok(read instanceof Account);
    assert.deepEqual([read.id, read.owner, read.balance], ["a1", "ann", 10]);
    read.balance = 20;
    assert.equal(await mapper.update(read), 1);
    assert.equal((await mapper.selectById("a1"))?.balance, 20);
    assert.equal(await mapper.deleteById("a1"), 1);
    assert.equal(await mapper.selectById("a1"), null);
    assert.equal(await mapper.deleteById("a1"), 0, "a missing document counts 0");
  },
);

backendTest("reads by key are real time: visible before any refresh", async (t) => {
  const { mapper } = await accounts(t, false);
  await mapper.insert([account("r1", "x", 1), account("r2", "y", 2)]);
  assert.equal((await mapper.selectById("r1"))?.owner, "x");
  assert.deepEqual((await mapper.selectByIds(["r2", "r1"])).map((a) => a.id), ["r2", "r1"]);
  assert.equal(await mapper.countAll(), 0, "search-based counts wait for a refresh");
});

backendTest(
  "insert many → one _bulk; empty keys are generated and written back; duplicates fail",
  async (t) => {
    const { mapper, sent } = await accounts(t);
    const list = Array.from(
      { length: 40 },
      (_, i) => account(i % 4 === 0 ? "" : `k${i}`, `o${i}`, i),
    );
    assert.equal(await mapper.insert(list), 40);
    assert.equal(sent.length, 1);
    assert.ok(sent[0]!.path.startsWith(`/${ACCOUNTS}/_bulk`), sent[0]!.path);
    assert.ok(list.every((a) => a.id !== ""), "generated keys written back");
    assert.equal(await mapper.countAll(), 40);
    const generated = list[8]!;
    assert.equal((await mapper.selectById(generated.id))?.owner, "o8");
    await assert.rejects(mapper.insert(account("k1", "dup", 0)), (e: unknown) => {
      assert.ok(e instanceof ResponseError);
      assert.equal(e.status, 409);
      assert.match(e.message, /^AccountMapper\.insert: HTTP 409/);
      return true;
    });
    await assert.rejects(
      mapper.insert([account("k2", "dup", 0), account("new", "n", 0)]),
      BulkError,
    );
    assert.equal(await mapper.insert([]), 0);
  },
);

backendTest(
  "selectByIds: many ids in one _mget, in the order asked, missing skipped; deleteByIds counts the real deletions",
  async (t) => {
    const { mapper, sent } = await accounts(t);
    await mapper.insert(Array.from({ length: 60 }, (_, i) => account(`id${i}`, `o${i}`, i)));
    const asked = Array.from({ length: 60 }, (_, i) => `id${(i * 37) % 60}`);
    asked.splice(10, 0, "missing-1");
    asked.push("missing-2");
    sent.length = 0;
    const found = await mapper.selectByIds(asked);
    // One _mget; before it, once per index, the mapping (to name dense_vector fields, none here).
    assert.deepEqual(sent.map((s) => s.path.replace(/\?.*/, "")), [
      `/${ACCOUNTS}/_mapping`,
      `/${ACCOUNTS}/_mget`,
    ]);
    assert.deepEqual(found.map((a) => a.id), asked.filter((id) => !id.startsWith("missing")));
    assert.ok(found.every((a) => a instanceof Account && a.owner === `o${a.id.slice(2)}`));
    assert.deepEqual(await mapper.selectByIds([]), []);

    sent.length = 0;
    const doomed = ["id1", "id2", "id3", "nope", "id4", "id5"];
    assert.equal(await mapper.deleteByIds(doomed), 5);
    assert.equal(sent.length, 1);
    assert.equal(await mapper.countAll(), 55);
    assert.deepEqual(
      await mapper.selectByIds(["id1", "id5", "id6"]).then((l) => l.map((a) => a.id)),
      [
        "id6",
      ],
    );
  },
);

backendTest(
  "update writes non-null fields; replace writes all; upsert inserts or replaces; delete by entity",
  async (t) => {
    const { mapper } = await accounts(t);
    await mapper.insert(account("u1", "ann", 10));
    const partial = Object.assign(new Account(), { id: "u1", owner: null, balance: 99 });
    assert.equal(await mapper.update(partial), 1);
    const afterUpdate = await mapper.selectById("u1");
    assert.deepEqual([afterUpdate?.owner, afterUpdate?.balance], ["ann", 99]);
    assert.equal(await mapper.update(account("ghost", "g", 1)), 0, "no document with that key");

    const whole = Object.assign(new Account(), { id: "u1", owner: "bea", balance: null });
    assert.equal(await mapper.replace(whole), 1);
    const afterReplace = await mapper.selectById("u1");
    assert.deepEqual([afterReplace?.owner, afterReplace?.balance], ["bea", null]);

    const fresh = account("", "cal", 5);
    assert.equal(await mapper.upsert(fresh), 1);
    assert.notEqual(fresh.id, "");
    assert.equal(await mapper.upsert(account("u2", "dan", 6)), 1);
    assert.equal(await mapper.upsert(account("u2", "dan", 7)), 1);
    assert.equal((await mapper.selectById("u2"))?.balance, 7);
    assert.equal(await mapper.countAll(), 3);
    assert.equal(await mapper.delete(account("u2", "", 0)), 1);
    assert.equal(await mapper.countAll(), 2);

    await assert.rejects(mapper.update(account("", "x", 1)), (e: unknown) => {
      assert.ok(e instanceof InvalidArgumentError);
      assert.match(e.message, /AccountMapper\.update: the Account's key field id is empty/);
      return true;
    });
  },
);

backendTest(
  "optimistic concurrency: reads fill the version; a stale update/replace/delete raises OptimisticLockError naming the id",
  async (t) => {
    const { mapper, session, sent } = await accounts(t);
    await mapper.insert(account("v1", "ann", 10));
    const first = (await mapper.selectById("v1"))!;
    const second = (await mapper.selectByIds(["v1"]))[0]!;
    assert.match(first.version, /^\d+:\d+$/);
    assert.equal(second.version, first.version);

    first.balance = 11;
    sent.length = 0;
    assert.equal(await mapper.update(first), 1);
    assert.match(sent[0]!.path, /if_seq_no=\d+&if_primary_term=\d+/);

    second.balance = 12;
    await assert.rejects(mapper.update(second), (e: unknown) => {
      assert.ok(e instanceof OptimisticLockError);
      assert.equal(e.id, "v1");
      assert.equal(e.index, `${ACCOUNTS}`);
      assert.equal(e.code, "OPTIMISTIC_LOCK");
      assert.ok(e.cause instanceof ResponseError);
      return true;
    });
    await assert.rejects(mapper.replace(second), OptimisticLockError);
    await assert.rejects(mapper.delete(second), OptimisticLockError);
    assert.equal((await mapper.selectById("v1"))?.balance, 11, "the lost race wrote nothing");

    const current = (await mapper.selectById("v1"))!;
    current.owner = "bea";
    assert.equal(await mapper.replace(current), 1);
    const listed = await session.jdbc().queryForList(
      `POST /${ACCOUNTS}/_search {"seq_no_primary_term": true}`,
      [],
      Account,
    );
    assert.match(listed[0]!.version, /^\d+:\d+$/);
    assert.notEqual(listed[0]!.version, current.version);

    await mapper.deleteById("v1");
    await assert.rejects(mapper.update(current), OptimisticLockError, "deleted since read");
    current.version = "garbage";
    await assert.rejects(mapper.update(current), /not a version read from the index/);
  },
);

backendTest(
  "external versions: replace sends version_type=external; an older version loses",
  async (t) => {
    class Doc {
      id = "";
      text = "";
      rev = 0;
    }
    defineEntity(Doc, { index: DOCS, key: "id", fields: { rev: { version: "external" } } });
    const f = await mapperFixture(t);
    const docs = f.session.createBaseMapper(Doc);
    assert.equal(await docs.replace(Object.assign(new Doc(), { id: "d", text: "v5", rev: 5 })), 1);
    assert.equal((await docs.selectById("d"))?.rev, 5);
    await assert.rejects(
      docs.replace(Object.assign(new Doc(), { id: "d", text: "v4", rev: 4 })),
      (e: unknown) => e instanceof OptimisticLockError && e.id === "d",
    );
    await assert.rejects(docs.update(Object.assign(new Doc(), { id: "d", rev: 6 })), MapperError);
    assert.equal((await docs.selectById("d"))?.text, "v5");
  },
);

backendTest("BaseMapper needs an entity with an index and a key", async (t) => {
  const f = await mapperFixture(t);
  @SimpleMapper()
  class NoEntity extends BaseMapper<Account> {}
  await assert.rejects(
    f.session.createMapper(NoEntity).countAll(),
    /declare it with @SimpleMapper\(\{ entity/,
  );
  class Loose {
    id = "";
  }
  await assert.rejects(f.session.createBaseMapper(Loose).countAll(), /Loose has no index/);
  defineEntity(Loose, { index: LOOSE });
  await assert.rejects(f.session.createBaseMapper(Loose).selectById("1"), /Loose has no key field/);
});

backendTest(
  "by sample: the reference's five documents in pages of 2, 2, 1; real counts; versions filled",
  async (t) => {
    const { mapper, sent } = await accounts(t);
    const five: [string, string, number][] = [
      ["s1", "eve", 10],
      ["s2", "bob", 10],
      ["s3", "cy", 20],
      ["s4", "ann", 10],
      ["s5", "dee", 30],
    ];
    assert.equal(await mapper.insert(five.map(([id, o, b]) => account(id, o, b))), 5);

    const tens = await mapper.listBySample({ balance: 10 });
    assert.deepEqual(tens.map((a) => a.id).sort(), ["s1", "s2", "s4"]);
    assert.ok(tens.every((a) => a instanceof Account && /^\d+:\d+$/.test(a.version)));
    const byInstance = await mapper.listBySample(Object.assign(new Account(), { owner: "cy" }));
    assert.deepEqual(
      byInstance.map((a) => a.id),
      ["s3"],
      "fields at their initial value are ignored",
    );
    assert.equal(await mapper.countBySample({ balance: 10 }), 3);
    assert.equal(await mapper.countBySample({ balance: 10, owner: "bob" }), 1);
    assert.equal(await mapper.countBySample({}), 5);
    assert.equal(await mapper.countBySample({ owner: null }), 0);

    const page = new PageObject(0, 2);
    const sizes: number[] = [];
    const names: string[] = [];
    for (let i = 0; i < 3; i++) {
      sent.length = 0;
      const result = await mapper.pageBySample({}, page, { owner: "asc" });
      assert.equal(sent.filter((s) => s.path.includes("_search")).length, 1, "one search per page");
      assert.equal(result.totalCount, 5);
      assert.equal(result.getTotalPage(), 3);
      sizes.push(result.data.length);
      names.push(...result.data.map((a) => a.owner!));
      page.nextPage();
    }
    assert.deepEqual(sizes, [2, 2, 1]);
    assert.deepEqual(names, ["ann", "bob", "cy", "dee", "eve"]);
    assert.equal(page.totalCount, 5);
    const initPage = await mapper.pageBySample({ balance: 10 }, new PageObject(0, 2));
    assert.deepEqual([
      initPage.totalCount,
      initPage.pageSize,
      initPage.currentPage,
      initPage.totalPage,
    ], [
      3,
      2,
      0,
      2,
    ]);

    await assert.rejects(
      mapper.listBySample({ owner: ["a"] as unknown as string }),
      /AccountMapper\.listBySample: sample field "owner" holds an array/,
    );
  },
);

backendTest("query()/update()/delete()/insert() open lambda builders for the entity", {
  requires: ["by-query"],
}, async (t) => {
  const { mapper } = await accounts(t);
  assert.equal(
    await mapper.insert().applyEntity([account("b1", "ann", 1), account("b2", "bob", 2)])
      .executeSumResult(),
    2,
  );
  const bob = await mapper.query().eq("owner", "bob").queryForObject();
  assert.ok(bob instanceof Account);
  assert.equal(bob.id, "b2");
  assert.match(bob.version, /^\d+:\d+$/);
  assert.equal(await mapper.update().eq("owner", "bob").updateTo("balance", 5).doUpdate(), 1);
  assert.equal((await mapper.selectById("b2"))?.balance, 5);
  assert.equal(await mapper.delete().eq("owner", "ann").doDelete(), 1);
  assert.equal(await mapper.countAll(), 1);
  assert.equal(await mapper.update(account("b2", "bob", 6)), 1, "the write overloads still work");
});
