import assert from "node:assert/strict";
import { PageObject } from "../template/mod.ts";
import { addToSearch } from "./_search_body.ts";
import { MapperError } from "./errors.ts";

const site = { mapper: "M", method: "m", statementId: "ns.m" };
const page = (n: number, size: number) => ({ page: new PageObject(n, size) });

Deno.test("a page adds from, size and track_total_hits first; placeholders and arguments stay", () => {
  const bound = {
    text: 'POST /u/_search {"query": {"term": {"name": ?}}, "sort": ["age"]}',
    args: ["a"],
  };
  const out = addToSearch(bound, page(2, 10), site);
  assert.equal(
    out.text,
    'POST /u/_search {"from":?,"size":?,"track_total_hits":true,"query":{"term":{"name":?}},"sort":["age"]}',
  );
  assert.deepEqual(out.args, [20, 10, "a"]);
  assert.equal(addToSearch(bound, page(3, 10), site).text, out.text, "one text for every page");
});

Deno.test("no body, an empty body, hints and text around the command", () => {
  assert.equal(
    addToSearch({ text: "GET /u/_search", args: [] }, page(0, 5), site).text,
    'GET /u/_search {"from":?,"size":?,"track_total_hits":true}',
  );
  assert.deepEqual(
    addToSearch({ text: "POST /u-{?}/_search\n{ }", args: ["x"] }, page(1, 3), site),
    { text: 'POST /u-{?}/_search {"from":?,"size":?,"track_total_hits":true}', args: ["x", 3, 3] },
  );
  const off = { page: new PageObject(0, 0) };
  assert.deepEqual(
    addToSearch({ text: "  POST /u/_search {}", args: [] }, off, site),
    { text: '  POST /u/_search {"size":?,"track_total_hits":true}', args: [10_000] },
    "page size 0: paging off — every hit up to one request's window, total still tracked",
  );
  assert.deepEqual(
    addToSearch({ text: 'POST /u/_search {"size": 3}', args: [] }, off, site),
    { text: 'POST /u/_search {"track_total_hits":true,"size":3}', args: [] },
    "paging off keeps the text's own size",
  );
});

Deno.test("a whole-body argument gets the members in a copy", () => {
  const doc = { query: { match_all: {} } };
  const out = addToSearch({ text: "POST /u/_search ?", args: [doc] }, page(1, 2), site);
  assert.equal(out.text, "POST /u/_search ?");
  assert.deepEqual(out.args[0], {
    query: { match_all: {} },
    from: 2,
    size: 2,
    track_total_hits: true,
  });
  assert.deepEqual(doc, { query: { match_all: {} } });
  assert.throws(
    () => addToSearch({ text: "POST /u/_search ?", args: [{ size: 1 }] }, page(0, 2), site),
    /body argument fixes "size"/,
  );
});

Deno.test("paging is refused when the text fixes from/size/track_total_hits or pages with hints", () => {
  const refuse = (text: string, pattern: RegExp) =>
    assert.throws(() => addToSearch({ text, args: [] }, page(0, 2), site), (e: unknown) => {
      assert.ok(e instanceof MapperError, String(e));
      assert.match(e.message, /^M\.m \[statement ns\.m\]: /);
      assert.match(e.message, pattern);
      return true;
    });
  refuse('POST /u/_search {"size": 3}', /fixes "size" \(3\)/);
  refuse('POST /u/_search {"query": {}, "from": 0}', /fixes "from"/);
  refuse('POST /u/_search {"track_total_hits": 100}', /fixes "track_total_hits"/);
  refuse("/*+ overwrite_find_limit=3 */ POST /u/_search", /hint overwrite_find_limit/);
  refuse("POST /u/_count", /needs exactly one _search command/);
  refuse("POST /u/_search\nPOST /v/_search", /2 commands/);
  refuse("POST /u/_search {?: 1}", /placeholder as a top-level member name/);
  const kept = addToSearch(
    {
      text: 'POST /u/_search {"track_total_hits": true, "query": {"term": {"size": 1}}}',
      args: [],
    },
    page(0, 2),
    site,
  );
  assert.match(
    kept.text,
    /^POST \/u\/_search \{"from":\?,"size":\?,"track_total_hits":true,"query"/,
  );
  assert.deepEqual(kept.args, [0, 2]);
});

Deno.test("version members are added to searches and skipped elsewhere", () => {
  assert.equal(
    addToSearch(
      { text: 'POST /u/_search {"query": {}}', args: [] },
      { seqNoPrimaryTerm: true },
      site,
    )
      .text,
    'POST /u/_search {"seq_no_primary_term":true,"query":{}}',
  );
  const get = { text: "GET /u/_doc/{?}", args: ["1"] };
  assert.equal(addToSearch(get, { seqNoPrimaryTerm: true }, site), get);
  const already = { text: 'POST /u/_search {"version": true}', args: [] };
  assert.equal(addToSearch(already, { version: true }, site), already);
});
