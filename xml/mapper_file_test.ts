import assert from "node:assert/strict";
import { parseMapperFile } from "./mapper_file.ts";
import { ConditionError, MapperDefinitionError, XmlEntityError, XmlSyntaxError } from "./errors.ts";
import { readXml } from "./xml_reader.ts";

const DBVISITOR = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE mapper PUBLIC "-//dbvisitor.net//DTD Mapper 1.0//EN"
        "https://www.dbvisitor.net/schema/dbvisitor-mapper.dtd">`;
const MYBATIS = `<?xml version="1.0" encoding="UTF-8" ?>
<!DOCTYPE mapper PUBLIC "-//mybatis.org//DTD Mapper 3.0//EN" "http://mybatis.org/dtd/mybatis-3-mapper.dtd">`;

Deno.test("mapper file: the reference's tested shapes (dbVisitor and MyBatis headers)", () => {
  for (const header of [DBVISITOR, MYBATIS]) {
    const file = parseMapperFile(
      `${header}
<mapper namespace="net.hasor.dbvisitor.test.UserInfoMapper">
    <insert id="saveUser"> POST /user_info/_doc #{info} </insert>
    <select id="loadUser1" resultType="net.hasor.dbvisitor.test.UserInfo3">
        POST /user_info/_search {"query": {"match": {"uid": #{uid}}}}
    </select>
    <delete id="deleteUser"> POST /user_info/_delete_by_query {"query": {"match": {"uid": #{uid}}}} </delete>
    <resultMap id="userInfo5ResultMap" type="net.hasor.dbvisitor.test.UserInfo5">
        <id column="uid" property="userId"/>
        <result column="name" property="userName"/>
        <mapping column="age" property="age"/>
    </resultMap>
    <select id="listByUserName" resultMap="userInfo5ResultMap">
        POST /user_info/_search { "query": { "term": { "name": #{userName} } } }
    </select>
</mapper>`,
      { file: "user-mapper.xml" },
    );
    assert.equal(file.namespace, "net.hasor.dbvisitor.test.UserInfoMapper");
    assert.equal(file.file, "user-mapper.xml");
    assert.deepEqual([...file.statements.keys()], [
      "saveUser",
      "loadUser1",
      "deleteUser",
      "listByUserName",
    ]);
    const save = file.statements.get("saveUser")!;
    assert.deepEqual([save.kind, save.dynamic, save.line], [
      "insert",
      false,
      header.split("\n").length + 2,
    ]);
    assert.deepEqual(save.render({ info: { uid: 1 } }), {
      text: "POST /user_info/_doc #{info}",
      args: { info: { uid: 1 } },
    });
    const load = file.statements.get("loadUser1")!;
    assert.equal(load.resultType, "net.hasor.dbvisitor.test.UserInfo3");
    assert.equal(
      load.render({ uid: "u1" }).text,
      'POST /user_info/_search {"query": {"match": {"uid": #{uid}}}}',
    );
    assert.equal(file.statements.get("deleteUser")!.kind, "delete");
    assert.equal(file.statements.get("listByUserName")!.resultMap, "userInfo5ResultMap");
    assert.deepEqual(file.resultMaps.get("userInfo5ResultMap"), {
      id: "userInfo5ResultMap",
      type: "net.hasor.dbvisitor.test.UserInfo5",
      columns: [
        { column: "uid", property: "userId", id: true },
        { column: "name", property: "userName", id: false },
        { column: "age", property: "age", id: false },
      ],
    });
  }
});

Deno.test("mapper file: statement attributes; static text is computed once and shared", () => {
  const file = parseMapperFile(`<mapper namespace="n">
  <insert id="add" useGeneratedKeys="true" keyProperty="id" timeout="5">PUT /u/_doc/#{id} #{doc}</insert>
  <update id="up" parameterType="map">POST /u/_update/#{id} {"doc": #{doc}}</update>
  <execute id="raw">DELETE /u</execute>
  <select id="s"><![CDATA[POST /u/_search {"query": {"range": {"age": {"lt": 5}}}} ]]></select>
</mapper>`);
  const add = file.statements.get("add")!;
  assert.deepEqual([add.useGeneratedKeys, add.keyProperty, add.kind], [true, "id", "insert"]);
  assert.equal(file.statements.get("raw")!.kind, "execute");
  const s = file.statements.get("s")!;
  assert.equal(s.dynamic, false);
  const args = { a: 1 };
  const r1 = s.render(args);
  assert.equal(r1.args, args);
  assert.equal(r1.text, s.render({}).text);
  assert.equal(r1.text, 'POST /u/_search {"query": {"range": {"age": {"lt": 5}}}}');
});

Deno.test("mapper file: <sql> + <include> with <property> substitution, nested, forward references", () => {
  const file = parseMapperFile(`<mapper namespace="n">
  <select id="s">POST /\${idx}/_search {<include refid="body"><property name="field" value="name"/></include>}</select>
  <select id="q">POST /u/_search {<include refid="n.body"><property name="field" value="city"/></include>}</select>
  <sql id="body">"query": <include refid="term"><property name="f" value="\${field}"/></include>, "_source": ["\${field}"]</sql>
  <sql id="term">{"term": {"\${f}": #{\${f}}}}</sql>
</mapper>`);
  const s = file.statements.get("s")!;
  assert.equal(s.dynamic, false);
  assert.equal(
    s.render({}).text,
    'POST /${idx}/_search {"query": {"term": {"name": #{name}}}, "_source": ["name"]}',
  );
  assert.equal(
    file.statements.get("q")!.render({}).text,
    'POST /u/_search {"query": {"term": {"city": #{city}}}, "_source": ["city"]}',
  );
});

Deno.test("mapper file: include cycles are refused, naming the chain", () => {
  const text = `<mapper namespace="n">
  <select id="s"><include refid="a"/></select>
  <sql id="a">x <include refid="b"/></sql>
  <sql id="b">y <include refid="a"/></sql>
</mapper>`;
  assert.throws(() => parseMapperFile(text, { file: "c.xml" }), (e: unknown) => {
    assert.ok(e instanceof MapperDefinitionError);
    assert.match(e.message, /<include> cycle: a → b → a/);
    assert.equal(e.statementId, "s");
    assert.deepEqual([e.file, e.line], ["c.xml", 4]);
    return true;
  });
  assert.throws(
    () => parseMapperFile(`<mapper namespace="n"><sql id="a"><include refid="a"/></sql></mapper>`),
    /cycle: a → a/,
  );
});

Deno.test("mapper file: include bombs are bounded", () => {
  const levels = Array.from(
    { length: 30 },
    (_, i) => `<sql id="l${i}"><include refid="l${i + 1}"/><include refid="l${i + 1}"/></sql>`,
  ).join("");
  const text =
    `<mapper namespace="n"><select id="s"><include refid="l0"/></select>${levels}<sql id="l30">x</sql></mapper>`;
  assert.throws(
    () => parseMapperFile(text),
    (e: unknown) => e instanceof MapperDefinitionError && /more than 100000 nodes/.test(e.message),
  );
});

// [file body, message, line]
const INVALID: [string, RegExp, number][] = [
  [`<mappers namespace="n"/>`, /root element is <mappers>/, 1],
  [`<mapper/>`, /needs a namespace/, 1],
  [`<mapper namespace="  "/>`, /needs a namespace/, 1],
  [`<mapper namespace="n" bogus="1"/>`, /unknown attribute "bogus" on <mapper>/, 1],
  [`<mapper namespace="n">\n<select>x</select></mapper>`, /needs an id/, 2],
  [`<mapper namespace="n"><select id="a b">x</select></mapper>`, /needs an id/, 1],
  [
    `<mapper namespace="n">\n<select id="a">x</select>\n<delete id="a">y</delete></mapper>`,
    /a second statement with id "a" \(the first is on line 2\)/,
    3,
  ],
  [
    `<mapper namespace="n"><select id="a" resultTyp="X">x</select></mapper>`,
    /unknown attribute "resultTyp"/,
    1,
  ],
  [
    `<mapper namespace="n"><select id="a" resultType="X" resultMap="m">x</select><resultMap id="m"/></mapper>`,
    /alternatives/,
    1,
  ],
  [
    `<mapper namespace="n"><select id="a" resultMap="nope">x</select></mapper>`,
    /names no <resultMap>/,
    1,
  ],
  [
    `<mapper namespace="n"><insert id="a" useGeneratedKeys="yes">x</insert></mapper>`,
    /must be true or false/,
    1,
  ],
  [`<mapper namespace="n"><cache/></mapper>`, /<cache> is not supported/, 1],
  [`<mapper namespace="n">\n<select id="e">  \n </select></mapper>`, /has no command text/, 2],
  [`<mapper namespace="n">loose text</mapper>`, /text directly in <mapper>/, 1],
  [
    `<mapper namespace="n"><select id="a"><when test="x">y</when></select></mapper>`,
    /unknown tag <when> outside <choose>/,
    1,
  ],
  [
    `<mapper namespace="n"><select id="a"><selectKey/></select></mapper>`,
    /unknown tag <selectKey>/,
    1,
  ],
  [
    `<mapper namespace="n"><select id="a"><if>y</if></select></mapper>`,
    /<if> needs the attribute "test"/,
    1,
  ],
  [
    `<mapper namespace="n"><select id="a"><if test="x" tset="y">y</if></select></mapper>`,
    /unknown attribute "tset"; <if> takes test/,
    1,
  ],
  [
    `<mapper namespace="n"><select id="a"><choose><otherwise/><when test="a"/></choose></select></mapper>`,
    /<when> cannot stand here/,
    1,
  ],
  [
    `<mapper namespace="n"><select id="a"><choose>text</choose></select></mapper>`,
    /only <when> and <otherwise>/,
    1,
  ],
  [
    `<mapper namespace="n"><select id="a"><foreach item="i">y</foreach></select></mapper>`,
    /needs the attribute "collection"/,
    1,
  ],
  [
    `<mapper namespace="n"><select id="a"><foreach collection="c" item="a.b">y</foreach></select></mapper>`,
    /item="a.b" must be a plain name/,
    1,
  ],
  [
    `<mapper namespace="n"><select id="a"><foreach collection="c" item="__proto__"/></select></mapper>`,
    /must be a plain name/,
    1,
  ],
  [
    `<mapper namespace="n"><select id="a"><bind name="x" value="1">text</bind></select></mapper>`,
    /<bind> has no content/,
    1,
  ],
  [
    `<mapper namespace="n"><select id="a"><include refid="missing"/></select></mapper>`,
    /no <sql id="missing">/,
    1,
  ],
  [
    `<mapper namespace="n"><select id="a"><include refid="f"><x/></include></select><sql id="f"/></mapper>`,
    /<x> in <include>/,
    1,
  ],
  [`<mapper namespace="n"><sql id="f"/><sql id="f"/></mapper>`, /a second <sql id="f">/, 1],
  [
    `<mapper namespace="n"><resultMap id="m"><association/></resultMap></mapper>`,
    /<association> in <resultMap> is not supported/,
    1,
  ],
  [
    `<mapper namespace="n"><resultMap id="m"><result column="a"/></resultMap></mapper>`,
    /needs the attribute "property"/,
    1,
  ],
  [
    `<mapper namespace="n"><resultMap id="m"/><resultMap id="m"/></mapper>`,
    /a second <resultMap id="m">/,
    1,
  ],
  [`<mapper namespace="n"><sql id="f"><iff/></sql></mapper>`, /unknown tag <iff>/, 1],
  [`<!DOCTYPE html><mapper namespace="n"/>`, /<!DOCTYPE html> is not a mapper file/, 1],
  [
    `<!DOCTYPE mapper PUBLIC "-//evil//DTD//EN" "http://evil/x.dtd"><mapper namespace="n"/>`,
    /unknown document type "-\/\/evil/,
    1,
  ],
  [
    `<!DOCTYPE mapper SYSTEM "http://evil/x.dtd"><mapper namespace="n"/>`,
    /unknown document type "http:\/\/evil/,
    1,
  ],
];

Deno.test("mapper file: invalid definitions → MapperDefinitionError with file and line", () => {
  for (const [text, message, line] of INVALID) {
    assert.throws(
      () => parseMapperFile(text, { file: "bad.xml" }),
      (e: unknown) => {
        assert.ok(e instanceof MapperDefinitionError, `${text}: ${e}`);
        assert.equal(e.code, "MAPPER_DEFINITION");
        assert.match(e.message, message);
        assert.equal(e.file, "bad.xml");
        assert.equal(e.line, line, text);
        return true;
      },
    );
  }
});

Deno.test("mapper file: a test error points at the file line and the column inside the attribute", () => {
  const text = `<mapper namespace="n">
  <select id="find">
    <if test="name != null &amp;&amp; age &gt; = 3">x</if>
  </select>
</mapper>`;
  assert.throws(() => parseMapperFile(text, { file: "f.xml" }), (e: unknown) => {
    assert.ok(e instanceof ConditionError);
    assert.equal(e.expression, "name != null && age > = 3");
    assert.equal(e.offset, 22);
    assert.deepEqual([e.file, e.line, e.column], ["f.xml", 3, 48]);
    assert.match(e.excerpt, /\n {47}\^$/);
    return true;
  });
});

Deno.test("mapper file: XML problems keep their own types; entities are refused in mapper files too", () => {
  assert.throws(
    () => parseMapperFile(`<mapper namespace="n"><select id="a">&ext;</select></mapper>`),
    XmlEntityError,
  );
  assert.throws(
    () => parseMapperFile(`<mapper namespace="n"><select id="a"></mapper>`),
    XmlSyntaxError,
  );
});

Deno.test("mapper file: the XML reader can be swapped", () => {
  let used = 0;
  const file = parseMapperFile("ignored", {
    reader: (_text, options) => {
      used++;
      return readXml(`<mapper namespace="swapped"><select id="a">GET /</select></mapper>`, options);
    },
  });
  assert.equal(used, 1);
  assert.equal(file.namespace, "swapped");
});

Deno.test("mapper file: the namespace prefix of resultMap and include is optional", () => {
  const file = parseMapperFile(`<mapper namespace="a.b">
  <resultMap id="m" type="T"><result column="c" property="p"/></resultMap>
  <select id="s" resultMap="a.b.m"><include refid="a.b.f"/></select>
  <select id="t" resultMap="other.ns.m">x</select>
  <sql id="f">GET /x</sql>
</mapper>`);
  assert.equal(file.statements.get("s")?.render({}).text, "GET /x");
  assert.equal(file.statements.get("s")?.resultMap, "m");
  assert.equal(file.statements.get("t")?.resultMap, "other.ns.m");
});

Deno.test("mapper file: <property> values reach tests and refids inside the fragment", () => {
  const file = parseMapperFile(`<mapper namespace="n">
  <sql id="optional"><if test="\${field} != null">"\${field}": #{\${field}},</if></sql>
  <sql id="pick"><include refid="\${which}"/></sql>
  <sql id="a">A</sql>
  <select id="s">{<where>
    <include refid="optional"><property name="field" value="name"/></include>
    <include refid="optional"><property name="field" value="age"/></include>
  </where>} <include refid="pick"><property name="which" value="a"/></include></select>
</mapper>`);
  const s = file.statements.get("s")!;
  assert.equal(s.render({ age: 3 }).text, '{"age": #{age}} A');
  assert.equal(
    s.render({ name: "x", age: 3 }).text.replace(/\s+/g, " "),
    '{"name": #{name}, "age": #{age}} A',
  );
  assert.throws(
    () =>
      parseMapperFile(`<mapper namespace="n"><sql id="p"><include refid="\${w}"/></sql>
<select id="s"><include refid="p"><property name="w" value="zz"/></include></select></mapper>`),
    /no <sql id="zz">/,
  );
});

Deno.test("mapper file: tags nested 100,000 deep and long <include> chains are MapperDefinitionErrors, whatever the reader", () => {
  const n = 100_000;
  const deepTags = '<mapper namespace="n"><select id="x">' + "<trim>".repeat(n) +
    "POST /i/_search" + "</trim>".repeat(n) + "</select></mapper>";
  // The built-in reader refuses the depth itself; a reader that allows it meets the builder's bound.
  assert.throws(() => parseMapperFile(deepTags), /nest deeper than 256 levels/);
  const lenient = (text: string) => readXml(text, { maxDepth: 10 * n });
  assert.throws(
    () => parseMapperFile(deepTags, { reader: lenient }),
    (e: unknown) => e instanceof MapperDefinitionError && /deeper than 256 levels/.test(e.message),
  );
  let chain = "";
  for (let i = 0; i < 1_000; i++) chain += `<sql id="f${i}"><include refid="f${i + 1}"/></sql>`;
  chain += '<sql id="f1000">POST /i/_search</sql>';
  assert.throws(
    () =>
      parseMapperFile(
        `<mapper namespace="n">${chain}<select id="x"><include refid="f0"/></select></mapper>`,
      ),
    (e: unknown) => e instanceof MapperDefinitionError && /deeper than 256 levels/.test(e.message),
  );
  // A chain of 200 includes is fine.
  let short = "";
  for (let i = 0; i < 200; i++) short += `<sql id="f${i}"><include refid="f${i + 1}"/></sql>`;
  short += '<sql id="f200">POST /i/_search</sql>';
  const file = parseMapperFile(
    `<mapper namespace="n">${short}<select id="x"><include refid="f0"/></select></mapper>`,
  );
  assert.equal(file.statements.get("x")!.render({}).text.trim(), "POST /i/_search");
});
