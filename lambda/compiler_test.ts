// Golden tests: the exact command text and arguments of every operator and of combinations,
// compiled without any I/O. `inline()` substitutes the arguments to check their order too.
import assert from "node:assert/strict";
import { DataSource } from "../driver/mod.ts";
import type { BoundTemplate } from "../template/mod.ts";
import { LambdaTemplate } from "./lambda_template.ts";
import { escapeWildcard } from "./compiler.ts";

const noFetch = () => Promise.reject(new Error("toCommand must not do I/O"));
const lambda = new LambdaTemplate(new DataSource({ nodes: ["http://es.local"], fetch: noFetch }));
const users = () => lambda.query("users");

/** The body with every `?` replaced by its argument (JSON), parsed. Checks count and order. */
function inline(bound: BoundTemplate): unknown {
  const args = [...bound.args];
  const space = bound.text.indexOf(" {");
  const path = bound.text.slice(0, space);
  const pathArgs = (path.match(/\{\?\}/g) ?? []).length;
  args.splice(0, pathArgs);
  let i = 0;
  const body = bound.text.slice(space + 1).replace(/\?/g, () => {
    assert.ok(i < args.length, `more placeholders than arguments in ${bound.text}`);
    return JSON.stringify(args[i++]);
  });
  assert.equal(i, args.length, `more arguments than placeholders in ${bound.text}`);
  return JSON.parse(body);
}

/** The query of a search command, arguments inlined. */
function query(b: { toCountCommand(): BoundTemplate }): unknown {
  return (inline(b.toCountCommand()) as { query: unknown }).query;
}

const filter = (...c: unknown[]) => ({ bool: { filter: c } });
const mustNot = (c: unknown) => ({ bool: { must_not: [c] } });

Deno.test("golden: every leaf operator, exact text and arguments", () => {
  const cases: [string, BoundTemplate, unknown[]][] = [
    ["eq", users().eq("a", "x").toCountCommand(), ["x"]],
    ["ne", users().ne("a", 1).toCountCommand(), [1]],
    ["gt", users().gt("a", 1).toCountCommand(), [1]],
    ["ge", users().ge("a", 1).toCountCommand(), [1]],
    ["lt", users().lt("a", 1).toCountCommand(), [1]],
    ["le", users().le("a", 1).toCountCommand(), [1]],
    ["in", users().in("a", [1, 2]).toCountCommand(), [[1, 2]]],
    ["notIn", users().notIn("a", ["x"]).toCountCommand(), [["x"]]],
    ["between", users().between("a", 1, 9).toCountCommand(), [1, 9]],
    ["notBetween", users().notBetween("a", 1, 9).toCountCommand(), [1, 9]],
    ["isNull", users().isNull("a").toCountCommand(), []],
    ["isNotNull", users().isNotNull("a").toCountCommand(), []],
    ["like contains", users().like("a", "b*c").toCountCommand(), ["*b\\*c*"]],
    ["like prefix", users().like("a", "ab%").toCountCommand(), ["ab"]],
    ["like suffix", users().like("a", "%ab").toCountCommand(), ["*ab"]],
    ["likeRight", users().likeRight("a", "5%").toCountCommand(), ["5%"]],
    ["likeLeft", users().likeLeft("a", "?").toCountCommand(), ["*\\?"]],
    ["notLike", users().notLike("a", "%x%").toCountCommand(), ["*x*"]],
    ["match", users().match("a", "quick fox").toCountCommand(), ["quick fox"]],
    ["matchPhrase", users().matchPhrase("a", "quick fox").toCountCommand(), ["quick fox"]],
  ];
  const texts = Object.fromEntries(cases.map(([name, b, args]) => {
    assert.deepEqual(b.args, ["users", ...args], name);
    return [name, b.text.replace("POST /{?}/_count ", "")];
  }));
  assert.deepEqual(texts, {
    "eq": '{"query":{"bool":{"filter":[{"term":{"a":?}}]}}}',
    "ne": '{"query":{"bool":{"filter":[{"bool":{"must_not":[{"term":{"a":?}}]}}]}}}',
    "gt": '{"query":{"bool":{"filter":[{"range":{"a":{"gt":?}}}]}}}',
    "ge": '{"query":{"bool":{"filter":[{"range":{"a":{"gte":?}}}]}}}',
    "lt": '{"query":{"bool":{"filter":[{"range":{"a":{"lt":?}}}]}}}',
    "le": '{"query":{"bool":{"filter":[{"range":{"a":{"lte":?}}}]}}}',
    "in": '{"query":{"bool":{"filter":[{"terms":{"a":?}}]}}}',
    "notIn": '{"query":{"bool":{"filter":[{"bool":{"must_not":[{"terms":{"a":?}}]}}]}}}',
    "between": '{"query":{"bool":{"filter":[{"range":{"a":{"gte":?,"lte":?}}}]}}}',
    "notBetween":
      '{"query":{"bool":{"filter":[{"bool":{"must_not":[{"range":{"a":{"gte":?,"lte":?}}}]}}]}}}',
    "isNull": '{"query":{"bool":{"filter":[{"bool":{"must_not":[{"exists":{"field":"a"}}]}}]}}}',
    "isNotNull": '{"query":{"bool":{"filter":[{"exists":{"field":"a"}}]}}}',
    "like contains": '{"query":{"bool":{"filter":[{"wildcard":{"a":{"value":?}}}]}}}',
    "like prefix": '{"query":{"bool":{"filter":[{"prefix":{"a":{"value":?}}}]}}}',
    "like suffix": '{"query":{"bool":{"filter":[{"wildcard":{"a":{"value":?}}}]}}}',
    "likeRight": '{"query":{"bool":{"filter":[{"prefix":{"a":{"value":?}}}]}}}',
    "likeLeft": '{"query":{"bool":{"filter":[{"wildcard":{"a":{"value":?}}}]}}}',
    "notLike":
      '{"query":{"bool":{"filter":[{"bool":{"must_not":[{"wildcard":{"a":{"value":?}}}]}}]}}}',
    "match": '{"query":{"match":{"a":?}}}',
    "matchPhrase": '{"query":{"match_phrase":{"a":?}}}',
  });
});

