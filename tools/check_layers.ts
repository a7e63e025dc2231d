// Checks the dependency direction between rooms (ARCHITECTURE.md, "Dependency rules") and the "one door per room" rule:
//   driver ← template ← lambda ← mapper → xml → driver; check uses driver, template and xml and
//   serves mapper and cli; engine stands alone; playground uses the library and the engine; cli
//   may use all.
// A file in a room may import its own room's files freely, and another room only through one of its
// two doors, and only when the direction allows it: `mod.ts` (the public API) or `internal.ts` (the
// unpublished door for sibling rooms). Users' code — examples/, README.md and docs/ — imports
// `mod.ts` only, and no door passes a sibling's `internal.ts` on whole (`export *`). Library rooms use web standards only: no
// `Deno.`, `Bun.`, `node:` or `npm:` outside runtime adapters (`*_deno.ts`, `*_bun.ts`, `*_node.ts`)
// and tests. Benchmarks (bench/) and test support (tests/support/) may reach past a door: they
// guard and build on internals.
//
// Usage: deno run -A tools/check_layers.ts [root]   (exit 1 and one line per violation)

import { importsOf, resolveImport, typeScriptFiles, withoutComments } from "./_imports.ts";

const ALLOWED: Record<string, readonly string[]> = {
  driver: [],
  template: ["driver"],
  lambda: ["template", "driver"],
  xml: ["driver"],
  check: ["driver", "template", "xml"],
  mapper: ["lambda", "template", "xml", "check", "driver"],
  engine: [],
  // Schema migrations: versioned console files and the alias-swap reindex need only the driver.
  migrate: ["driver", "template"],
  cli: [
    "driver",
    "template",
    "lambda",
    "mapper",
    "xml",
    "check",
    "engine",
    "playground",
    "migrate",
  ],
  contrib: ["driver", "template", "lambda", "mapper", "xml"],
  // The page sits on top like the console: it uses the library's doors, and its server adapter
  // starts the engine; it never imports the console.
  playground: ["driver", "template", "lambda", "mapper", "xml", "engine"],
};
const LIBRARY_ROOMS = [
  "driver",
  "template",
  "lambda",
  "xml",
  "check",
  "mapper",
  "migrate",
  "engine",
  "contrib",
  "playground",
];
/**
 * The engine's stages, lowest first: a stage folder imports only stages below it (and the
 * room's internal root leaves `_errors.ts`, `_json.ts` and `_utf8.ts`), so a request flows REST → state →
 * search → aggregations → hits → query → index and never back.
 */
const ENGINE_STAGES = ["_index", "_query", "_hits", "_aggs", "_search", "_state", "_rest"];
const ENGINE_LEAVES = ["engine/_errors.ts", "engine/_json.ts", "engine/_utf8.ts"];

/** One broken rule: the file, the line and what is wrong. */
export interface Violation {
  file: string;
  line: number;
  problem: string;
}

function roomOf(path: string): string | undefined {
  const first = path.split("/")[0]!;
  return first in ALLOWED ? first : undefined;
}

function stageProblem(path: string, target: string): string | undefined {
  const from = ENGINE_STAGES.indexOf(path.split("/")[1] ?? "");
  if (from < 0) return undefined;
  const stage = target.split("/")[1] ?? "";
  const to = ENGINE_STAGES.indexOf(stage);
  if (to < 0) {
    return ENGINE_LEAVES.includes(target) ? undefined : `an engine stage must not import ${target}`;
  }
  if (to > from) {
    return `engine stage ${ENGINE_STAGES[from]} must not depend on ${stage} (above it)`;
  }
  return undefined;
}

function reachesInside(path: string): boolean {
  return path.startsWith("bench/") || path.startsWith("tests/support/");
}

function isDoor(target: string, room: string): boolean {
  return target === `${room}/mod.ts` || target === `${room}/internal.ts`;
}

/** Users' code: what the README, the guides and the examples show a user writing. */
function isUserCode(path: string): boolean {
  return path.startsWith("examples/") || path.startsWith("docs/") || path === "README.md";
}

const INTERNAL_SPEC = /(^|\/)internal(\.ts)?$/;

/**
 * Checks users' code (an example script, or a Markdown page's code): it imports no room's
 * unpublished `internal.ts`.
 *
 * @param path The file's path relative to the project root, with `/` separators.
 * @param text The file's text (a Markdown page whole: its fences are what a user copies).
 * @returns One violation per import of an internal door.
 */
export function checkUserCode(path: string, text: string): Violation[] {
  const violations: Violation[] = [];
  for (const { spec, line } of importsOf(text)) {
    if (INTERNAL_SPEC.test(spec)) {
      violations.push({
        file: path,
        line,
        problem: `users' code imports an internal door (use the room's mod.ts): ${spec}`,
      });
    }
  }
  return violations;
}

