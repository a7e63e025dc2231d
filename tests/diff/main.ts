// `deno task diff [options]`: the differential tester. The same requests go to a real engine
// (the oracle) and to the embedded engine in the same flavour; the answers are compared field by
// field (normalised as compare.ts says, no more) and the report gives identical rates per
// flavour, corpus and request kind, and the kinds of difference with one example each.
//
//   --flavour F        elasticsearch, opensearch or both (default: both, as far as URLs are given)
//   --es URL, --os URL the real engines (default: $ELASTICSEARCH_URL, $OPENSEARCH_URL)
//   --corpus LIST      generated,spec,clients,yaml (default: all; spec and clients are
//                      Elasticsearch only; clients and yaml need the conformance runner:
//                      $CONFORMANCE_DIR or ../shared/conformance)
//   --seed N, --requests N, --docs N   the generated corpus (default 1, 5000, 60)
//   --short            the CI form: generated corpus only, 300 requests, seed 1, and a failure
//                      when a flavour's identical rate is below its floor in floor.json
//   --show N           examples of the N largest kinds of difference (default 40)
//   --json FILE        also write every record
//   --kind TEXT        only the generated requests whose kind contains TEXT (`geo`, `agg:`), to
//                      iterate on one area; the setup steps always run
// Exit: 0, or 1 when --short finds a rate below its floor, 2 on bad arguments or no engine.

import { Engine, type NodeIdentity, serve } from "../../engine/mod.ts";
import { type Flavour, type Item, requests, setup, type Step } from "./generate.ts";
import { type Exchange, replay, send, settleRuns } from "./replay.ts";
import { compared, line, rate, render, tally } from "./report.ts";
import { yamlCorpus } from "./yaml.ts";

/** The versions each real engine is compared at; the embedded engine claims the same. */
export const REAL_VERSIONS: { [f in Flavour]: string } = {
  elasticsearch: "9.5.4",
  opensearch: "3.8.0",
};

function arg(name: string): string | undefined {
  const at = Deno.args.indexOf(name);
  return at >= 0 ? Deno.args[at + 1] : undefined;
}

function die(message: string): never {
  console.error(`diff: ${message}`);
  Deno.exit(2);
}

/** The spec examples as steps, in an order that creates indices before using them. */
async function specCorpus(): Promise<Item[]> {
  const file = new URL("./spec_examples/examples.json", import.meta.url);
  const { examples } = JSON.parse(await Deno.readTextFile(file)) as {
    examples: Array<{ api: string; method: string; path: string; body?: string }>;
  };
  const rank = (api: string) =>
    api === "indices/create"
      ? 0
      : /^_global\/(index|bulk|create)$/.test(api)
      ? 1
      : /delete/.test(api)
      ? 3
      : 2;
  const items = examples
    .map((e, i) => ({ e, i }))
    .sort((a, b) => rank(a.e.api) - rank(b.e.api) || a.i - b.i)
    .map(({ e }) => {
      // A GET with a body (`_analyze`, `_mget`, `_search`…) goes as POST, as Elastic's clients
      // send it: fetch cannot send a body with GET.
      const method = e.method === "GET" && e.body !== undefined ? "POST" : e.method;
      return [
        {
          kind: `spec:${e.api}`,
          method,
          path: e.path,
          ...(e.body === undefined ? {} : { body: e.body }),
          ...(/_bulk|_msearch/.test(e.path) ? { contentType: "application/x-ndjson" } : {}),
          repeatable: method === "GET" || method === "HEAD",
        } satisfies Step,
      ];
    });
  // The seed goes in after the examples that create indices, before every other example.
  const created = examples.filter((e) => rank(e.api) === 0).length;
  return [...items.slice(0, created), ...specSeed(), ...items.slice(created)];
}

/**
 * The indices the specification examples name, with a few documents each, sent to both engines
 * alike (plumbing, not compared) so that fewer examples end as a 404 on both sides. An index an
 * example creates itself (`my-index-000001`, `test`) keeps the example's settings: its create
 * step here fails alike on both sides and only the documents are added.
 */
