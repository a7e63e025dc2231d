// The template's reading of command text. It splits a text into segments: literal text,
// positional slots (`?` in JSON, `{?}` in paths), named slots (`#{a.b}` → `?` or `{?}`), identifier
// splices (`${name}`) and rule calls (`@{rule, …}`). It reads the driver's tokens (`ConsoleLexer`:
// strings with their escapes and Kibana's `"""…"""`, comments, hints, placeholders, brackets), so
// it knows where a path ends and a JSON body begins as the driver does, and `{"a":#{v}}`,
// `{"a":[1,2]}` and `?a=1&b=2` all work. A text is scanned once; plans are cached.
// Bounded: rule calls nest at most MAX_RULE_DEPTH levels and a path has at most MAX_PATH_DEPTH
// steps (syntax errors), so no text can exhaust the stack.

import { ConsoleLexer, type LexMode, targetStart, type TokenKind } from "../driver/internal.ts";
import { type ArgPath, parsePath } from "./_path.ts";
import { parseRule, type RuleScope } from "./rules.ts";
import {
  type Marker,
  MAX_PATH_DEPTH,
  MAX_RULE_DEPTH,
  type Mode,
  type ScanOptions,
  type Segment,
  syntaxError,
} from "./_template_syntax.ts";

/** What `scan` reads of a text, and how: the whole text as a command unless told otherwise. */
export interface ScanCall extends ScanOptions {
  /** Where scanning starts (default 0). */
  readonly start?: number;
  /** Where scanning ends, exclusive (default the text's length). */
  readonly end?: number;
  /** Whether the text is read as a path or a JSON body (default `"body"`). */
  readonly mode?: Mode;
  /** A fragment inside a rule call: no method word starts a new command there (default false). */
  readonly fragment?: boolean;
}

/** Scans a whole command text (or a fragment of it) into segments. */
export function scan(text: string, call: ScanCall = {}): Segment[] {
  const { start = 0, end = text.length, mode = "body", fragment = false, ...options } = call;
  const out: Segment[] = [];
  const lexer = new ConsoleLexer(text, start, end);
  const insideLexer = new ConsoleLexer(text, start, start); // strings' and hints' insides
  let lit = start;
  let depth = 0;
  let inPath = mode === "path";
  const flush = (to: number) => {
    if (to > lit) out.push({ kind: "text", text: text.slice(lit, to) });
  };
  const pathAt = (from: number, to: number, what: string): ArgPath => {
    const raw = text.slice(from, to);
    const comma = raw.indexOf(",");
    const path = parsePath(comma < 0 ? raw : raw.slice(0, comma));
    if (!path) {
      const found = raw.trim();
      syntaxError(
        text,
        from,
        `${what} needs a name or a path like a.b[0].c, found "${
          found.length > 60 ? found.slice(0, 60) + "…" : found
        }"`,
      );
    }
    if (path.keys.length > MAX_PATH_DEPTH) {
      syntaxError(text, from, `${what}: the path has more than ${MAX_PATH_DEPTH} steps`);
    }
    return path;
  };
  // The placeholder token `#{…}`, `${…}` or `@{…}` of `at` (the lexer there) becomes a segment.
  const special = (at: ConsoleLexer, marker: Marker): void => {
    const from = at.start;
    const kind: TokenKind = at.kind;
    flush(from);
    if (kind === "named" || kind === "splice") {
      const what = kind === "named" ? "#{" : "${";
      if (!at.closed) syntaxError(text, from, `unterminated ${what}: add the closing }`);
      const path = pathAt(from + 2, at.pos - 1, `${what}…}`);
      out.push(kind === "named" ? { kind, marker, path } : { kind, path });
    } else {
      if (!at.closed) syntaxError(text, from, "unterminated rule @{…}: add the closing }");
      const rule = parseRule(text, from, at.pos - 1, {
        mode: inPath ? "path" : "body",
        options,
        scan: scanFragment,
      });
      out.push({ kind: "rule", rule });
    }
    lit = at.pos;
  };

  while (lexer.next(inPath ? "target" : "body")) {
    const kind: TokenKind = lexer.kind;
    const from = lexer.start;
    if (kind === "escape") {
      flush(from); // `\#{` is the literal text `#{`
      lit = from + 1;
    } else if (kind === "named" || kind === "splice" || kind === "rule") {
      special(lexer, inPath ? "{?}" : "?");
    } else if (inPath) {
      if (kind === "space" && !fragment) {
        inPath = false;
        depth = 0;
      } else if (kind === "pathSlot") {
        flush(from);
        out.push({ kind: "positional", marker: "{?}" });
        lit = lexer.pos;
      }
    } else if (kind === "slot") {
      flush(from);
      out.push({ kind: "positional", marker: "?" });
      lit = lexer.pos;
    } else if (kind === "string" || kind === "triple") {
      if (!lexer.closed) syntaxError(text, from, "unterminated JSON string: add the closing quote");
      string(from, lexer.pos, kind);
    } else if (kind === "open") depth++;
    else if (kind === "close") depth = Math.max(0, depth - 1);
    else if (kind === "comment" || kind === "hint") {
      if (!lexer.closed) syntaxError(text, from, "unterminated comment: add */");
      if (kind === "hint") hint(from + 3, lexer.pos - 2);
    } else if (kind === "word" && depth === 0 && !fragment && lexer.isMethod()) {
      // The path follows on the same line or, as in the driver, on the next one.
      const at = targetStart(text, lexer.pos, end);
      if (at >= 0) {
        lexer.pos = at;
        inPath = true;
      }
    }
  }
  flush(end);
  return out;

  // A JSON string: `${…}` is spliced, `?` is text, `#{…}` is refused (`\#{` is text).
  function string(from: number, to: number, kind: "string" | "triple"): void {
    const quotes = kind === "triple" ? 3 : 1;
    const inside = insideLexer.reset(from + quotes, to - quotes);
    const mode: LexMode = kind;
    while (inside.next(mode)) {
      if (inside.kind === "escape") {
        flush(inside.start); // `\${` in a string is a literal `${`
        lit = inside.start + 1;
      } else if (inside.kind === "splice") special(inside, "?");
      else if (inside.kind === "named") {
        syntaxError(
          text,
          inside.start,
          options.tagged
            ? "a ${} value inside a JSON string is not bound; remove the quotes around it (values are JSON-encoded)"
            : "a #{…} inside a JSON string would be sent as literal text and match nothing; remove " +
              'the quotes ("#{q}" → #{q}: values are JSON-encoded, strings get their quotes); to ' +
              "send the text #{ itself, write \\#{",
        );
      }
    }
  }

  // A hint `/*+ … */` keeps its `?` and `#{…}` slots.
  function hint(from: number, to: number): void {
    const inside = insideLexer.reset(from, to);
    while (inside.next("body")) {
      if (inside.kind === "slot") {
        flush(inside.start);
        out.push({ kind: "positional", marker: "?" });
        lit = inside.pos;
      } else if (inside.kind === "named") special(inside, "?");
    }
  }
}

/** Scans a fragment inside a rule call: the scanner as the rule parser is handed it. */
function scanFragment(text: string, from: number, to: number, within: RuleScope): Segment[] {
  const { mode, options } = within;
  const depth = (options.depth ?? 0) + 1;
  if (depth > MAX_RULE_DEPTH) {
    syntaxError(text, from, `rule calls nest deeper than ${MAX_RULE_DEPTH} levels`);
  }
  return scan(text, { ...options, depth, start: from, end: to, mode, fragment: true });
}
