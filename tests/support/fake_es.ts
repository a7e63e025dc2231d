// An Elasticsearch-shaped fake `fetch` for tests: it records every request and answers with the
// response shapes of the Elasticsearch documentation. By default every document exists and every
// write succeeds; a test declares the edge cases it needs with `FakeBehaviours` (which ids are
// missing, which updates are noops, which creates conflict, which bulk items fail).
// Used only by tests.

/** The edge cases a test declares: each names the document ids (or index names) it applies to. */
export interface FakeBehaviours {
  /** Documents (and, for HEAD, indices) that do not exist: 404 on get, delete and HEAD, `not_found` in bulk. */
  readonly missing?: readonly string[];
  /** Documents whose update changes nothing: `result: "noop"`, single or in bulk. */
  readonly noop?: readonly string[];
  /** Documents that already exist: `_create` answers 409 version_conflict_engine_exception. */
  readonly conflict?: readonly string[];
  /** Bulk items that fail with 404 document_missing_exception (and `errors: true`). */
  readonly failingBulkItems?: readonly string[];
}

interface Behaviours {
  readonly missing: ReadonlySet<string>;
  readonly noop: ReadonlySet<string>;
  readonly conflict: ReadonlySet<string>;
  readonly failingBulkItems: ReadonlySet<string>;
}

/** One request as the fake saw it. */
export interface RecordedRequest {
  method: string;
  url: string;
  /** Path and query, e.g. `/idx/_doc/1?refresh=true`. */
  path: string;
  headers: Headers;
  /** The body as text (gunzipped when it was compressed). */
  body: string | undefined;
}

/** Answers one request, or returns undefined to fall through to the defaults. */
export type Responder = (
  req: RecordedRequest,
  init: RequestInit,
) => Response | undefined | Promise<Response | undefined>;

const SHARDS = { total: 2, successful: 1, failed: 0 };

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json" },
  });
}

/** A recording fake of an Elasticsearch 8 cluster. */
export class FakeEs {
  /** Every request, in order. */
  readonly requests: RecordedRequest[] = [];
  readonly #responders: Responder[] = [];
  readonly #behaviours: Behaviours;
  #generated = 0;

  /** Creates a fake; `behaviours` declares the edge cases the test relies on. */
  constructor(behaviours: FakeBehaviours = {}) {
    this.#behaviours = {
      missing: new Set(behaviours.missing),
      noop: new Set(behaviours.noop),
      conflict: new Set(behaviours.conflict),
      failingBulkItems: new Set(behaviours.failingBulkItems),
    };
  }

  /** Adds a responder tried before the others (the last added first). */
  on(responder: Responder): this {
    this.#responders.unshift(responder);
    return this;
  }

  /** The fetch to inject. */
  readonly fetch = async (url: string, init: RequestInit = {}): Promise<Response> => {
    const u = new URL(url);
    const headers = new Headers(init.headers);
    let body: string | undefined;
    if (init.body !== undefined && init.body !== null) {
      body = headers.get("content-encoding") === "gzip"
        ? await gunzip(init.body as Uint8Array<ArrayBuffer>)
        : String(init.body);
    }
    const req: RecordedRequest = {
      method: init.method ?? "GET",
      url,
      path: u.pathname + u.search,
      headers,
      body,
    };
    this.requests.push(req);
    for (const responder of this.#responders) {
      const answer = await responder(req, init);
      if (answer) return answer;
    }
    return this.#answer(req, u);
  };

  #answer(req: RecordedRequest, u: URL): Response {
    const s = u.pathname.split("/").filter((x) => x !== "").map(decodeURIComponent);
    const last = s.at(-1) ?? "";
    const m = req.method;
    if (s.length === 0) {
      return json({
        name: "node-1",
        cluster_name: "fake",
        version: { number: "8.15.0", build_flavor: "default" },
        tagline: "You Know, for Search",
      });
    }
    if (m === "HEAD") {
      return new Response(null, { status: this.#behaviours.missing.has(s[0]!) ? 404 : 200 });
    }
    if (s[0] === "_cat") return this.#cat(s[1]);
    if (last === "_search") return json(searchResponse());
    if (last === "_msearch") {
      const lines = (req.body ?? "").split("\n").filter((l) => l.trim() !== "");
      return json({ took: 3, responses: lines.filter((_, i) => i % 2 === 1).map(searchResponse) });
    }
    if (last === "_count") return json({ count: 7, _shards: SHARDS });
    if (last === "_mget") {
      return json({
        docs: [
          { _index: "idx", _id: "1", _version: 1, found: true, _source: { a: 1 } },
          { _index: "idx", _id: "9", found: false },
        ],
      });
    }
    if (last === "_bulk") return json(bulkResponse(req.body ?? "", this.#behaviours));
    if (last === "_update_by_query") return json({ took: 5, total: 3, updated: 3, failures: [] });
    if (last === "_delete_by_query") return json({ took: 5, total: 2, deleted: 2, failures: [] });
    if (last === "_reindex") return json({ took: 9, total: 5, created: 5, updated: 0 });
    if (last === "_mapping" && m === "GET") return json(MAPPING);
    if (last === "_settings" && m === "GET") return json(SETTINGS);
    if (last === "_aliases" && m === "GET") return json(ALIASES);
    if (s.length === 1 && m === "GET") return json({ [s[0]!]: { aliases: {}, ...MAPPING.idx } });
    if (s.length === 1 || (last.startsWith("_") && last !== "_doc")) {
      return json({ acknowledged: true });
    }
    return this.#document(m, s);
  }

  #document(m: string, [index, api, id]: string[]): Response {
    const b = this.#behaviours;
    const meta = (id: string, result: string, version = 1) => ({
      _index: index,
      _id: id,
      _version: version,
      result,
      _shards: SHARDS,
      _seq_no: 0,
      _primary_term: 1,
    });
    if (api === "_doc" && m === "GET") {
      if (b.missing.has(id!)) return json({ _index: index, _id: id, found: false }, 404);
      return json({ ...meta(id!, ""), result: undefined, found: true, _source: { name: "alice" } });
    }
    if (api === "_source" && m === "GET") return json({ name: "alice" });
    if (api === "_doc" && m === "DELETE") {
      return json(
        meta(id!, b.missing.has(id!) ? "not_found" : "deleted", 2),
        b.missing.has(id!) ? 404 : 200,
      );
    }
    if (api === "_update") return json(meta(id!, b.noop.has(id!) ? "noop" : "updated", 2));
    if (id !== undefined && b.conflict.has(id)) return json(conflict(id), 409);
    return json(meta(id ?? `gen-${++this.#generated}`, "created"), 201);
  }

  #cat(name: string | undefined): Response {
    if (name === "indices") {
      return json([{
        health: "yellow",
        status: "open",
        index: "idx",
        uuid: "u1",
        pri: "1",
        rep: "1",
        "docs.count": "2",
        "docs.deleted": "0",
        "store.size": "5kb",
        "pri.store.size": "5kb",
      }]);
    }
    return json([{ shard: "0", prirep: "p", state: "STARTED", index: "idx" }]);
  }
}