export function specSeed(): Item[] {
  const doc = (i: number) => ({
    "@timestamp": `2099-11-15T13:1${i}:00`,
    message: ["GET /search HTTP/1.1 200 1070000", "this is a test", "elasticsearch rocks"][i % 3],
    user: { id: i % 2 ? "elkbee" : "kimchy" },
    http: { response: { bytes: 1_000_000 + 500_000 * i } },
    tags: ["red", "blue"].slice(0, 1 + (i % 2)),
    counter: i,
    text: "test test test",
    fullname: "John Doe",
    rating: i,
  });
  const seeds: Array<{ index: string; body: unknown; docs: unknown[] }> = [
    { index: "my-index-000001", body: {}, docs: [0, 1, 2].map(doc) },
    { index: "my-index-000002", body: {}, docs: [3, 4].map(doc) },
    { index: "my-index", body: {}, docs: [5].map(doc) },
    { index: "test", body: {}, docs: [{ counter: 1, tags: ["red"], name: "old_name" }] },
    {
      index: "books",
      body: { mappings: { properties: { title: { type: "text" }, year: { type: "integer" } } } },
      docs: [{ title: "Dune", year: 1965 }, { title: "Neuromancer", year: 1984 }],
    },
    {
      index: "publications",
      body: { mappings: { properties: { title: { type: "text" }, abstract: { type: "text" } } } },
      docs: [{ title: "A survey", abstract: "search engines" }],
    },
    {
      index: "stackoverflow",
      body: { mappings: { properties: { tags: { type: "keyword" } } } },
      docs: [{ tags: ["kibana", "elasticsearch"] }, { tags: ["kiba"] }],
    },
    {
      index: "imdb",
      body: { mappings: { properties: { plot: { type: "text" } } } },
      docs: [{ plot: "Tony Stark builds an armored suit" }],
    },
    {
      index: "my_source_index",
      body: { settings: { number_of_shards: 1 } },
      docs: [{ message: "a source document" }],
    },
    {
      index: "analyze_sample",
      body: {
        mappings: {
          properties: {
            obj1: { properties: { field1: { type: "text", analyzer: "whitespace" } } },
          },
        },
      },
      docs: [],
    },
  ];
  const step = (method: string, path: string, body?: string, ndjson = false): Step => ({
    kind: "seed",
    method,
    path,
    ...(body === undefined ? {} : { body }),
    ...(ndjson ? { contentType: "application/x-ndjson" } : {}),
    repeatable: false,
    plumbing: true,
  });
  return seeds.map(({ index, body, docs }) => [
    step("PUT", `/${index}`, JSON.stringify(body)),
    ...(docs.length
      ? [
        step(
          "POST",
          `/${index}/_bulk?refresh=true`,
          docs.map((d, i) => `{"index":{"_id":"${i}"}}\n${JSON.stringify(d)}\n`).join(""),
          true,
        ),
      ]
      : []),
  ]);
}

/**
 * Deletes the generated corpus's indices (`diff-*`), or with `all` every index but the system ones
 * and every template (the spec and YAML corpora name indices of their own); by name, since
 * wildcard deletes may be refused.
 */
async function wipe(url: string, all = false): Promise<void> {
  const side = { url: url.replace(/\/$/, ""), vars: new Map<string, string>() };
  const get = (path: string) =>
    send(side, { kind: "wipe", method: "GET", path, repeatable: false });
  const r = await get("/_cat/indices?format=json&h=index&expand_wildcards=all");
  let names: string[] = [];
  try {
    names = (JSON.parse(r.text) as Array<{ index: string }>).map((x) => x.index)
      .filter((n) => n && !n.startsWith(".") && (all || n.startsWith("diff-")));
  } catch { /* nothing to delete */ }
  for (let i = 0; i < names.length; i += 50) {
    const list = names.slice(i, i + 50).map(encodeURIComponent).join(",");
    await send(side, {
      kind: "wipe",
      method: "DELETE",
      path: `/${list}?expand_wildcards=all`,
      repeatable: false,
    });
  }
  // Component templates last: an index template still using one keeps it from being deleted.
  for (const p of all ? ["/_index_template/*", "/_template/*", "/_component_template/*"] : []) {
    await send(side, { kind: "wipe", method: "DELETE", path: p, repeatable: false });
  }
  if (all) {
    // The spec examples change cluster settings (action.auto_create_index…): put them all back.
    const r = await get("/_cluster/settings?flat_settings=true");
    try {
      const { persistent = {}, transient = {} } = JSON.parse(r.text) as {
        persistent?: Record<string, unknown>;
        transient?: Record<string, unknown>;
      };
      const reset = (o: Record<string, unknown>) =>
        Object.fromEntries(Object.keys(o).map((k) => [k, null]));
      await send(side, {
        kind: "wipe",
        method: "PUT",
        path: "/_cluster/settings",
        body: JSON.stringify({ persistent: reset(persistent), transient: reset(transient) }),
        repeatable: false,
      });
    } catch { /* no settings to put back */ }
  }
}

