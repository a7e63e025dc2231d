// The backend of the behaviour suite (the end-to-end tests listed in tests/README.md): the
// embedded engine, or the real cluster named by `ES_URL`.
//
// - `ES_URL` unset: each test gets a fresh `Engine` served over real HTTP on a loopback port
//   (`serve(new Engine(options), { port: 0 })`), closed after the test.
// - `ES_URL` set (`http://127.0.0.1:9200`, user info allowed): each test gets that cluster.
//
// Tests run in parallel (`deno test --parallel` runs modules side by side), so every index a test
// makes carries a prefix unique to the module's run (`sv<random>-`), and one unique to the test
// (`sv<random>-<n>-`) when it asks `t.index(name)`. After each test the helper deletes, by exact
// name, the indices whose names start with the module's prefix — only what this module made; never
// `*` or `_all`.
//
// A test that needs what some backend lacks names the capability (`requires: ["painless"]`) and
// is reported as ignored where it is missing. Capabilities of a real cluster are read once per
// module from the server itself (`GET /_nodes/plugins`: its modules and plugins, and its
// version); the embedded engine implements all of them (see EMBEDDED below).
//
// `SV_TRANSPORT` chooses what the data sources send their requests with: `fetch` (the runtime's
// own, the default), `fetch_deno` (contrib/fetch_deno) or `fetch_node` (contrib/fetch_node). An
// adapter is made per test and closed after it; `t.fetch` is the same transport, for tests that
// wrap it. The plain requests of `t.call` and of the helper itself stay on the runtime's fetch.
import { DataSource, type DataSourceOptions, type FetchFunction } from "../../driver/mod.ts";
import { Engine, type EngineOptions, serve } from "../../engine/mod.ts";

/** What a test may need that not every backend has. */
export type Capability =
  /** `_update_by_query`, `_delete_by_query` (module reindex). */
  | "by-query"
  /** `GET /`, the cluster's name and version (module rest-root in Elasticsearch 9). */
  | "root-info"
  /** `_reindex` (module reindex). */
  | "reindex"
  /** Painless scripts (module lang-painless): scripted updates, script_score, script fields. */
  | "painless"
  /** The common analysers, tokenizers and filters (module analysis-common). */
  | "analysis-common"
  /** Search templates, `_render/template` (module lang-mustache). */
  | "search-templates"
  /** The `unsigned_long` field type. */
  | "unsigned_long"
  /** The `scaled_float` field type (module mapper-extras). */
  | "scaled_float"
  /** The `wildcard` field type. */
  | "wildcard"
  /** The `geo_shape` field type. */
  | "geo_shape"
  /** The `join` field type (module parent-join). */
  | "join"
  /** The `auto_date_histogram` aggregation. */
  | "auto_date_histogram"
  /** The `moving_fn` pipeline aggregation. */
  | "moving_fn"
  /** The `bucket_selector` pipeline aggregation. */
  | "bucket_selector"
  /** The `multi_terms` aggregation. */
  | "multi_terms"
  /** The `top_metrics` aggregation. */
  | "top_metrics"
  /** Elasticsearch's `dense_vector` field and top-level `knn` search section. */
  | "knn-section"
  /** OpenSearch's `knn_vector` field and `knn` query (the k-NN plugin). */
  | "knn-query"
  /** A point in time opened with `POST /{index}/_pit` (Elasticsearch 7.12+, as the driver counts). */
  | "pit-es"
  /** A point in time opened with `POST /{index}/_search/point_in_time` (OpenSearch 2.4+). */
  | "pit-opensearch"
  /** No point in time (Elasticsearch before 7.12, OpenSearch before 2.4): streams scroll. */
  | "no-pit"
  /**
   * `exists` on a `text` field counts (`hits.total`, `_count`) the documents it returns, those
   * holding `""` included. OpenSearch 3.8 returns them but counts only values with tokens: a
   * defect of the server, found by a probe (see `probeExistsCount`), not by a module name.
   */
  | "exists-count";

/** The backend the suite runs against. */
export interface BackendInfo {
  /** `embedded` (the project's engine, one per test) or `real` (the `ES_URL` cluster). */
  kind: "embedded" | "real";
  flavour: "elasticsearch" | "opensearch";
  /** The version the server reports, e.g. `9.5.4`. */
  version: string;
  /** Its major version. */
  major: number;
  /** What this backend has. */
  capabilities: ReadonlySet<Capability>;
}

