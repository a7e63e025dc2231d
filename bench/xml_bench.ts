// Mapper-file rendering against its baseline in the same run:
//   deno bench -A bench/xml_bench.ts
// 1. rendering a dynamic statement with five tags (<where>, <if>, <choose>, <foreach>, <trim>) vs
//    building the same text and arguments by hand for a JdbcTemplate call (target ≤ 1.5×);
// 2. the same, each followed by the template layer's named binding (what a call costs before I/O);
// 3. a static statement vs a constant text: the cached text is all a render costs.
import assert from "node:assert/strict";
import { bindTemplate } from "../template/mod.ts";
import { parseMapperFile } from "../xml/mod.ts";

const file = parseMapperFile(`<mapper namespace="users">
  <select id="search">
    POST /users/_search
    {"query": {"bool": {"filter": [<where>
      <if test="name != null">{"term": {"name": #{name}}},</if>
      <choose>
        <when test="min != null and max != null">{"range": {"age": {"gte": #{min}, "lte": #{max}}}},</when>
        <when test="min != null">{"range": {"age": {"gte": #{min}}}},</when>
      </choose>
      <if test="tags != null">{"terms": {"tags": <foreach collection="tags" item="t" open="[" separator=", " close="]">#{t}</foreach>}},</if>
    </where>]}}<trim prefix=", " suffixOverrides=","><if test="size != null">"size": #{size},</if></trim>}
  </select>
  <select id="byName">POST /users/_search {"query": {"term": {"name": #{name}}}}</select>
</mapper>`);
const search = file.statements.get("search")!;
const byName = file.statements.get("byName")!;

type Args = { name?: string; min?: number; max?: number; tags?: string[]; size?: number };

// What a caller writes without a mapper file: the same conditions in code.
function handBuilt(args: Args): { text: string; args: Record<string, unknown> } {
  const filters: string[] = [];
  const out: Record<string, unknown> = { ...args };
  if (args.name != null) filters.push('{"term": {"name": #{name}}}');
  if (args.min != null && args.max != null) {
    filters.push('{"range": {"age": {"gte": #{min}, "lte": #{max}}}}');
  } else if (args.min != null) filters.push('{"range": {"age": {"gte": #{min}}}}');
  if (args.tags != null) {
    const items = args.tags.map((t, i) => {
      out[`__frch_t_${i}`] = t;
      return `#{__frch_t_${i}}`;
    });
    filters.push(`{"terms": {"tags": [${items.join(", ")}]}}`);
  }
  const size = args.size != null ? ', "size": #{size}' : "";
  return {
    text: `POST /users/_search\n{"query": {"bool": {"filter": [${filters.join(", ")}]}}${size}}`,
    args: out,
  };
}

const ARGS: Args = { name: "ann", min: 20, max: 40, tags: ["a", "b", "c"], size: 10 };
const compact = (s: string) => s.replace(/\s+/g, "");
{
  const a = search.render(ARGS);
  const b = handBuilt(ARGS);
  assert.equal(compact(a.text), compact(b.text));
  assert.deepEqual(a.args, b.args);
}

Deno.bench("hand-built text for JdbcTemplate (5 conditions)", {
  group: "render",
  baseline: true,
}, () => {
  handBuilt(ARGS);
});

Deno.bench("mapper statement.render (where, if, choose, foreach, trim)", {
  group: "render",
}, () => {
  search.render(ARGS);
});

Deno.bench("hand-built text + bindTemplate", { group: "render+bind", baseline: true }, () => {
  const r = handBuilt(ARGS);
  bindTemplate(r.text, r.args);
});

Deno.bench("statement.render + bindTemplate", { group: "render+bind" }, () => {
  const r = search.render(ARGS);
  bindTemplate(r.text, r.args);
});

const STATIC_TEXT = 'POST /users/_search {"query": {"term": {"name": #{name}}}}';
Deno.bench("constant text + bindTemplate", { group: "static", baseline: true }, () => {
  bindTemplate(STATIC_TEXT, { name: "ann" });
});

Deno.bench("static statement.render + bindTemplate", { group: "static" }, () => {
  const r = byName.render({ name: "ann" });
  bindTemplate(r.text, r.args);
});
