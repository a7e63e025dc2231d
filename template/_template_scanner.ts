// The JSON-aware scanner of template command text. It splits a text into segments: literal text,
// positional slots (`?` in JSON, `{?}` in paths), named slots (`#{a.b}` → `?` or `{?}`), identifier
// splices (`${name}`) and rule calls (`@{rule, …}`). It knows where a path ends and a JSON body
// begins, skips JSON strings (with backslash escapes and Kibana's `"""…"""`) and comments, so
// `{"a":#{v}}`, `{"a":[1,2]}` and `?a=1&b=2` all work. A text is scanned once; plans are cached.
// Bounded: rule calls nest at most MAX_RULE_DEPTH levels and a path has at most MAX_PATH_DEPTH
// steps (syntax errors), so no text can exhaust the stack.

import { commentEnd, isMethodAt } from "../driver/internal.ts";
import { type ArgPath, parsePath } from "./_path.ts";
import { parseRule } from "./rules.ts";
import {
  findClose,
  type Marker,
  MAX_PATH_DEPTH,
  MAX_RULE_DEPTH,
  type Mode,
  type ScanOptions,
  type Segment,
  syntaxError,
} from "./_template_syntax.ts";

/** Scans a whole command text (or a fragment of it) into segments. */
export function scan(
  text: string,
  start = 0,
  end: number = text.length,
  mode: Mode = "body",
  fragment = false,
  options: ScanOptions = {},
): Segment[] {
  const out: Segment[] = [];
  let lit = start;
  let i = start;
  let depth = 0;
  let inPath = mode === "path";
  const flush = (to: number) => {
    if (to > lit) out.push({ kind: "text", text: text.slice(lit, to) });
  };
  const closeOf = (at: number, what: string): number => {
    const close = text.indexOf("}", at);
    if (close < 0 || close >= end) syntaxError(text, at, `unterminated ${what}: add the closing }`);
    return close;
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
  // `#{…}`, `${…}`, `@{…}` at i (the marker character); returns the index after it.
  const special = (marker: Marker): number => {
    const c = text[i];
    flush(i);
    if (c === "#") {
      const close = closeOf(i + 2, "#{");
      out.push({ kind: "named", marker, path: pathAt(i + 2, close, "#{…}") });
      return close + 1;
    }
    if (c === "$") {
      const close = closeOf(i + 2, "${");
      out.push({ kind: "splice", path: pathAt(i + 2, close, "${…}") });
      return close + 1;
    }
    const close = findClose(text, i + 1, end);
    if (close < 0) syntaxError(text, i, "unterminated rule @{…}: add the closing }");
    const rule = parseRule(text, i, close, inPath ? "path" : "body", options, scanFragment);
    out.push({ kind: "rule", rule });
    return close + 1;
  };
  const isMarker = (at: number) => {
    const c = text[at];
    return (c === "#" || c === "$" || c === "@") && text[at + 1] === "{";
  };

  while (i < end) {
    const c = text[i]!;
    if (inPath) {
      if (c === " " || c === "\t" || c === "\n" || c === "\r") {
        if (fragment) {
          i++;
          continue;
        }
        inPath = false;
        depth = 0;
        continue;
      }
      if (c === "{" && text[i + 1] === "?" && text[i + 2] === "}") {
        flush(i);
        out.push({ kind: "positional", marker: "{?}" });
        i += 3;
        lit = i;
      } else if (c === "\\" && isMarker(i + 1)) {
        flush(i);
        lit = i + 1;
        i += 3;
      } else if (isMarker(i)) {
        i = special("{?}");
        lit = i;
      } else {
        i++;
      }
      continue;
    }
    if (c === '"') {
      i = string(i);
      continue;
    }
    if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth = Math.max(0, depth - 1);
    if (c === "?") {
      flush(i);
      out.push({ kind: "positional", marker: "?" });
      lit = ++i;
    } else if (c === "\\" && isMarker(i + 1)) {
      flush(i);
      lit = i + 1;
      i += 3;
    } else if (isMarker(i)) {
      i = special("?");
      lit = i;
    } else if (c === "/" && text[i + 1] === "*") {
      i = comment(i);
    } else if (c === "#" || (c === "/" && text[i + 1] === "/")) {
      i = commentEnd(text, i, end);
    } else if (depth === 0 && !fragment && isLetter(c)) {
      let j = i;
      while (j < end && isLetter(text[j]!)) j++;
      if (isMethodAt(text, i) && j <= end) {
        // The path follows on the same line or, as in the driver, on the next one.
        while (j < end && (text[j] === " " || text[j] === "\t")) j++;
        let k = j;
        while (k < end && /\s/.test(text[k]!)) k++;
        const t = text[k];
        if (k > j && k < end && t !== "{" && t !== "[" && t !== "#" && !isMethodAt(text, k)) j = k;
        inPath = true;
      }
      i = j;
    } else {
      i++;
    }
  }
  flush(end);
  return out;

  // A JSON string at `at`: `${…}` is spliced, `?` is text, `#{…}` is refused (`\#{` is text).
  function string(at: number): number {
    const triple = text.startsWith('"""', at);
    let j = at + (triple ? 3 : 1);
    while (j < end) {
      const ch = text[j];
      if (triple ? text.startsWith('"""', j) : ch === '"') return j + (triple ? 3 : 1);
      if (ch === "\\" && text[j + 1] === "$" && text[j + 2] === "{") {
        flush(j); // `\${` in a string is a literal `${`
        lit = j + 1;
        j += 3;
        continue;
      }
      if (ch === "\\" && text[j + 1] === "#" && text[j + 2] === "{") {
        flush(j); // `\#{` in a string is the literal text `#{`
        lit = j + 1;
        j += 3;
        continue;
      }
      if (ch === "\\" && !triple) {
        j += 2;
        continue;
      }
      if (ch === "$" && text[j + 1] === "{") {
        i = j;
        j = special("?");
        lit = j;
        continue;
      }
      if (ch === "#" && text[j + 1] === "{") {
        syntaxError(
          text,
          j,
          options.tagged
            ? "a ${} value inside a JSON string is not bound; remove the quotes around it (values are JSON-encoded)"
            : "a #{…} inside a JSON string would be sent as literal text and match nothing; remove " +
              'the quotes ("#{q}" → #{q}: values are JSON-encoded, strings get their quotes); to ' +
              "send the text #{ itself, write \\#{",
        );
      }
      j++;
    }
    syntaxError(text, at, "unterminated JSON string: add the closing quote");
  }

  // A comment `/* … */`; hints `/*+ … */` keep their `#{…}` and `?` slots.
  function comment(at: number): number {
    const after = commentEnd(text, at, end);
    if (after < 0) syntaxError(text, at, "unterminated comment: add */");
    const close = after - 2;
    if (text[at + 2] !== "+") return after;
    for (let j = at + 3; j < close; j++) {
      if (text[j] === "?") {
        flush(j);
        out.push({ kind: "positional", marker: "?" });
        lit = j + 1;
      } else if (text[j] === "#" && text[j + 1] === "{") {
        i = j;
        j = special("?") - 1;
        lit = j + 1;
      }
    }
    return close + 2;
  }
}

function isLetter(c: string): boolean {
  return (c >= "A" && c <= "Z") || (c >= "a" && c <= "z");
}

/** Scans a fragment inside a rule call: the scanner as the rule parser is handed it. */
function scanFragment(
  text: string,
  from: number,
  to: number,
  mode: Mode,
  options: ScanOptions,
): Segment[] {
  const depth = (options.depth ?? 0) + 1;
  if (depth > MAX_RULE_DEPTH) {
    syntaxError(text, from, `rule calls nest deeper than ${MAX_RULE_DEPTH} levels`);
  }
  return scan(text, from, to, mode, true, { ...options, depth });
}