/** A plain reply: its status and parsed JSON body (loosely typed for assertions). */
// deno-lint-ignore no-explicit-any
export type PlainReply = { status: number; body: any };

/** A module or plugin, as `GET /_nodes/plugins` lists it. */
interface Component {
  name?: string;
  classname?: string;
}

/** Per capability: the module/plugin names (or class names) that provide it, per flavour. */
const PROVIDERS: Partial<Record<Capability, readonly RegExp[]>> = {
  "by-query": [/^reindex$/, /\.ReindexModulePlugin$/, /\.ReindexPlugin$/],
  "reindex": [/^reindex$/, /\.ReindexModulePlugin$/, /\.ReindexPlugin$/],
  "painless": [/^lang-painless$/, /\.PainlessModulePlugin$/, /\.PainlessPlugin$/],
  "analysis-common": [
    /^analysis-common$/,
    /\.CommonAnalysisModulePlugin$/,
    /\.CommonAnalysisPlugin$/,
  ],
  "search-templates": [/^lang-mustache$/, /\.MustacheModulePlugin$/, /\.MustachePlugin$/],
  "scaled_float": [/^mapper-extras$/, /\.MapperExtrasModulePlugin$/, /\.MapperExtrasPlugin$/],
  "join": [/^parent-join$/, /\.ParentJoinModulePlugin$/, /\.ParentJoinPlugin$/],
};

/** Capabilities that Elasticsearch's modules (x-pack and others) bring. */
const ES_PROVIDERS: Partial<Record<Capability, readonly RegExp[]>> = {
  "root-info": [/^rest-root$/, /\.MainRestPlugin$/],
  "unsigned_long": [/^unsigned-long$/, /\.UnsignedLongMapperPlugin$/],
  "wildcard": [/^wildcard$/, /\.Wildcard$/],
  "geo_shape": [/^spatial$/, /^legacy-geo$/, /\.SpatialPlugin$/],
  "auto_date_histogram": [/^aggregations$/, /\.AggregationsPlugin$/],
  "moving_fn": [/^aggregations$/, /\.AggregationsPlugin$/],
  "bucket_selector": [/^aggregations$/, /\.AggregationsPlugin$/],
  "top_metrics": [/^x-pack-analytics$/, /\.AnalyticsPlugin$/],
  "multi_terms": [/^x-pack-analytics$/, /\.AnalyticsPlugin$/],
};

/** Capabilities that OpenSearch's modules and plugins bring (the rest are in its core). */
const OS_PROVIDERS: Partial<Record<Capability, readonly RegExp[]>> = {
  "geo_shape": [/^geo$/, /\.GeoModulePlugin$/],
  "knn-query": [/^opensearch-knn$/, /\.KNNPlugin$/],
};

function versionAtLeast(version: string, major: number, minor: number): boolean {
  const [a = 0, b = 0] = version.split(".").map((p) => parseInt(p, 10));
  return a > major || (a === major && b >= minor);
}

/** The capabilities of a real cluster from its flavour, version and components. */
export function capabilitiesOf(
  flavour: "elasticsearch" | "opensearch",
  version: string,
  components: readonly Component[],
): Set<Capability> {
  const has = (patterns: readonly RegExp[] | undefined) =>
    (patterns ?? []).some((p) =>
      components.some((c) => p.test(c.name ?? "") || p.test(c.classname ?? ""))
    );
  const caps = new Set<Capability>();
  const tables = [PROVIDERS, flavour === "elasticsearch" ? ES_PROVIDERS : OS_PROVIDERS];
  for (const table of tables) {
    for (const [cap, patterns] of Object.entries(table)) {
      if (has(patterns)) caps.add(cap as Capability);
    }
  }
  if (flavour === "elasticsearch") {
    if (versionAtLeast(version, 8, 0)) caps.add("knn-section");
    caps.add(versionAtLeast(version, 7, 12) ? "pit-es" : "no-pit");
    // `GET /` moved out of the server's core into the rest-root module in 8.x.
    if (!versionAtLeast(version, 8, 0)) caps.add("root-info");
  } else {
    // In OpenSearch's core: unsigned_long (2.8), wildcard (2.15), the date and pipeline aggs.
    if (versionAtLeast(version, 2, 8)) caps.add("unsigned_long");
    if (versionAtLeast(version, 2, 15)) caps.add("wildcard");
    caps.add("auto_date_histogram").add("moving_fn").add("bucket_selector");
    if (versionAtLeast(version, 2, 1)) caps.add("multi_terms");
    caps.add(versionAtLeast(version, 2, 4) ? "pit-opensearch" : "no-pit");
    caps.add("root-info");
  }
  return caps;
}

