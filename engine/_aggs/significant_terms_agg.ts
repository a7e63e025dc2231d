// `significant_terms`: terms unusually frequent in the matching docs (the foreground) compared
// with every doc of the targets, or those of a `background_filter` (the background). Scored by
// JLH (the default), `mutual_information`, `chi_square` or `percentage`.

import { illegalArgument, parsingError } from "../_errors.ts";
import { consumeBuckets } from "../_index/limits.ts";
import { matchLive } from "../_query/query_exec.ts";
import { parseQuery } from "../_query/query_parser.ts";
import { type AggInput, fieldOf, keyFilter, positiveSetting, valueFormat } from "./agg_values.ts";
import type { SubRunner } from "./bucket_aggs.ts";
import {
  addToBucket,
  docParts,
  type KeyBucket,
  keyId,
  type Part,
  partComparator,
} from "./compound_keys.ts";
import type { JsonObject } from "../_json.ts";

/** Frequencies a heuristic scores: the term's docs in each set and the sets' sizes. */
interface Freqs {
  readonly subsetFreq: number;
  readonly subsetSize: number;
  readonly supersetFreq: number;
  readonly supersetSize: number;
}

type Heuristic = (f: Freqs) => number;

function jlh(f: Freqs): number {
  if (f.subsetSize === 0 || f.supersetSize === 0) return 0;
  const sub = f.subsetFreq / f.subsetSize;
  const sup = f.supersetFreq / f.supersetSize;
  if (sup <= 0) return 0;
  const absolute = sub - sup;
  return absolute <= 0 ? 0 : absolute * (sub / sup);
}

/** The 2x2 contingency table of the NXY heuristics (term in/out of the subset, in/out of the rest). */
/** What the background set is: the whole index (`background_is_superset`), or the rest apart. */
type Background = "superset" | "separate";

function table(f: Freqs, background: Background) {
  const backgroundIsSuperset = background === "superset";
  const n11 = f.subsetFreq;
  const n_1 = f.subsetSize;
  const n01 = n_1 - n11;
  const n10 = backgroundIsSuperset ? f.supersetFreq - f.subsetFreq : f.supersetFreq;
  const n_0 = backgroundIsSuperset ? f.supersetSize - f.subsetSize : f.supersetSize;
  const n00 = n_0 - n10;
  return { n11, n10, n01, n00, n_1, n_0, n1_: n11 + n10, n0_: n01 + n00, n: n_1 + n_0 };
}

function nxy(spec: JsonObject, score: (t: ReturnType<typeof table>) => number): Heuristic {
  const includeNegatives = spec.include_negatives === true;
  const background: Background = spec.background_is_superset !== false ? "superset" : "separate";
  return (f) => {
    const t = table(f, background);
    if (!includeNegatives && t.n11 / t.n_1 < t.n10 / t.n_0) return -Infinity;
    return score(t);
  };
}

function miTerm(nxy: number, nx_: number, n_y: number, n: number): number {
  const numerator = Math.abs(n * nxy);
  const denominator = Math.abs(nx_ * n_y);
  const factor = Math.abs(nxy / n);
  if (numerator < 1e-7 && factor < 1e-7) return 0;
  return factor * Math.log2(numerator / denominator);
}