/**
 * The real engine's node as it names itself (`node.name`, `cluster.name`, its ids and transport
 * address): the embedded engine is built with the same identity, as it claims the same version,
 * so that answers keyed or listed by node id (`_search_shards`, the cluster state's voting
 * configuration, `_cat/nodes`) compare on what they hold. Undefined when the real engine does not
 * say (an older one, a cluster of several nodes).
 */
async function realNode(url: string): Promise<NodeIdentity | undefined> {
  const r = await send({ url, vars: new Map() }, {
    kind: "probe",
    method: "GET",
    path: "/_cluster/state/nodes?filter_path=cluster_name,nodes.*.name," +
      "nodes.*.ephemeral_id,nodes.*.transport_address",
    repeatable: false,
  });
  try {
    const { cluster_name: clusterName, nodes = {} } = JSON.parse(r.text) as {
      cluster_name?: string;
      nodes?: Record<string, { name?: string; ephemeral_id?: string; transport_address?: string }>;
    };
    const ids = Object.keys(nodes);
    if (ids.length !== 1) return undefined;
    const node = nodes[ids[0]!]!;
    return {
      id: ids[0],
      name: node.name,
      ephemeralId: node.ephemeral_id,
      transportAddress: node.transport_address,
      clusterName,
    };
  } catch {
    return undefined;
  }
}

/**
 * How many times the specification examples run on the real engine. Twice tells a request whose
 * answer varies from one whose answer the engine gets wrong, but a random choice among three
 * shards (where a document indexed without an id lands, where a document given in a term vectors
 * request is scored) agrees with itself over two runs one time in three, and its answer then
 * counts as the engine's difference; over three runs one time in nine.
 */
const SPEC_RUNS = 3;

const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/**
 * An embedded engine standing in for the real one: its version, its node's identity, and for
 * each document written without an id the id the real engine generated for it (the replay fills
 * `ids` step by step; a random one when the real engine generated none).
 */
function mirrorEngine(flavour: Flavour, node: NodeIdentity | undefined) {
  const ids: string[] = [];
  const random = () =>
    [...crypto.getRandomValues(new Uint8Array(20))].map((b) => ID_ALPHABET[b & 63]).join("");
  const engine = new Engine({
    flavour,
    version: REAL_VERSIONS[flavour],
    node,
    ids: () => ids.shift() ?? random(),
    log: () => {},
  });
  return { engine, ids };
}

/**
 * The specification examples, replayed {@link SPEC_RUNS} times from a clean state (every index,
 * template and cluster setting wiped before each run; each later run against a fresh embedded
 * engine): a request whose real answers differ between runs is unstable, as in the YAML and
 * clients corpora.
 */
async function specRuns(
  realUrl: string,
  engineUrl: string,
  opts: { flavour: Flavour; node: NodeIdentity | undefined; runs: number; ids: string[] },
): Promise<Exchange[]> {
  const { flavour, node } = opts;
  const items = await specCorpus();
  const how = {
    corpus: "spec",
    partialOracle: flavour === "elasticsearch",
    setAsideBoth404: true,
  };
  await wipe(realUrl, true);
  await wipe(engineUrl, true);
  let settled = await replay(items, realUrl, engineUrl, { ...how, ids: opts.ids });
  for (let run = 1; run < opts.runs; run++) {
    const { engine, ids } = mirrorEngine(flavour, node);
    const server = await serve(engine, { port: 0 });
    try {
      await wipe(realUrl, true);
      settled = settleRuns(settled, await replay(items, realUrl, server.url, { ...how, ids }));
    } finally {
      await server.close();
      engine.close();
    }
  }
  return settled;
}