Deno.test("golden: no condition is match_all; eq/ne null are isNull/isNotNull", () => {
  assert.deepEqual(users().toCountCommand(), {
    text: 'POST /{?}/_count {"query":{"match_all":{}}}',
    args: ["users"],
  });
  assert.deepEqual(query(users().eq("a", null)), filter(mustNot({ exists: { field: "a" } })));
  assert.deepEqual(query(users().ne("a", null)), filter({ exists: { field: "a" } }));
});

Deno.test("golden: or() between conditions binds looser than and (a OR (b AND c))", () => {
  const q = users().eq("a", 1).or().eq("b", 2).eq("c", 3);
  assert.deepEqual(query(q), {
    bool: {
      should: [{ term: { a: 1 } }, filter({ term: { b: 2 } }, { term: { c: 3 } })],
      minimum_should_match: 1,
    },
  });
});

Deno.test("golden: or inside and, not inside or, nested three deep", () => {
  const q = users()
    .eq("a", 1)
    .and((g) => g.eq("b", 2).or().eq("c", 3))
    .or((g) => g.not((n) => n.eq("d", 4).or((m) => m.and((k) => k.gt("e", 5)))));
  assert.deepEqual(query(q), {
    bool: {
      should: [
        filter({ term: { a: 1 } }, {
          bool: { should: [{ term: { b: 2 } }, { term: { c: 3 } }], minimum_should_match: 1 },
        }),
        mustNot({
          bool: {
            should: [{ term: { d: 4 } }, { range: { e: { gt: 5 } } }],
            minimum_should_match: 1,
          },
        }),
      ],
      minimum_should_match: 1,
    },
  });
});

Deno.test("golden: empty groups and stray or() add nothing", () => {
  const base = users().eq("a", 1);
  const same = base.and((g) => g).or((g) => g).not((g) => g).or().or();
  assert.deepEqual(same.toCommand(), base.toCommand());
  assert.deepEqual(users().or().eq("a", 1).toCommand(), base.toCommand());
  assert.deepEqual(users().and((g) => g.or()).toCommand(), users().toCommand());
});

Deno.test("golden: full-text items score (must), the rest filter", () => {
  const q = users().match("title", "fox").eq("lang", "en");
  assert.deepEqual(query(q), {
    bool: { must: [{ match: { title: "fox" } }], filter: [{ term: { lang: "en" } }] },
  });
});

Deno.test("golden: projection, sort (asc by default), paging; count keeps only the query", () => {
  const q = users().eq("a", 1).select("a", "b").orderBy("b").orderBy("c", "desc").initPage(5, 2);
  assert.deepEqual(q.toCommand(), {
    text:
      'POST /{?}/_search {"query":{"bool":{"filter":[{"term":{"a":?}}]}},"_source":["a","b"],"sort":[{"b":{"order":"asc"}},{"c":{"order":"desc"}}],"from":?,"size":?,"track_total_hits":true}',
    args: ["users", 1, 10, 5],
  });
  assert.deepEqual(q.toCountCommand(), {
    text: 'POST /{?}/_count {"query":{"bool":{"filter":[{"term":{"a":?}}]}}}',
    args: ["users", 1],
  });
});

