// One command in the library's access styles, side by side: the JdbcTemplate call that runs it,
// the LambdaTemplate chain where the command has one (a search whose query is a match, term,
// range or match_all, or a bool of those), and a mapper XML statement. Positional placeholders
// become named ones (`#{arg1}`) where a style needs names.

import type { ParsedCommand } from "../../driver/mod.ts";
import { escapeXml, isObject } from "./_json.ts";
import { type Arguments, isTemplate, type Prepared } from "./commands.ts";

/**
 * The command in each style; `lambda` is undefined when the command has no lambda form.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { Styles } from "./styles.ts";
 *
 * const none: Styles = { jdbc: "…", lambda: undefined, xml: "…" };
 * assert.equal(none.lambda, undefined);
 * ```
 */
export interface Styles {
  /** A JdbcTemplate call. */
  readonly jdbc: string;
  /** A LambdaTemplate chain, when there is one. */
  readonly lambda: string | undefined;
  /** A mapper file with one statement. */
  readonly xml: string;
}

function isWrite(cmd: ParsedCommand): boolean {
  const p = cmd.pathTemplate;
  if (cmd.method === "DELETE") return /\/_doc\//.test(p) || p.includes("_delete_by_query");
  return /\/_(doc|create|update|bulk|update_by_query|delete_by_query)(\/|\?|$)/.test(p);
}

/**
 * The statement kind of a mapper file for a command.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { prepare, splitCommands } from "./commands.ts";
 * import { statementKind } from "./styles.ts";
 *
 * const cmd = (t: string) => prepare(splitCommands(t)[0]!, { positional: [], named: {} }).parsed.commands[0]!;
 * assert.equal(statementKind(cmd("GET /a/_search")), "select");
 * assert.equal(statementKind(cmd("PUT /a/_doc/1 {}")), "insert");
 * assert.equal(statementKind(cmd("PUT /a")), "execute");
 * ```
 */