function heuristicOf(body: JsonObject, name: string): Heuristic {
  const known = [
    "jlh",
    "mutual_information",
    "chi_square",
    "percentage",
    "gnd",
    "script_heuristic",
  ];
  const chosen = known.filter((k) => body[k] !== undefined);
  if (chosen.length > 1) {
    throw parsingError(`[significant_terms] aggregation [${name}] has more than one heuristic`);
  }
  const spec = (chosen[0] ? body[chosen[0]] : {}) as JsonObject;
  switch (chosen[0] ?? "jlh") {
    case "jlh":
      return jlh;
    case "percentage":
      return (f) => (f.supersetFreq === 0 ? 0 : f.subsetFreq / f.supersetFreq);
    case "mutual_information":
      return nxy(spec, (t) =>
        miTerm(t.n00, t.n0_, t.n_0, t.n) + miTerm(t.n01, t.n0_, t.n_1, t.n) +
        miTerm(t.n10, t.n1_, t.n_0, t.n) + miTerm(t.n11, t.n1_, t.n_1, t.n));
    case "chi_square":
      return nxy(
        spec,
        (t) =>
          (t.n11 + t.n01 + t.n10 + t.n00) * (t.n11 * t.n00 - t.n10 * t.n01) ** 2 /
          ((t.n11 + t.n01) * (t.n11 + t.n10) * (t.n10 + t.n00) * (t.n01 + t.n00)),
      );
    default:
      throw illegalArgument(
        `[significant_terms] heuristic [${
          chosen[0]
        }] is not supported by this engine; use jlh, mutual_information, chi_square or percentage`,
      );
  }
}

/** The background docs per input: every live doc, or those of `background_filter`. */
function background(body: JsonObject, inputs: AggInput[]): AggInput[] {
  const query = body.background_filter === undefined
    ? { kind: "match_all" as const, boost: 1 }
    : parseQuery(body.background_filter);
  return inputs.map((i) => ({ ctx: i.ctx, docs: matchLive(query, i.ctx, "filter").docs }));
}

/** The `significant_terms` aggregation. */
export function significantTermsAgg(
  body: JsonObject,
  inputs: AggInput[],
  sub: SubRunner | null,
  name: string,
): JsonObject {
  const field = fieldOf(body, name, "significant_terms");
  const size = positiveSetting({ body, type: "significant_terms", name }, "size", 10);
  const minDocCount = Number(body.min_doc_count ?? 3);
  const score = heuristicOf(body, name);
  const include = keyFilter(body.include);
  const exclude = keyFilter(body.exclude);
  const fg = docParts(inputs, field, (v) => v);
  const bgInputs = background(body, inputs);
  const bg = docParts(bgInputs, field, (v) => v);
  let subsetSize = 0;
  for (const i of inputs) subsetSize += i.docs.length;
  let supersetSize = 0;
  for (const i of bgInputs) supersetSize += i.docs.length;
  const terms = new Map<string, KeyBucket<Part>>();
  fg.maps.forEach((m, k) => {
    for (const [doc, parts] of m) {
      for (const key of parts) addToBucket(terms, key, k, doc);
    }
  });
  const bgFreq = new Map<string, number>();
  for (const m of bg.maps) {
    for (const parts of m.values()) {
      for (const key of parts) {
        const id = keyId([key]);
        if (terms.has(id)) bgFreq.set(id, (bgFreq.get(id) ?? 0) + 1);
      }
    }
  }
  const compare = partComparator(fg.info?.type === "ip");
  const scored = [...terms.entries()].map(([id, t]) => ({ ...t, bg: bgFreq.get(id) ?? 0 }))
    .filter((t) =>
      t.count >= minDocCount && (!include || include(t.key!)) && !(exclude && exclude(t.key!))
    )
    .map((t) => ({
      ...t,
      score: score({ subsetFreq: t.count, subsetSize, supersetFreq: t.bg, supersetSize }),
    }))
    .filter((t) => t.score > 0)
    .sort((a, b) => b.score - a.score || compare(a.key, b.key))
    .slice(0, size);
  consumeBuckets(scored.length);
  const text = valueFormat(body, fg.info);
  return {
    doc_count: subsetSize,
    bg_count: supersetSize,
    buckets: scored.map((t) => ({
      key: t.key,
      ...(text && typeof t.key !== "string" ? { key_as_string: text(Number(t.key)) } : {}),
      doc_count: t.count,
      score: t.score,
      bg_count: t.bg,
      ...(sub ? sub(t.docs) : {}),
    })),
  };
}
