// The one import scanner of the project's checks: which modules a file imports, type imports,
// re-exports and dynamic imports included. Comments (doc examples among them) are blanked out
// first, keeping line breaks, so line numbers still count.

const IMPORT =
  /(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|import\s+["']([^"']+)["']/g;

/** One import: the specifier as written, and the line it is on. */
export interface ImportRef {
  /** The specifier, e.g. `./statement.ts` or `node:http`. */
  spec: string;
  /** The 1-based line of the import. */
  line: number;
}

/**
 * Blanks out comments, keeping every line break.
 *
 * @param text A TypeScript file's text.
 * @returns The text with comments replaced by spaces.
 */
export function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, (c) => c.replace(/[^\n]/g, " "));
}

/**
 * Lists the imports of one file.
 *
 * @param text A TypeScript file's text.
 * @returns Every import, re-export and dynamic import outside comments, in order.
 */
export function importsOf(text: string): ImportRef[] {
  const code = withoutComments(text);
  const refs: ImportRef[] = [];
  for (const match of code.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2] ?? match[3] ?? "";
    refs.push({ spec, line: code.slice(0, match.index).split("\n").length });
  }
  return refs;
}

/**
 * Resolves a relative specifier against the importing file.
 *
 * @param from The importing file's path relative to the project root, with `/` separators.
 * @param spec A relative specifier (`./a.ts`, `../b/c.ts`).
 * @returns The imported file's path relative to the project root.
 */
export function resolveImport(from: string, spec: string): string {
  const parts = from.split("/").slice(0, -1);
  for (const piece of spec.split("/")) {
    if (piece === "..") parts.pop();
    else if (piece !== ".") parts.push(piece);
  }
  return parts.join("/");
}

/**
 * Walks a folder for TypeScript files, skipping hidden folders and node_modules.
 *
 * @param dir The folder to walk.
 * @param prefix The path prefix of the yielded files.
 * @returns The files' paths relative to `dir`, with `/` separators.
 */
export async function* typeScriptFiles(dir: string, prefix = ""): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory) yield* typeScriptFiles(`${dir}/${entry.name}`, rel);
    else if (entry.name.endsWith(".ts")) yield rel;
  }
}
