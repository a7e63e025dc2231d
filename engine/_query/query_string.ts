// A small parser for `query_string` / `q=` syntax: terms, field:value, "phrases", AND/OR/NOT, +/-,
// parentheses, ranges ([a TO b], >5), wildcards, /regular expressions/ and _exists_.

import { esError, parsingError } from "../_errors.ts";
import type { BoostedField, QueryNode } from "./query_nodes.ts";
import { parseTimeZone } from "../_index/time_zones.ts";
import { boostedFields, operatorOf } from "./query_parse_util.ts";

interface Options {
  fields: BoostedField[];
  defaultAnd: boolean;
  boost: number;
  lenient: boolean;
  /** `simple_query_string` has no `/regex/` syntax. */
  noRegex?: boolean;
  /** `time_zone` of the date ranges (`[a TO b]`, `>a`). */
  timeZone?: string;
  /**
   * Scores over several fields add up (`simple_query_string`: a term is a `most_fields` query, a
   * prefix one `should` clause per field); `query_string` takes the best field.
   */
  sumFields?: boolean;
}

type Occur = "must" | "should" | "must_not";

/** A `/regex/` term, optionally `field:`-prefixed and `^boost`-suffixed (Lucene's REGEXPTERM). */
const REGEX_TERM = String.raw`(?:(?:\\.|[^\s()"/:\\])+:)?\/(?:\\\/|[^/])*\/(?:\^\d+(?:\.\d+)?)?`;
const OPERATORS = String.raw`\(|\)|\+|-(?=\S)|!|&&|\|\||"(?:\\.|[^"\\])*"`;
const TERM = String.raw`(?:\\.|[^\s()"])+`;
const TOKEN_RE = new RegExp(String.raw`\s*(${OPERATORS}|${REGEX_TERM}|${TERM})`, "gy");
const SIMPLE_TOKEN_RE = new RegExp(String.raw`\s*(${OPERATORS}|${TERM})`, "gy");

/** The tokens of `text` by `re`: `TOKEN_RE`, or `SIMPLE_TOKEN_RE` without `/regex/` terms. */
function tokenize(text: string, re: RegExp): string[] {
  const out: string[] = [];
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) out.push(m[1]!);
  return out;
}

/**
 * Groups nested deeper than this are refused before the parser recurses further, with
 * Elasticsearch's error for a query its parser finds too deeply nested (it gives up near 4000,
 * where its stack ends): as deep as a JSON request may nest, well within the engine's stack.
 */
const MAX_GROUP_DEPTH = 1000;

class QsParser {
  #tokens: string[];
  #i = 0;
  #depth = 0;
  constructor(readonly text: string, readonly opts: Options) {
    this.#tokens = tokenize(text, opts.noRegex ? SIMPLE_TOKEN_RE : TOKEN_RE);
  }

  parse(): QueryNode {
    const node = this.#group();
    if (this.#i < this.#tokens.length) {
      throw parsingError(`Failed to parse query [${this.#tokens.join(" ")}]`);
    }
    return node;
  }