/**
 * What the embedded engine implements with `options`: every capability above, with the point in
 * time and vector search of the flavour it is started as.
 */
function embeddedCapabilities(options: EngineOptions): Set<Capability> {
  const flavour = options.flavour ?? "elasticsearch";
  const caps = new Set<Capability>([
    "exists-count",
    "root-info",
    "by-query",
    "reindex",
    "painless",
    "analysis-common",
    "search-templates",
    "unsigned_long",
    "scaled_float",
    "wildcard",
    "geo_shape",
    "join",
    "auto_date_histogram",
    "moving_fn",
    "bucket_selector",
    "top_metrics",
    "multi_terms",
    "knn-section",
    "knn-query",
  ]);
  const version = options.version;
  if (flavour === "opensearch") caps.add("pit-opensearch");
  else if (version !== undefined && !versionAtLeast(version, 7, 12)) caps.add("no-pit");
  else caps.add("pit-es");
  return caps;
}

/** `ES_URL` split into a base URL without credentials and an Authorization header. */
function realTarget(raw: string): { url: string; headers: Record<string, string> } {
  const u = new URL(raw);
  const headers: Record<string, string> = {};
  if (u.username !== "") {
    const user = decodeURIComponent(u.username);
    const pass = decodeURIComponent(u.password);
    headers.authorization = `Basic ${btoa(`${user}:${pass}`)}`;
    u.username = "";
    u.password = "";
  }
  return { url: u.href.replace(/\/$/, ""), headers };
}

/** The transports `SV_TRANSPORT` names. */
export const TRANSPORTS = ["fetch", "fetch_deno", "fetch_node"] as const;
/** What the suite's data sources send their requests with. */
export type TransportName = typeof TRANSPORTS[number];

/** `SV_TRANSPORT` checked: unset or empty is `fetch`; anything unknown is refused. */
export function transportName(raw: string | undefined): TransportName {
  if (raw === undefined || raw === "") return "fetch";
  const known = TRANSPORTS.find((t) => t === raw);
  if (known === undefined) {
    throw new Error(
      `SV_TRANSPORT=${raw}: unknown transport (one of ${TRANSPORTS.join(", ")}; unset is fetch)`,
    );
  }
  return known;
}

/** A transport of one test: its fetch (none for the runtime's own) and how to close it. */
interface TestTransport {
  fetch: FetchFunction | undefined;
  close(): void;
}

/** The factory of this run's transport (the adapters are loaded only when chosen). */
async function transportFactory(name: TransportName): Promise<() => TestTransport> {
  switch (name) {
    case "fetch":
      return () => ({ fetch: undefined, close: () => {} });
    case "fetch_deno": {
      const { denoFetch } = await import("../../contrib/fetch_deno.ts");
      return () => {
        const f = denoFetch();
        return { fetch: f, close: () => f.close() };
      };
    }
    case "fetch_node": {
      const { nodeFetch } = await import("../../contrib/fetch_node.ts");
      return () => {
        const f = nodeFetch();
        return { fetch: f, close: () => f.close() };
      };
    }
  }
}

/** The transport of this run (`SV_TRANSPORT`). */
export const TRANSPORT: TransportName = transportName(Deno.env.get("SV_TRANSPORT"));
const newTransport = await transportFactory(TRANSPORT);

const ES_URL = Deno.env.get("ES_URL") || undefined;
const REAL = ES_URL === undefined ? undefined : realTarget(ES_URL);