// Whether the import statement that ends on `line` is an `export … from`.
function exportsFrom(code: string, line: number): boolean {
  const lines = code.split("\n");
  const here = lines[line - 1] ?? "";
  const cut = here.indexOf(";");
  const before = [...lines.slice(0, line - 1), cut < 0 ? here : here.slice(0, cut)].join("\n");
  const keyword = /\b(import|export)\b[^;]*$/.exec(before);
  return keyword?.[1] === "export";
}

function isTest(path: string): boolean {
  return path.endsWith("_test.ts");
}

function isAdapter(path: string): boolean {
  // Runtime adapters, and command-line entry points (main.ts), which are never imported.
  return /_(deno|bun|node)\.ts$/.test(path) || path.endsWith("/main.ts");
}

/**
 * Checks one file's text.
 *
 * @param path The file's path relative to the project root, with `/` separators.
 * @param text The file's text.
 * @returns The rules the file breaks.
 */
export function checkFile(path: string, text: string): Violation[] {
  const violations: Violation[] = [];
  const room = roomOf(path);
  const code = withoutComments(text);
  for (const { spec, line } of importsOf(text)) {
    if (spec.startsWith(".")) {
      const target = resolveImport(path, spec);
      const targetRoom = roomOf(target);
      if (targetRoom === "engine" && room === "engine" && !isTest(path)) {
        const problem = stageProblem(path, target);
        if (problem) violations.push({ file: path, line, problem });
      }
      if (
        room !== undefined && targetRoom === room && isDoor(path, room) &&
        /(^|\/)_[^/]*$/.test(target.slice(room.length + 1)) && exportsFrom(code, line)
      ) {
        violations.push({
          file: path,
          line,
          problem: `a door re-exports from ${target}, a helper of its room (the underscore rule)`,
        });
      }
      if (targetRoom === undefined || targetRoom === room) continue;
      // Benchmarks guard internals and test support builds fixtures from them, so they alone may
      // reach past a door.
      if (!isDoor(target, targetRoom) && !reachesInside(path)) {
        violations.push({
          file: path,
          line,
          problem: `reaches past ${targetRoom}/mod.ts and ${targetRoom}/internal.ts: ${spec}`,
        });
      }
      if (
        target === `${targetRoom}/internal.ts` && /(^|\/)mod\.ts$/.test(path) &&
        /^\s*export\s*\*/.test(code.split("\n")[line - 1] ?? "")
      ) {
        violations.push({
          file: path,
          line,
          problem: `a door re-exports ${targetRoom}/internal.ts whole; name what it publishes`,
        });
      }
      if (room !== undefined && !ALLOWED[room]!.includes(targetRoom) && !isTest(path)) {
        violations.push({ file: path, line, problem: `${room} must not depend on ${targetRoom}` });
      }
      if (path === "mod.ts" && targetRoom === "engine") {
        violations.push({ file: path, line, problem: "the root module must not depend on engine" });
      }
    } else if (room && LIBRARY_ROOMS.includes(room) && !isTest(path) && !isAdapter(path)) {
      if (/^(node:|npm:|jsr:|https?:)/.test(spec)) {
        violations.push({
          file: path,
          line,
          problem: `runtime dependency in a library room: ${spec}`,
        });
      }
    }
  }
  if (room && LIBRARY_ROOMS.includes(room) && !isTest(path) && !isAdapter(path)) {
    for (const global of ["Deno.", "Bun.", "process.", "require("]) {
      const at = code.indexOf(global);
      if (at >= 0 && !/[\w$]/.test(code[at - 1] ?? "")) {
        violations.push({
          file: path,
          line: code.slice(0, at).split("\n").length,
          problem: `runtime-specific global ${global} outside an adapter`,
        });
      }
    }
  }
  return violations;
}

if (import.meta.main) {
  const root = Deno.args[0] ?? ".";
  const all: Violation[] = [];
  for await (const file of typeScriptFiles(root)) {
    if (file.startsWith("tools/")) continue;
    const text = await Deno.readTextFile(`${root}/${file}`);
    all.push(...checkFile(file, text));
    if (isUserCode(file)) all.push(...checkUserCode(file, text));
  }
  const pages = ["README.md"];
  for await (const entry of Deno.readDir(`${root}/docs`)) {
    if (entry.isFile && entry.name.endsWith(".md")) pages.push(`docs/${entry.name}`);
  }
  for (const page of pages.sort()) {
    all.push(...checkUserCode(page, await Deno.readTextFile(`${root}/${page}`)));
  }
  for (const v of all) console.error(`${v.file}:${v.line}: ${v.problem}`);
  console.log(all.length === 0 ? "layers ok" : `${all.length} layer violation(s)`);
  if (all.length > 0) Deno.exit(1);
}
