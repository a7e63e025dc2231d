import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, failure } from "../../tests/support/engine_call.ts";

async function withAlias(): Promise<Engine> {
  const engine = new Engine();
  await call(engine, "PUT", "/_cluster/settings", {
    persistent: { "action.destructive_requires_name": false },
  });
  await call(engine, "PUT", "/index", { aliases: { alias: {} } });
  await call(engine, "PUT", "/index2");
  return engine;
}

async function names(engine: Engine): Promise<string[]> {
  const got = await call(engine, "GET", "/index,index2?ignore_unavailable=true");
  return Object.keys(got).filter((k) => k !== "code").sort();
}

Deno.test("delete index: a bare alias is refused (or skipped with ignore_unavailable), nothing deleted", async () => {
  const engine = await withAlias();
  const bare = await call(engine, "DELETE", "/alias");
  assert.equal(bare.code, 400);
  assert.equal(
    bare.error.reason,
    "The provided expression [alias] matches an alias, specify the corresponding concrete indices instead.",
  );
  assert.equal((await call(engine, "DELETE", "/alias,index2")).code, 400);
  assert.deepEqual(await names(engine), ["index", "index2"]);
  assert.equal((await call(engine, "DELETE", "/alias?ignore_unavailable=true")).code, 200);
  assert.deepEqual(await names(engine), ["index", "index2"]);
  await call(engine, "DELETE", "/alias,index2?ignore_unavailable=true");
  assert.deepEqual(await names(engine), ["index"]);
  engine.close();
});

Deno.test("delete index: a wildcard matches concrete indices only, never the indices of an alias", async () => {
  const engine = await withAlias();
  assert.equal((await call(engine, "DELETE", "/alia*")).acknowledged, true);
  assert.deepEqual(await names(engine), ["index", "index2"]);
  const strict = await call(engine, "DELETE", "/index2,alia*?allow_no_indices=false");
  assert.equal(strict.code, 404);
  assert.equal(strict.error.type, "index_not_found_exception");
  assert.deepEqual(await names(engine), ["index", "index2"]);
  await call(engine, "DELETE", "/alia*,index2");
  assert.deepEqual(await names(engine), ["index"]);
  engine.close();
});

Deno.test("hidden aliases: left out of wildcards unless expand_wildcards asks for hidden; still listed by the alias APIs", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/logs-1/_doc/1?refresh=true", { n: 1 });
  await call(engine, "PUT", "/other/_doc/1?refresh=true", { n: 2 });
  await call(engine, "POST", "/_aliases", {
    actions: [{ add: { index: "logs-1", alias: "hidden-logs", is_hidden: true } }],
  });
  const wild = await call(engine, "POST", "/hidden-*/_search");
  assert.equal(wild.hits.total.value, 0);
  const asked = await call(engine, "POST", "/hidden-*/_search?expand_wildcards=open,hidden");
  assert.equal(asked.hits.total.value, 1);
  const byName = await call(engine, "POST", "/hidden-logs/_search");
  assert.equal(byName.hits.total.value, 1);
  const got = await call(engine, "GET", "/_alias/hidden-logs");
  assert.deepEqual(got["logs-1"].aliases["hidden-logs"], { is_hidden: true });
  const res = await engine.fetch("http://e/_cat/aliases?h=alias,index");
  assert.equal((await res.text()).trim(), "hidden-logs logs-1");
  engine.close();
});

Deno.test("hidden aliases: every index must agree, else 500 illegal_state_exception and nothing changes", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/a", { aliases: { al: { is_hidden: true } } });
  await call(engine, "PUT", "/b");
  const put = await call(engine, "PUT", "/b/_alias/al");
  assert.equal(put.code, 500);
  assert.equal(put.error.type, "illegal_state_exception");
  assert.equal(
    put.error.reason,
    "alias [al] has is_hidden set to true on indices [a] but does not have is_hidden set to true on indices [b]; alias must have the same is_hidden setting on all indices",
  );
  assert.deepEqual((await call(engine, "GET", "/b/_alias")).b.aliases, {});
  // One request that makes them agree is fine, whatever the order of its actions.
  const both = await call(engine, "POST", "/_aliases", {
    actions: [
      { add: { index: "b", alias: "al2" } },
      { add: { index: "b", alias: "al", is_hidden: true } },
      { remove: { index: "a", alias: "al" } },
    ],
  });
  assert.equal(both.acknowledged, true);
  const mixed = await call(engine, "POST", "/_aliases", {
    actions: [
      { add: { index: "a", alias: "al3", is_hidden: true } },
      { add: { index: "b", alias: "al3" } },
      { remove_index: { index: "a" } },
    ],
  });
  assert.equal(mixed.code, 200);
  const created = await call(engine, "PUT", "/c", { aliases: { al: {} } });
  assert.equal(created.code, 500);
  assert.equal((await engine.fetch("http://e/c", { method: "HEAD" })).status, 404);
  engine.close();
});

Deno.test("get alias: missing names listed sorted; hidden indices found through their aliases", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/test_index", { aliases: { test_alias: {} } });
  await call(engine, "PUT", "/.hid", { settings: { "index.hidden": true }, aliases: { h: {} } });
  const res = await call(
    engine,
    "GET",
    "/test_index/_alias/test_alias,non-existent,another-non-existent",
  );
  assert.equal(res.code, 404);
  assert.equal(res.error, "aliases [another-non-existent,non-existent] missing");
  assert.deepEqual(res.test_index.aliases, { test_alias: {} });
  const all = await call(engine, "GET", "/_alias");
  assert.deepEqual(Object.keys(all).filter((k) => k !== "code").sort(), [".hid", "test_index"]);
  engine.close();
});

