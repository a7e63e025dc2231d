// The parts of a mapper file around its statements: the accepted document types, the attributes
// each element takes, and `<resultMap>`.

import type { ResultMapDef } from "./types.ts";
import type { StatementBuilder } from "./_tag_handlers.ts";
import type { XmlDocument, XmlElement } from "./xml_document.ts";

/** The document types a mapper file may declare (public id → system id); never fetched. */
export const MAPPER_DOCTYPES: ReadonlyMap<string, string> = new Map([
  ["-//dbvisitor.net//DTD Mapper 1.0//EN", "https://www.dbvisitor.net/schema/dbvisitor-mapper.dtd"],
  ["-//mybatis.org//DTD Mapper 3.0//EN", "http://mybatis.org/dtd/mybatis-3-mapper.dtd"],
]);

// Attributes the Java systems define that change nothing here (JDBC types, caches, timeouts
// handled elsewhere) are accepted so existing files load; anything else is a typo and refused.
const IGNORED = [
  "parameterType",
  "parameterMap",
  "statementType",
  "timeout",
  "databaseId",
  "lang",
  "flushCache",
];

/** The attributes each element takes. */
export const STATEMENT_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  mapper: [
    "namespace",
    "caseInsensitive",
    "mapUnderscoreToCamelCase",
    "autoMapping",
    "useDelimited",
  ],
  select: [
    "id",
    "resultType",
    "resultMap",
    "fetchSize",
    "resultSetType",
    "useCache",
    "resultOrdered",
    "resultSets",
    "resultSetExtractor",
    "resultRowCallback",
    "resultRowMapper",
    "resultTypeHandler",
    "bindOut",
    ...IGNORED,
  ],
  insert: ["id", "useGeneratedKeys", "keyProperty", "keyColumn", ...IGNORED],
  update: ["id", ...IGNORED],
  delete: ["id", ...IGNORED],
  execute: ["id", "bindOut", ...IGNORED],
};

/** Refuses a DOCTYPE other than `mapper` with dbVisitor's or MyBatis 3.0's identifiers. */
export function checkDoctype(doc: XmlDocument, b: StatementBuilder): void {
  const d = doc.doctype;
  if (!d) return;
  const known = [...MAPPER_DOCTYPES.keys()].join('" or "');
  if (d.name !== "mapper") {
    b.fail(`<!DOCTYPE ${d.name}> is not a mapper file; declare <!DOCTYPE mapper …>`, d);
  }
  if (d.publicId !== undefined && !MAPPER_DOCTYPES.has(d.publicId)) {
    b.fail(`unknown document type "${d.publicId}"; use "${known}"`, d);
  }
  if (
    d.publicId === undefined && d.systemId !== undefined &&
    ![...MAPPER_DOCTYPES.values()].includes(d.systemId)
  ) {
    b.fail(`unknown document type "${d.systemId}"; use PUBLIC "${known}"`, d);
  }
}

/** Reads `<resultMap id type>` with `<id>`/`<result>` (`<mapping>` too) column → property. */
export function readResultMap(el: XmlElement, b: StatementBuilder): ResultMapDef {
  b.attributes(el, ["id", "type", "autoMapping", "caseInsensitive", "mapUnderscoreToCamelCase"], [
    "id",
  ]);
  const get = (e: XmlElement, name: string) => e.attributes.find((a) => a.name === name)?.value;
  const columns: { column: string; property: string; id: boolean }[] = [];
  for (const child of el.children) {
    if (child.kind === "text") {
      if (child.cdata || child.text.trim()) {
        b.fail("text in <resultMap>; it holds <id> and <result>", child);
      }
      continue;
    }
    if (child.name !== "id" && child.name !== "result" && child.name !== "mapping") {
      b.fail(
        `<${child.name}> in <resultMap> is not supported; use <id> and <result column property>`,
        child,
      );
    }
    b.attributes(child, ["column", "property", "javaType", "jdbcType", "typeHandler"], [
      "column",
      "property",
    ]);
    if (child.children.some((c) => c.kind === "element" || c.text.trim())) {
      b.fail(`<${child.name}> has no content`, child);
    }
    columns.push({
      column: get(child, "column") as string,
      property: get(child, "property") as string,
      id: child.name === "id",
    });
  }
  const type = get(el, "type");
  return { id: get(el, "id") as string, ...(type !== undefined ? { type } : {}), columns };
}