async function detect(): Promise<BackendInfo | undefined> {
  if (REAL === undefined) return undefined;
  const res = await fetch(`${REAL.url}/_nodes/plugins`, { headers: REAL.headers }).catch(
    (e: Error) => {
      throw new Error(`ES_URL=${REAL.url}: cannot reach the cluster (${e.message})`);
    },
  );
  if (!res.ok) {
    throw new Error(`ES_URL=${REAL.url}: GET /_nodes/plugins answered ${res.status}`);
  }
  const body = await res.json() as {
    nodes: Record<string, { version: string; modules?: Component[]; plugins?: Component[] }>;
  };
  const nodes = Object.values(body.nodes);
  const first = nodes[0];
  if (first === undefined) throw new Error(`ES_URL=${REAL.url}: no nodes in GET /_nodes/plugins`);
  const flavour = res.headers.get("x-elastic-product") === "Elasticsearch"
    ? "elasticsearch"
    : "opensearch";
  // A capability counts only where every node has it.
  let caps: Set<Capability> | undefined;
  for (const node of nodes) {
    const mine = capabilitiesOf(flavour, node.version, [
      ...(node.modules ?? []),
      ...(node.plugins ?? []),
    ]);
    caps = caps === undefined ? mine : new Set([...caps].filter((c) => mine.has(c)));
  }
  if (caps !== undefined && await probeExistsCount(REAL)) caps.add("exists-count");
  return {
    kind: "real",
    flavour,
    version: first.version,
    major: parseInt(first.version, 10),
    capabilities: caps ?? new Set(),
  };
}

/**
 * Whether `exists` on a `text` field counts what it returns: two documents (`""` and `"a"`) in
 * an index of the probe's own, `_count` against the hits of `_search`; the index is deleted.
 */
