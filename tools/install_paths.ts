// The install paths of the docs as a shell script: docs/install.md marks its blocks with
// `<!-- install: run -->` (shell lines a user types, run in order in one shell) and
// `<!-- install: file PATH -->` (a file the user writes, PATH relative to the folder that holds the
// clone). `.ci/install_paths.sh` runs the script from a fresh clone, so a command or file in the
// docs that stops working fails CI. The `js` mode writes every plain JavaScript block of the
// guides as an .mjs file, for Node to run against the installed package.
//
// Usage: deno run -A tools/install_paths.ts script docs/install.md        (the script, on stdout)
//        deno run -A tools/install_paths.ts js OUTDIR docs/a.md docs/b.md  (writes OUTDIR/*.mjs)

/** One marked block of a page. */
export interface InstallStep {
  /** `run`: shell lines; `file`: a file to write. */
  kind: "run" | "file";
  /** The file's path (for `file`), relative to the folder that holds the clone. */
  path?: string;
  /** The block's text, without its fences. */
  text: string;
  /** The 1-based line of the marker. */
  line: number;
}

const MARKER = /^<!-- install: (run|file (\S+)) -->$/;
const FENCE = /^```(\w*)$/;

/**
 * The marked blocks of a markdown page, in order. A marker must be followed (blank lines apart) by
 * a fenced block.
 *
 * @param markdown The page.
 * @returns The steps.
 */
export function installSteps(markdown: string): InstallStep[] {
  const lines = markdown.split("\n");
  const steps: InstallStep[] = [];
  for (let i = 0; i < lines.length; i++) {
    const marker = MARKER.exec(lines[i]!);
    if (!marker) continue;
    let j = i + 1;
    while (j < lines.length && lines[j]!.trim() === "") j++;
    if (!FENCE.test(lines[j] ?? "")) {
      throw new Error(`line ${i + 1}: an install marker must be followed by a fenced block`);
    }
    const start = j + 1;
    let end = start;
    while (end < lines.length && lines[end] !== "```") end++;
    if (end === lines.length) throw new Error(`line ${j + 1}: the block is not closed`);
    const text = lines.slice(start, end).join("\n");
    steps.push(
      marker[2] === undefined
        ? { kind: "run", text, line: i + 1 }
        : { kind: "file", path: marker[2], text, line: i + 1 },
    );
    i = end;
  }
  return steps;
}

/**
 * The bash script that performs the steps: run blocks verbatim, file blocks written through a
 * quoted here-document (nothing expanded). `$SV_WORK` is the folder that holds the clone.
 *
 * @param steps The page's steps.
 * @param page The page's name, for the trace.
 * @returns The script's text.
 */
export function installScript(steps: readonly InstallStep[], page: string): string {
  const out = ['cd "$SV_WORK"'];
  for (const step of steps) {
    out.push(`echo "== ${page}:${step.line}"`);
    if (step.kind === "run") {
      out.push(step.text);
      continue;
    }
    if (step.text.split("\n").includes("__SV_FILE_END__")) {
      throw new Error(`line ${step.line}: the file may not contain the line __SV_FILE_END__`);
    }
    const target = `"$SV_WORK/${step.path}"`;
    out.push(`mkdir -p "$(dirname ${target})"`);
    out.push(`cat >${target} <<'__SV_FILE_END__'\n${step.text}\n__SV_FILE_END__`);
  }
  return out.join("\n") + "\n";
}

/**
 * The plain JavaScript blocks (```js) of a page that are not install files.
 *
 * @param markdown The page.
 * @returns Each block's 1-based opening line and text.
 */
export function jsBlocks(markdown: string): { line: number; text: string }[] {
  const lines = markdown.split("\n");
  const blocks: { line: number; text: string }[] = [];
  let marked = false;
  for (let i = 0; i < lines.length; i++) {
    if (MARKER.test(lines[i]!)) marked = true;
    const fence = FENCE.exec(lines[i]!);
    if (!fence) continue;
    let end = i + 1;
    while (end < lines.length && lines[end] !== "```") end++;
    if (fence[1] === "js" && !marked) {
      blocks.push({ line: i + 1, text: lines.slice(i + 1, end).join("\n") });
    }
    marked = false;
    i = end;
  }
  return blocks;
}

if (import.meta.main) {
  const [mode, ...rest] = Deno.args;
  if (mode === "script" && rest.length === 1) {
    const page = rest[0]!;
    console.log(installScript(installSteps(await Deno.readTextFile(page)), page));
  } else if (mode === "js" && rest.length >= 2) {
    const [outDir, ...pages] = rest;
    for (const page of pages) {
      for (const block of jsBlocks(await Deno.readTextFile(page))) {
        const name = `${page.replace(/^.*\//, "").replace(/\.md$/, "")}_${block.line}.mjs`;
        await Deno.writeTextFile(`${outDir}/${name}`, block.text + "\n");
        console.log(name);
      }
    }
  } else {
    console.error("usage: install_paths.ts script PAGE | js OUTDIR PAGE...");
    Deno.exit(64);
  }
}
