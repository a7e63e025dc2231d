/**
 * The errors of the xml room. Every problem found while reading a mapper file is an
 * {@linkcode XmlSyntaxError} (a `SyntaxError`) that names the file, the 1-based line and column and
 * shows the line with a caret; its `code` says which kind it is:
 *
 * - `XML_SYNTAX` — the markup is not well-formed XML ({@linkcode XmlSyntaxError});
 * - `XML_ENTITY` — an entity other than the five predefined ones and numeric references, or an
 *   entity declaration ({@linkcode XmlEntityError}); nothing is ever expanded or fetched;
 * - `MAPPER_DEFINITION` — well-formed XML that is not a valid mapper file
 *   ({@linkcode MapperDefinitionError});
 * - `CONDITION` — a `test="…"` or `<bind value="…">` expression that does not parse
 *   ({@linkcode ConditionError}), with the column inside the expression.
 *
 * Problems with the arguments given to `render` are the driver's `BindError` (a `TypeError`);
 * a file that cannot be fetched or read is a {@linkcode MapperLoadError} (code `MAPPER_LOAD`).
 *
 * @module
 */

import { makeExcerpt } from "../driver/internal.ts";

/** The stable codes of the xml room's errors. */
export type XmlErrorCode =
  | "XML_SYNTAX"
  | "XML_ENTITY"
  | "MAPPER_DEFINITION"
  | "CONDITION"
  | "MAPPER_LOAD";

/**
 * Where a problem sits: the file (when known), the 1-based line and column, and the text the
 * position refers to (used for the excerpt; not kept on the error).
 */
export interface XmlPosition {
  /** The file name or URL, when known. */
  readonly file?: string;
  /** 1-based line. */
  readonly line: number;
  /** 1-based column. */
  readonly column: number;
  /** The whole text the line and column point into, for the excerpt. */
  readonly text?: string;
}

/**
 * A mapper file is not well-formed XML. The message ends with the place
 * (`(users.xml, line 3, column 7)`) and the offending line with a caret under the column.
 *
 * @example
 * ```ts
 * import { readXml, XmlSyntaxError } from "@searchvisitor/searchvisitor/xml";
 * import assert from "node:assert/strict";
 *
 * assert.throws(() => readXml("<a>\n  <b></a>", { file: "x.xml" }), (e: unknown) => {
 *   assert.ok(e instanceof XmlSyntaxError && e instanceof SyntaxError);
 *   assert.equal(e.code, "XML_SYNTAX");
 *   assert.equal(e.file, "x.xml");
 *   assert.equal(e.line, 2);
 *   assert.equal(e.column, 6);
 *   return true;
 * });
 * ```
 */
export class XmlSyntaxError extends SyntaxError {
  /** Which kind of problem this is. */
  readonly code: XmlErrorCode;
  /** The file name or URL, when known. */
  readonly file?: string;
  /** 1-based line of the problem. */
  readonly line: number;
  /** 1-based column of the problem. */
  readonly column: number;
  /** The offending line with a caret under the column (empty when the text is unknown). */
  readonly excerpt: string;

  /**
   * Creates the error.
   *
   * @param problem What is wrong and what to do, without the position.
   * @param at Where the problem is.
   * @param code The kind of problem; subclasses set their own.
   */
  constructor(problem: string, at: XmlPosition, code: XmlErrorCode = "XML_SYNTAX") {
    const excerpt = at.text === undefined ? "" : makeExcerpt(at.text, at);
    const place = `${at.file ?? "mapper text"}, line ${at.line}, column ${at.column}`;
    super(`${problem} (${place})${excerpt ? "\n" + excerpt : ""}`);
    this.name = new.target.name;
    this.code = code;
    if (at.file !== undefined) this.file = at.file;
    this.line = at.line;
    this.column = at.column;
    this.excerpt = excerpt;
  }
}

/**
 * The file uses an entity the reader refuses: a reference to anything but `&lt; &gt; &amp;
 * &quot; &apos;` and numeric character references, or an `<!ENTITY>` declaration. Entities are never
 * expanded and DTDs never fetched, so billion-laughs and external-entity attacks cannot work.
 *
 * @example
 * ```ts
 * import { readXml, XmlEntityError } from "@searchvisitor/searchvisitor/xml";
 * import assert from "node:assert/strict";
 *
 * assert.throws(() => readXml("<a>&secret;</a>"), (e: unknown) => {
 *   assert.ok(e instanceof XmlEntityError);
 *   assert.equal(e.code, "XML_ENTITY");
 *   assert.equal(e.column, 4);
 *   return true;
 * });
 * ```
 */
