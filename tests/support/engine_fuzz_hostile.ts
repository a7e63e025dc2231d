// The fuzzer's hostile corpus: one generator per shape that once froze, exhausted or fooled the
// engine (dot segments in paths, filter_path with many `**`, many ranges, highlight and phrase
// parameters over long fields, deep nesting, bulk sizes). Each request is well formed enough to
// reach the work it targets; the fuzzer holds every one to its per-request budget and watches the
// heap. Path requests carry a check: the index they must not reach still exists afterwards.

import type { FuzzRequest } from "./engine_fuzz_gen.ts";
import type { Rng } from "./engine_fuzz_json.ts";

/** A hostile request and, for path shapes, what must still hold after it. */
export interface HostileRequest extends FuzzRequest {
  /** The shape it comes from (for the figures). */
  shape: string;
  /** A request that must answer `status` afterwards (the canary index is still there). */
  check?: { request: FuzzRequest; status: number };
}

const JSON_TYPE = { "content-type": "application/json" };

/** Words of the long text documents: `a`/`b` alternate, every fifth is `fox`. */
function longText(words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(i % 5 === 4 ? "fox" : i % 2 ? "b" : "a");
  return out.join(" ");
}

/** The long documents the hostile shapes run over (indexed once per fresh engine). */
export function hostileSeed(words = 100_000): FuzzRequest[] {
  return [
    { method: "PUT", path: "/canary", headers: JSON_TYPE, body: "{}" },
    {
      method: "PUT",
      path: "/long",
      headers: JSON_TYPE,
      body: JSON.stringify({
        mappings: { properties: { t: { type: "text" }, n: { type: "long" }, d: { type: "date" } } },
      }),
    },
    {
      method: "PUT",
      path: "/long/_doc/1?refresh=true",
      headers: JSON_TYPE,
      body: JSON.stringify({ t: longText(words), n: 1, d: 0 }),
    },
  ];
}

const DOTS = ["%2e%2e", "%2E%2E", "%2e.", ".%2e", "..", ".", "%2e", "%252e%252e", "%2f", "%5c"];

function paths(rng: Rng): HostileRequest {
  const ups = Array.from({ length: 1 + rng.int(4) }, () => rng.pick(DOTS)).join("/");
  const tail = rng.pick(["canary", "canary/_doc/1", "_all", "*", ""]);
  const path = rng.pick([
    `/long/_doc/${ups}`,
    `/long/_doc/${ups}/${tail}`,
    `/long/${ups}/${tail}`,
    `/${ups}/${tail}`,
    `/long/_update/${ups}`,
    `/long/_create/${ups}`,
  ]);
  const method = rng.pick(["DELETE", "DELETE", "PUT", "POST", "GET", "HEAD"]);
  return {
    shape: "path segments",
    method,
    path,
    headers: JSON_TYPE,
    body: method === "PUT" || method === "POST" ? '{"a":1}' : undefined,
    check: { request: { method: "HEAD", path: "/canary", headers: {} }, status: 200 },
  };
}

function filterPath(rng: Rng): HostileRequest {
  const n = 1 + rng.int(60);
  const segments = Array.from({ length: n }, () => rng.pick(["**", "**", "*", "hits", "_source"]));
  const one = segments.join(".") + rng.pick(["", ".t", ".n", ".*"]);
  const many = Array.from({ length: 1 + rng.int(20) }, () => (rng.chance(0.5) ? "-" : "") + one);
  return {
    shape: "filter_path",
    method: "GET",
    path: `/long,idx/_search?filter_path=${encodeURIComponent(many.join(","))}`,
    headers: JSON_TYPE,
  };
}

function ranges(rng: Rng, scale: number): HostileRequest {
  const n = Math.max(1, Math.round(rng.pick([1_000, 10_000, 50_000, 65_000]) * scale));
  const date = rng.chance(0.5);
  const list = Array.from({ length: n }, (_, i) => {
    const from = rng.chance(0.1) ? undefined : rng.int(n);
    const to = rng.chance(0.1) ? undefined : (from ?? 0) + rng.int(n);
    return {
      ...(from === undefined ? {} : { from }),
      ...(to === undefined ? {} : { to }),
      ...(i % 997 === 0 ? { key: `k${i}` } : {}),
    };
  });
  const agg = {
    [date ? "date_range" : "range"]: {
      field: date ? "d" : "n",
      ranges: list,
      keyed: rng.chance(0.2),
    },
  };
  const withSub = rng.chance(0.3) ? { aggs: { m: { max: { field: "n" } } } } : {};
  return {
    shape: "many ranges",
    method: "POST",
    path: "/idx,long/_search?size=0&filter_path=took",
    headers: JSON_TYPE,
    body: JSON.stringify({ aggs: { r: { ...agg, ...withSub } } }),
  };
}

