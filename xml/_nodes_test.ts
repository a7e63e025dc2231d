// Every dynamic tag alone and nested, rendered through a mapper file.
import assert from "node:assert/strict";
import { BindError } from "../driver/mod.ts";
import { parseMapperFile } from "./mapper_file.ts";
import type { RenderedStatement } from "./types.ts";

function render(body: string, args: Record<string, unknown> = {}): RenderedStatement {
  const file = parseMapperFile(
    `<mapper namespace="t">\n<select id="s">${body}</select>\n</mapper>`,
    {
      file: "t.xml",
    },
  );
  return file.statements.get("s")!.render(args);
}
const text = (body: string, args: Record<string, unknown> = {}): string =>
  render(body, args).text.replace(/\s+/g, " ");

Deno.test("<if>: content only when the test is true; null and missing are false", () => {
  const body = `A<if test="x == 1">B</if><if test="flag">C</if>`;
  assert.equal(text(body, { x: 1, flag: true }), "ABC");
  assert.equal(text(body, { x: "1", flag: null }), "A");
  assert.equal(text(body, {}), "A");
  assert.equal(
    text(`<if test="a != null"><if test="b != null">ab</if>a</if>`, { a: 1, b: 2 }),
    "aba",
  );
  assert.equal(text(`<if test="a != null"><if test="b != null">ab</if>a</if>`, { a: 1 }), "a");
});

Deno.test("<choose>: first true <when>, else <otherwise>, else nothing (no NullPointerException)", () => {
  const body =
    `[<choose><when test="n > 10">big</when><when test="n > 5">mid</when><otherwise>small</otherwise></choose>]`;
  assert.equal(text(body, { n: 11 }), "[big]");
  assert.equal(text(body, { n: 6 }), "[mid]");
  assert.equal(text(body, { n: 1 }), "[small]");
  const noOtherwise = `[<choose><when test="n == 1">one</when></choose>]`;
  assert.equal(text(noOtherwise, { n: 2 }), "[]");
  assert.equal(text(`[<choose></choose>]`), "[]");
});

Deno.test("<trim>: prefix, suffix, repeated case-insensitive overrides, nothing when blank", () => {
  const body = `<trim prefix="{" suffix="}" prefixOverrides=",|AND " suffixOverrides=",">` +
    `<if test="a">, "a": 1</if> , <if test="b">"b": 2,</if> ,</trim>`;
  assert.equal(text(body, { a: true, b: true }), '{"a": 1 , "b": 2}');
  assert.equal(text(body, { a: false, b: true }), '{"b": 2}');
  assert.equal(text(body, { a: false, b: false }), "");
  assert.equal(text(`<trim prefixOverrides="and |or ">and x</trim>`), "x");
  assert.equal(text(`<trim prefixOverrides="AND |OR ">Or  and x</trim>`), "x");
  assert.equal(text(`<trim prefix="where">a = 1</trim>`), "where a = 1");
  assert.equal(text(`<trim prefix="[" suffix="]">1</trim>`), "[1]");
});

Deno.test("<where>: members that did not render take their commas with them", () => {
  const body = `{"filter": [<where>
    <if test="a != null">{"term": {"a": #{a}}},</if>
    <if test="b != null">{"term": {"b": #{b}}},</if>
    <if test="c != null">, {"term": {"c": #{c}}}</if>
  </where>]}`;
  assert.equal(
    text(body, { a: 1, b: 2, c: 3 }),
    '{"filter": [{"term": {"a": #{a}}}, {"term": {"b": #{b}}}, {"term": {"c": #{c}}}]}',
  );
  assert.equal(text(body, { b: 2 }), '{"filter": [{"term": {"b": #{b}}}]}');
  assert.equal(text(body, { c: 3 }), '{"filter": [{"term": {"c": #{c}}}]}');
  assert.equal(text(body, {}), '{"filter": []}');
  // commas inside strings, placeholders and rules are content, not separators
  assert.equal(
    text(`<where>,"a,": ",,", "b": @{and, {"x": [1, #{v}]}},,</where>`),
    '"a,": ",,", "b": @{and, {"x": [1, #{v}]}}',
  );
  // nested objects inside the body are cleaned too
  assert.equal(
    text(`<where>{"a": 1, <if test="x">"b": 2</if>}</where>`, { x: false }),
    '{"a": 1 }',
  );
});

