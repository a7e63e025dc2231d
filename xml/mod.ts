/**
 * MyBatis-style mapper files for Elasticsearch and OpenSearch: statements by id in an XML file,
 * dynamic tags, and a small, safe expression language for their tests. A file is read once
 * ({@linkcode parseMapperFile}, {@linkcode loadMapperFile}); each statement renders to template
 * text (`#{}` named arguments, `${}` splices, `@{}` rules) plus its arguments, which the template
 * layer binds — values are always bound, never spliced into the text.
 *
 * ## The file
 *
 * An optional prolog and `<!DOCTYPE mapper PUBLIC "-//dbvisitor.net//DTD Mapper 1.0//EN"
 * "https://www.dbvisitor.net/schema/dbvisitor-mapper.dtd">` (MyBatis 3.0's
 * `-//mybatis.org//DTD Mapper 3.0//EN` is accepted too; neither is ever fetched), then
 * `<mapper namespace="…">` holding:
 *
 * - `<select id resultType | resultMap>`, `<insert id useGeneratedKeys keyProperty>`,
 *   `<update id>`, `<delete id>`, `<execute id>` — statements; their text and CDATA are command
 *   text (Kibana console: `METHOD /path {json}`);
 * - `<sql id>` fragments, inserted by `<include refid="id">` with `<property name value>`
 *   children that replace `${name}` inside the fragment (a cycle of includes is refused, naming
 *   the chain);
 * - `<resultMap id type>` with `<id column property/>` and `<result column property/>`.
 *
 * The reader is strict XML of our own: the five predefined entities and numeric character
 * references only; any other entity, and any entity declaration, is refused (no expansion, so no
 * billion laughs, no external entities). Nesting is limited to 256 levels, expressions to 10,000
 * characters and 100 levels, includes to 100,000 expanded nodes. Every problem is a typed
 * `SyntaxError` naming the file, line and column.
 *
 * ## Dynamic tags
 *
 * | Tag | Renders |
 * |---|---|
 * | `<if test>` | its content when the test is true |
 * | `<choose>` `<when test>` `<otherwise>` | the first true `when`, else `otherwise`, else nothing |
 * | `<trim prefix suffix prefixOverrides suffixOverrides>` | `prefix content suffix` with every override (`\|`-separated, any case) stripped from both ends of the content, repeatedly; when `,` is an override, commas left dangling inside are dropped too (as in `<where>`); nothing when the content is blank |
 * | `<where>`, `<set>` | the content as a list of JSON members or elements: members that did not render take their commas with them (a comma at the start or end, after `[`/`{`/`,`, or before `]`/`}` is dropped); nothing when blank |
 * | `<foreach collection item index open separator close>` | the content once per element of an array, Set, Map or object (`index` is the position or key), `separator` between elements that rendered; `open`/`close` always (so an empty array renders `[]`). `#{item}` becomes a generated argument `#{__frch_item_0}`: values are bound, never spliced. A missing or null collection is an error (guard with `<if>`) |
 * | `<bind name value>` | evaluates `value` and adds it as a variable and argument (inside a loop, per element, under a generated name) |
 *
 * Static statements (no dynamic tags after includes) are rendered once, at load. A dynamic
 * statement's text depends only on its choices (tests taken, branches, loop lengths), never on
 * the values, so each render walks the choices and reuses the text made for the same choices
 * before (a bounded number per statement).
 * The names `__frch_…` and `__bind_…` are reserved for generated arguments.
 *
 * ## The test language
 *
 * `test="…"`, `collection="…"` and `<bind value="…">` use the project's one test-expression
 * language, the same as the template's `@{if}` rule; its grammar and rules are documented on
 * `ConditionExpression` (exported here and from `@searchvisitor/searchvisitor/driver`). In short:
 * names and `.name`/`[index]` read own data properties only (inherited methods and getters,
 * `__proto__`, `constructor`, `prototype` are out of reach); `== != < <= > >=` never coerce
 * (`"1" == 1` is false; ordering mismatched types is a `BindError`); `in` / `not in`, `+`,
 * `.size()` / `.length()` / `.isEmpty()`, list literals `[…]`; `and or not` (`&& || !`) take
 * `true`/`false`, with `null`/missing as false and any other value a `BindError` that says to
 * compare it (`name != null`).
 *
 * No `eval`, no `Function`, no method of the arguments is called. A syntax error is a `ConditionError` whose
 * `offset` is the position inside the expression and whose `line`/`column` point into the file.
 *
 * @example A mapper file rendered for two argument sets
 * ```ts
 * import { parseMapperFile } from "@searchvisitor/searchvisitor/xml";
 * import assert from "node:assert/strict";
 *
 * const users = parseMapperFile(`<?xml version="1.0" encoding="UTF-8"?>
 * <!DOCTYPE mapper PUBLIC "-//dbvisitor.net//DTD Mapper 1.0//EN"
 *   "https://www.dbvisitor.net/schema/dbvisitor-mapper.dtd">
 * <mapper namespace="users">
 *   <select id="search">
 *     POST /users/_search
 *     {"query": {"bool": {"filter": [<where>
 *       <if test="name != null">{"term": {"name": #{name}}},</if>
 *       <if test="minAge != null">{"range": {"age": {"gte": #{minAge}}}},</if>
 *     </where>]}}}
 *   </select>
 * </mapper>`, { file: "users.xml" });
 *
 * const search = users.statements.get("search")!;
 * const one = search.render({ minAge: 30 });
 * assert.equal(one.text.replace(/\s+/g, " "),
 *   'POST /users/_search {"query": {"bool": {"filter": [{"range": {"age": {"gte": #{minAge}}}}]}}}');
 * const none = search.render({});
 * assert.equal(none.text.replace(/\s+/g, " "), 'POST /users/_search {"query": {"bool": {"filter": []}}}');
 * ```
 *
 * @module
 */
export {
  ConditionError,
  MapperDefinitionError,
  MapperLoadError,
  XmlEntityError,
  type XmlErrorCode,
  type XmlPosition,
  XmlSyntaxError,
} from "./errors.ts";
export { readXml } from "./xml_reader.ts";
export {
  attributePosition,
  type XmlAttribute,
  type XmlDoctype,
  type XmlDocument,
  type XmlElement,
  type XmlNode,
  type XmlReader,
  type XmlReadOptions,
  type XmlText,
} from "./xml_document.ts";
export { type ConditionOptions, parseCondition } from "./condition.ts";
export { ConditionExpression, type VariableLookup } from "../driver/internal.ts";
export type {
  MapperFile,
  MapperStatement,
  RenderedStatement,
  ResultMapDef,
  StatementTag,
} from "./types.ts";
export { parseMapperFile, type ParseMapperOptions } from "./mapper_file.ts";
export { loadMapperFile, type LoadMapperOptions } from "./load_mapper_file.ts";
