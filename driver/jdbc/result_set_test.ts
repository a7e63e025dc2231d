import assert from "node:assert/strict";
import { ResultSet, rowOfHit, ROWS_OF_HITS, takeDocHits } from "./result_set.ts";
import { IllegalStateError } from "../errors.ts";
import { JsonCell } from "./_json_cell.ts";

function sample(): ResultSet {
  return new ResultSet(["_ID", "n", "flag", "doc"], [
    ["1", 12, true, new JsonCell({ a: [1] })],
    ["2", "3.5", "false", null],
  ], { took: 5, scrollId: "s1" });
}

Deno.test("cursor, getters by label (case-insensitive fallback) and 1-based index", () => {
  const rs = sample();
  assert.throws(() => rs.getString(1), /call next\(\)/);
  assert.ok(rs.next());
  assert.equal(rs.getRowNumber(), 1);
  assert.equal(rs.getString("_ID"), "1");
  assert.equal(rs.getString("_id"), "1");
  assert.equal(rs.getNumber(2), 12);
  assert.equal(rs.getString("n"), "12");
  assert.equal(rs.getBoolean("flag"), true);
  assert.equal(rs.getObject("doc"), '{"a":[1]}');
  assert.deepEqual(rs.getJson("doc"), { a: [1] });
  assert.equal(rs.wasNull(), false);
  assert.ok(rs.next());
  assert.equal(rs.getNumber("n"), 3.5);
  assert.equal(rs.getBoolean("flag"), false);
  assert.equal(rs.getJson("doc"), null);
  assert.equal(rs.wasNull(), true);
  assert.equal(rs.getObject("doc"), null);
  assert.equal(rs.next(), false);
  assert.equal(rs.next(), false);
  assert.throws(() => rs.getString(1), /already returned false/);
  assert.equal(rs.took, 5);
  assert.equal(rs.scrollId, "s1");
  assert.equal(rs.total, null);
});

Deno.test("bad columns and bad conversions say what to do", () => {
  const rs = sample();
  rs.next();
  assert.throws(
    () => rs.getString("nope"),
    (e: unknown) => e instanceof IllegalStateError && /_ID, n, flag, doc/.test(e.message),
  );
  assert.throws(() => rs.getString(0), /1-based/);
  assert.throws(() => rs.getString(5), /4 column/);
  assert.throws(() => rs.getNumber("_ID") && rs.getNumber("doc"), /not a number/);
  assert.throws(() => rs.getBoolean("n"), /not a boolean/);
  const bad = new ResultSet(["x"], [["{bad"]]);
  bad.next();
  assert.throws(() => bad.getJson("x"), /does not hold JSON text/);
});

Deno.test("iteration and toArray give plain objects without moving the cursor", () => {
  const rs = sample();
  const all = [...rs];
  assert.equal(all.length, 2);
  assert.deepEqual(all[1], { _ID: "2", n: "3.5", flag: "false", doc: null });
  assert.deepEqual(rs.toArray(), all);
  assert.equal(rs.rowCount, 2);
  assert.ok(rs.next());
  assert.deepEqual(rs.currentRow(), { _ID: "1", n: 12, flag: true, doc: '{"a":[1]}' });
  const odd = new ResultSet(["__proto__"], [["x"]]);
  assert.equal(Object.keys(odd.toArray()[0]!).length, 1);
  rs.close();
  assert.equal(rs.isClosed(), true);
  assert.throws(() => rs.next(), IllegalStateError);
});

Deno.test("getInnerHits: the named inner hits of the current hit as a result set with their metadata", () => {
  const hit = {
    _id: "1",
    _source: {},
    inner_hits: {
      good: {
        hits: {
          total: { value: 2, relation: "eq" },
          hits: [
            {
              _id: "1",
              _nested: { field: "reviews", offset: 0 },
              _score: 2,
              _source: { stars: 5 },
            },
            { _id: "1", _score: 1, _source: { stars: 4 } },
          ],
        },
      },
    },
  };
  const rs = new ResultSet(["_ID", "_DOC"], [["1", "{}"]], { hits: [hit] });
  rs.next();
  const inner = rs.getInnerHits("good");
  assert.deepEqual(inner.total, { value: 2, relation: "eq" });
  assert.ok(inner.next());
  assert.equal(inner.getString("_DOC"), '{"stars":5}');
  assert.equal(inner.getScore(), 2);
  assert.ok(inner.next());
  assert.equal(inner.getScore(), 1);
  assert.equal(inner.next(), false);
  assert.equal(rs.getInnerHits("bad").rowCount, 0);
  assert.deepEqual(Object.keys(rs.getHit().innerHits ?? {}), ["good"]);
});

