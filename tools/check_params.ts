// Checks the parameter-list habit (ARCHITECTURE.md, "Parameter lists"): a function, method,
// constructor or arrow function in a library room takes at most 4 positional parameters and no
// positional `boolean` — except a single trailing optional flag, or a flag that is the only
// parameter. The rest go into a named,
// documented options interface (or an existing context object already in scope).
//
// Exceptions live in `tools/check_params_allow.json`, one entry per function with its reason
// (hot paths where an object per call costs measurably; work left for later). Entries are keyed
// `file#name` (see `functionName`); a stale entry — one that no longer offends — is reported too,
// so the list only shrinks.
//
// Usage: deno run -A tools/check_params.ts [--list] [--counts] [root]
//   default: exit 1 and one line per offender not in the allow-list (and per stale entry)
//   --list:   print every offender, allowed or not
//   --counts: print per-room counts (5+ parameters, positional booleans)

import ts from "npm:typescript@5.8.3";
import { typeScriptFiles } from "./_imports.ts";

/** The library rooms this check covers. */
export const ROOMS = [
  "driver",
  "template",
  "lambda",
  "mapper",
  "xml",
  "check",
  "migrate",
  "engine",
  "cli",
  "contrib",
] as const;

/** The most positional parameters a function may take. */
export const MAX_PARAMS = 4;

/** One function that breaks the habit. */
export interface Offender {
  /** The file, relative to the root, with `/` separators. */
  file: string;
  /** The 1-based line of the function. */
  line: number;
  /** The allow-list key's name part: `Class.method`, `fn`, `fn/<arrow>` … */
  name: string;
  /** How many parameters it takes (a `this` parameter not counted). */
  params: number;
  /** Its positional boolean parameters' names (a trailing optional or sole flag not counted). */
  booleans: string[];
}

function isBooleanType(node: ts.TypeNode | undefined): boolean {
  if (!node) return false;
  if (node.kind === ts.SyntaxKind.BooleanKeyword) return true;
  if (ts.isUnionTypeNode(node)) {
    // `boolean | undefined` is still a flag; `boolean | string` is not.
    return node.types.some((t) => t.kind === ts.SyntaxKind.BooleanKeyword) &&
      node.types.every((t) =>
        t.kind === ts.SyntaxKind.BooleanKeyword || t.kind === ts.SyntaxKind.UndefinedKeyword ||
        (ts.isLiteralTypeNode(t) && (t.literal.kind === ts.SyntaxKind.TrueKeyword ||
          t.literal.kind === ts.SyntaxKind.FalseKeyword))
      );
  }
  return false;
}

function isBooleanParam(p: ts.ParameterDeclaration): boolean {
  if (isBooleanType(p.type)) return true;
  // An unannotated `flag = false` is a boolean too.
  return !p.type && p.initializer !== undefined &&
    (p.initializer.kind === ts.SyntaxKind.TrueKeyword ||
      p.initializer.kind === ts.SyntaxKind.FalseKeyword);
}

function nameOf(node: ts.Node, source: ts.SourceFile): string | undefined {
  if (
    (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) ||
      ts.isMethodSignature(node) || ts.isPropertyDeclaration(node) ||
      ts.isPropertyAssignment(node) || ts.isVariableDeclaration(node) ||
      ts.isClassDeclaration(node) || ts.isClassExpression(node) ||
      ts.isGetAccessor(node) || ts.isSetAccessor(node) || ts.isPropertySignature(node) ||
      ts.isInterfaceDeclaration(node)) && node.name
  ) return node.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return "constructor";
  return undefined;
}

/**
 * Names a function by its named ancestors: `Class.method`, `fn`, `fn/<arrow>`, `Class.method/<fn>`.
 * Anonymous functions nested in one parent take the parent's name plus `<arrow>`/`<fn>`; the
 * allow-list thereby covers all of them at once.
 */
function functionName(node: ts.Node, source: ts.SourceFile): string {
  const parts: string[] = [];
  for (let n: ts.Node | undefined = node; n && !ts.isSourceFile(n); n = n.parent) {
    const name = nameOf(n, source);
    if (name !== undefined) parts.unshift(name);
  }
  const named = nameOf(node, source) !== undefined ||
    (node.parent !== undefined && nameOf(node.parent, source) !== undefined &&
      !ts.isClassDeclaration(node.parent) && !ts.isClassExpression(node.parent));
  const base = parts.join(".");
  if (named) return base;
  const anon = ts.isArrowFunction(node) ? "<arrow>" : "<fn>";
  return base ? `${base}/${anon}` : anon;
}

/**
 * Lists the functions of one file that take too many parameters or a positional boolean.
 *
 * @param file The file's path (for the report).
 * @param text The file's text.
 * @returns Its offenders, in source order.
 */
