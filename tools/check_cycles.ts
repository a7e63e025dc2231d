// Fails on any import circle among the project's files, at any depth and inside rooms too:
// every relative import counts, type-only imports and re-exports included (ARCHITECTURE.md,
// "Dependency rules"). A circle is reported as the files that form it, each with the line of
// its import of the next, so the reader sees where to cut.
//
// Usage: deno run -A tools/check_cycles.ts [root]   (exit 1 and one line per circle)

import { importsOf, resolveImport, typeScriptFiles } from "./_imports.ts";

/** An import edge: the imported file and the line of the import in the importing file. */
export interface Edge {
  to: string;
  line: number;
}

/**
 * Builds the import graph of a set of files.
 *
 * @param files Each file's path (relative to the project root, `/` separators) and text.
 * @returns For every file, its relative imports that resolve to another file of the set.
 */
export function importGraph(files: ReadonlyMap<string, string>): Map<string, Edge[]> {
  const graph = new Map<string, Edge[]>();
  for (const [path, text] of files) {
    const edges: Edge[] = [];
    for (const { spec, line } of importsOf(text)) {
      if (!spec.startsWith(".")) continue;
      const to = resolveImport(path, spec);
      if (files.has(to) && !edges.some((e) => e.to === to)) edges.push({ to, line });
    }
    graph.set(path, edges);
  }
  return graph;
}

/** One group of files that import each other in a circle, and one circle through them. */
export interface Cycle {
  /** Every file of the group (a strongly connected component), sorted by name. */
  files: string[];
  /** The shortest circle from the group's first file back to itself, the first file repeated. */
  path: string[];
}

/**
 * Finds the import circles of a graph: one per strongly connected group of files (Tarjan's
 * algorithm).
 *
 * @param graph The import graph, as {@link importGraph} builds it.
 * @returns The groups, sorted by their first file.
 */
export function findCycles(graph: ReadonlyMap<string, readonly Edge[]>): Cycle[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  let next = 0;
  // Iterative, so that a long chain of imports cannot overflow the call stack.
  for (const root of [...graph.keys()].sort()) {
    if (index.has(root)) continue;
    const work: { node: string; edge: number }[] = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const edges = graph.get(top.node) ?? [];
      if (top.edge < edges.length) {
        const to = edges[top.edge++]!.to;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(top.node)!));
      if (low.get(top.node) !== index.get(top.node)) continue;
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== top.node);
      const selfLoop = (graph.get(top.node) ?? []).some((e) => e.to === top.node);
      if (group.length > 1 || selfLoop) groups.push(group.sort());
    }
  }
  return groups.sort((a, b) => a[0]!.localeCompare(b[0]!))
    .map((files) => ({ files, path: closedPath(graph, files) }));
}

/** The shortest closed path from a group's first file back to itself, inside the group. */
function closedPath(graph: ReadonlyMap<string, readonly Edge[]>, group: string[]): string[] {
  const start = group[0]!;
  const members = new Set(group);
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    for (const { to } of graph.get(node) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let at: string | undefined = node; at !== start && at; at = cameFrom.get(at)) {
          path.splice(1, 0, at);
        }
        return [...path, start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start, start];
}

/**
 * Describes one circle for a reader: each file with the line where it imports the next.
 *
 * @param graph The import graph.
 * @param cycle A circle as {@link findCycles} returns it.
 * @returns One line such as `a.ts:3 → b.ts:7 → a.ts`, and the size of the group when more files
 *   than the circle's take part.
 */
export function describeCycle(graph: ReadonlyMap<string, readonly Edge[]>, cycle: Cycle): string {
  const { path, files } = cycle;
  const more = files.length > path.length - 1 ? ` (a group of ${files.length} files)` : "";
  return path.map((file, i) => {
    const to = path[i + 1];
    if (to === undefined) return file;
    const edge = (graph.get(file) ?? []).find((e) => e.to === to);
    return `${file}:${edge?.line ?? "?"}`;
  }).join(" → ") + more;
}

if (import.meta.main) {
  const root = Deno.args[0] ?? ".";
  const files = new Map<string, string>();
  for await (const file of typeScriptFiles(root)) {
    files.set(file, await Deno.readTextFile(`${root}/${file}`));
  }
  const graph = importGraph(files);
  const cycles = findCycles(graph);
  for (const cycle of cycles) console.error(`import circle: ${describeCycle(graph, cycle)}`);
  console.log(
    cycles.length === 0
      ? `no import circles (${files.size} files)`
      : `${cycles.length} import circle(s)`,
  );
  if (cycles.length > 0) Deno.exit(1);
}