Deno.test("<set>: an update document with optional fields", () => {
  const body = `POST /u/_update/#{id} {"doc": {<set>
    <if test="name != null">"name": #{name},</if>
    <if test="age != null">"age": #{age},</if>
  </set>}}`;
  assert.equal(
    text(body, { id: 1, name: "a", age: 3 }),
    'POST /u/_update/#{id} {"doc": {"name": #{name}, "age": #{age}}}',
  );
  assert.equal(text(body, { id: 1, age: 3 }), 'POST /u/_update/#{id} {"doc": {"age": #{age}}}');
  assert.equal(text(body, { id: 1 }), 'POST /u/_update/#{id} {"doc": {}}');
});

Deno.test("<foreach>: items are bound under generated names, never spliced", () => {
  const evil = '"}, {"match_all": {}}, {"x": "';
  const r = render(
    `{"terms": {"id": <foreach collection="ids" item="id" open="[" separator=", " close="]">#{id}</foreach>}}`,
    {
      ids: ["a", evil],
    },
  );
  assert.equal(r.text, '{"terms": {"id": [#{__frch_id_0}, #{__frch_id_1}]}}');
  assert.deepEqual(r.args, { ids: ["a", evil], __frch_id_0: "a", __frch_id_1: evil });
});

Deno.test("<foreach>: arrays, Sets, Maps and objects; index is the position or the key", () => {
  const body = `<foreach collection="c" item="v" index="k" separator=",">#{k}=#{v}</foreach>`;
  for (
    const [c, keys] of [
      [["x", "y"], [0, 1]],
      [new Set(["x", "y"]), [0, 1]],
      [new Map([["p", "x"], ["q", "y"]]), ["p", "q"]],
      [{ p: "x", q: "y" }, ["p", "q"]],
    ] as const
  ) {
    const r = render(body, { c });
    assert.equal(r.text, "#{__frch_k_1}=#{__frch_v_0},#{__frch_k_3}=#{__frch_v_2}");
    assert.deepEqual(
      [r.args.__frch_k_1, r.args.__frch_v_0, r.args.__frch_k_3, r.args.__frch_v_2],
      [keys[0], "x", keys[1], "y"],
    );
  }
});

Deno.test("<foreach>: empty collections keep open/close; separators only between rendered items", () => {
  const body =
    `<foreach collection="c" item="v" open="[" separator="," close="]"><if test="v > 1">#{v}</if></foreach>`;
  assert.equal(text(body, { c: [] }), "[]");
  assert.equal(text(body, { c: [1, 2, 0, 3, 1] }), "[#{__frch_v_1},#{__frch_v_3}]");
  assert.equal(text(body, { c: [0, 1] }), "[]");
});

Deno.test("<foreach>: nested loops, tests see items, names are unique, scope ends with the loop", () => {
  const body = `<foreach collection="groups" item="g" separator=",">` +
    `{"name": #{g.name}, "tags": <foreach collection="g.tags" item="t" open="[" separator="," close="]">` +
    `<if test="t != g.skip">#{t}</if></foreach>}</foreach> #{g} "#{g}"`;
  const r = render(body, {
    g: "outer",
    groups: [{ name: "a", tags: ["x", "y"], skip: "y" }, { name: "b", tags: ["z"] }],
  });
  assert.equal(
    r.text,
    '{"name": #{__frch_g_0.name}, "tags": [#{__frch_t_1}]},{"name": #{__frch_g_3.name}, "tags": [#{__frch_t_4}]} #{g} "#{g}"',
  );
  assert.deepEqual([r.args.__frch_t_1, r.args.__frch_t_4, r.args.g], ["x", "z", "outer"]);
});

