import assert from "node:assert/strict";
import {
  BindError,
  CommandSyntaxError,
  type Connection,
  DataAccessError,
  DataSource,
  IllegalStateError,
  IncorrectResultSizeError,
  type ResultSet,
} from "../driver/mod.ts";
import { JdbcTemplate } from "./jdbc_template.ts";
import { listMeta } from "./result_reading.ts";
import { RowMappingError } from "./row_mapping.ts";
import { Column, Table } from "./entity.ts";

interface Sent {
  method: string;
  url: string;
  body: string | undefined;
}

function fakeJdbc(reply: (req: Sent) => unknown, status = 200) {
  const sent: Sent[] = [];
  const fetch = (url: string, init: RequestInit) => {
    const req = { method: init.method ?? "GET", url, body: init.body as string | undefined };
    sent.push(req);
    return Promise.resolve(Response.json(reply(req), { status }));
  };
  return { jdbc: new JdbcTemplate(new DataSource({ nodes: ["http://es.local"], fetch })), sent };
}

const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;

const hits = (...docs: [string, unknown][]) => ({
  took: 3,
  hits: {
    total: { value: docs.length, relation: "eq" },
    hits: docs.map(([id, source]) => ({ _id: id, _source: source })),
  },
});

Deno.test("named arguments travel encoded by the driver", async () => {
  const { jdbc, sent } = fakeJdbc(() => hits(["1", { name: "a" }]));
  const rows = await jdbc.queryForList(
    'POST /${idx}/_search?routing=#{r}&preference=_local {"query":{"term":{"name":#{name}}}}',
    { idx: "users", r: "x/y", name: 'quote " here' },
  );
  assert.equal(pathOf(sent[0]!.url), "/users/_search?routing=x%2Fy&preference=_local");
  assert.deepEqual(JSON.parse(sent[0]!.body!), { query: { term: { name: 'quote " here' } } });
  assert.deepEqual(rows, [{ _ID: "1", _DOC: '{"name":"a"}' }]);
  assert.deepEqual(Object.keys(rows), ["0"]);
  assert.equal(Object.getPrototypeOf(rows), Array.prototype);
  assert.equal(listMeta(rows).total?.value, 1);
  assert.equal(listMeta(rows).took, 3);
  assert.throws(() => listMeta(rows.slice()), /not returned by a read/);
  assert.equal(JSON.stringify(rows), '[{"_ID":"1","_DOC":"{\\"name\\":\\"a\\"}"}]');
});

Deno.test("listMeta: read on first use, the same plain metadata each time", async () => {
  const big = '{"took":2,"hits":{"total":{"value":2,"relation":"eq"},"hits":[' +
    '{"_id":"a","_source":{"n":9007199254740993,"s":"\\u00e9\\"\\n","u":"\u00e9\u{1F600}"}},' +
    '{"_id":"b"}]},"aggregations":{"m":{"value":1}}}';
  const fetch = () =>
    Promise.resolve(new Response(big, { headers: { "content-type": "application/json" } }));
  const own = new JdbcTemplate(new DataSource({ nodes: ["http://es.local"], fetch }));
  const rows = await own.queryForList("POST /i/_search");
  // Exact digits, escapes written as JSON.stringify writes them, no `_source`: null.
  assert.deepEqual(rows, [
    { _ID: "a", _DOC: '{"n":9007199254740993,"s":"\u00e9\\"\\n","u":"\u00e9\u{1F600}"}' },
    { _ID: "b", _DOC: null },
  ]);
  const meta = listMeta(rows);
  assert.equal(listMeta(rows), meta);
  assert.deepEqual({ ...meta }, {
    total: { value: 2, relation: "eq" },
    took: 2,
    aggregations: { m: { value: 1 } },
    raw: meta.raw,
  });
  assert.deepEqual(Object.keys(meta), ["total", "took", "aggregations", "raw"]);
  const raw = meta.raw as { hits: { hits: { _source?: { n: unknown } }[] } };
  assert.equal(raw.hits.hits[0]!._source!.n, 9007199254740993n);
});