  #group(): QueryNode {
    if (++this.#depth > MAX_GROUP_DEPTH) {
      throw esError(
        "query_shard_exception",
        `Failed to parse query [${this.text}]: query is too deeply nested`,
      );
    }
    try {
      return this.#items();
    } finally {
      this.#depth--;
    }
  }

  #items(): QueryNode {
    const items: { occur: Occur; node: QueryNode }[] = [];
    let pendingAnd = false;
    while (this.#i < this.#tokens.length && this.#tokens[this.#i] !== ")") {
      const t = this.#tokens[this.#i];
      if (t === "AND" || t === "&&") {
        pendingAnd = true;
        if (items.length && items[items.length - 1]!.occur === "should") {
          items[items.length - 1]!.occur = "must";
        }
        this.#i++;
        continue;
      }
      if (t === "OR" || t === "||") {
        this.#i++;
        continue;
      }
      let occur: Occur = this.opts.defaultAnd || pendingAnd ? "must" : "should";
      if (t === "+") {
        occur = "must";
        this.#i++;
      } else if (t === "-" || t === "!" || t === "NOT") {
        occur = "must_not";
        this.#i++;
      }
      const prev = this.#tokens[this.#i - 1];
      if ((prev === "OR" || prev === "||") && occur === "must" && !this.opts.defaultAnd) {
        occur = "should";
      }
      items.push({ occur, node: this.#clause() });
      pendingAnd = false;
    }
    if (items.length === 1 && items[0]!.occur !== "must_not") return items[0]!.node;
    if (items.length === 0) return { kind: "match_none" };
    return {
      kind: "bool",
      must: items.filter((x) => x.occur === "must").map((x) => x.node),
      should: items.filter((x) => x.occur === "should").map((x) => x.node),
      mustNot: items.filter((x) => x.occur === "must_not").map((x) => x.node),
      filter: [],
      boost: 1,
    };
  }

  #clause(): QueryNode {
    const t = this.#tokens[this.#i++];
    if (t === undefined) throw parsingError(`Failed to parse query: unexpected end of input`);
    if (t === "(") {
      const inner = this.#group();
      if (this.#tokens[this.#i++] !== ")") throw parsingError(`Failed to parse query: missing [)]`);
      return inner;
    }
    if (t === "*:*") return { kind: "match_all", boost: 1 };
    const colon = t.startsWith("/") && !this.opts.noRegex ? -1 : findFieldColon(t);
    if (colon > 0) {
      const field = unescape(t.slice(0, colon));
      let rest = t.slice(colon + 1);
      if (rest === "" && this.#tokens[this.#i] !== undefined) rest = this.#tokens[this.#i++]!;
      if (rest === "(") {
        const saved = this.opts.fields;
        this.opts.fields = [{ field, boost: 1 }];
        const inner = this.#group();
        this.#i++;
        this.opts.fields = saved;
        return inner;
      }
      if (field === "_exists_") return { kind: "exists", field: unescape(rest), boost: 1 };
      if (rest.startsWith("[") || rest.startsWith("{")) return this.#range(field, rest);
      return this.#value(rest, [{ field, boost: 1 }]);
    }
    return this.#value(t, this.opts.fields);
  }

  #range(field: string, first: string): QueryNode {
    const parts = [first];
    while (!/[\]}]$/.test(parts[parts.length - 1]!) && this.#i < this.#tokens.length) {
      parts.push(this.#tokens[this.#i++]!);
    }
    const m = /^([[{])\s*(\S+)\s+TO\s+(\S+?)\s*([\]}])$/.exec(parts.join(" "));
    if (!m) throw parsingError(`Failed to parse query [${parts.join(" ")}]`);
    const lower = m[2] === "*" ? undefined : unescape(m[2]!);
    const upper = m[3] === "*" ? undefined : unescape(m[3]!);
    return {
      kind: "range",
      field,
      [m[1] === "[" ? "gte" : "gt"]: lower,
      [m[4] === "]" ? "lte" : "lt"]: upper,
      ...(this.opts.timeZone ? { timeZone: this.opts.timeZone } : {}),
      boost: 1,
    };
  }

  #value(raw: string, fields: readonly BoostedField[]): QueryNode {
    let text = raw;
    let boost = 1;
    const caret = /\^(\d+(?:\.\d+)?)$/.exec(text);
    const regex = !this.opts.noRegex && text.startsWith("/");
    if (caret && (text.startsWith('"') || regex)) {
      if (text.slice(0, caret.index).endsWith(text[0]!)) {
        boost = Number(caret[1]);
        text = text.slice(0, caret.index);
      }
    } else if (caret) {
      boost = Number(caret[1]);
      text = text.slice(0, caret.index);
    }
    const node = this.#valueNode(text, fields);
    return boost === 1
      ? node
      : { kind: "bool", must: [node], should: [], mustNot: [], filter: [], boost };
  }

  #valueNode(text: string, fields: readonly BoostedField[]): QueryNode {
    const perField = (make: (f: BoostedField) => QueryNode): QueryNode =>
      fields.length === 1
        ? make(fields[0]!)
        : this.opts.sumFields
        ? { kind: "bool", must: [], should: fields.map(make), mustNot: [], filter: [], boost: 1 }
        : { kind: "dis_max", queries: fields.map(make), tieBreaker: 0, boost: 1 };
    if (text.startsWith('"')) {
      const phrase = unescape(text.slice(1, -1));
      return {
        kind: "multi_match",
        fields,
        query: phrase,
        type: "phrase",
        operator: "or",
        tieBreaker: 0,
        boost: 1,
        lenient: true,
      };
    }
    if (!this.opts.noRegex && text.length >= 2 && text.startsWith("/") && text.endsWith("/")) {
      const value = text.slice(1, -1);
      return perField((f) => ({
        kind: "regexp",
        field: f.field,
        value,
        boost: f.boost,
        caseInsensitive: false,
      }));
    }
    const cmp = /^(>=|<=|>|<)(.+)$/.exec(text);
    if (cmp) {
      const key = ({ ">=": "gte", "<=": "lte", ">": "gt", "<": "lt" } as const)[cmp[1] as ">="];
      return perField((f) => ({
        kind: "range",
        field: f.field,
        [key]: unescape(cmp[2]!),
        ...(this.opts.timeZone ? { timeZone: this.opts.timeZone } : {}),
        boost: f.boost,
      }));
    }
    if (text === "*") return perField((f) => ({ kind: "exists", field: f.field, boost: f.boost }));
    if (/(^|[^\\])[*?]/.test(text)) {
      const value = text.toLowerCase();
      if (/^[^*?]*\*$/.test(value) && !value.slice(0, -1).includes("\\")) {
        return perField((f) => ({
          kind: "prefix",
          field: f.field,
          value: value.slice(0, -1),
          boost: f.boost,
          caseInsensitive: false,
          ...(this.opts.sumFields ? { sumExpanded: true } : {}),
        }));
      }
      return perField((f) => ({
        kind: "wildcard",
        field: f.field,
        value,
        boost: f.boost,
        caseInsensitive: false,
        ...(this.opts.sumFields ? { sumExpanded: true } : {}),
      }));
    }
    return {
      kind: "multi_match",
      fields,
      query: unescape(text),
      type: this.opts.sumFields ? "most_fields" : "best_fields",
      operator: "or",
      tieBreaker: 0,
      boost: 1,
      lenient: this.opts.lenient || fields.some((f) => f.field.includes("*")),
    };
  }
}

