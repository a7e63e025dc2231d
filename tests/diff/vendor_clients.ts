// `deno run -A tests/diff/vendor_clients.ts CLIENTS_GITDIR SPEC_GITDIR`: vendors Elastic's
// elasticsearch-clients-tests (Apache-2.0) for the differential tester, from local clones (CI
// cannot fetch repositories). Copies the YAML tests of the stack's core APIs (documents, search,
// indices, cluster, cat…; not the x-pack areas such as machine learning or security) unchanged into
// clients_tests/test/, and the JSON API specifications those tests call, from the last commit of
// elasticsearch-specification that had `specification/_json_spec` (Apache-2.0), into
// clients_tests/api/, so the conformance runner can replay them (`run.mjs --dir clients_tests`).
// A development tool: it uses the npm package `yaml`, which the library never loads.

import { parse } from "npm:yaml@2";

/** Test folders and files left out: x-pack areas the tester's real Elasticsearch lacks. */
const LEFT_OUT =
  /^tests\/(machine_learning|security|entsearch|search_application|esql|transform|query_rules|migration|ingest|license|enrich|watcher|text_structure|synonyms|streams|sql|snapshot|simulate|searchable_snapshots|search_mvt|async_search|inference|connector|ilm|slm|logstash|profiling|rollup|fleet|graph|ccr|shutdown|autoscaling|features|nodes|eql|security|ssl|xpack|cat\/ml|indices\/(10|20)_data_lifecycle|indices\/downsample|indices\/data_stream|indices\/migrate)/;

/** The API names a parsed YAML test calls (`do: {api: {...}}`). */
function apis(doc: unknown, out: Set<string>): void {
  if (Array.isArray(doc)) { for (const x of doc) apis(x, out); }
  else if (doc && typeof doc === "object") {
    for (const [k, v] of Object.entries(doc as Record<string, unknown>)) {
      if (k === "do" && v && typeof v === "object") {
        for (const name of Object.keys(v)) {
          if (
            !["catch", "headers", "warnings", "allowed_warnings", "node_selector"].includes(name)
          ) {
            out.add(name);
          }
        }
      } else apis(v, out);
    }
  }
}

if (import.meta.main) {
  const [clients, spec] = Deno.args;
  if (!clients || !spec) {
    throw new Error("usage: vendor_clients.ts CLIENTS_GITDIR SPEC_GITDIR");
  }
  const git = (dir: string, args: string[]) =>
    new TextDecoder().decode(
      new Deno.Command("git", { args: ["--git-dir", dir, ...args] }).outputSync().stdout,
    );
  const out = new URL("./clients_tests/", import.meta.url).pathname;
  const commit = git(clients, ["rev-parse", "HEAD"]).trim();
  const specCommit = git(spec, ["log", "-1", "--format=%H", "--", "specification/_json_spec"])
    .trim();
  const specAt = git(spec, ["rev-parse", `${specCommit}^`]).trim();
  const files = git(clients, ["ls-tree", "-r", "--name-only", "HEAD", "tests"]).split("\n")
    .filter((f) => f.endsWith(".yml") && !LEFT_OUT.test(f));
  const used = new Set<string>(["indices.delete", "indices.delete_index_template"]);
  for (const f of files) {
    const text = git(clients, ["show", `HEAD:${f}`]);
    for (const part of text.split(/^---\s*$/m)) {
      try {
        apis(parse(part), used);
      } catch { /* the runner reports what it cannot parse */ }
    }
    const to = `${out}test/${f.slice("tests/".length)}`;
    await Deno.mkdir(to.slice(0, to.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(to, text);
  }
  await Deno.mkdir(`${out}api`, { recursive: true });
  let specs = 0;
  for (const name of [...used].sort()) {
    const text = git(spec, ["show", `${specAt}:specification/_json_spec/${name}.json`]);
    if (!text) continue;
    await Deno.writeTextFile(`${out}api/${name}.json`, text);
    specs++;
  }
  await Deno.writeTextFile(`${out}LICENSE`, git(clients, ["show", "HEAD:LICENSE"]));
  await Deno.writeTextFile(`${out}NOTICE`, git(clients, ["show", "HEAD:NOTICE"]));
  await Deno.writeTextFile(
    `${out}SOURCE`,
    `test/: elastic/elasticsearch-clients-tests ${commit}\napi/: elastic/elasticsearch-specification ${specAt} (specification/_json_spec)\n`,
  );
  console.log(`${files.length} test files from ${commit}, ${specs} API specs from ${specAt}`);
}