Deno.test("rows read from the hits: toArray, the cursor and the hit getters agree", () => {
  const hits = [
    { _id: "a", _score: 2, _source: { n: 9007199254740993n, tags: ["x"] } },
    { _id: 7, _source: null },
  ];
  const rs = new ResultSet(["_ID", "_DOC"], ROWS_OF_HITS, { hits, total: null });
  assert.equal(rs.rowCount, 2);
  assert.deepEqual(rs.toArray(), [
    { _ID: "a", _DOC: '{"n":9007199254740993,"tags":["x"]}' },
    { _ID: "7", _DOC: null },
  ]);
  assert.ok(rs.next());
  assert.equal(rs.getString("_DOC"), '{"n":9007199254740993,"tags":["x"]}');
  assert.equal(rs.getLong("n"), 9007199254740993n);
  assert.equal(rs.getScore(), 2);
  assert.ok(rs.next());
  assert.equal(rs.getString("_ID"), "7");
  assert.equal(rs.getJson("_DOC"), null);
  assert.equal(rs.next(), false);
  assert.deepEqual([...rs].map((row) => row._ID), ["a", "7"]);
});

Deno.test("takeDocHits gives the hits after the cursor and moves it past them", () => {
  const hits = [
    { _id: "1", _source: { a: 1 }, _score: 2 },
    { _id: 7, _source: { b: [2] } },
    { _source: "not an object" },
  ];
  const fresh = () => new ResultSet(["_ID", "_DOC"], ROWS_OF_HITS, { hits, total: null });
  const all = fresh();
  assert.equal(takeDocHits(all), hits, "the answer's own list when nothing was read");
  assert.equal(all.next(), false, "the cursor is past the last row");
  assert.deepEqual(takeDocHits(all), []);

  const rest = fresh();
  rest.next();
  assert.equal(rest.getString("_ID"), "1");
  assert.deepEqual(takeDocHits(rest), hits.slice(1));
  assert.equal(rest.next(), false);

  // The rows the cursor would have read, the same from the hit.
  const byCursor = fresh().toArray();
  assert.deepEqual(hits.map(rowOfHit), byCursor);
  assert.deepEqual(byCursor[2], { _ID: "", _DOC: null });

  assert.equal(takeDocHits(new ResultSet(["_ID", "_DOC"], [["1", null]])), undefined);
  const closed = fresh();
  closed.close();
  assert.throws(() => takeDocHits(closed), IllegalStateError);
});

Deno.test("a search's _ID and _DOC read by the cursor from the hits, as the rows give them", () => {
  const source = { name: "ann", big: 12345678901234567890n };
  const hits = [{ _id: 7, _source: source }, { _id: "b" }, { _source: [1] }];
  const rs = new ResultSet(["_ID", "_DOC"], ROWS_OF_HITS, { hits, total: null });
  const read = () => [
    rs.getString("_ID"),
    rs.getObject(1),
    rs.getString("_DOC"),
    rs.getString(2),
    rs.getJson("_DOC"),
    rs.wasNull(),
  ];
  rs.next();
  assert.deepEqual(read(), [
    "7",
    "7",
    '{"name":"ann","big":12345678901234567890}',
    '{"name":"ann","big":12345678901234567890}',
    source,
    false,
  ]);
  assert.equal(rs.getJson("_DOC"), source, "the hit's own source, not a copy");
  rs.next();
  assert.deepEqual(read(), ["b", "b", null, null, null, true]);
  // Rows made meanwhile (currentRow) read the same.
  assert.deepEqual(rs.currentRow(), { _ID: "b", _DOC: null });
  rs.next();
  assert.deepEqual(read(), ["", "", "[1]", "[1]", [1], false]);
  assert.equal(rs.getString("_id"), "", "other spellings of the label still resolve");
  assert.equal(rs.next(), false);
  assert.throws(() => rs.getString("_ID"), IllegalStateError);
});