function highlight(rng: Rng): HostileRequest {
  const field = {
    fragment_size: rng.pick([1, 5, 20, 100, 1000]),
    number_of_fragments: rng.pick([0, 1, 5, 1_000, 100_000, 1_000_000]),
    ...(rng.chance(0.3) ? { pre_tags: ["<<"], post_tags: [">>"] } : {}),
  };
  return {
    shape: "highlight",
    method: "POST",
    path: "/long/_search?filter_path=took,hits.total",
    headers: JSON_TYPE,
    body: JSON.stringify({
      query: { match: { t: rng.pick(["fox", "a b", "a fox b"]) } },
      highlight: { fields: { t: field } },
    }),
  };
}

function phrase(rng: Rng): HostileRequest {
  const words = Array.from({ length: 2 + rng.int(12) }, () => rng.pick(["a", "b", "fox"]));
  const slop = rng.pick([0, 1, 10, 1_000, 100_000, 2 ** 31 - 1]);
  const term = (v: string) => ({ span_term: { t: v } });
  const near = () => ({
    span_near: {
      clauses: words.slice(0, 2 + rng.int(4)).map(term),
      slop,
      in_order: rng.chance(0.5),
    },
  });
  const query = rng.pick([
    () => ({ match_phrase: { t: { query: words.join(" "), slop } } }),
    () => ({ match_phrase_prefix: { t: { query: words.join(" "), slop } } }),
    () => ({ query_string: { query: `"${words.join(" ")}"~${slop}`, default_field: "t" } }),
    near,
    () => ({ span_containing: { big: near(), little: term(rng.pick(words)) } }),
    () => ({ span_within: { big: near(), little: term(rng.pick(words)) } }),
    () => ({
      span_not: { include: near(), exclude: term("fox"), pre: rng.int(50), post: rng.int(50) },
    }),
    () => ({ span_or: { clauses: words.map(term) } }),
  ])();
  return {
    shape: "phrase and span",
    method: "POST",
    path: "/long/_search?filter_path=took,hits.total",
    headers: JSON_TYPE,
    body: JSON.stringify({ query }),
  };
}

function nesting(rng: Rng): HostileRequest {
  const depth = rng.pick([10, 29, 30, 31, 100, 999, 1_000, 5_000, 10_000, 50_000]);
  const kind = rng.int(4);
  let body: string;
  if (kind === 0) {
    const q = "(".repeat(depth) + "fox" + ")".repeat(depth);
    body = JSON.stringify({ query: { query_string: { query: q, default_field: "t" } } });
  } else if (kind === 1) {
    const q = "(a ".repeat(depth) + ")".repeat(depth);
    body = JSON.stringify({ query: { query_string: { query: q, default_field: "t" } } });
  } else if (kind === 2) {
    body = '{"query":' + '{"bool":{"must":['.repeat(depth) + '{"match_all":{}}' +
      "]}}".repeat(depth) + "}";
  } else {
    const q = "(".repeat(depth) + "fox" + ")".repeat(depth);
    body = JSON.stringify({ query: { simple_query_string: { query: q, fields: ["t"] } } });
  }
  return {
    shape: "deep nesting",
    method: "POST",
    path: "/long/_search?size=0",
    headers: JSON_TYPE,
    body,
  };
}

function bulk(rng: Rng, scale: number): HostileRequest {
  const docs = Math.max(
    1,
    Math.round(rng.pick([1, 1_000, 10_000, 50_000, 500_000, 1_500_000]) * scale),
  );
  const parts: string[] = [];
  for (let i = 0; i < docs; i++) parts.push(`{"index":{"_index":"bulk"}}\n{"a":${i % 10}}\n`);
  return {
    shape: "bulk sizes",
    method: "POST",
    path: "/_bulk",
    headers: { "content-type": "application/x-ndjson" },
    body: parts.join(""),
  };
}

/** The shapes, by name; `scale` (1 in full) shrinks the sizes of ranges and bulks. */
export const HOSTILE_SHAPES: Record<string, (rng: Rng, scale: number) => HostileRequest> = {
  "path segments": paths,
  "filter_path": filterPath,
  "many ranges": ranges,
  "highlight": highlight,
  "phrase and span": phrase,
  "deep nesting": nesting,
  "bulk sizes": bulk,
};

/** One hostile request of a random shape, its sizes times `scale`. */
export function hostile(rng: Rng, scale = 1): HostileRequest {
  const names = Object.keys(HOSTILE_SHAPES);
  return HOSTILE_SHAPES[rng.pick(names)]!(rng, scale);
}
