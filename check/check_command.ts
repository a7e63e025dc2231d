/**
 * `checkCommand`: console command text checked against Elasticsearch's API specification (and,
 * when one is given, an index mapping) before it runs.
 *
 * @module
 */

import { CommandSyntaxError } from "../driver/mod.ts";
import {
  COMMA,
  ConsoleLexer,
  LBRACE,
  type LexMode,
  LineIndex,
  makeExcerpt,
  parseScript,
  QUESTION,
  QUOTE,
  targetStart,
  type TokenKind,
} from "../driver/internal.ts";
import { elasticSpec, type Endpoint, type TypeDef, type TypeExpr } from "./_spec.ts";
import {
  OPENSEARCH_ENDPOINTS,
  OPENSEARCH_ENUMS,
  OPENSEARCH_MEMBERS,
  OPENSEARCH_PARAMS,
  OPENSEARCH_PREFIXES,
  OPENSEARCH_QUERIES,
} from "./_opensearch.ts";
import { type JNode, type Member, type RawCommand, readCommands } from "./_tree.ts";
import { checkField, dateParses, type FieldUse, NUMBER_TYPES } from "./_field_checks.ts";
import type { IndexMappings, MappedField, MappingModel } from "./mapping_model.ts";
import { suggest } from "./_suggest.ts";

/** How bad a finding is: an `error` fails the request; a `warning` is a likely mistake. */
export type Severity = "error" | "warning";

/**
 * One finding, pointing at the exact token (1-based line and column, length in characters).
 *
 * Codes: `syntax`, `unknown-endpoint`, `wrong-method`, `unknown-param`, `param-kind`,
 * `unknown-key`, `unknown-value`, `wrong-kind`, `misplaced`, `required`, `exclusive`, `placeholder-name`,
 * `placeholder-count`, `placeholder-literal`, `unknown-field`, `field-type`, `date-format`,
 * `field-value`.
 *
 * @example
 * ```ts
 * import { checkCommand, type Diagnostic } from "@searchvisitor/searchvisitor/check";
 * import assert from "node:assert/strict";
 *
 * const [d]: Diagnostic[] = checkCommand('GET /i/_search {"query": {"trem": {"a": 1}}}');
 * assert.deepEqual(
 *   { code: d!.code, line: d!.line, column: d!.column, length: d!.length, suggestion: d!.suggestion },
 *   { code: "unknown-key", line: 1, column: 27, length: 6, suggestion: "term" },
 * );
 * ```
 */
export interface Diagnostic {
  /** A stable code (see above). */
  readonly code: string;
  /** `error` or `warning`. */
  readonly severity: Severity;
  /** What is wrong and what to do. */
  readonly message: string;
  /** 1-based line in the checked text. */
  readonly line: number;
  /** 1-based column in the checked text. */
  readonly column: number;
  /** Length of the token in characters (at least 1). */
  readonly length: number;
  /** The likely intended word ("did you mean"). */
  readonly suggestion?: string;
}

/**
 * What a check knows besides the text.
 *
 * @example
 * ```ts
 * import { checkCommand, type CheckOptions } from "@searchvisitor/searchvisitor/check";
 * import assert from "node:assert/strict";
 *
 * const options: CheckOptions = { flavor: "opensearch" };
 * assert.deepEqual(checkCommand('GET /i/_search {"query": {"neural": {"v": {}}}}', options), []);
 * ```
 */
export interface CheckOptions {
  /** Which engine the command is for: OpenSearch's own endpoints and queries are known to
   * `"opensearch"`. Default `"elasticsearch"`. */
  readonly flavor?: "elasticsearch" | "opensearch";
  /** The index mapping to check fields against (every command's, whatever index it names). */
  readonly mapping?: MappingModel;
  /** The mappings of several indices: each command is checked against the one its target
   * names (used when `mapping` is absent). */
  readonly mappings?: IndexMappings;
  /** The names `#{…}` may use (their first segment); unchecked when absent. */
  readonly parameters?: readonly string[];
  /** How many positional arguments (`?`, `{?}`) the caller binds; unchecked when absent. */
  readonly argumentCount?: number;
}

/** Checking state for one text. */
interface Run {
  readonly text: string;
  readonly lines: LineIndex;
  readonly out: Diagnostic[];
  readonly options: CheckOptions;
  readonly types: Readonly<Record<string, TypeDef>>;
  readonly opensearch: boolean;
  /** Set while a union member is tried: diagnostics go here instead. */
  sink?: Diagnostic[];
}

/** Context of a value inside a body. */
interface Where {
  /** The nearest query or aggregation type above (`term`, `match`, `terms`, …). */
  readonly variant?: string;
  /** Inside an aggregation (not under its own query). */
  readonly agg?: boolean;
  /** Inside the search body's `sort`. */
  readonly sort?: boolean;
}

const QUERY = "@QueryContainer";
const AGG = "@AggregationContainer";
const SEARCH_BODY = "@search.Body";

/**
 * Checks console command text: endpoints, URL parameters, bodies, placeholders and (with a
 * mapping) fields. Never throws for bad input: a text that does not parse gives one `syntax`
 * diagnostic.
 *
 * @param text One or more console commands; template markers (`#{…}`, `${…}`, `@{…}`) allowed.
 * @param options Flavor, mapping, parameter names, argument count.
 * @returns The diagnostics in text order (empty when nothing is wrong).
 *
 * @example A mistyped URL parameter, with its suggestion and caret
 * ```ts
 * import { checkCommand, formatDiagnostic } from "@searchvisitor/searchvisitor/check";
 * import assert from "node:assert/strict";
 *
 * const text = "POST /users/_doc?refesh=true\n{\"name\": \"alice\"}";
 * const [d] = checkCommand(text);
 * assert.equal(d!.code, "unknown-param");
 * assert.equal(d!.suggestion, "refresh");
 * assert.equal(formatDiagnostic(text, d!).split("\n")[2], "                 ^^^^^^");
 * assert.deepEqual(checkCommand("POST /users/_doc?refresh=true\n{\"name\": \"alice\"}"), []);
 * ```
 */