Deno.test("entity instances bound as values become documents", async () => {
  @Table("users")
  class User {
    @Column({ primary: true })
    id = "";
    @Column("user_name")
    name = "";
  }
  const { jdbc, sent } = fakeJdbc(() => ({ _id: "7", result: "created" }));
  const u = Object.assign(new User(), { id: "7", name: "zoe" });
  assert.equal(await jdbc.executeUpdate("PUT /users/_doc/#{u.id} #{u}", { u }), 1);
  assert.deepEqual(JSON.parse(sent[0]!.body!), { id: "7", user_name: "zoe" });
  await jdbc.executeUpdate("PUT /users/_doc/{?} ?", ["7", u]);
  assert.deepEqual(JSON.parse(sent[1]!.body!), { id: "7", user_name: "zoe" });
});

Deno.test("queryForObject: 0 rows null, 2 rows IncorrectResultSizeError with both numbers", async () => {
  let n = 0;
  const { jdbc } = fakeJdbc(() => (n++ === 0 ? hits() : hits(["a", {}], ["b", {}])));
  assert.equal(await jdbc.queryForObject('POST /u/_search {"query":{"match_all":{}}}'), null);
  await assert.rejects(jdbc.queryForObject('POST /u/_search {"query":{"match_all":{}}}'), (e) => {
    assert.ok(e instanceof IncorrectResultSizeError);
    assert.equal(e.expected, 1);
    assert.equal(e.actual, 2);
    assert.match(e.message, /1.*2/);
    return true;
  });
});

Deno.test("bad input: missing named argument names it and the statement", async () => {
  const { jdbc, sent } = fakeJdbc(() => hits());
  const text = 'POST /u/_search {"query": {"term": {"name": #{name}}}}';
  await assert.rejects(jdbc.queryForList(text, { nam: "typo" }), (e) => {
    assert.ok(e instanceof BindError);
    assert.equal(e.argumentName, "name");
    assert.ok(e.message.includes(text));
    return true;
  });
  assert.equal(sent.length, 0);
});

Deno.test("bad input: ${} value with a space, quote or slash", async () => {
  const { jdbc } = fakeJdbc(() => hits());
  for (const index of ["my index", "a'b", 'a"b', "../etc", "a/b"]) {
    await assert.rejects(jdbc.queryForList("POST /${index}/_search", { index }), (e) => {
      assert.ok(e instanceof BindError);
      assert.equal(e.argumentName, "index");
      assert.match(e.message, /identifier/);
      return true;
    });
  }
});

Deno.test("bad input: a rule with the wrong number of parts", async () => {
  const { jdbc } = fakeJdbc(() => hits());
  await assert.rejects(
    jdbc.queryForList('POST /u/_search\n{"query": @{if, a}}', { a: 1 }),
    (e) => e instanceof CommandSyntaxError && e.line === 2 && e.column === 11,
  );
});

Deno.test("bad input: a RowMapper that throws keeps the row number and the cause", async () => {
  const { jdbc } = fakeJdbc(() => hits(["a", {}], ["b", {}], ["c", {}]));
  const boom = new RangeError("bad row");
  await assert.rejects(
    jdbc.query('POST /u/_search {"query": {"match_all": {}}}', [], (rs, n) => {
      if (n === 2) throw boom;
      return rs.getString("_ID");
    }),
    (e) => {
      assert.ok(e instanceof RowMappingError);
      assert.equal(e.row, 2);
      assert.equal(e.cause, boom);
      assert.equal(e.code, "MAPPING");
      return true;
    },
  );
});

Deno.test("bad input: queryForMap on an update command", async () => {
  const { jdbc } = fakeJdbc(() => ({ _id: "1", result: "created" }));
  await assert.rejects(
    jdbc.queryForMap('PUT /u/_doc/1 {"a": 1}'),
    (e) =>
      e instanceof IllegalStateError && /queryForMap expects rows.*executeUpdate/.test(e.message),
  );
});

Deno.test("bad input: queryForNumber on rows without a number", async () => {
  const { jdbc } = fakeJdbc(() => hits(["a", { x: 1 }]));
  await assert.rejects(
    jdbc.queryForNumber('POST /u/_search {"query": {"match_all": {}}}'),
    (e) => e instanceof DataAccessError && e.code === "MAPPING" && /_ID, _DOC/.test(e.message),
  );
});

