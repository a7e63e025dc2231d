// The tester's report: identical rates per flavour, corpus and request kind, and the kinds of
// difference (a request kind, how its answers differ and where) with one example each.

import type { Exchange, Outcome } from "./replay.ts";

/** Counts of one group of records. */
export interface Tally {
  total: number;
  identical: number;
  different: number;
  unsupported: number;
  noOracle: number;
  unstable: number;
  both404: number;
}

const KEY: { [k in Outcome]: keyof Tally } = {
  identical: "identical",
  different: "different",
  unsupported: "unsupported",
  "no oracle": "noOracle",
  unstable: "unstable",
  "both 404": "both404",
};

/** Counts the outcomes of some records. */
export function tally(records: readonly Exchange[]): Tally {
  const t: Tally = {
    total: 0,
    identical: 0,
    different: 0,
    unsupported: 0,
    noOracle: 0,
    unstable: 0,
    both404: 0,
  };
  for (const r of records) {
    t.total++;
    t[KEY[r.outcome]]++;
  }
  return t;
}

/** Requests compared: identical, different or unsupported (the others are set aside). */
export function compared(t: Tally): number {
  return t.identical + t.different + t.unsupported;
}

/** The identical share of the compared requests (1 when none was compared). */
export function rate(t: Tally): number {
  const n = compared(t);
  return n === 0 ? 1 : t.identical / n;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** One line of figures for a group. */
export function line(label: string, t: Tally): string {
  return `${label}: ${t.identical}/${compared(t)} identical (${
    pct(rate(t))
  }); ${t.different} different, ${t.unsupported} unsupported; set aside: ${t.unstable} unstable, ${t.noOracle} no oracle, ${t.both404} 404 on both`;
}

/** The records grouped by a key, in key order. */
function groupBy(
  records: readonly Exchange[],
  key: (r: Exchange) => string,
): Map<string, Exchange[]> {
  const m = new Map<string, Exchange[]>();
  for (const r of records) {
    const k = key(r);
    const list = m.get(k);
    if (list) list.push(r);
    else m.set(k, [r]);
  }
  return new Map([...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const SEARCH_APIS =
  /^(search|count|msearch|explain|validate_query|scroll|clear_scroll|open_point_in_time|close_point_in_time|point_in_time|field_caps|terms_enum|search_shards|knn_search|rank_eval|search_mvt)$/;
const DOCUMENT_APIS =
  /^(index|create|get|get_source|exists|exists_source|delete|update|mget|bulk|termvectors|mtermvectors|reindex|delete_by_query|update_by_query)/;

/**
 * The category a request kind rolls up into. Generated kinds carry theirs (`query:term` is a
 * query, `agg:terms` an aggregation, `error:bad_json` an error); the specification examples and
 * the YAML-driven corpora are grouped by API family (search, document, index, cat, cluster,
 * other), and a request the real engine refused counts as an error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(category("query:term", 200), "query");
 * assert.equal(category("sort", 200), "sort");
 * assert.equal(category("spec:cat/indices", 200), "cat");
 * assert.equal(category("spec:_global/mget", 200), "document");
 * assert.equal(category("clients:indices", 404), "error");
 * ```
 */
export function category(kind: string, realStatus: number): string {
  const colon = kind.indexOf(":");
  const head = colon < 0 ? kind : kind.slice(0, colon);
  const rest = colon < 0 ? "" : kind.slice(colon + 1);
  if (head !== "spec" && head !== "clients" && head !== "yaml") {
    return head === "agg" ? "aggregation" : head || kind;
  }
  if (realStatus >= 400) return "error";
  const [family = "", api = family] = rest.split("/");
  const name = api.replace(/^(indices|cluster|cat)[._]/, "");
  if (family === "cat" || /^cat/.test(rest)) return "cat";
  if (family === "cluster" || /^(cluster|nodes)/.test(rest)) return "cluster";
  if (SEARCH_APIS.test(name) || /search|msearch|scroll|count|explain/.test(rest)) return "search";
  if (DOCUMENT_APIS.test(name) || /^(get|index|create|update|delete|mget|bulk)\b/.test(rest)) {
    return "document";
  }
  if (family === "indices" || /^indices/.test(rest)) return "index";
  return "other";
}

/** A difference kind: the request kind, how they differ and where (a field shape or statuses). */
export function differenceKinds(
  records: readonly Exchange[],
): Array<{ kind: string; count: number; example: Exchange }> {
  const m = new Map<string, { kind: string; count: number; example: Exchange }>();
  for (const r of records) {
    if (r.outcome !== "different" && r.outcome !== "unsupported") continue;
    const seen = new Set<string>();
    for (const d of r.differences) {
      const kind = `${r.corpus} ${r.kind} | ${
        r.outcome === "unsupported" ? "unsupported: " : ""
      }${d.kind} ${d.where}`;
      if (seen.has(kind)) continue;
      seen.add(kind);
      const e = m.get(kind);
      if (e) e.count++;
      else m.set(kind, { kind, count: 1, example: r });
    }
  }
  return [...m.values()].sort((a, b) => b.count - a.count || (a.kind < b.kind ? -1 : 1));
}

const cut = (s: string, n: number) => (s.length > n ? s.slice(0, n) + "…" : s);

/** The whole report as text: overall, per corpus, per kind, then the kinds of difference. */
export function render(flavour: string, records: readonly Exchange[], show = 40): string {
  const out: string[] = [];
  out.push(line(`${flavour}, all corpora`, tally(records)));
  for (const [corpus, rs] of groupBy(records, (r) => r.corpus)) {
    out.push(line(`  ${corpus}`, tally(rs)));
    const rollUp = [...groupBy(rs, (r) => category(r.kind, r.real.status))].map(([c, cs]) => {
      const t = tally(cs);
      return `${c} ${t.identical}/${compared(t)} ${pct(rate(t))}`;
    });
    out.push(`    by category: ${rollUp.join("; ")}`);
    for (const [kind, ks] of groupBy(rs, (r) => r.kind)) {
      const t = tally(ks);
      out.push(
        `    ${kind.padEnd(44)} ${String(t.identical).padStart(4)}/${
          String(compared(t)).padEnd(4)
        } ${pct(rate(t)).padStart(6)}${t.unsupported ? `  unsupported ${t.unsupported}` : ""}${
          t.unstable ? `  unstable ${t.unstable}` : ""
        }${t.noOracle ? `  no oracle ${t.noOracle}` : ""}${
          t.both404 ? `  404 both ${t.both404}` : ""
        }`,
      );
    }
  }
  const kinds = differenceKinds(records);
  out.push(`kinds of difference (${kinds.length}), largest first:`);
  for (const k of kinds.slice(0, show)) {
    const e = k.example;
    out.push(`  ${String(k.count).padStart(4)}  ${k.kind}`);
    out.push(`        > ${e.method} ${e.path} ${cut(e.body ?? "", 200).replace(/\n/g, "\\n")}`);
    out.push(`        real   ${e.real.status} ${cut(e.real.text, 300)}`);
    out.push(`        engine ${e.engine.status} ${cut(e.engine.text, 300)}`);
  }
  return out.join("\n");
}