export function checkCommand(text: string, options: CheckOptions = {}): Diagnostic[] {
  const spec = elasticSpec();
  const run: Run = {
    text,
    lines: new LineIndex(text),
    out: [],
    options,
    types: spec.types,
    opensearch: options.flavor === "opensearch",
  };
  const masked = maskTemplate(text);
  let positional = 0;
  try {
    positional = parseScript(masked.text).placeholderCount - masked.named;
  } catch (e) {
    if (e instanceof CommandSyntaxError) {
      const problem = e.message.slice(0, e.message.indexOf(" (line "));
      run.out.push({
        code: "syntax",
        severity: "error",
        message: problem,
        line: e.line,
        column: e.column,
        length: 1,
      });
      return run.out;
    }
    throw e;
  }
  if (
    options.argumentCount !== undefined && positional !== options.argumentCount && positional > 0
  ) {
    report(run, {
      code: "placeholder-count",
      at: 0,
      length: 1,
      message:
        `the text has ${positional} positional placeholder(s) but ${options.argumentCount} argument(s) are bound`,
    });
  }
  for (const command of readCommands(text)) checkOne(run, command);
  run.out.sort((a, b) => a.line - b.line || a.column - b.column);
  return run.out;
}

/**
 * The index (a name, alias, pattern or comma list) the first command of a text addresses, when
 * its path starts with one — what a check against a live mapping reads the mapping of.
 *
 * @param text Console command text.
 * @returns The index part of the path, or undefined (`GET /_cluster/health`, a placeholder).
 *
 * @example
 * ```ts
 * import { targetIndex } from "@searchvisitor/searchvisitor/check";
 * import assert from "node:assert/strict";
 *
 * assert.equal(targetIndex('POST /users,staff/_search {"size": 1}'), "users,staff");
 * assert.equal(targetIndex("GET /_cat/indices"), undefined);
 * assert.equal(targetIndex("GET /{?}/_doc/1"), undefined);
 * ```
 */
