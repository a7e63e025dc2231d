// Line and column of a place in a JSON request body, for parse errors (`"line":1,"col":42`), as
// Jackson reports the token Elasticsearch's parser stood on.

import type { BodySpot } from "../_errors.ts";

/** Deeper bodies are not searched (the place is then left out of the error). */
const MAX_DEPTH = 200;

/**
 * The 1-based line and column of `spot` in `text`, or undefined when the key is not there or the
 * text is not the JSON it looked like.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { locate } from "./body_spot.ts";
 * assert.deepEqual(locate('{"query":{},"sizee":1}', { key: "sizee", at: "value" }), { line: 1, col: 21 });
 * ```
 */
export function locate(text: string, spot: BodySpot): { line: number; col: number } | undefined {
  let i = 0;
  let best: { nameAt: number; at: number } | undefined;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const string = () => {
    for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
    i++;
  };
  const value = (depth: number): boolean => {
    if (depth > MAX_DEPTH) return false;
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      while (i < text.length && text[i] !== "}") {
        const nameAt = i;
        if (text[i] !== '"') return false;
        string();
        let name: string;
        try {
          name = JSON.parse(text.slice(nameAt, i)) as string;
        } catch {
          return false;
        }
        ws();
        if (text[i++] !== ":") return false;
        ws();
        const valueAt = i;
        if (!value(depth + 1)) return false;
        if (name === spot.key && (best === undefined || nameAt < best.nameAt)) {
          best = {
            nameAt,
            at: spot.at === "name" ? nameAt : spot.at === "value" ? valueAt : i - 1,
          };
        }
        ws();
        if (text[i] === ",") i++;
        ws();
      }
      i++;
    } else if (c === "[") {
      i++;
      ws();
      while (i < text.length && text[i] !== "]") {
        if (!value(depth + 1)) return false;
        ws();
        if (text[i] === ",") i++;
        ws();
      }
      i++;
    } else if (c === '"') string();
    else {
      const start = i;
      while (i < text.length && !/[\s,\]}]/.test(text[i]!)) i++;
      if (i === start) return false;
    }
    return true;
  };
  value(0);
  if (best === undefined) return undefined;
  const before = text.slice(0, best.at);
  const line = before.split("\n").length;
  return { line, col: best.at - before.lastIndexOf("\n") };
}