Deno.test("hidden aliases: a dot pattern reaches a hidden dot alias, and through it a hidden index", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/index1", {
    settings: { index: { hidden: true } },
    aliases: { ".alias1": { is_hidden: true }, alias2: {} },
  });
  const cat = async (path: string): Promise<string> =>
    await (await engine.fetch(`http://e/_cat/indices${path}`)).text();
  assert.equal(await cat("?h=i"), "");
  assert.equal(await cat("/.*?h=i"), "index1\n");
  assert.equal(await cat("/i*?h=i"), "");
  assert.equal(await cat("/alias*?h=i"), "index1\n");
  engine.close();
});

Deno.test("date math in alias names: resolved when an alias is added (path, body, actions, index creation) and when named", async () => {
  const engine = new Engine({ now: () => Date.UTC(2024, 2, 15, 10) });
  await call(engine, "PUT", "/logs", { aliases: { "<created-{now/d}>": {} } });
  await call(engine, "PUT", "/logs/_alias/%3Cday-%7Bnow%2Fd%7D%3E");
  await call(engine, "POST", "/_aliases", {
    actions: [{ add: { index: "logs", alias: "<month-{now/M{yyyy.MM}}>" } }],
  });
  const got = await call(engine, "GET", "/logs/_alias");
  assert.deepEqual(Object.keys(got.logs.aliases).sort(), [
    "created-2024.03.15",
    "day-2024.03.15",
    "month-2024.03",
  ]);
  const named = await call(engine, "GET", "/_alias/%3Cday-%7Bnow%2Fd%7D%3E");
  assert.deepEqual(Object.keys(named.logs.aliases), ["day-2024.03.15"]);
  engine.close();
});

Deno.test("put alias: refusals as the real engines give them", async () => {
  // real ES 9.5.4 / OS 3.8.0 answers, as [status, type, reason] and the error's extra keys
  const expected = {
    elasticsearch: {
      abc: "Unsupported field [abc]",
      hidden: "Unsupported field [is_hidden]",
      inner: "Unsupported field [x]",
      clash:
        "Invalid alias name [ycal]: an index, data stream, ESQL view, or ESQL dataset exists with the same name as the alias",
      clashKeys: ["reason", "root_cause", "type"],
    },
    opensearch: {
      abc: "unknown field [abc]",
      hidden: undefined,
      inner: "unknown field [foo]",
      clash: "Invalid alias name [ycal], an index exists with the same name as the alias",
      clashKeys: ["index", "index_uuid", "reason", "root_cause", "type"],
    },
  };
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const want = expected[flavour];
    const engine = new Engine({ flavour });
    await call(engine, "PUT", "/ycal");
    const put = (body: unknown) => call(engine, "POST", "/ycal/_alias/al1", body);
    assert.deepEqual(failure(await put({ abc: 1 })), [400, "illegal_argument_exception", want.abc]);
    const hidden = await put({ is_hidden: true });
    if (want.hidden) {
      assert.deepEqual(failure(hidden), [400, "illegal_argument_exception", want.hidden]);
    } else assert.equal(hidden.code, 200);
    assert.deepEqual(failure(await put({ routing: "a", foo: { x: 1 } })), [
      400,
      "illegal_argument_exception",
      want.inner,
    ]);
    const indices = [400, "illegal_argument_exception", "[indices] can't be empty"];
    assert.deepEqual(failure(await call(engine, "PUT", "/_alias")), indices);
    assert.deepEqual(failure(await call(engine, "PUT", "/_alias/x")), indices);
    assert.deepEqual(failure(await call(engine, "PUT", "/ycal/_alias")), [
      400,
      "illegal_argument_exception",
      "[alias] can't be empty string",
    ]);
    const star = await call(engine, "PUT", "/ycal/_alias/a*");
    assert.equal(star.error.type, "invalid_alias_name_exception");
    assert.deepEqual(Object.keys(star.error).sort(), ["reason", "root_cause", "type"]);
    const clash = await call(engine, "PUT", "/ycal/_alias/ycal");
    assert.deepEqual(failure(clash), [400, "invalid_alias_name_exception", want.clash]);
    assert.deepEqual(Object.keys(clash.error).sort(), want.clashKeys);
    engine.close();
  }
});

Deno.test("update aliases: an empty aliases list fails in the action parser", async () => {
  // real ES 9.5.4 and OS 3.8.0: x_content_parse_exception "[aliases] failed to parse field
  // [actions]" caused by "[alias_action] failed to parse field [remove]" caused by "[remove]
  // failed to parse field [aliases]" caused by illegal_argument_exception "[aliases] can't be
  // empty"
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = new Engine({ flavour });
    await call(engine, "PUT", "/test_index");
    const r = await call(engine, "POST", "/_aliases", {
      actions: [{ remove: { index: "test_index", aliases: [], must_exist: true } }],
    });
    assert.equal(r.code, 400);
    assert.equal(r.error.root_cause[0].type, "x_content_parse_exception");
    const chain: string[] = [];
    for (let e = r.error; e; e = e.caused_by) chain.push(e.type);
    assert.deepEqual(chain, [
      "x_content_parse_exception",
      "x_content_parse_exception",
      "x_content_parse_exception",
      "illegal_argument_exception",
    ]);
    engine.close();
  }
});
