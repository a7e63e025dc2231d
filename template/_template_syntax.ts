// The shapes of a scanned template (segments and rule calls) and the positioned syntax errors the
// scanner and the rule parser share. Brackets, strings and placeholders are the driver's lexer's.

import { CommandSyntaxError } from "../driver/mod.ts";
import { type ConditionExpression, positionOf } from "../driver/internal.ts";
import type { ArgPath } from "./_path.ts";

/** The driver placeholder a slot becomes: `?` in JSON, `{?}` in a path or query string. */
export type Marker = "?" | "{?}";

/** Where a fragment is: in a path (`{?}` slots) or in a JSON body (`?` slots). */
export type Mode = "path" | "body";

/** One piece of a scanned template. */
export type Segment =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "positional"; readonly marker: Marker }
  | { readonly kind: "named"; readonly marker: Marker; readonly path: ArgPath }
  | { readonly kind: "splice"; readonly path: ArgPath }
  | { readonly kind: "rule"; readonly rule: RuleCall };

/** Options of a scan. */
export interface ScanOptions {
  /** Tagged-template mode: a `#{n}` inside a JSON string is an error, not text. */
  readonly tagged?: boolean;
  /** How many rule calls enclose the fragment being scanned (0 at the top). */
  readonly depth?: number;
}

/** The deepest nesting of rule calls (`@{if, a, @{and, …}}`): deeper is a syntax error. */
export const MAX_RULE_DEPTH = 64;

/** The most steps of a `#{a.b[0].c}` path: longer is a syntax error. */
export const MAX_PATH_DEPTH = 64;

/** A parsed rule call. */
export type RuleCall =
  | { readonly kind: "and"; readonly body: readonly Segment[] }
  | { readonly kind: "if"; readonly test: ConditionExpression; readonly body: readonly Segment[] }
  | { readonly kind: "in" | "md5"; readonly path: ArgPath; readonly marker: Marker }
  | { readonly kind: "uuid32" | "uuid36"; readonly marker: Marker }
  | { readonly kind: "macro"; readonly name: string; readonly mode: Mode };

/** Throws a {@linkcode CommandSyntaxError} at `offset` of `text`. */
export function syntaxError(text: string, offset: number, problem: string): never {
  throw new CommandSyntaxError(problem, text, positionOf(text, offset));
}