async function probeExistsCount(real: { url: string; headers: Record<string, string> }) {
  const index = `sv-probe-exists-${crypto.randomUUID().slice(0, 8)}`;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${real.url}/${index}${path}`, {
      method,
      headers: { ...real.headers, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`probe ${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  try {
    await call("PUT", "", { mappings: { properties: { t: { type: "text" } } } });
    await call("PUT", "/_doc/1?refresh=true", { t: "" });
    await call("PUT", "/_doc/2?refresh=true", { t: "a" });
    const query = { exists: { field: "t" } };
    const hits = await call("POST", "/_search", { query, track_total_hits: true });
    const count = await call("POST", "/_count", { query });
    return count.count === hits.hits.hits.length && hits.hits.total.value === count.count;
  } finally {
    await fetch(`${real.url}/${index}`, { method: "DELETE", headers: real.headers })
      .then((r) => r.body?.cancel());
  }
}

const REAL_INFO = await detect();

const embeddedInfos = new Map<string, BackendInfo>();

/** The backend of this run, as it is for a test started with `embedded` engine options. */
export function backendInfo(embedded: EngineOptions = {}): BackendInfo {
  if (REAL_INFO !== undefined) return REAL_INFO;
  const key = JSON.stringify([embedded.flavour, embedded.version]);
  let info = embeddedInfos.get(key);
  if (info === undefined) {
    const engine = new Engine(embedded);
    const version = engine.version;
    info = {
      kind: "embedded",
      flavour: engine.flavour,
      version,
      major: parseInt(version, 10),
      capabilities: embeddedCapabilities(embedded),
    };
    engine.close();
    embeddedInfos.set(key, info);
  }
  return info;
}

/** `true` when the suite runs against a real cluster (`ES_URL`). */
export const isReal: boolean = REAL_INFO !== undefined;

/** This module's run prefix: unique per process and module, so parallel runs never meet. */
const RUN_PREFIX = `sv${crypto.randomUUID().replaceAll("-", "").slice(0, 8)}`;
let testCount = 0;

/**
 * An index name unique to this module's run, for names fixed when a module loads (an entity's
 * `@Table`). Deleted after every test of the module, like the names of `t.index`.
 */
export function suiteIndex(name: string): string {
  return `${RUN_PREFIX}-${name}`;
}

/** What a test of the behaviour suite gets. */
export interface BackendScope {
  /** The backend's base URL (no credentials, no trailing slash). */
  url: string;
  /** Headers every request to it needs (the credentials of `ES_URL`, if any). */
  headers: Readonly<Record<string, string>>;
  /** The backend. */
  info: BackendInfo;
  /** `name` made unique to this test (`sv<random>-<n>-name`). */
  index(name: string): string;
  /**
   * A data source on the backend; `options` as for `DataSource` (`nodes` is set, and `fetch` is
   * the run's transport unless `options` names one).
   */
  dataSource(options?: Omit<DataSourceOptions, "nodes">): DataSource;
  /**
   * The run's transport (`SV_TRANSPORT`) as a fetch, for a test that wraps the data source's
   * fetch (to count or alter requests) and must still send them over that transport.
   */
  fetch: FetchFunction;
  /** A plain request to the backend: the parsed JSON reply and its status. */
  call(method: string, path: string, body?: unknown): Promise<PlainReply>;
}

/** Options of a behaviour test. */
export interface BackendTestOptions {
  /** What the test needs; it is ignored on a backend that lacks any of it. */
  requires?: readonly Capability[];
  /** Options for the embedded engine (flavour, version, refresh interval); unused on real ones. */
  embedded?: EngineOptions;
}

/**
 * Registers a test of the behaviour suite: `fn` runs against the backend of this run, and the
 * indices it made are deleted afterwards.
 */
export function backendTest(
  name: string,
  optionsOrFn: BackendTestOptions | ((t: BackendScope) => Promise<void>),
  maybeFn?: (t: BackendScope) => Promise<void>,
): void {
  const options = typeof optionsOrFn === "function" ? {} : optionsOrFn;
  const fn = typeof optionsOrFn === "function" ? optionsOrFn : maybeFn!;
  const info = backendInfo(options.embedded);
  const missing = (options.requires ?? []).filter((c) => !info.capabilities.has(c));
  Deno.test({
    name,
    ignore: missing.length > 0,
    fn: async () => {
      const engine = REAL === undefined ? new Engine(options.embedded) : undefined;
      const server = engine ? await serve(engine, { port: 0 }) : undefined;
      const url = REAL?.url ?? server!.url.replace(/\/$/, "");
      const headers = REAL?.headers ?? {};
      const testPrefix = `${RUN_PREFIX}-${++testCount}-`;
      const transport = newTransport();
      const transportFetch: FetchFunction = transport.fetch ??
        ((input, init) => globalThis.fetch(input, init));
      const call = async (method: string, path: string, body?: unknown): Promise<PlainReply> => {
        const init: RequestInit = { method, headers: { ...headers } };
        if (body !== undefined) {
          const ndjson = typeof body === "string";
          (init.headers as Record<string, string>)["content-type"] = ndjson
            ? "application/x-ndjson"
            : "application/json";
          init.body = ndjson ? body : JSON.stringify(body);
        }
        const res = await fetch(`${url}${path}`, init);
        const text = await res.text();
        return { status: res.status, body: text === "" ? {} : JSON.parse(text) };
      };
      const scope: BackendScope = {
        url,
        headers,
        info,
        index: (n) => testPrefix + n,
        dataSource: (o = {}) =>
          new DataSource({
            ...(transport.fetch === undefined ? {} : { fetch: transport.fetch }),
            ...o,
            nodes: [url],
            ...(Object.keys(headers).length > 0 && o.auth === undefined
              ? { headers: { ...headers, ...o.headers } }
              : {}),
          } as DataSourceOptions),
        call,
        fetch: transportFetch,
      };
      try {
        await fn(scope);
      } finally {
        try {
          await cleanUp(call);
        } finally {
          transport.close();
          await server?.close();
          engine?.close();
        }
      }
    },
  });
}

/** Deletes, by exact name, every index of this module's run (never a wildcard delete). */
async function cleanUp(
  call: (method: string, path: string) => Promise<PlainReply>,
): Promise<void> {
  const listed = await call(
    "GET",
    `/_cat/indices/${RUN_PREFIX}-*?h=index&format=json&expand_wildcards=all`,
  );
  if (listed.status !== 200) {
    throw new Error(`cleaning up: GET /_cat/indices answered ${listed.status}`);
  }
  const names = (listed.body as { index: string }[]).map((r) => r.index)
    .filter((n) => n.startsWith(`${RUN_PREFIX}-`));
  for (let i = 0; i < names.length; i += 50) {
    const batch = names.slice(i, i + 50).map(encodeURIComponent).join(",");
    const res = await call("DELETE", `/${batch}?ignore_unavailable=true`);
    if (res.status !== 200) {
      throw new Error(`cleaning up: DELETE /${batch} answered ${res.status}`);
    }
  }
}
