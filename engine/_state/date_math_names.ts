// Date-math index names (`<logs-{now/d}>`, `<logs-{now/M{yyyy.MM}}>`), resolved as Elasticsearch
// resolves them before looking an index up or creating it.

import { esError } from "../_errors.ts";
import { evalDateMath } from "../_index/dates.ts";
import { formatWithPattern } from "../_index/date_format.ts";
import { parseTimeZone, type TimeZone, toLocal, UTC } from "../_index/time_zones.ts";

const DEFAULT_FORMAT = "uuuu.MM.dd";

function invalid(expression: string, why: string): never {
  throw esError("parse_exception", `invalid dynamic name expression [${expression}]. ${why}`);
}

/** The zone of a placeholder, refused (with the reason) as an invalid expression. */
function zoneOf(zone: string, expression: string): TimeZone {
  try {
    return parseTimeZone(zone);
  } catch (e) {
    return invalid(expression, e instanceof Error ? e.message : String(e));
  }
}

/** One `{math{format|zone}}` placeholder's text at the clock reading `now`. */
function placeholder(inner: string, now: number, expression: string): string {
  const open = inner.indexOf("{");
  const math = open < 0 ? inner : inner.slice(0, open);
  let format = DEFAULT_FORMAT;
  let tz = UTC;
  if (open >= 0) {
    if (!inner.endsWith("}")) invalid(inner, "missing closing `}` for date math format");
    const [fmt, zone] = inner.slice(open + 1, -1).split("|");
    if (!fmt) invalid(inner, "missing date format");
    format = fmt;
    if (zone !== undefined) tz = zoneOf(zone, expression);
  }
  if (!math.startsWith("now")) {
    invalid(expression, `date math must start with [now], got [${math}]`);
  }
  const at = evalDateMath(math, now, { zone: tz });
  if (Number.isNaN(at)) invalid(expression, `invalid date math [${math}]`);
  return formatWithPattern(toLocal(tz, at), format) ??
    invalid(expression, `unsupported format [${format}]`);
}

/**
 * Resolves one name: a `<…>` expression has each `{…}` placeholder replaced by its formatted date
 * (`\{` and `\}` escape braces); any other name is returned unchanged.
 */
export function resolveDateMathName(name: string, now: number): string {
  if (!name.startsWith("<") || !name.endsWith(">")) return name;
  const body = name.slice(1, -1);
  // Elasticsearch quotes the expression without its leading `<` and counts positions from it.
  const quoted = name.slice(1);
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === "\\" && (body[i + 1] === "{" || body[i + 1] === "}")) {
      out += body[++i];
    } else if (c === "}") {
      invalid(
        quoted,
        `invalid character at position [${
          i + 1
        }]. \`{\` and \`}\` are reserved characters and should be escaped when used as part of the index name using \`\\\` (e.g. \`\\{text\\}\`)`,
      );
    } else if (c === "{") {
      let depth = 1;
      let j = i + 1;
      for (; j < body.length && depth > 0; j++) {
        if (body[j] === "{") depth++;
        else if (body[j] === "}") depth--;
      }
      if (depth > 0) invalid(quoted, "date math placeholder is open ended");
      out += placeholder(body.slice(i + 1, j - 1), now, name);
      i = j - 1;
    } else {
      out += c;
    }
  }
  if (out === "") throw esError("parse_exception", "nothing captured");
  return out;
}

/** Resolves each name of a comma-separated index list (see `resolveDateMathName`). */
export function resolveDateMathNames(list: string, now: number): string {
  if (!list.includes("<")) return list;
  return list.split(",").map((n) => resolveDateMathName(n, now)).join(",");
}