/** A search response with two hits, `hits.total` as an object and aggregations. */
export function searchResponse(): Record<string, unknown> {
  return {
    took: 4,
    timed_out: false,
    _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
    hits: {
      total: { value: 2, relation: "eq" },
      max_score: 1,
      hits: [
        { _index: "idx", _id: "1", _score: 1, _source: { name: "alice", age: 30 } },
        { _index: "idx", _id: "2", _score: 1, _source: { name: "bob", tags: ["a"] } },
      ],
    },
    aggregations: { ages: { value: 30 } },
  };
}

function bulkResponse(body: string, b: Behaviours): Record<string, unknown> {
  const lines = body.split("\n").filter((l) => l.trim() !== "");
  const items: Record<string, unknown>[] = [];
  let errors = false;
  for (let i = 0; i < lines.length; i++) {
    const action = JSON.parse(lines[i]!) as Record<string, Record<string, unknown>>;
    const [name, meta] = Object.entries(action)[0]!;
    if (name !== "delete") i++;
    const id = String(meta._id ?? `bulk-${i}`);
    if (b.failingBulkItems.has(id)) {
      errors = true;
      items.push({
        [name]: {
          _index: meta._index,
          _id: id,
          status: 404,
          error: {
            type: "document_missing_exception",
            reason: `[${id}]: document missing`,
            index: meta._index,
          },
        },
      });
      continue;
    }
    const result = name === "delete" ? (b.missing.has(id) ? "not_found" : "deleted") : name ===
        "update"
      ? (b.noop.has(id) ? "noop" : "updated")
      : "created";
    const status = result === "created" ? 201 : result === "not_found" ? 404 : 200;
    items.push({
      [name]: { _index: meta._index, _id: id, _version: 1, result, _shards: SHARDS, status },
    });
  }
  return { took: 7, errors, items };
}

async function gunzip(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return await new Response(stream).text();
}

/** The 409 body Elasticsearch answers a `_create` of an existing document with. */
function conflict(id: string): Record<string, unknown> {
  const cause = {
    type: "version_conflict_engine_exception",
    reason: `[${id}]: version conflict, document already exists (current version [1])`,
    index_uuid: "u1",
    shard: "0",
    index: "idx",
  };
  return { error: { root_cause: [cause], ...cause }, status: 409 };
}

const MAPPING = {
  idx: {
    mappings: {
      properties: {
        name: { type: "text", fields: { keyword: { type: "keyword", ignore_above: 256 } } },
        age: { type: "long" },
        address: { properties: { city: { type: "keyword" } } },
      },
    },
  },
};

const SETTINGS = {
  idx: {
    settings: {
      index: {
        number_of_shards: "1",
        number_of_replicas: "1",
        provided_name: "idx",
        routing: { allocation: { include: { _tier_preference: "data_content" } } },
      },
    },
  },
};

const ALIASES = { idx: { aliases: { current: {}, everything: { filter: { match_all: {} } } } } };