function findFieldColon(t: string): number {
  if (t.startsWith('"')) return -1;
  for (let i = 0; i < t.length; i++) {
    if (t[i] === "\\") i++;
    else if (t[i] === ":") return i;
  }
  return -1;
}

function unescape(s: string): string {
  return s.replace(/\\(.)/g, "$1");
}

function fieldsOf(o: Record<string, unknown>): BoostedField[] {
  return boostedFields(o.fields ?? (o.default_field !== undefined ? [o.default_field] : ["*"]));
}

/** Parses the body of a `query_string` query. */
export function parseQueryString(o: Record<string, unknown>): QueryNode {
  if (typeof o.query !== "string") {
    throw parsingError(`[query_string] must be provided with a [query]`);
  }
  return parseLuceneSyntax(o.query, {
    fields: fieldsOf(o),
    defaultAnd: operatorOf(o.default_operator, "query_string") === "and",
    boost: Number(o.boost ?? 1),
    lenient: o.lenient === true,
    ...(typeof o.time_zone === "string" ? { timeZone: parseTimeZone(o.time_zone).id } : {}),
  });
}

/** A clause of a simple query as Lucene's SimpleQueryParser builds it: text, or a group. */
type SimpleNode = string | { and: boolean; clauses: SimpleNode[] };

