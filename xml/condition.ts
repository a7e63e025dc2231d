// `test="…"`, `collection="…"` and `<bind value="…">` use the driver's condition language
// (its grammar is documented on the driver's `ConditionExpression`); this file only places its syntax
// errors in the mapper file.

import { ConditionExpression } from "../driver/internal.ts";
import { ConditionError, type XmlPosition } from "./errors.ts";

/** Options of {@linkcode parseCondition}. */
export interface ConditionOptions {
  /** Maps an offset of the expression to its place in the file, for parse errors. */
  position?: (offset: number) => XmlPosition;
  /** Where the expression stands (`users.xml, line 4, column 15`), for evaluation errors. */
  where?: string;
}

/**
 * Parses a condition once; evaluate it with `test` or `value` as often as needed. The
 * grammar and its rules are documented on the driver's `ConditionExpression` (and summed up in this
 * module's documentation). A problem is a {@linkcode ConditionError} that points at the
 * column inside the expression (and, through `options.position`, into the file).
 *
 * @param source The expression.
 * @param options Where it stands in a file.
 * @returns The compiled expression.
 *
 * @example
 * ```ts
 * import { parseCondition } from "@searchvisitor/searchvisitor/xml";
 * import assert from "node:assert/strict";
 *
 * const e = parseCondition("status in ['open', 'held'] && not (age < 18)");
 * assert.equal(e.test({ status: "open", age: 30 }), true);
 * assert.equal(e.test({ status: "closed", age: 30 }), false);
 * assert.equal(parseCondition("'*' + q + '*'").value({ q: "ab" }), "*ab*");
 * ```
 */
export function parseCondition(
  source: string,
  options: ConditionOptions = {},
): ConditionExpression {
  return new ConditionExpression(source, {
    where: options.where ?? "expression",
    syntaxError: (problem, offset) => {
      throw new ConditionError(
        `${problem} in the test "${source.length > 200 ? source.slice(0, 200) + "…" : source}"`,
        source,
        offset,
        options.position?.(offset),
      );
    },
  });
}