Deno.test("<foreach>: ${item} splices are renamed too; #{item} inside a JSON string stays text", () => {
  const r = render(
    `<foreach collection="f" item="x" separator=",">"\${x}": #{x}, "#{x}"</foreach>`,
    { f: ["a"] },
  );
  assert.equal(r.text, '"${__frch_x_0}": #{__frch_x_0}, "#{x}"');
});

Deno.test("<foreach>: a missing, null or scalar collection is a BindError naming the statement", () => {
  for (const c of [undefined, null, "abc", 5]) {
    assert.throws(
      () => render(`<foreach collection="c" item="v">#{v}</foreach>`, c === undefined ? {} : { c }),
      (e: unknown) =>
        e instanceof BindError && e.argumentName === "c" &&
        /statement "t\.s", t\.xml, line 2/.test(e.message),
    );
  }
});

Deno.test("<bind>: adds a variable and an argument; inside a loop, one per element", () => {
  const r = render(`<bind name="pat" value="'*' + q + '*'"/><if test="pat != '**'">#{pat}</if>`, {
    q: "ab",
  });
  assert.deepEqual(r, { text: "#{pat}", args: { q: "ab", pat: "*ab*" } });
  assert.equal(
    render(`<bind name="pat" value="'*' + q + '*'"/><if test="pat != '**'">#{pat}</if>`, { q: "" })
      .text,
    "",
  );
  const loop = render(
    `<foreach collection="qs" item="q" separator=","><bind name="p" value="q + '*'"/>#{p}</foreach> #{p}`,
    { qs: ["a", "b"], p: "outer" },
  );
  assert.equal(loop.text, "#{__bind_p_1},#{__bind_p_3} #{p}");
  assert.deepEqual([loop.args.__bind_p_1, loop.args.__bind_p_3, loop.args.p], [
    "a*",
    "b*",
    "outer",
  ]);
});

Deno.test("tags nested in every combination render well-formed JSON", () => {
  const body = `POST /u/_search
{"query": {"bool": {"filter": [<where>
  <if test="name != null">{"term": {"name": #{name}}},</if>
  <choose>
    <when test="min != null and max != null">{"range": {"age": {"gte": #{min}, "lte": #{max}}}},</when>
    <when test="min != null">{"range": {"age": {"gte": #{min}}}},</when>
  </choose>
  <if test="tags != null and not tags.isEmpty()">{"terms": {"tags": <foreach collection="tags" item="t" open="[" separator="," close="]">#{t}</foreach>}},</if>
</where>]}}<trim prefix="," suffixOverrides=","><if test="size != null">"size": #{size},</if></trim>}`;
  const values = { name: "a", min: 1, max: 9, tags: ["x", "y"], size: 5 };
  const keys = Object.keys(values) as (keyof typeof values)[];
  for (let mask = 0; mask < 1 << keys.length; mask++) {
    const args: Record<string, unknown> = {};
    keys.forEach((k, i) => {
      if (mask & (1 << i)) args[k] = values[k];
    });
    const r = render(body, args);
    const json = r.text.slice(r.text.indexOf("{")).replace(
      /#\{([^}]+)\}/g,
      (_, name: string) => JSON.stringify(r.args[name]),
    );
    assert.doesNotThrow(() => JSON.parse(json), `${JSON.stringify(args)} → ${r.text}`);
  }
});

Deno.test("<foreach>: long collections get unique generated names past the kept ones", () => {
  const items = Array.from({ length: 1500 }, (_, i) => i);
  const r = render(`<foreach collection="c" item="v" separator=",">#{v}</foreach>`, { c: items });
  const names = [...r.text.matchAll(/#\{(__frch_v_\d+)\}/g)].map((m) => m[1]!);
  assert.equal(new Set(names).size, 1500);
  assert.equal(names.at(-1), "__frch_v_1499");
  assert.deepEqual(names.map((n) => r.args[n]), items);
});