Deno.test("query shapes: RowMapper object, extractor, row callback", async () => {
  const { jdbc } = fakeJdbc(() => hits(["a", { n: 1 }], ["b", { n: 2 }]));
  const cmd = 'POST /u/_search {"query": {"match_all": {}}}';
  const ids: string[] = await jdbc.query(cmd, [], { rowMapper: (rs) => rs.getString("_ID")! });
  assert.deepEqual(ids, ["a", "b"]);
  const sum = await jdbc.query(cmd, [], {
    extractor: (rs) => {
      let s = 0;
      while (rs.next()) s += JSON.parse(rs.getString("_DOC")!).n;
      return s;
    },
  });
  assert.equal(sum, 3);
});

Deno.test("a JdbcTemplate over a connection keeps it open", async () => {
  const fetch = () => Promise.resolve(Response.json({ count: 5 }));
  const ds = new DataSource({ nodes: ["http://es.local"], fetch });
  await using conn = await ds.getConnection();
  const jdbc = new JdbcTemplate(conn);
  assert.equal(await jdbc.queryForNumber("POST /u/_count"), 5);
  assert.equal(await jdbc.queryForNumber("POST /u/_count"), 5);
});

Deno.test("tagged template binds values like ? and {?}", async () => {
  const { jdbc, sent } = fakeJdbc(() => hits(["x y", { name: "n" }]));
  const id = "x y";
  const name = "n";
  const rows = await jdbc
    .command`POST /u/_search?routing=${id} {"query": {"term": {"name": ${name}}}}`
    .queryForList();
  assert.equal(rows.length, 1);
  assert.equal(pathOf(sent[0]!.url), "/u/_search?routing=x%20y");
  assert.deepEqual(JSON.parse(sent[0]!.body!), { query: { term: { name: "n" } } });
});

Deno.test("over a DataSource: one connection per call, closed after success and after failure", async () => {
  const fetch = () => Promise.resolve(Response.json({ count: 1 }));
  const real = new DataSource({ nodes: ["http://es.local"], fetch });
  let opened = 0;
  let closed = 0;
  const counting = {
    async getConnection() {
      opened++;
      const conn = await real.getConnection();
      const close = conn.close.bind(conn);
      conn.close = () => {
        closed++;
        return close();
      };
      return conn;
    },
  } as unknown as DataSource;
  const jdbc = new JdbcTemplate(counting);
  assert.equal(await jdbc.queryForNumber("POST /u/_count"), 1);
  await assert.rejects(jdbc.queryForList("POST /u/_count #{missing}", {}), BindError);
  await assert.rejects(
    jdbc.queryForMap("POST /u/_count", { a: 1 }).then(() =>
      jdbc.query("POST /u/_count", [], () => {
        throw new Error("x");
      })
    ),
    RowMappingError,
  );
  assert.equal(opened, 3);
  assert.equal(closed, 3);
});

Deno.test("mapping rows without _DOC to an entity says which columns there are", async () => {
  const { jdbc } = fakeJdbc(() => ({ count: 3 }));
  class Thing {
    n = 0;
  }
  await assert.rejects(
    jdbc.queryForObject("POST /u/_count", [], Thing),
    (e) =>
      e instanceof DataAccessError && e.code === "MAPPING" &&
      /no _DOC column \(columns: COUNT\)/.test(e.message),
  );
});

Deno.test("tagged commands take every row-handler shape", async () => {
  const { jdbc } = fakeJdbc(() => hits(["a", {}], ["b", {}]));
  const size = 2;
  const cmd = jdbc.command`POST /u/_search {"size": ${size}}`;
  assert.deepEqual(await cmd.query((rs) => rs.getString("_ID")), ["a", "b"]);
  assert.equal(await cmd.query({ extractor: (rs) => rs.rowCount }), 2);
  assert.equal(await cmd.query({ rowCallback: () => {} }), 2);
  assert.deepEqual(cmd.bound.args, [2]);
});

const SEARCH = () =>
  Promise.resolve(Response.json({
    took: 1,
    hits: { total: { value: 1, relation: "eq" }, hits: [{ _id: "1", _source: { n: 1 } }] },
  }));

