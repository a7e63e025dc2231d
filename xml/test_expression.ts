// `test="…"`, `collection="…"` and `<bind value="…">` use the driver's test-expression language
// (its grammar is documented on the driver's `TestExpression`); this file only places its syntax
// errors in the mapper file.

import { TestExpression } from "../driver/mod.ts";
import { TestExpressionError, type XmlPosition } from "./errors.ts";

/** Options of {@linkcode parseTestExpression}. */
export interface TestExpressionOptions {
  /** Maps an offset of the expression to its place in the file, for parse errors. */
  position?: (offset: number) => XmlPosition;
  /** Where the expression stands (`users.xml, line 4, column 15`), for evaluation errors. */
  where?: string;
}

/**
 * Parses a test expression once; evaluate it with `test` or `value` as often as needed. The
 * grammar and its rules are documented on the driver's `TestExpression` (and summed up in this
 * module's documentation). A problem is a {@linkcode TestExpressionError} that points at the
 * column inside the expression (and, through `options.position`, into the file).
 *
 * @param source The expression.
 * @param options Where it stands in a file.
 * @returns The compiled expression.
 *
 * @example
 * ```ts
 * import { parseTestExpression } from "@searchvisitor/searchvisitor/xml";
 * import assert from "node:assert/strict";
 *
 * const e = parseTestExpression("status in ['open', 'held'] && not (age < 18)");
 * assert.equal(e.test({ status: "open", age: 30 }), true);
 * assert.equal(e.test({ status: "closed", age: 30 }), false);
 * assert.equal(parseTestExpression("'*' + q + '*'").value({ q: "ab" }), "*ab*");
 * ```
 */
export function parseTestExpression(
  source: string,
  options: TestExpressionOptions = {},
): TestExpression {
  return new TestExpression(source, {
    where: options.where ?? "expression",
    syntaxError: (problem, offset) => {
      throw new TestExpressionError(
        `${problem} in the test "${source.length > 200 ? source.slice(0, 200) + "…" : source}"`,
        source,
        offset,
        options.position?.(offset),
      );
    },
  });
}