async function runFlavour(
  flavour: Flavour,
  realUrl: string,
  corpora: Set<string>,
  seed: number,
  count: number,
  docs: number,
  kind?: string,
): Promise<Exchange[]> {
  const probe = await send({ url: realUrl, vars: new Map() }, {
    kind: "probe",
    method: "GET",
    path: "/_cluster/health",
    repeatable: false,
  });
  if (probe.status === 0) die(`the real ${flavour} at ${realUrl} does not answer: ${probe.text}`);
  const node = await realNode(realUrl);
  const { engine, ids } = mirrorEngine(flavour, node);
  const server = await serve(engine, { port: 0 });
  const records: Exchange[] = [];
  try {
    const partialOracle = flavour === "elasticsearch";
    if (corpora.has("generated")) {
      await wipe(realUrl);
      await wipe(server.url);
      const wanted = requests(seed, count, flavour).filter((item) =>
        kind === undefined || item.some((step) => step.kind.includes(kind))
      );
      const items = [...setup(seed, docs, flavour), ...wanted];
      records.push(
        ...await replay(items, realUrl, server.url, { corpus: "generated", partialOracle, ids }),
      );
    }
    if (corpora.has("spec") && flavour === "elasticsearch") {
      records.push(
        ...await specRuns(realUrl, server.url, { flavour, node, runs: SPEC_RUNS, ids }),
      );
    }
    // The clients tests are Elastic's (Elasticsearch only); OpenSearch's YAML tests run on both.
    for (const corpus of ["clients", "yaml"] as const) {
      if (!corpora.has(corpus) || (corpus === "clients" && flavour !== "elasticsearch")) continue;
      await wipe(realUrl, true);
      await wipe(server.url, true);
      const got = await yamlCorpus(
        corpus,
        flavour,
        REAL_VERSIONS[flavour],
        realUrl,
        server.url,
        partialOracle,
      );
      if (got) records.push(...got);
      else console.log(`diff: ${flavour}: the conformance runner is absent; ${corpus} not run`);
    }
    await wipe(realUrl, corpora.has("spec") || corpora.has("yaml") || corpora.has("clients"));
  } finally {
    await server.close();
    engine.close();
  }
  return records;
}

if (import.meta.main) {
  const short = Deno.args.includes("--short");
  const seed = Number(arg("--seed") ?? 1);
  const count = Number(arg("--requests") ?? (short ? 300 : 5000));
  const docs = Number(arg("--docs") ?? 60);
  const show = Number(arg("--show") ?? 40);
  const corpora = new Set(
    (arg("--corpus") ?? (short ? "generated" : "generated,spec,clients,yaml")).split(","),
  );
  const wanted = arg("--flavour") ?? "both";
  const urls: { [f in Flavour]: string | undefined } = {
    elasticsearch: arg("--es") ?? Deno.env.get("ELASTICSEARCH_URL"),
    opensearch: arg("--os") ?? Deno.env.get("OPENSEARCH_URL"),
  };
  const flavours = (["elasticsearch", "opensearch"] as const).filter((f) =>
    wanted === "both" || wanted === f
  );
  if (!flavours.length) die(`--flavour must be elasticsearch, opensearch or both, not ${wanted}`);
  const missing = flavours.filter((f) => !urls[f]);
  if (short && missing.length) {
    die(
      `no real engine for ${missing.join(", ")}: set ${
        missing.map((f) => f === "elasticsearch" ? "ELASTICSEARCH_URL" : "OPENSEARCH_URL").join(
          " and ",
        )
      }`,
    );
  }
  const floors = JSON.parse(
    await Deno.readTextFile(new URL("./floor.json", import.meta.url)),
  ) as { [f in Flavour]: number };
  const byFlavour = new Map<Flavour, Exchange[]>();
  let below = false;
  for (const flavour of flavours) {
    const url = urls[flavour];
    if (!url) {
      console.log(
        `diff: ${flavour}: no real engine (give --${
          flavour === "elasticsearch" ? "es" : "os"
        } URL); skipped`,
      );
      continue;
    }
    const records = await runFlavour(flavour, url, corpora, seed, count, docs, arg("--kind"));
    byFlavour.set(flavour, records);
    console.log(render(`${flavour} ${REAL_VERSIONS[flavour]}`, records, show));
    const t = tally(records);
    if (short && rate(t) < floors[flavour]) {
      below = true;
      console.error(
        `diff: ${flavour}: identical rate ${(100 * rate(t)).toFixed(1)}% of ${
          compared(t)
        } is below the floor ${(100 * floors[flavour]).toFixed(1)}% (tests/diff/floor.json)`,
      );
    }
  }
  for (const [flavour, rs] of byFlavour) console.log(line(`summary ${flavour}`, tally(rs)));
  const json = arg("--json");
  if (json) {
    const lines = [...byFlavour].flatMap(([flavour, rs]) =>
      rs.map((r) => JSON.stringify({ flavour, ...r }))
    );
    await Deno.writeTextFile(json, lines.join("\n") + "\n");
  }
  Deno.exit(below ? 1 : 0);
}