/** A DataSource whose connections close later than their close() call returns. */
class SlowClosing extends DataSource {
  readonly events: string[] = [];
  override async getConnection(): Promise<Connection> {
    const conn = await super.getConnection();
    const close = conn.close.bind(conn);
    conn.close = async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      this.events.push("closed");
      return close();
    };
    return conn;
  }
}

Deno.test("a connection with its own close() is waited for before the call settles", async () => {
  const ds = new SlowClosing({ nodes: ["http://es"], fetch: SEARCH });
  const jdbc = new JdbcTemplate(ds);
  const rows = await jdbc.queryForList("POST /i/_search");
  ds.events.push("returned");
  assert.deepEqual(rows, [{ _ID: "1", _DOC: '{"n":1}' }]);
  await jdbc.query("POST /i/_search", [], { extractor: (rs) => Promise.resolve(rs.rowCount) });
  ds.events.push("returned");
  assert.deepEqual(ds.events, ["closed", "returned", "closed", "returned"]);
});

/** A template over a DataSource that records every connection it opens. */
function recordingTemplate(): { jdbc: JdbcTemplate; opened: Connection[] } {
  const opened: Connection[] = [];
  class Recording extends DataSource {
    override async getConnection(): Promise<Connection> {
      const conn = await super.getConnection();
      opened.push(conn);
      return conn;
    }
  }
  return { jdbc: new JdbcTemplate(new Recording({ nodes: ["http://es"], fetch: SEARCH })), opened };
}

Deno.test("the driver's connection is closed when the call settles, without a wait", async () => {
  const { jdbc, opened } = recordingTemplate();
  assert.equal((await jdbc.queryForList("POST /i/_search")).length, 1);
  await assert.rejects(jdbc.queryForList("POST /i/_refresh"), IllegalStateError);
  assert.equal(opened.length, 2);
  assert.ok(opened.every((c) => c.isClosed()));
});

Deno.test("an async reader keeps the connection open until it settles", async () => {
  const { jdbc, opened } = recordingTemplate();
  const seen = await jdbc.query("POST /i/_search", [], {
    extractor: async (rs) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return { open: !opened[0]!.isClosed(), rows: rs.rowCount };
    },
  });
  assert.deepEqual(seen, { open: true, rows: 1 });
  assert.equal(opened[0]!.isClosed(), true);
});

Deno.test("a subclass of DataSource that overrides getConnection is asked on every call", async () => {
  const fetch = () => Promise.resolve(Response.json({ count: 2 }));
  let asked = 0;
  class Counting extends DataSource {
    override getConnection(): Promise<Connection> {
      asked++;
      return super.getConnection();
    }
  }
  const jdbc = new JdbcTemplate(new Counting({ nodes: ["http://es.local"], fetch }));
  for (let i = 0; i < 3; i++) assert.equal(await jdbc.queryForNumber("POST /u/_count"), 2);
  assert.equal(asked, 3);
});

Deno.test("reads on the driver's DataSource: concurrent calls, and every command of a text runs", async () => {
  const sent: string[] = [];
  const fetch = (url: string, init: RequestInit) => {
    sent.push(`${init.method} ${new URL(url).pathname}`);
    return Promise.resolve(
      url.endsWith("/_count")
        ? Response.json({ count: 4 })
        : url.includes("/_doc/")
        ? Response.json({ _id: "1", result: "created" })
        : Response.json({ took: 1, hits: { total: 1, hits: [{ _id: "a", _source: { n: 1 } }] } }),
    );
  };
  const jdbc = new JdbcTemplate(new DataSource({ nodes: ["http://es.local"], fetch }));
  const all = await Promise.all(
    Array.from({ length: 8 }, () => jdbc.queryForList("POST /u/_search")),
  );
  assert.deepEqual(all.map((rows) => rows.length), [1, 1, 1, 1, 1, 1, 1, 1]);
  assert.deepEqual(all[0], [{ _ID: "a", _DOC: '{"n":1}' }]);
  assert.equal(listMeta(all[0]!).took, 1);
  sent.length = 0;
  // The first result is the rows of the search; the count after it is sent all the same.
  const rows = await jdbc.queryForList("POST /u/_search\nPOST /u/_count");
  assert.deepEqual(rows, [{ _ID: "a", _DOC: '{"n":1}' }]);
  assert.deepEqual(sent, ["POST /u/_search", "POST /u/_count"]);
  await assert.rejects(jdbc.queryForList("PUT /u/_doc/1 {}"), IllegalStateError);
});