export function targetIndex(text: string): string | undefined {
  const command = readCommands(text)[0];
  if (!command) return undefined;
  const path = command.target.replace(/^\//, "");
  const first = path.slice(0, queryStart(path) < 0 ? path.length : queryStart(path)).split("/")[0]!;
  if (first === "" || first.startsWith("_") || /[{}?#$@]/.test(first)) return undefined;
  return decodeURIComponentSafe(first);
}

/**
 * Renders a diagnostic as the driver renders its syntax errors: the message with the position,
 * then the line and a caret under the token.
 *
 * @param text The checked text.
 * @param d The diagnostic.
 * @returns Three or more lines of text.
 *
 * @example
 * ```ts
 * import { checkCommand, formatDiagnostic } from "@searchvisitor/searchvisitor/check";
 * import assert from "node:assert/strict";
 *
 * const text = 'GET /i/_search {"query": {"trem": {"a": 1}}}';
 * assert.equal(
 *   formatDiagnostic(text, checkCommand(text)[0]!),
 *   'error unknown-key: unknown query "trem"; did you mean "term"? (line 1, column 27)\n' +
 *     'GET /i/_search {"query": {"trem": {"a": 1}}}\n' +
 *     "                          ^^^^^^",
 * );
 * ```
 */
export function formatDiagnostic(text: string, d: Diagnostic): string {
  const excerpt = makeExcerpt(text, { line: d.line, column: d.column });
  const nl = excerpt.indexOf("\n");
  const source = excerpt.slice(0, nl);
  const caret = excerpt.slice(nl + 1);
  const room = Math.max(1, source.length - caret.length + 1);
  const underline = caret + "^".repeat(Math.max(0, Math.min(d.length, room) - 1));
  return `${d.severity} ${d.code}: ${d.message} (line ${d.line}, column ${d.column})\n${source}\n${underline}`;
}

// Replaces `#{…}` / `${…}` / `@{…}` with driver placeholders of the same length, so the driver
// validates the text and counts the positional ones: `{?}` in a path, `?` for a value or an
// element, `?:?` for members (a rule call in an object). `\#{` (a literal marker) loses its `\`.
// The text is read with the driver's lexer, as the template reads it: placeholders in comments
// stay comment text.
function maskTemplate(text: string): { text: string; named: number } {
  if (!/[#$@]\{/.test(text)) return { text, named: 0 };
  let out = "";
  let named = 0;
  let inPath = false;
  let lineStart = true;
  let last = 0; // the last significant character outside strings
  const stack: number[] = [];
  const lexer = new ConsoleLexer(text);
  while (lexer.next(inPath ? "target" : "body")) {
    const kind: TokenKind = lexer.kind;
    const from = lexer.start;
    const token = lexer.token();
    if (kind === "escape") {
      out += " " + token.slice(1);
      continue;
    }
    if (kind === "string" || kind === "triple") {
      // A string is the driver's token; only `\#{` changes inside it.
      const mode: LexMode = kind;
      const quotes = kind === "triple" ? 3 : 1;
      const close = lexer.closed ? lexer.pos - quotes : lexer.pos;
      const inside = new ConsoleLexer(text, from + quotes, close);
      out += text.slice(from, from + quotes);
      while (inside.next(mode)) {
        out += inside.kind === "escape" ? " " + inside.token().slice(1) : inside.token();
      }
      out += text.slice(close, lexer.pos);
      last = QUOTE;
      lineStart = false;
      continue;
    }
    if (kind === "space") {
      if (lexer.newline) lineStart = true;
      inPath = false;
      out += token;
      continue;
    }
    if (lineStart && stack.length === 0 && !inPath && lexer.isMethod()) {
      // As in the driver, the path may stand on the next line.
      const at = targetStart(text, lexer.pos);
      out += at < 0 ? token : text.slice(from, at);
      if (at >= 0) {
        lexer.pos = at;
        inPath = true;
      }
      lineStart = false;
      continue;
    }
    lineStart = false;
    if (kind === "named" || kind === "splice" || kind === "rule") {
      const len = token.length;
      const member = stack.at(-1) === LBRACE && (last === LBRACE || last === COMMA);
      // Every mask is a driver placeholder that no positional argument fills.
      if (inPath) out += "{?}" + "x".repeat(Math.max(0, len - 3));
      else if (kind === "rule" && member) {
        out += "?:?" + " ".repeat(Math.max(0, len - 3));
        named++;
      } else out += "?" + " ".repeat(len - 1);
      named++;
      last = QUESTION;
      continue;
    }
    if (!inPath && kind !== "comment" && kind !== "hint") {
      const c = lexer.code();
      if (kind === "open") stack.push(c);
      else if (kind === "close") stack.pop();
      last = text.charCodeAt(lexer.pos - 1);
    }
    out += token;
  }
  return { text: out, named };
}

/** A finding before its position is resolved: what is wrong and which characters it covers. */
interface Finding {
  /** The diagnostic's code. */
  readonly code: string;
  /** `error` unless given. */
  readonly severity?: Severity;
  /** Offset of the token in the checked text. */
  readonly at: number;
  /** Length of the token (at least 1 is reported). */
  readonly length: number;
  /** What is wrong and what to do. */
  readonly message: string;
  /** The likely intended word. */
  readonly suggestion?: string | undefined;
}

function report(run: Run, finding: Finding): void {
  const { line, column } = run.lines.positionOf(finding.at);
  const suggestion = finding.suggestion;
  const d: Diagnostic = {
    code: finding.code,
    severity: finding.severity ?? "error",
    message: finding.message,
    line,
    column,
    length: Math.max(1, finding.length),
    ...(suggestion !== undefined ? { suggestion } : {}),
  };
  (run.sink ?? run.out).push(d);
}

const MARKER = /\{\?\}|[#$]\{[^}]*\}/;

interface Segment {
  readonly text: string;
  readonly at: number;
  readonly wild: boolean;
}

function checkOne(outer: Run, command: RawCommand): void {
  let run = outer;
  let target = command.target;
  let base = command.targetAt;
  if (!target.startsWith("/")) {
    target = "/" + target;
    base -= 1;
  }
  const q = queryStart(target);
  const pathText = q < 0 ? target : target.slice(0, q);
  const segments: Segment[] = [];
  let offset = 0;
  for (const part of pathText.split("/")) {
    if (part !== "") {
      segments.push({ text: part, at: base + offset, wild: MARKER.test(part) });
    }
    offset += part.length + 1;
  }
  checkNames(run, command);
  if (run.opensearch && OPENSEARCH_PREFIXES.includes(segments[0]?.text ?? "")) return;
  const index = segments[0] && !segments[0].wild && !segments[0].text.startsWith("_")
    ? decodeURIComponentSafe(segments[0].text)
    : undefined;
  if (!run.options.mapping && run.options.mappings) {
    const mapping = index === undefined ? undefined : run.options.mappings.for(index);
    const { mappings: _, ...rest } = run.options;
    run = { ...run, options: mapping ? { ...rest, mapping } : rest };
  }
  const endpoints = matchEndpoint(run, command, segments);
  if (!endpoints) return;
  if (q >= 0) checkParams(run, endpoints, target.slice(q + 1), base + q + 1);
  const body = endpoints[0]!.body;
  if (command.body.length === 0) return;
  const kind = endpoints[0]!.name;
  if (!body && kind !== "bulk" && kind !== "index" && kind !== "create") return;
  if (endpoints[0]!.name === "msearch") {
    command.body.forEach((node, i) => {
      if (i % 2 === 1) checkValue(run, node, SEARCH_BODY, {});
    });
    return;
  }
  if (endpoints[0]!.name === "bulk") return checkBulk(outer, run, command.body, index);
  const first = command.body[0]!;
  const name = endpoints[0]!.name;
  if (name === "index" || name === "create") return checkDocument(run, first, "");
  if (name === "update") {
    for (const m of first.members ?? []) {
      if (m.key === "doc" || m.key === "upsert") checkDocument(run, m.value, "");
    }
  }
  if (!body) return;
  const mapping = run.options.mapping;
  if (mapping && first.kind === "object") {
    const own = withRuntimeFields(mapping, first);
    if (own !== mapping) {
      const inner: Run = { ...run, options: { ...run.options, mapping: own } };
      checkValue(inner, first, body, {});
      return;
    }
  }
  checkValue(run, first, body, {});
}

// The `?` that starts the query string (a `{?}` slot is not one).
function queryStart(target: string): number {
  const lexer = new ConsoleLexer(target);
  while (lexer.next("target")) {
    if (lexer.kind === "other") {
      const q = lexer.token().indexOf("?");
      if (q >= 0) return lexer.start + q;
    }
  }
  return -1;
}

// `#{name}` with no parameter of that name.
function checkNames(run: Run, command: RawCommand): void {
  const names = run.options.parameters;
  if (!names) return;
  const known = new Set(names);
  const visit = (name: string, at: number, end: number, shown = `#{${name}}`) => {
    const root = name.split(/[.[]/)[0]!;
    if (!known.has(root)) {
      const s = suggest(root, names);
      report(run, {
        code: "placeholder-name",
        at,
        length: end - at,
        message: `no parameter supplies ${shown}${s ? `; did you mean "${s}"?` : ""}`,
        suggestion: s,
      });
    }
  };
  for (const n of command.targetNames) visit(n.name, n.at, n.end);
  const walk = (node: JNode) => {
    if (node.kind === "slot" && node.named !== undefined) visit(node.named, node.at, node.end);
    if (node.kind === "slot" && node.rule) {
      // `@{in, :list}`, `@{md5, :value}`: the names after a colon.
      const raw = run.text.slice(node.at, node.end);
      for (const m of raw.matchAll(/(?<![\w"']):([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)/g)) {
        visit(m[1]!, node.at + m.index!, node.at + m.index! + m[0].length, m[0]);
      }
    }
    for (const m of node.members ?? []) {
      if (m.keySlot) {
        const raw = run.text.slice(m.keyAt, m.keyEnd);
        if (raw.startsWith("#{")) visit(raw.slice(2, -1).split(",")[0]!.trim(), m.keyAt, m.keyEnd);
      }
      walk(m.value);
    }
    for (const item of node.items ?? []) walk(item);
  };
  for (const node of command.body) walk(node);
}

interface UrlEntry {
  readonly endpoint: Endpoint;
  readonly methods: readonly string[];
  readonly segments: readonly string[];
}

// URL templates by segment count, then by their first literal segment and its position
// (`"1:_search"`), or `"none"` when every segment is a parameter.
interface UrlIndex {
  readonly byKey: Map<string, UrlEntry[]>;
  readonly byPosition: Map<number, UrlEntry[]>;
}
const urlIndexes = new Map<boolean, Map<number, UrlIndex>>();

function urlIndex(opensearch: boolean): Map<number, UrlIndex> {
  let index = urlIndexes.get(opensearch);
  if (index) return index;
  index = new Map();
  const spec = elasticSpec();
  for (
    const endpoint of opensearch ? [...OPENSEARCH_ENDPOINTS, ...spec.endpoints] : spec.endpoints
  ) {
    for (const url of endpoint.urls) {
      const n = url.segments.length;
      let entry = index.get(n);
      if (!entry) index.set(n, entry = { byKey: new Map(), byPosition: new Map() });
      const at = url.segments.findIndex((s) => !s.startsWith("{"));
      const key = at < 0 ? "none" : `${at}:${url.segments[at]}`;
      const item = { endpoint, methods: url.methods, segments: url.segments };
      let list = entry.byKey.get(key);
      if (!list) entry.byKey.set(key, list = []);
      list.push(item);
      if (at >= 0) {
        let pos = entry.byPosition.get(at);
        if (!pos) entry.byPosition.set(at, pos = []);
        pos.push(item);
      }
    }
  }
  urlIndexes.set(opensearch, index);
  return index;
}

function candidatesOf(run: Run, segments: Segment[]): UrlEntry[] {
  const entry = urlIndex(run.opensearch).get(segments.length);
  if (!entry) return [];
  const out: UrlEntry[] = [...(entry.byKey.get("none") ?? [])];
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const list = seg.wild ? entry.byPosition.get(i) : entry.byKey.get(`${i}:${seg.text}`);
    if (list) { for (const item of list) out.push(item); }
  }
  return out;
}

function matchEndpoint(run: Run, command: RawCommand, segments: Segment[]): Endpoint[] | undefined {
  const method = command.method === "HEAD" ? ["HEAD", "GET"] : [command.method];
  const byPath: { endpoint: Endpoint; methods: readonly string[]; literals: number }[] = [];
  const last = segments[segments.length - 1];
  const candidates = candidatesOf(run, segments);
  for (const url of candidates) {
    const endpoint = url.endpoint;
    {
      let ok = true;
      let literals = 0;
      for (let i = 0; i < segments.length && ok; i++) {
        const tpl = url.segments[i]!;
        const seg = segments[i]!;
        if (tpl.startsWith("{")) {
          if (
            !seg.wild && seg.text.startsWith("_") && seg.text !== "_all" &&
            !/[*,]/.test(seg.text) &&
            tpl === "{index}"
          ) ok = false;
        } else if (seg.wild || seg.text === tpl) literals++;
        else ok = false;
      }
      if (ok) byPath.push({ endpoint, methods: url.methods, literals });
    }
  }
  const fitting = byPath.filter((m) => m.methods.some((x) => method.includes(x)));
  if (fitting.length > 0) {
    const best = Math.max(...fitting.map((m) => m.literals));
    return fitting.filter((m) => m.literals === best).map((m) => m.endpoint);
  }
  if (byPath.length > 0) {
    const allowed = [...new Set(byPath.flatMap((m) => m.methods))];
    report(run, {
      code: "wrong-method",
      at: command.methodAt,
      length: command.method.length,
      message: `${command.method} is not allowed on this path (${byPath[0]!.endpoint.name}); use ${
        allowed.join(" or ")
      }`,
      suggestion: allowed[0],
    });
    return undefined;
  }
  // Unknown: point at the first underscore segment no endpoint of this length knows there.
  const spec = elasticSpec();
  const all = run.opensearch ? [...OPENSEARCH_ENDPOINTS, ...spec.endpoints] : spec.endpoints;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    if (seg.wild || !seg.text.startsWith("_")) continue;
    const here = new Set<string>();
    for (const endpoint of all) {
      for (const url of endpoint.urls) {
        const tpl = url.segments[i];
        if (tpl && !tpl.startsWith("{")) here.add(tpl);
      }
    }
    if (here.has(seg.text)) continue;
    const s = suggest(seg.text, [...here]);
    report(run, {
      code: "unknown-endpoint",
      at: seg.at,
      length: seg.text.length,
      message: `unknown endpoint "${seg.text}"${s ? `; did you mean "${s}"?` : ""}`,
      suggestion: s,
    });
    return undefined;
  }
  if (last && !last.wild) {
    report(run, {
      code: "unknown-endpoint",
      at: last.at,
      length: last.text.length,
      message: `no ${command.method} endpoint has this path shape`,
    });
  }
  return undefined;
}

// Accepted on every endpoint (`ignore` is read by the clients, which send it along).
// Members both engines read that the specification leaves out (the bulk action metadata the
// engines' bulk parsers accept).
const BULK_EXTRAS = ["op_type", "_source", "retry_on_conflict", "require_data_stream"];
const ENGINE_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  IndexOperation: BULK_EXTRAS,
  CreateOperation: BULK_EXTRAS,
  UpdateOperation: BULK_EXTRAS,
  DeleteOperation: BULK_EXTRAS,
};

const GLOBAL_PARAMS = new Set([
  "source",
  "source_content_type",
  "filter_path",
  "pretty",
  "human",
  "error_trace",
  "format",
  "ignore",
]);

/** Types that also take the members of another type inline (a shorthand the engines accept). */
const LENIENT: Record<string, string> = { FunctionScoreQuery: "FunctionScoreContainer" };

/** Types whose object form has a scalar shortcut the specification does not name. */
const SHORTCUTS: Record<string, string> = { ScoreSort: "order", FieldSort: "order" };

function checkParams(run: Run, endpoints: Endpoint[], query: string, at: number): void {
  let offset = 0;
  for (const pair of query.split("&")) {
    const eq = pair.indexOf("=");
    const name = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? "" : pair.slice(eq + 1);
    const nameAt = at + offset;
    offset += pair.length + 1;
    if (name === "" || MARKER.test(name)) continue;
    let kind: string | undefined;
    for (const e of endpoints) {
      kind ??= e.params[name] ?? (e.pathParams.has(name) ? "s" : undefined);
    }
    if (kind === undefined) {
      if (GLOBAL_PARAMS.has(name) || (run.opensearch && OPENSEARCH_PARAMS.has(name))) continue;
      const names = [...new Set(endpoints.flatMap((e) => Object.keys(e.params)))];
      const s = suggest(name, names);
      report(run, {
        code: "unknown-param",
        at: nameAt,
        length: name.length,
        message: `unknown URL parameter "${name}" for ${endpoints[0]!.name}${
          s ? `; did you mean "${s}"?` : ""
        }`,
        suggestion: s,
      });
      continue;
    }
    if (MARKER.test(value) || value === "") continue;
    const decoded = decodeURIComponentSafe(value);
    if (kind.startsWith("@")) {
      const d = def(run, kind.slice(1));
      if (d && d !== "any" && d.e) {
        const literal = { value: decoded, at: nameAt + name.length + 1, length: value.length };
        checkEnum(run, literal, { name: kind.slice(1), members: d.e }, name);
      }
      continue;
    }
    const want = kind === "b" && decoded !== "true" && decoded !== "false"
      ? "true or false"
      : kind === "n" && !/^-?\d+(\.\d+)?$/.test(decoded)
      ? "a number"
      : undefined;
    if (want) {
      const at = nameAt + name.length + 1;
      const message = `URL parameter "${name}" takes ${want}, not "${decoded}"`;
      report(run, { code: "param-kind", at, length: value.length, message: message });
    }
  }
}

/** A string as it stands in the text: its value and the characters it covers. */
interface Literal {
  /** The value (decoded, unquoted). */
  readonly value: string;
  /** Offset of its first character. */
  readonly at: number;
  /** How many characters it covers. */
  readonly length: number;
}

/** A member key as a {@linkcode Literal} (pointed at as written, quotes included). */
function keyLiteral(m: Member): Literal {
  return { value: m.key, at: m.keyAt, length: m.keyEnd - m.keyAt };
}

/** A string value node as a {@linkcode Literal} (pointed at inside its quotes). */
function stringLiteral(node: JNode): Literal {
  return { value: node.value as string, at: node.at + 1, length: node.end - node.at - 2 };
}

/** An enumeration of the specification: its name and members. */
interface Enumeration {
  readonly name: string;
  readonly members: readonly string[];
}

// A value of an enumeration: Elasticsearch reads these case-insensitively.
function checkEnum(run: Run, literal: Literal, enumeration: Enumeration, param?: string): void {
  const { value, at, length } = literal;
  const { name: type, members } = enumeration;
  const lower = value.toLowerCase();
  if (members.some((m) => m.toLowerCase() === lower)) return;
  const extra = run.opensearch ? OPENSEARCH_ENUMS[type] : undefined;
  if (extra?.includes(lower)) return;
  const s = suggest(value, members);
  const where = param === undefined ? "" : ` of URL parameter "${param}"`;
  report(run, {
    code: "unknown-value",
    at,
    length,
    message: `"${value}" is not a value${where} (${type}: ${
      [...new Set(members.map((m) => m.toLowerCase()))].join(", ")
    })${s ? `; did you mean "${s}"?` : ""}`,
    suggestion: s,
  });
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function def(run: Run, name: string): TypeDef | "any" | undefined {
  return run.types[name];
}

const KIND_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  boolean: "true or false",
  object: "an object",
  array: "an array",
  null: "null",
};

// Checks a value against a type expression; returns nothing, reports into run.sink/out.
function checkValue(run: Run, node: JNode, expr: TypeExpr, where: Where): void {
  if (node.kind === "slot") return;
  if (typeof expr === "string") {
    switch (expr) {
      case "any":
        return;
      case "string":
        if (node.kind === "object" || node.kind === "array") wrongKind(run, node, "string");
        return;
      case "field":
        if (node.kind === "string") {
          fieldUse(run, stringLiteral(node), where);
        } else if (node.kind === "object" || node.kind === "array") wrongKind(run, node, "string");
        return;
      case "number":
        if (node.kind === "number") return;
        if (
          node.kind === "string" &&
          /^\s*-?\d+(\.\d+)?([eE][+-]?\d+)?\s*$/.test(node.value as string)
        ) return;
        if (node.kind === "null") return;
        wrongKind(run, node, "number");
        return;
      case "boolean":
        if (node.kind === "boolean" || node.kind === "null") return;
        if (node.kind === "string" && (node.value === "true" || node.value === "false")) return;
        wrongKind(run, node, "boolean");
        return;
      case "null":
        return;
    }
    if (expr.startsWith("@")) return checkNamed(run, node, expr, where);
    return;
  }
  const [op, ...rest] = expr as unknown[];
  switch (op) {
    case "[]":
      if (node.kind === "array") {
        for (const item of node.items!) checkValue(run, item, rest[0] as TypeExpr, where);
      } else checkValue(run, node, rest[0] as TypeExpr, where);
      return;
    case "|":
      return checkUnion(run, node, rest as TypeExpr[], where);
    case "{}": {
      if (node.kind !== "object") {
        if (node.kind !== "null") wrongKind(run, node, "object");
        return;
      }
      const fieldKeys = rest[2] === 1;
      for (const m of node.members!) {
        if (fieldKeys && !m.keySlot) {
          fieldUse(run, keyLiteral(m), where);
          checkDates(run, m.key, m.value, where);
        }
        checkValue(run, m.value, rest[0] as TypeExpr, where);
      }
      return;
    }
    default:
      return;
  }
}

function wrongKind(run: Run, node: JNode, want: string): void {
  report(run, {
    code: "wrong-kind",
    at: node.at,
    length: Math.min(node.end - node.at, 40),
    message: `expected ${KIND_NAMES[want] ?? want} here, found ${
      KIND_NAMES[node.kind] ?? node.kind
    }`,
  });
}

function shapeOf(run: Run, expr: TypeExpr, depth = 0): string {
  if (typeof expr !== "string") {
    const op = (expr as unknown[])[0];
    return op === "[]" ? "array" : op === "{}" ? "object" : op === "|" ? "any" : "scalar";
  }
  if (!expr.startsWith("@")) return expr === "any" ? "any" : "scalar";
  const d = def(run, expr.slice(1));
  if (!d || d === "any" || depth > 4) return "any";
  if (d.e) return "scalar";
  if (d.t !== undefined) return shapeOf(run, d.t, depth + 1);
  return d.s || SHORTCUTS[expr.slice(1)] ? "any" : "object";
}

function checkUnion(run: Run, node: JNode, all: TypeExpr[], where: Where): void {
  let best: Diagnostic[] | undefined;
  const saved = run.sink;
  const kind = node.kind === "array" || node.kind === "object" ? node.kind : "scalar";
  const fitting = all.filter((m) => {
    const shape = shapeOf(run, m);
    return shape === "any" || shape === kind;
  });
  const members = fitting.length > 0 ? fitting : all;
  for (const member of members) {
    const trial: Diagnostic[] = [];
    run.sink = trial;
    checkValue(run, node, member, where);
    run.sink = saved;
    if (trial.length === 0) return;
    // Prefer the member whose problems are deepest (the shape fitted, a detail did not).
    if (!best || score(trial) < score(best)) best = trial;
  }
  for (const d of best ?? []) (run.sink ?? run.out).push(d);
}

function score(ds: Diagnostic[]): number {
  return ds.filter((d) => d.code === "wrong-kind").length * 10 + ds.length;
}

function checkNamed(run: Run, node: JNode, ref: string, where: Where): void {
  const name = ref.slice(1);
  const d = def(run, name);
  if (!d || d === "any") return;
  if (d.e) {
    if (node.kind === "object" || node.kind === "array") wrongKind(run, node, "string");
    else if (node.kind === "string") {
      checkEnum(run, stringLiteral(node), { name, members: d.e });
    }
    return;
  }
  if (d.t !== undefined) {
    if (d.tag && node.kind === "object") {
      const tag = node.members!.find((m) => m.key === d.tag);
      if (!tag) return;
      if (tag.value.kind !== "string") return;
      const members = (d.t as unknown[])[0] === "|"
        ? (d.t as unknown[]).slice(1) as TypeExpr[]
        : [d.t];
      for (const m of members) {
        const md = typeof m === "string" ? def(run, m.slice(1)) : undefined;
        const lit = md && md !== "any" ? md.p?.[d.tag]?.[0] : undefined;
        if (Array.isArray(lit) && lit[0] === "=" && lit[1] === tag.value.value) {
          return checkValue(run, node, m, where);
        }
      }
      return;
    }
    return checkValue(run, node, d.t, where);
  }
  if (!d.p) return;
  if (node.kind !== "object") {
    const shortcut = d.s ?? SHORTCUTS[name];
    if (shortcut && d.p[shortcut]) {
      return checkValue(run, node, d.p[shortcut]![0] as TypeExpr, where);
    }
    if (node.kind === "null") return;
    wrongKind(run, node, "object");
    return;
  }
  checkObject(run, node, { ref, def: d }, where);
}

/** A type of the specification with members: its reference (`@Name`) and its definition. */
interface ObjectType {
  readonly ref: string;
  readonly def: TypeDef;
}

function checkObject(run: Run, node: JNode, type: ObjectType, where: Where): void {
  const { ref, def: d } = type;
  const p = d.p!;
  const isQuery = ref === QUERY;
  const isAgg = ref === AGG;
  let variants = 0;
  let unknown = false;
  const seen = new Set<string>();
  for (const m of node.members!) {
    if (m.keySlot) {
      if (d.c) {
        report(run, {
          code: "placeholder-literal",
          at: m.keyAt,
          length: m.keyEnd - m.keyAt,
          message: `a placeholder cannot stand for a ${
            isAgg ? "aggregation type" : isQuery ? "query type" : "member name"
          } here; write the name`,
        });
      }
      continue;
    }
    const key = d.a?.[m.key] ?? m.key;
    seen.add(key);
    let prop = p[key];
    if (run.opensearch) {
      if (isQuery && key in OPENSEARCH_QUERIES) {
        const extra = OPENSEARCH_QUERIES[key]!;
        variants++;
        if (extra !== "any") {
          checkObject(run, m.value, { ref: "@" + key, def: extra }, { ...where, variant: key });
        }
        continue;
      }
      if (OPENSEARCH_MEMBERS[ref.slice(1)]?.includes(key)) continue;
    }
    if (!prop && ENGINE_MEMBERS[ref.slice(1)]?.includes(key)) continue;
    if (!prop) {
      if (d.x !== undefined) {
        if (d.xf) fieldUse(run, keyLiteral(m), where);
        checkValue(run, m.value, d.x, where);
        continue;
      }
      const lenient = LENIENT[ref.slice(1)];
      const extra = lenient ? def(run, lenient) : undefined;
      if (extra && extra !== "any" && extra.p?.[m.key]) {
        checkValue(run, m.value, extra.p[m.key]![0] as TypeExpr, where);
        continue;
      }
      unknownKey(run, keyLiteral(m), type);
      unknown = true;
      continue;
    }
    const container = prop[2] === 1;
    if (d.c && !container && (isQuery || isAgg)) {
      variants++;
      if (variants === 2) {
        report(run, {
          code: "exclusive",
          at: m.keyAt,
          length: m.keyEnd - m.keyAt,
          message:
            `"${m.key}" cannot sit beside another ${
              isAgg ? "aggregation type" : isQuery ? "query type" : "variant"
            } in one object; ` +
            (isQuery ? "combine them in a bool query" : "split them"),
        });
      }
    }
    const next: Where = isQuery
      ? { variant: key }
      : isAgg && !container
      ? { variant: key, agg: true }
      : ref === SEARCH_BODY && key === "sort"
      ? { sort: true }
      : ref === SEARCH_BODY && (key === "query" || key === "post_filter")
      ? {}
      : where;
    checkValue(run, m.value, prop[0] as TypeExpr, next);
    prop = undefined;
  }
  if (node.dynamic || unknown) return;
  // An empty query object is taken as match_all; an aggregation needs its type.
  if (d.c && variants === 0 && (isAgg || (isQuery && node.members!.length > 0))) {
    report(run, {
      code: "required",
      at: node.at,
      length: 1,
      message: isAgg
        ? "this aggregation has no type (terms, avg, date_histogram, …)"
        : "this query has no type",
    });
  }
  if (!d.c) {
    for (const [name, prop] of Object.entries(p)) {
      if (prop[1] === 1 && !seen.has(name)) {
        report(run, {
          code: "required",
          at: node.at,
          length: 1,
          message: `"${name}" is required here`,
        });
      }
    }
  }
}

const QUERY_WORDS = () => elasticSpec().types["QueryContainer"]?.p ?? {};
const AGG_WORDS = () => elasticSpec().types["AggregationContainer"]?.p ?? {};

function unknownKey(run: Run, literal: Literal, type: ObjectType): void {
  const { value: key, at, length } = literal;
  const { ref, def: d } = type;
  const isQuery = ref === QUERY;
  const isAgg = ref === AGG;
  if (isQuery && key in AGG_WORDS()) {
    report(run, {
      code: "misplaced",
      at,
      length,
      message: `"${key}" is an aggregation, not a query: move it under "aggs"`,
    });
    return;
  }
  if (isAgg && key in QUERY_WORDS()) {
    report(run, {
      code: "misplaced",
      at,
      length,
      message:
        `"${key}" is a query, not an aggregation: put it under "query", or in a "filter" aggregation`,
    });
    return;
  }
  const names = [...Object.keys(d.p ?? {}), ...Object.keys(d.a ?? {})];
  if (run.opensearch && isQuery) names.push(...Object.keys(OPENSEARCH_QUERIES));
  const s = suggest(key, names);
  const what = isQuery ? "query" : isAgg ? "aggregation" : "member";
  report(run, {
    code: "unknown-key",
    at,
    length,
    message: `unknown ${what} "${key}"${s ? `; did you mean "${s}"?` : ""}`,
    suggestion: s,
  });
}

/** Checks a field name (a member key, or a string value naming a field) against the mapping. */
function fieldUse(run: Run, literal: Literal, where: Where): void {
  const mapping = run.options.mapping;
  if (!mapping) return;
  const use: FieldUse = {
    ...(where.variant !== undefined ? { variant: where.variant } : {}),
    agg: where.agg === true,
    sort: where.sort === true,
  };
  const { at, length } = literal;
  for (const f of checkField(mapping, literal.value.replace(/\^[\d.]+$/, ""), use)) {
    report(run, { ...f, at, length });
  }
}

// A date literal in a range or term query on a date field must parse with the field's format.
function checkDates(run: Run, name: string, value: JNode, where: Where): void {
  const field = run.options.mapping?.field(name);
  if (!field || (field.type !== "date" && field.type !== "date_nanos")) return;
  const v = where.variant;
  const literals: JNode[] = [];
  let format = field.format;
  if (v === "range" && value.kind === "object") {
    for (const m of value.members!) {
      if (["gte", "gt", "lte", "lt", "from", "to"].includes(m.key)) literals.push(m.value);
      if (m.key === "format" && m.value.kind === "string") format = m.value.value as string;
    }
  } else if (v === "term") {
    literals.push(
      value.kind === "object"
        ? value.members!.find((m) => m.key === "value")?.value ?? value
        : value,
    );
  } else return;
  for (const lit of literals) {
    if (lit.kind === "string" || lit.kind === "number") checkDate(run, lit, name, format);
  }
}

// A date literal (a string or number node) must parse with the field's format.
function checkDate(run: Run, lit: JNode, name: string, format: string | undefined): void {
  if (dateParses(lit.value as string | number, format)) return;
  report(run, {
    code: "date-format",
    at: lit.at,
    length: lit.end - lit.at,
    message: `${JSON.stringify(lit.value)} does not parse as a date of "${name}" (format ${
      format ?? "strict_date_optional_time||epoch_millis"
    })`,
  });
}

// Runtime fields a request defines count as mapped for the rest of that request.
function withRuntimeFields(mapping: MappingModel, body: JNode): MappingModel {
  const runtime = body.members?.find((m) => m.key === "runtime_mappings");
  if (!runtime?.value.members?.length) return mapping;
  const copy = mapping.copy();
  for (const m of runtime.value.members) {
    const type = m.value.members?.find((x) => x.key === "type")?.value.value;
    copy.add(m.key, { type: typeof type === "string" ? type : "keyword" });
  }
  return copy;
}

// ---- Documents: `_doc`, `_create`, `_update`'s `doc`/`upsert` and `_bulk` lines. ----

// A document's values against the mapping: fields a strict mapping refuses, values the field's
// type cannot index (as the engine's mapper would refuse them).
function checkDocument(run: Run, node: JNode, prefix: string): void {
  const mapping = run.options.mapping;
  if (!mapping || node.kind !== "object") return;
  for (const m of node.members!) {
    if (m.keySlot) continue;
    const path = prefix ? `${prefix}.${m.key}` : m.key;
    if (prefix === "" && m.key.startsWith("_")) continue;
    const field = mapping.field(path);
    if (!field) {
      if (mapping.strictAt(path)) {
        const s = suggest(path, mapping.paths());
        report(run, {
          code: "unknown-field",
          at: m.keyAt,
          length: m.keyEnd - m.keyAt,
          message:
            `"${path}" is not in the mapping, and its dynamic setting is strict: the document is refused${
              s ? `; did you mean "${s}"?` : ""
            }`,
          suggestion: s,
        });
      }
      continue;
    }
    checkDocumentValue(run, m.value, path, field);
  }
}

function checkDocumentValue(run: Run, value: JNode, path: string, field: MappedField): void {
  const { type, format } = field;
  if (value.kind === "slot" || value.kind === "null") return;
  if (value.kind === "array") {
    for (const item of value.items!) checkDocumentValue(run, item, path, field);
    return;
  }
  const refuse = (what: string) =>
    report(run, {
      code: "field-value",
      at: value.at,
      length: Math.min(value.end - value.at, 40),
      message: `${what} cannot be indexed into the ${type} field "${path}"`,
    });
  if (type === "object" || type === "nested") {
    if (value.kind === "object") checkDocument(run, value, path);
    else refuse(`${KIND_NAMES[value.kind] ?? value.kind}`);
    return;
  }
  if (value.kind === "object") {
    if (
      !["geo_point", "geo_shape", "shape", "point", "range", "join", "flattened"].some((t) =>
        type.includes(t)
      ) &&
      !/_range$|^(percolator|aggregate_metric_double|histogram|sparse_vector|rank_features|object|passthrough)$/
        .test(type)
    ) {
      refuse("an object");
    }
    return;
  }
  if (NUMBER_TYPES.has(type)) {
    if (value.kind === "boolean") refuse(`${value.value}`);
    else if (
      value.kind === "string" &&
      !/^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(value.value as string)
    ) refuse(JSON.stringify(value.value));
    return;
  }
  if (type === "boolean") {
    if (value.kind === "number") refuse(String(value.value));
    else if (value.kind === "string" && !["true", "false", ""].includes(value.value as string)) {
      refuse(JSON.stringify(value.value));
    }
    return;
  }
  if (
    (type === "date" || type === "date_nanos") &&
    (value.kind === "string" || value.kind === "number")
  ) {
    checkDate(run, value, path, format);
  }
}

// `_bulk`: action lines against the action containers, each document against the mapping of
// its index (the item's `_index`, else the path's).
function checkBulk(outer: Run, run: Run, lines: readonly JNode[], index?: string): void {
  for (let i = 0; i < lines.length; i++) {
    const action = lines[i]!;
    checkValue(run, action, "@OperationContainer", {});
    const member = action.kind === "object" ? action.members![0] : undefined;
    const op = member?.key;
    if (op === "delete") continue;
    if (op === undefined || !["index", "create", "update"].includes(op)) {
      i++; // an unknown action: its line is reported; the document after it is not an action
      continue;
    }
    const doc = lines[++i];
    if (!doc) {
      report(run, {
        code: "required",
        at: action.at,
        length: 1,
        message: `the ${op} action needs a document line after it`,
      });
      break;
    }
    const own = member!.value.members?.find((m) => m.key === "_index")?.value;
    const target = own?.kind === "string" ? own.value as string : index;
    let docRun = run;
    if (!outer.options.mapping && outer.options.mappings) {
      const mapping = target === undefined ? undefined : outer.options.mappings.for(target);
      docRun = { ...run, options: mapping ? { ...run.options, mapping } : {} };
    }
    if (op === "update") {
      checkValue(run, doc, "@update.Body", {});
      for (const m of doc.members ?? []) {
        if (m.key === "doc" || m.key === "upsert") checkDocument(docRun, m.value, "");
      }
    } else checkDocument(docRun, doc, "");
  }
}