export function offendersOf(file: string, text: string): Offender[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Offender[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) ||
      ts.isArrowFunction(node) || ts.isFunctionExpression(node) ||
      ts.isConstructorDeclaration(node) || ts.isMethodSignature(node)
    ) {
      const params = node.parameters.filter((p) => p.name.getText(source) !== "this");
      const flags = params.filter(isBooleanParam);
      const last = params[params.length - 1];
      // A sole flag (`setAutoCommit(false)`) or a single trailing optional one reads fine.
      const trailingFlag = last !== undefined && flags.length === 1 && flags[0] === last &&
        (params.length === 1 || last.questionToken !== undefined ||
          last.initializer !== undefined);
      const booleans = trailingFlag ? [] : flags.map((p) => p.name.getText(source));
      if (params.length > MAX_PARAMS || booleans.length > 0) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        out.push({
          file,
          line: line + 1,
          name: functionName(node, source),
          params: params.length,
          booleans,
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Whether a file belongs to the checked library code (tests and benches do not). */
export function isLibraryFile(path: string): boolean {
  const room = path.split("/")[0] ?? "";
  return (ROOMS as readonly string[]).includes(room) && !path.endsWith("_test.ts") &&
    !path.includes("/tests/") && !path.includes("/bench/") && !path.includes("/testdata/");
}

/**
 * Lists every offender under a root.
 *
 * @param root The project root.
 * @returns The offenders, by file and line.
 */
export async function offenders(root: string): Promise<Offender[]> {
  const files: string[] = [];
  for (const room of ROOMS) {
    try {
      for await (const f of typeScriptFiles(`${root}/${room}`, room)) {
        if (isLibraryFile(f)) files.push(f);
      }
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
  }
  files.sort();
  const out: Offender[] = [];
  for (const f of files) out.push(...offendersOf(f, await Deno.readTextFile(`${root}/${f}`)));
  return out;
}

/** The allow-list key of an offender. */
export function keyOf(o: Offender): string {
  return `${o.file}#${o.name}`;
}

/**
 * Counts offenders per room.
 *
 * @param list The offenders.
 * @returns Per room: functions with 5+ parameters, functions with a positional boolean.
 */
export function countsOf(list: readonly Offender[]): Map<string, { long: number; flags: number }> {
  const counts = new Map<string, { long: number; flags: number }>();
  for (const room of ROOMS) counts.set(room, { long: 0, flags: 0 });
  for (const o of list) {
    const c = counts.get(o.file.split("/")[0] ?? "")!;
    if (o.params > MAX_PARAMS) c.long++;
    if (o.booleans.length > 0) c.flags++;
  }
  return counts;
}

function describe(o: Offender): string {
  const why = [
    o.params > MAX_PARAMS ? `${o.params} parameters` : "",
    o.booleans.length ? `positional boolean ${o.booleans.join(", ")}` : "",
  ].filter(Boolean).join("; ");
  return `${o.file}:${o.line} ${o.name}: ${why}`;
}

if (import.meta.main) {
  const args = Deno.args.filter((a) => !a.startsWith("--"));
  const root = args[0] ?? ".";
  const list = await offenders(root);
  if (Deno.args.includes("--counts")) {
    let long = 0, flags = 0;
    for (const [room, c] of countsOf(list)) {
      console.log(
        `${room.padEnd(9)} 5+ params: ${String(c.long).padStart(3)}  booleans: ${c.flags}`,
      );
      long += c.long;
      flags += c.flags;
    }
    console.log(`${"total".padEnd(9)} 5+ params: ${String(long).padStart(3)}  booleans: ${flags}`);
  }
  if (Deno.args.includes("--list")) { for (const o of list) console.log(describe(o)); }
  if (!Deno.args.includes("--counts") && !Deno.args.includes("--list")) {
    const allowPath = new URL("./check_params_allow.json", import.meta.url);
    const allow: Record<string, string> = JSON.parse(await Deno.readTextFile(allowPath));
    const seen = new Set<string>();
    let bad = 0;
    for (const o of list) {
      const key = keyOf(o);
      seen.add(key);
      if (!(key in allow)) {
        console.log(`${describe(o)} — use an options object (ARCHITECTURE.md, "Parameter lists")`);
        bad++;
      } else if (!allow[key]) {
        console.log(`${key}: allow-list entry without a reason`);
        bad++;
      }
    }
    for (const key of Object.keys(allow)) {
      if (!seen.has(key)) {
        console.log(`${key}: stale allow-list entry (it no longer offends) — remove it`);
        bad++;
      }
    }
    if (bad) Deno.exit(1);
    console.log(`check_params: ${list.length} offenders, all allowed`);
  }
}