Deno.test("reads after the first (on the shared connection) keep their errors and results", async () => {
  const { jdbc, sent } = fakeJdbc((req) =>
    req.url.includes("_doc") ? { _id: "1", result: "created" } : hits(["a", { n: 1 }])
  );
  const text = 'POST /u/_search {"query": {"term": {"name": #{name}}}}';
  assert.equal((await jdbc.queryForList(text, { name: "x" })).length, 1); // opens the connection
  // A missing named argument, told in the caller's terms, and nothing sent.
  await assert.rejects(jdbc.queryForList(text, { nam: "typo" }), (e) => {
    assert.ok(e instanceof BindError);
    assert.equal(e.argumentName, "name");
    return true;
  });
  // Too few positional arguments: the driver's BindError, rejected (not thrown).
  const pending = jdbc.queryForList('POST /u/_search {"query": {"term": {"name": ?}}}', []);
  assert.ok(pending instanceof Promise);
  await assert.rejects(pending, BindError);
  assert.equal(sent.length, 1);
  // A write where rows are due, and a row mapper that throws.
  await assert.rejects(
    jdbc.queryForList('PUT /u/_doc/1 {"a": 1}'),
    (e) =>
      e instanceof IllegalStateError && /queryForList expects rows.*count \(1\)/.test(e.message),
  );
  await assert.rejects(
    jdbc.query(text, { name: "x" }, () => {
      throw new RangeError("bad row");
    }),
    RowMappingError,
  );
  const rows = await jdbc.queryForList(text, { name: "y" });
  assert.deepEqual(rows, [{ _ID: "a", _DOC: '{"n":1}' }]);
  assert.deepEqual([listMeta(rows).total, listMeta(rows).took], [{ value: 1, relation: "eq" }, 3]);
  assert.equal(sent.length, 4);
});

Deno.test("query's handlers: a function, one named method called on its object, or a TypeError", async () => {
  const { jdbc } = fakeJdbc(() => hits(["1", { n: 1 }], ["2", { n: 2 }]));
  const text = "POST /u/_search";
  assert.deepEqual(await jdbc.query(text, [], (rs, n) => `${n}:${rs.getString("_ID")}`), [
    "0:1",
    "1:2",
  ]);
  const mapper = {
    prefix: "row",
    mapRow(this: { prefix: string }, rs: ResultSet, n: number) {
      return `${this.prefix}${n}:${rs.getString("_ID")}`;
    },
  };
  assert.deepEqual(await jdbc.query(text, [], mapper), ["row0:1", "row1:2"]);
  const seen: string[] = [];
  assert.equal(
    await jdbc.query(text, [], { processRow: (rs) => void seen.push(rs.getString("_ID")!) }),
    2,
  );
  assert.deepEqual(seen, ["1", "2"]);
  assert.equal(await jdbc.query(text, [], { extractor: (rs) => rs.rowCount }), 2);
  assert.equal(
    await jdbc.query(text, [], { extractData: (rs) => Promise.resolve(rs.rowCount) }),
    2,
  );
  await assert.rejects(
    jdbc.query(text, [], { extractor: () => Promise.reject(new RangeError("late")) }),
    RangeError,
  );
  await assert.rejects(
    jdbc.query(text, [], (_rs, n) => {
      if (n === 1) throw new RangeError("second row");
      return n;
    }),
    (e: unknown) => e instanceof RowMappingError && e.row === 1,
  );
  const refused = [
    [{ rowMapper: () => 1, extractor: () => 2 }, /has rowMapper and extractor; give exactly one/],
    [{}, /the handler is an object with no keys/],
    [{ a: 1 }, /keys "a" but no function under a known name/],
    [null, /the handler is null/],
    ["x", /the handler is string/],
  ] as const;
  for (const [handler, message] of refused) {
    await assert.rejects(jdbc.query(text, [], handler as never), (e: unknown) => {
      assert.ok(e instanceof TypeError, String(e));
      assert.match(e.message, message);
      return true;
    });
  }
});