const CLASSIC_SPECIAL = /[+\-&|!(){}[\]^"~*?:\\/]/g;

/**
 * Rewrites the `simple_query_string` syntax into the classic one with explicit operators and
 * groups, built as Lucene's SimpleQueryParser builds its tree: `+` is a binary AND and `|` an OR
 * (whitespace takes the default operator), a change of operator starts a new group around what
 * came before, `-x` is `x` negated beside match-all, `"…"~n` a phrase with slop, `x*` a prefix
 * and `x~n` a fuzzy term. `defaultOperator`: the request's `default_operator`.
 */
export function simpleToClassic(query: string, defaultOperator: "and" | "or"): string {
  const defaultAnd = defaultOperator === "and";
  let i = 0;
  const escape = (t: string) => t.replace(CLASSIC_SPECIAL, (c) => `\\${c}`);
  const render = (n: SimpleNode): string =>
    typeof n === "string" ? n : `(${n.clauses.map(render).join(n.and ? " AND " : " OR ")})`;
  const suffix = (): string => {
    const m = /^~(\d*)/.exec(query.slice(i));
    if (!m) return "";
    i += m[0].length;
    return `~${m[1] || "2"}`;
  };
  const group = (): SimpleNode | null => {
    let top: SimpleNode | null = null;
    let previous: boolean | null = null;
    let current: boolean | null = null;
    let not = 0;
    const add = (branch: SimpleNode) => {
      if (not % 2 === 1) branch = `(*:* -${render(branch)})`;
      not = 0;
      if (top === null) top = branch;
      else {
        const op = current ?? defaultAnd;
        if (previous !== op || typeof top === "string") top = { and: op, clauses: [top] };
        top.clauses.push(branch);
        previous = op;
      }
      current = null;
    };
    while (i < query.length) {
      const c = query[i]!;
      if (c === ")") {
        i++;
        break;
      }
      if (/\s/.test(c)) i++;
      else if (c === "(") {
        i++;
        const inner = group();
        if (inner !== null) add(inner);
      } else if (c === "+" || c === "|") {
        i++;
        if (current === null && top !== null) current = c === "+";
      } else if (c === "-") {
        i++;
        not++;
      } else if (c === '"') {
        let text = "";
        for (i++; i < query.length && query[i] !== '"'; i++) {
          if (query[i] === "\\" && i + 1 < query.length) i++;
          text += query[i];
        }
        i++;
        add(`"${text.replace(/["\\]/g, (x) => `\\${x}`)}"${suffix()}`);
      } else {
        let text = "";
        let prefix = false;
        for (; i < query.length && !/[\s+|()"]/.test(query[i]!); i++) {
          if (query[i] === "\\" && i + 1 < query.length) text += query[++i];
          else if (query[i] === "~") break;
          else if (query[i] === "*" && /^\*($|[\s+|()"~])/.test(query.slice(i))) {
            prefix = true;
          } else text += query[i];
        }
        const rest = suffix();
        if (text) add(escape(text) + (prefix ? "*" : rest));
      }
    }
    return top;
  };
  const tree = group();
  return tree === null ? "" : render(tree);
}

/** How deep the unescaped parentheses of a query text nest. */
function groupDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === "(") max = Math.max(max, ++depth);
    else if (c === ")" && depth > 0) depth--;
  }
  return max;
}

/** Parses the body of a `simple_query_string` query (same basics, never throws on syntax). */
export function parseSimpleQueryString(o: Record<string, unknown>): QueryNode {
  if (typeof o.query !== "string") throw parsingError(`[simple_query_string] requires query value`);
  // Refused before any recursive step: past a few thousand levels the rewriting would run out
  // of stack (a 500). Elasticsearch 9.5.4 refuses past its own stack (about 11,000 levels) with
  // this error, OpenSearch 3.8.0 past 1,000 levels.
  if (groupDepth(o.query) > MAX_GROUP_DEPTH) {
    throw esError(
      "query_shard_exception",
      `Failed to parse query [${o.query}]: query is too deeply nested`,
    );
  }
  const defaultAnd = operatorOf(o.default_operator, "simple_query_string") === "and";
  const allFlags = o.flags === undefined || String(o.flags).toUpperCase() === "ALL";
  const text = allFlags
    ? simpleToClassic(o.query, defaultAnd ? "and" : "or")
    : o.query.replace(/\|/g, " OR ").replace(/\s\+\s/g, " AND ");
  try {
    return parseLuceneSyntax(text, {
      fields: fieldsOf(o),
      defaultAnd: allFlags ? false : defaultAnd,
      boost: Number(o.boost ?? 1),
      lenient: true,
      noRegex: true,
      sumFields: true,
    });
  } catch {
    return {
      kind: "multi_match",
      fields: fieldsOf(o),
      query: o.query,
      type: "best_fields",
      operator: "or",
      tieBreaker: 0,
      boost: 1,
      lenient: true,
    };
  }
}

/** Parses Lucene query syntax (the `q` parameter) against default fields. */
export function parseLuceneSyntax(text: string, opts: Options): QueryNode {
  const node = new QsParser(text, { ...opts }).parse();
  return opts.boost === 1
    ? node
    : { kind: "bool", must: [node], should: [], mustNot: [], filter: [], boost: opts.boost };
}
