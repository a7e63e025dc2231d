// Type-checks the rooms that already compile under `noUncheckedIndexedAccess` with that option on
// (tools/strict.json), so they stay that way. Rooms not yet in the tree are skipped; a room that
// imports the engine (the console) joins once the engine compiles under the option too, and then
// the option moves into deno.json for the whole project and this check goes away.
//
// Usage: deno run -A tools/check_strict.ts [root]   (exit 1 with the compiler's report)

/** The rooms held to the stricter options, in dependency order. */
export const STRICT_ROOMS: readonly string[] = ["driver", "template", "lambda", "xml", "mapper"];

/**
 * The TypeScript files of the strict rooms that exist.
 *
 * @param files Every file of the project, relative to its root, with `/` separators.
 * @returns The `.ts` files under a strict room.
 */
export function strictFiles(files: readonly string[]): string[] {
  return files.filter((f) => f.endsWith(".ts") && STRICT_ROOMS.includes(f.split("/")[0] ?? ""));
}

if (import.meta.main) {
  const { typeScriptFiles } = await import("./_imports.ts");
  const root = Deno.args[0] ?? ".";
  const all: string[] = [];
  for await (const file of typeScriptFiles(root)) all.push(file);
  const files = strictFiles(all);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["check", "--quiet", "--config", "tools/strict.json", ...files],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    console.error(new TextDecoder().decode(out.stderr).trim());
    console.log("strict check failed (noUncheckedIndexedAccess)");
    Deno.exit(1);
  }
  const rooms = STRICT_ROOMS.filter((r) => files.some((f) => f.startsWith(`${r}/`)));
  console.log(`strict check ok (${rooms.join(", ")}: ${files.length} files)`);
}
