// `deno run -A tests/diff/vendor_spec.ts GITDIR`: vendors the request examples of Elastic's
// elasticsearch-specification (Apache-2.0) that the differential tester replays, from a local
// clone (CI cannot fetch repositories). Writes spec_examples/examples.json: one entry per example
// file of the APIs below, its method, path and body exactly as the file gives them (the YAML
// files are converted to JSON, nothing else is changed), with the commit they came from.
// A development tool: it uses the npm package `yaml`, which the library never loads.

import { parse } from "npm:yaml@2";

/** The API folders replayed: documents, search, indices, cluster and cat. */
const FOLDERS =
  /^specification\/(_global|indices|cluster|cat)\/([^/]+)\/examples\/request\/[^/]+\.yaml$/;

if (import.meta.main) {
  const git = Deno.args[0];
  if (!git) {
    throw new Error(
      "usage: vendor_spec.ts GITDIR (a clone of elastic/elasticsearch-specification)",
    );
  }
  const run = (args: string[]) =>
    new TextDecoder().decode(
      new Deno.Command("git", { args: ["--git-dir", git, ...args] }).outputSync().stdout,
    );
  const commit = run(["rev-parse", "HEAD"]).trim();
  const files = run(["ls-tree", "-r", "--name-only", "HEAD"]).split("\n").filter((f) =>
    FOLDERS.test(f)
  );
  const examples = [];
  for (const file of files) {
    const doc = parse(run(["show", `HEAD:${file}`])) as Record<string, unknown>;
    const request = String(doc.method_request ?? "").trim();
    const m = /^([A-Z]+)\s+(\S+)$/.exec(request);
    if (!m) continue;
    const [, folder, api] = FOLDERS.exec(file)!;
    const value = doc.value;
    const body = value === undefined
      ? undefined
      : typeof value === "string"
      ? value
      : JSON.stringify(value);
    examples.push({
      api: `${folder}/${api}`,
      file,
      method: m[1],
      path: m[2]!.replace(/^(?!\/)/, "/"),
      body,
    });
  }
  const out = new URL("./spec_examples/examples.json", import.meta.url);
  await Deno.writeTextFile(
    out,
    JSON.stringify({ source: "elastic/elasticsearch-specification", commit, examples }, null, 1) +
      "\n",
  );
  console.log(`${examples.length} examples from ${commit}`);
}