export class XmlEntityError extends XmlSyntaxError {
  /**
   * Creates the error.
   *
   * @param problem What is wrong and what to do.
   * @param at Where the entity is.
   */
  constructor(problem: string, at: XmlPosition) {
    super(problem, at, "XML_ENTITY");
  }
}

/**
 * Well-formed XML that is not a valid mapper file: a missing `namespace` or `id`, an unknown tag
 * or attribute, a duplicate id, an `<include>` of a missing fragment or a cycle of includes.
 *
 * @example
 * ```ts
 * import { MapperDefinitionError, parseMapperFile } from "@searchvisitor/searchvisitor/xml";
 * import assert from "node:assert/strict";
 *
 * const text = '<mapper namespace="u">\n  <select id="a"><iff test="x">y</iff></select>\n</mapper>';
 * assert.throws(() => parseMapperFile(text, { file: "u.xml" }), (e: unknown) => {
 *   assert.ok(e instanceof MapperDefinitionError);
 *   assert.equal(e.statementId, "a");
 *   assert.equal(e.line, 2);
 *   assert.match(e.message, /<iff>/);
 *   return true;
 * });
 * ```
 */
export class MapperDefinitionError extends XmlSyntaxError {
  /** The id of the statement or fragment the problem is in, when there is one. */
  readonly statementId?: string;

  /**
   * Creates the error.
   *
   * @param problem What is wrong and what to do.
   * @param at Where the problem is.
   * @param statementId The statement or fragment id.
   */
  constructor(problem: string, at: XmlPosition, statementId?: string) {
    super(
      statementId === undefined ? problem : `${problem} [in "${statementId}"]`,
      at,
      "MAPPER_DEFINITION",
    );
    if (statementId !== undefined) this.statementId = statementId;
  }
}

/**
 * A condition does not parse. `line`/`column` point into the file (or, for an expression
 * parsed on its own, into the expression); `offset` is the 0-based position inside the
 * expression and `expression` its text.
 *
 * @example
 * ```ts
 * import { parseCondition, ConditionError } from "@searchvisitor/searchvisitor/xml";
 * import assert from "node:assert/strict";
 *
 * assert.throws(() => parseCondition("age >= "), (e: unknown) => {
 *   assert.ok(e instanceof ConditionError);
 *   assert.equal(e.offset, 7);
 *   assert.equal(e.column, 8);
 *   return true;
 * });
 * ```
 */
export class ConditionError extends XmlSyntaxError {
  /** The expression's text. */
  readonly expression: string;
  /** 0-based position of the problem inside the expression. */
  readonly offset: number;

  /**
   * Creates the error.
   *
   * @param problem What is wrong and what to do.
   * @param expression The expression's text.
   * @param offset 0-based position inside the expression.
   * @param at Where that position is in the file; defaults to the expression itself.
   */
  constructor(problem: string, expression: string, offset: number, at?: XmlPosition) {
    super(problem, at ?? positionIn(expression, offset), "CONDITION");
    this.expression = expression;
    this.offset = offset;
  }
}

/**
 * A mapper file could not be fetched or read (HTTP status, network failure, a loader that threw,
 * a file over the size limit). `cause` keeps the underlying error; URLs are redacted.
 *
 * @example
 * ```ts
 * import { loadMapperFile, MapperLoadError } from "@searchvisitor/searchvisitor/xml";
 * import assert from "node:assert/strict";
 *
 * const fetch = () => Promise.resolve(new Response("gone", { status: 404 }));
 * await assert.rejects(loadMapperFile("https://example.com/m.xml", { fetch }), (e: unknown) => {
 *   assert.ok(e instanceof MapperLoadError);
 *   assert.equal(e.code, "MAPPER_LOAD");
 *   assert.match(e.message, /HTTP 404/);
 *   return true;
 * });
 * ```
 */
export class MapperLoadError extends Error {
  /** Always `"MAPPER_LOAD"`. */
  readonly code: XmlErrorCode = "MAPPER_LOAD";
  /** The (redacted) URL of the file. */
  readonly file: string;

  /**
   * Creates the error.
   *
   * @param message What failed and what to do.
   * @param file The redacted URL.
   * @param cause The underlying error.
   */
  constructor(message: string, file: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "MapperLoadError";
    this.file = file;
  }
}

function positionIn(text: string, offset: number): XmlPosition {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf("\n") + 1;
  const line = before.split("\n").length;
  return { line, column: offset - lineStart + 1, text };
}