Deno.test("golden: a mapping turns exact conditions and sort on text into the keyword sub-field", () => {
  const mapping = new Map([
    ["name", { type: "text", keyword: "name.keyword" }],
    ["bio", { type: "text" }],
    ["age", { type: "integer" }],
  ]);
  const q = users().eq("name", "Ann").match("name", "ann").gt("age", 3).orderBy("name");
  assert.deepEqual(
    q.toCommand({ mapping }).text,
    'POST /{?}/_search {"query":{"bool":{"must":[{"match":{"name":?}}],"filter":[{"term":{"name.keyword":?}},{"range":{"age":{"gt":?}}}]}},"sort":[{"name.keyword":{"order":"asc"}}],"size":?,"track_total_hits":true}',
  );
  assert.throws(
    () => users().eq("bio", "x").toCommand({ mapping }),
    /eq\("bio"\): the field is "text" with no keyword sub-field.*use match\(\)/,
  );
  assert.throws(() => users().like("bio", "x%").toCommand({ mapping }), /like\("bio"\)/);
  assert.doesNotThrow(() => users().match("bio", "x").isNull("bio").toCommand({ mapping }));
});

Deno.test("golden: writes", () => {
  assert.deepEqual(lambda.update("users").eq("_id", "7").updateTo("n", 1).toCommand(), {
    text: 'POST /{?}/_update/{?}?refresh=true {"doc":?}',
    args: ["users", "7", { n: 1 }],
  });
  assert.deepEqual(lambda.delete("users").allowEmptyWhere().toCommand(), {
    text: 'POST /{?}/_delete_by_query?refresh=true {"query":{"match_all":{}}}',
    args: ["users"],
  });
  assert.deepEqual(lambda.insert("users").applyMap({ _id: "1", n: 1 }).toCommand(), {
    text: "PUT /{?}/_create/{?}?refresh=true ?",
    args: ["users", "1", { n: 1 }],
  });
  assert.deepEqual(lambda.insert("users").applyMap({ n: 1 }).toCommand(), {
    text: "POST /{?}/_doc?refresh=true ?",
    args: ["users", { n: 1 }],
  });
  // A pattern has no single document address: by-key forms fall back to by-query.
  assert.match(lambda.delete("logs-*").eq("_id", "1").toCommand().text, /_delete_by_query/);
});

Deno.test("values never reach the text: quotes, placeholders and markers stay arguments", () => {
  const evil = ['"}},{"match_all":{}}', "?", "{?}", "#{x}", "${x}", "@{uuid32}", "\\"];
  for (const v of evil) {
    const b = users().eq("a", v).like("b", `%${v}%`).toCommand();
    assert.equal(
      b.text,
      'POST /{?}/_search {"query":{"bool":{"filter":[{"term":{"a":?}},{"wildcard":{"b":{"value":?}}}]}},"size":?,"track_total_hits":true}',
    );
    assert.deepEqual(b.args.slice(1, 3), [v, `*${escapeWildcard(v)}*`]);
  }
  // A field name is a JSON-escaped key: it cannot close the object either.
  const odd = users().eq('a"}},{"x', 1).toCountCommand();
  assert.deepEqual(query({ toCountCommand: () => odd }), filter({ term: { 'a"}},{"x': 1 } }));
});

Deno.test("escapeWildcard escapes exactly \\ * ?", () => {
  assert.equal(escapeWildcard("a*b?c\\d%e_f"), "a\\*b\\?c\\\\d%e_f");
});

Deno.test("defect 20: arguments follow placeholder order, however the tree was built", () => {
  const q = users().in("a", [1]).isNull("x").and((g) => g.between("b", 2, 3).or().like("c", "%4"))
    .not((g) => g.eq("d", 5)).or().ne("e", 6).orderBy("f").initPage(7, 1);
  const cmd = q.toCommand();
  assert.deepEqual(cmd.args, ["users", [1], 2, 3, "*4", 5, 6, 7, 7]);
  assert.deepEqual(inline(cmd), {
    query: {
      bool: {
        should: [
          filter(
            { terms: { a: [1] } },
            mustNot({ exists: { field: "x" } }),
            {
              bool: {
                should: [{ range: { b: { gte: 2, lte: 3 } } }, {
                  wildcard: { c: { value: "*4" } },
                }],
                minimum_should_match: 1,
              },
            },
            mustNot({ term: { d: 5 } }),
          ),
          mustNot({ term: { e: 6 } }),
        ],
        minimum_should_match: 1,
      },
    },
    sort: [{ f: { order: "asc" } }],
    from: 7,
    size: 7,
    track_total_hits: true,
  });
});