export function statementKind(
  cmd: ParsedCommand,
): "select" | "insert" | "update" | "delete" | "execute" {
  const p = cmd.pathTemplate;
  if (
    /\/_(search|count|msearch)(\/|\?|$)/.test(p) || (cmd.method === "GET" && /\/_doc\//.test(p))
  ) {
    return "select";
  }
  if (cmd.method === "DELETE" || p.includes("_delete_by_query")) {
    return isWrite(cmd) ? "delete" : "execute";
  }
  if (/\/_(update|update_by_query)(\/|\?|$)/.test(p)) return "update";
  if (/\/_(doc|create|bulk)(\/|\?|$)/.test(p)) return "insert";
  return "execute";
}

/**
 * Replaces each positional placeholder of the text by `#{argN}` (1-based, in order).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { prepare, splitCommands } from "./commands.ts";
 * import { namePlaceholders } from "./styles.ts";
 *
 * const text = 'GET /{?}/_search {"size": ?}';
 * const cmd = (t: string) => prepare(splitCommands(t)[0]!, { positional: [], named: {} }).parsed.commands[0]!;
 * assert.equal(namePlaceholders(text, cmd(text)), 'GET /#{arg1}/_search {"size": #{arg2}}');
 * ```
 */
export function namePlaceholders(text: string, cmd: ParsedCommand, first = 1): string {
  const lines = text.split("\n");
  const slots = [...cmd.slots].map((s, i) => ({ ...s, n: first + i }));
  slots.sort((a, b) => b.line - a.line || b.column - a.column);
  for (const s of slots) {
    const line = lines[s.line - 1];
    if (line === undefined) continue;
    const at = s.column - 1;
    const width = line.startsWith("{?}", at) ? 3 : line[at] === "?" ? 1 : 0;
    if (width === 0) continue;
    lines[s.line - 1] = line.slice(0, at) + `#{arg${s.n}}` + line.slice(at + width);
  }
  return lines.join("\n");
}

function argsLiteral(names: string[], values: readonly unknown[]): string {
  return `{ ${names.map((n, i) => `${n}: ${JSON.stringify(values[i] ?? null)}`).join(", ")} }`;
}

const LAMBDA_OPS: Record<string, string> = { gte: "ge", gt: "gt", lte: "le", lt: "lt" };

function lambdaClauses(query: unknown): string[] | undefined {
  if (!isObject(query)) return undefined;
  const entries = Object.entries(query);
  if (entries.length !== 1) return undefined;
  const [type, def] = entries[0]!;
  if (!isObject(def)) return undefined;
  if (type === "match_all") return Object.keys(def).length === 0 ? [] : undefined;
  if (type === "bool") {
    const out: string[] = [];
    for (const [k, v] of Object.entries(def)) {
      if (k !== "must" && k !== "filter") return undefined;
      for (const q of Array.isArray(v) ? v : [v]) {
        const c = lambdaClauses(q);
        if (c === undefined) return undefined;
        out.push(...c);
      }
    }
    return out;
  }
  const fields = Object.entries(def);
  if (fields.length !== 1) return undefined;
  const [field, arg] = fields[0]!;
  const f = JSON.stringify(field);
  const plain = (v: unknown) =>
    typeof v === "string" || typeof v === "number" || typeof v === "boolean";
  const value = isObject(arg) && Object.keys(arg).length === 1 &&
      ("query" in arg || "value" in arg)
    ? (arg.query ?? arg.value)
    : arg;
  if (type === "term" && plain(value)) return [`.eq(${f}, ${JSON.stringify(value)})`];
  if (type === "match" && typeof value === "string") {
    return [`.match(${f}, ${JSON.stringify(value)})`];
  }
  if (type === "range" && isObject(arg)) {
    const out: string[] = [];
    for (const [op, v] of Object.entries(arg)) {
      const m = LAMBDA_OPS[op];
      if (m === undefined || !plain(v)) return undefined;
      out.push(`.${m}(${f}, ${JSON.stringify(v)})`);
    }
    return out.length > 0 ? out : undefined;
  }
  return undefined;
}

/**
 * The lambda chain of a search command, or undefined when it has none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { prepare, splitCommands } from "./commands.ts";
 * import { lambdaForm } from "./styles.ts";
 *
 * const cmd = (t: string) => prepare(splitCommands(t)[0]!, { positional: [], named: {} }).parsed.commands[0]!;
 * assert.match(lambdaForm(cmd('GET /a/_search {"query": {"match": {"t": "x"}}}'))!, /\.match\("t", "x"\)/);
 * assert.equal(lambdaForm(cmd('GET /a/_search {"aggs": {}}')), undefined);
 * ```
 */
export function lambdaForm(cmd: ParsedCommand): string | undefined {
  const m = /^\/([^/?{]+)\/_search$/.exec(cmd.pathTemplate);
  if (!m || cmd.slots.length > 0 || cmd.hints.length > 0) return undefined;
  if (cmd.method !== "GET" && cmd.method !== "POST") return undefined;
  let body: unknown = {};
  if (cmd.body !== undefined) {
    try {
      body = JSON.parse(cmd.body.join(""));
    } catch {
      return undefined;
    }
  }
  if (!isObject(body) || Object.keys(body).some((k) => !["query", "size", "from"].includes(k))) {
    return undefined;
  }
  const clauses = body.query === undefined ? [] : lambdaClauses(body.query);
  if (clauses === undefined) return undefined;
  const { size, from = 0 } = body;
  let end = ".queryForList();";
  if (size !== undefined || from !== 0) {
    if (!Number.isInteger(size) || !Number.isInteger(from)) return undefined;
    const s = size as number;
    const f = from as number;
    if (s === 0 && f === 0) end = ".queryForCount();";
    else if (s > 0 && f % s === 0) clauses.push(`.initPage(${s}, ${f / s})`);
    else return undefined;
  }
  return [
    `import { LambdaTemplate } from "@searchvisitor/searchvisitor/lambda";`,
    ``,
    `const lambda = new LambdaTemplate(dataSource);`,
    `const rows = await lambda.query(${JSON.stringify(decodeURIComponent(m[1]!))})`,
    ...clauses.map((c) => `  ${c}`),
    `  ${end}`,
  ].join("\n");
}

function jdbcMethod(cmd: ParsedCommand): string {
  if (statementKind(cmd) === "select") return "queryForList";
  return isWrite(cmd) ? "executeUpdate" : "execute";
}

/**
 * The command in the three styles.
 *
 * @param source The command as written in the editor (placeholders unbound).
 * @param prepared The command as bound and parsed.
 * @param args The arguments panel (named values for template text).
 * @returns JdbcTemplate, LambdaTemplate (or undefined) and mapper XML text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { prepare, splitCommands } from "./commands.ts";
 * import { stylesFor } from "./styles.ts";
 *
 * const [cmd] = splitCommands('GET /cities/_search\n{"query": {"term": {"country": "FR"}}}');
 * const args = { positional: [], named: {} };
 * const styles = stylesFor(cmd!.text, prepare(cmd!, args), args);
 * assert.ok(styles.lambda?.includes('.eq("country", "FR")'));
 * assert.ok(styles.xml.includes('<select id="command">'));
 * ```
 */
export function stylesFor(source: string, prepared: Prepared, args: Arguments): Styles {
  const cmd = prepared.parsed.commands[0];
  if (cmd === undefined) throw new Error("no command to show");
  // Template text names its values already; plain text with ? / {?} gets #{argN} names.
  const positional = !isTemplate(source) && cmd.slots.length > 0;
  const named = positional
    ? namePlaceholders(prepared.text, cmd).split("\n").slice(cmd.line - 1).join("\n").trimStart()
    : source.trim();
  const names = cmd.slots.map((_, i) => `arg${i + 1}`);
  const call = jdbcMethod(cmd);
  const text = source.trim();
  const jdbcArgs = positional
    ? `, ${JSON.stringify(prepared.args)}`
    : isTemplate(text)
    ? `, ${JSON.stringify(args.named)}`
    : "";
  const jdbc = [
    `import { JdbcTemplate } from "@searchvisitor/searchvisitor/template";`,
    ``,
    `const jdbc = new JdbcTemplate(dataSource);`,
    `const result = await jdbc.${call}(\`${
      text.replace(/[`\\]/g, "\\$&").replace(/\$\{/g, "\\${")
    }\`${jdbcArgs});`,
  ].join("\n");
  const kind = statementKind(cmd);
  const callArgs = positional ? argsLiteral(names, prepared.args) : JSON.stringify(args.named);
  const body = named.split("\n").map((l) =>
    `    ${escapeXml(l).replace(/&#34;/g, '"').replace(/&#39;/g, "'")}`
  )
    .join("\n");
  const xml = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<mapper namespace="playground">`,
    `  <${kind} id="command">`,
    body,
    `  </${kind}>`,
    `</mapper>`,
    ``,
    `<!-- await session.executeStatement("playground.command", ${
      callArgs.replace(/--/g, "- -")
    }) -->`,
  ].join("\n");
  return { jdbc, lambda: lambdaForm(cmd), xml };
}
