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

import { Engine, serve } from "../../engine/mod.ts";
import { type Flavour, type Item, requests, setup, type Step } from "./generate.ts";
import { type Exchange, replay, send } from "./replay.ts";
import { compared, line, rate, render, tally } from "./report.ts";
import { yamlCorpus } from "./yaml.ts";

/** The real node's `node.name` and transport (publish) address, from `_nodes/_local`. */
async function realNode(
  realUrl: string,
): Promise<{ name: string; transportAddress: string } | undefined> {
  const got = await send({ url: realUrl, vars: new Map() }, {
    kind: "probe",
    method: "GET",
    path: "/_nodes/_local?filter_path=nodes.*.name,nodes.*.transport_address",
    repeatable: false,
  });
  if (got.status !== 200) return undefined;
  const nodes = (JSON.parse(got.text) as {
    nodes?: Record<string, { name?: string; transport_address?: string }>;
  }).nodes;
  const [one] = Object.values(nodes ?? {});
  if (typeof one?.name !== "string" || typeof one.transport_address !== "string") return undefined;
  return { name: one.name, transportAddress: one.transport_address };
}

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
  // The embedded engine is configured as the real node is: its version, and the name and
  // transport address the node was started with (settings, not values the node generated).
  const node = await realNode(realUrl);
  const engine = new Engine({ flavour, version: REAL_VERSIONS[flavour], node, log: () => {} });
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
        ...await replay(items, realUrl, server.url, { corpus: "generated", partialOracle }),
      );
    }
    if (corpora.has("spec") && flavour === "elasticsearch") {
      await wipe(realUrl, true);
      await wipe(server.url, true);
      records.push(
        ...await replay(await specCorpus(), realUrl, server.url, {
          corpus: "spec",
          partialOracle,
          setAsideBoth404: true,
        }),
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
