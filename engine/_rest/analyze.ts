// `_analyze`: the tokens an analyzer, a tokenizer + filter chain, a field's analyzer or a
// normalizer makes of some text, with offsets, types and positions; `explain` shows each stage.

import { own } from "../_index/own.ts";
import { esError, illegalArgument, validationFailed, xContentParseError } from "../_errors.ts";
import {
  ANALYZER_CHAINS,
  type Chain,
  type ChainToken,
  ENGLISH_STOP_WORDS,
  keywordTokenizer,
  stopFilter,
  TOKEN_FILTERS,
  type TokenFilter,
  type Tokenizer,
  TOKENIZERS,
} from "../_index/analysis_chain.ts";
import type { FieldMapping } from "../_index/types.ts";
import type { IndexState } from "../_state/index_state.ts";
import { bodyObject, ok, type Reply, type RequestContext } from "./context.ts";

/** Gap added between the values of a multi-valued `text` (the default `position_increment_gap`). */
const POSITION_GAP = 100;

/** Analysis components real engines have that this engine does not implement. */
const KNOWN_ELSEWHERE =
  /^(html_strip|mapping|pattern_replace|snowball|porter_stem|stemmer|kstem|synonym|synonym_graph|ngram|edge_ngram|edgeNGram|nGram|shingle|word_delimiter|word_delimiter_graph|elision|keyword_marker|pattern|pattern_capture|classic|uax_url_email|path_hierarchy|char_group|simple_pattern|simple_pattern_split|thai|icu_.*|kuromoji.*|nori.*|smartcn.*|phonetic|fingerprint|cjk_.*|decimal_digit|apostrophe|hunspell|common_grams|min_hash|limit|delimited_payload|flatten_graph|predicate_token_filter|condition|multiplexer|remove_duplicates|dictionary_decompounder|hyphenation_decompounder|stemmer_override|german_normalization|[a-z]+_stem|[a-z]+_normalization)$/;

function unsupported(kind: string, name: string): Error {
  return illegalArgument(`${kind} [${name}] is not supported by this engine`);
}

interface Named<F> {
  name: string;
  run: F;
}

/** Index analysis settings under `index.analysis.<group>.<name>.` as one object. */
function analysisConfig(
  index: IndexState | undefined,
  group: string,
  name: string,
): Record<string, unknown> | undefined {
  if (!index) return undefined;
  const prefix = `index.analysis.${group}.${name}.`;
  const out: Record<string, unknown> = {};
  let found = false;
  for (const [k, v] of Object.entries(index.settings)) {
    if (!k.startsWith(prefix)) continue;
    found = true;
    const rest = k.slice(prefix.length);
    const item = /^(.*)\.(\d+)$/.exec(rest);
    if (item) {
      const list = (out[item[1]!] ??= []) as unknown[];
      list[Number(item[2])] = v;
    } else out[rest] = LIST_KEYS.has(rest) ? parseList(v) : v;
  }
  return found ? out : undefined;
}

/** Analysis settings whose value is a list (kept in flat settings as `a,b`). */
const LIST_KEYS = new Set(["filter", "char_filter", "stopwords"]);

/** A list setting as flat settings keep it (`a,b`, or a JSON array text) read back as a list. */
function parseList(v: string): unknown {
  if (v.startsWith("[")) {
    try {
      return JSON.parse(v);
    } catch {
      // not JSON: a comma-separated list
    }
  }
  return v === "" ? [] : v.split(",").map((x) => x.trim());
}

function stopWords(value: unknown): readonly string[] {
  if (value === undefined || value === "_english_") return ENGLISH_STOP_WORDS;
  if (value === "_none_") return [];
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === "string") return value.split(",").map((s) => s.trim());
  throw illegalArgument("[stopwords] must be an array of words, _english_ or _none_");
}

/** A token filter from its definition (`{type: "stop", stopwords: [...]}`). */
function filterOf(type: string, def: Record<string, unknown>): TokenFilter {
  switch (type) {
    case "stop":
      return stopFilter(stopWords(def.stopwords), def.ignore_case === true);
    case "length": {
      const min = Number(def.min ?? 0);
      const max = Number(def.max ?? 2147483647);
      return (ts) => ts.filter((t) => [...t.token].length >= min && [...t.token].length <= max);
    }
    case "truncate": {
      const n = Number(def.length ?? 10);
      return (ts) => ts.map((t) => ({ ...t, token: [...t.token].slice(0, n).join("") }));
    }
  }
  const plain = own(TOKEN_FILTERS, type);
  if (plain) return plain;
  if (KNOWN_ELSEWHERE.test(type)) throw unsupported("token filter", type);
  throw illegalArgument(`Unknown filter type [${type}] for [__anonymous__${type}]`);
}

function tokenFilter(spec: unknown, index: IndexState | undefined): Named<TokenFilter> {
  if (typeof spec === "string") {
    const custom = analysisConfig(index, "filter", spec);
    if (custom) return { name: spec, run: filterOf(String(custom.type ?? spec), custom) };
    const plain = own(TOKEN_FILTERS, spec);
    if (plain) return { name: spec, run: plain };
    if (KNOWN_ELSEWHERE.test(spec)) throw unsupported("token filter", spec);
    throw illegalArgument(`failed to find ${index ? "" : "global "}filter under [${spec}]`);
  }
  if (spec !== null && typeof spec === "object" && !Array.isArray(spec)) {
    const def = spec as Record<string, unknown>;
    const type = def.type;
    if (typeof type !== "string") {
      throw illegalArgument("Missing [type] setting for anonymous filter");
    }
    return { name: `__anonymous__${type}`, run: filterOf(type, def) };
  }
  throw illegalArgument("[filter] must be a name or a definition object");
}

function tokenizerOf(spec: unknown, index: IndexState | undefined): Named<Tokenizer> {
  // A tokenizer named in the request or by a custom definition, or the type of an inline
  // (anonymous) definition: the two are named and refused differently.
  const byName = (name: string, given: "named" | "anonymous"): Named<Tokenizer> => {
    const anonymous = given === "anonymous";
    const run = own(TOKENIZERS, name);
    if (run) return { name: anonymous ? `__anonymous__${name}` : name, run };
    if (KNOWN_ELSEWHERE.test(name)) throw unsupported("tokenizer", name);
    if (anonymous) {
      throw illegalArgument(`Unknown tokenizer type [${name}] for [__anonymous__${name}]`);
    }
    throw illegalArgument(`failed to find ${index ? "" : "global "}tokenizer under [${name}]`);
  };
  if (typeof spec === "string") {
    const custom = analysisConfig(index, "tokenizer", spec);
    if (custom) return { ...byName(String(custom.type ?? spec), "named"), name: spec };
    return byName(spec, "named");
  }
  if (spec !== null && typeof spec === "object" && !Array.isArray(spec)) {
    const type = (spec as Record<string, unknown>).type;
    if (typeof type !== "string") {
      throw illegalArgument("Missing [type] setting for anonymous tokenizer");
    }
    return byName(type, "anonymous");
  }
  throw illegalArgument("[tokenizer] must be a name or a definition object");
}

function charFilters(spec: unknown): void {
  const list = spec === undefined ? [] : Array.isArray(spec) ? spec : [spec];
  for (const c of list) {
    const name = typeof c === "string"
      ? c
      : String((c as Record<string, unknown> | null)?.type ?? "");
    if (KNOWN_ELSEWHERE.test(name)) throw unsupported("char_filter", name);
    throw illegalArgument(`failed to find global char_filter under [${name}]`);
  }
}

/** An analyzer by name: an index's custom one, else a built-in one. */
function namedAnalyzer(
  name: string,
  index: IndexState | undefined,
): { chain: Chain; custom: boolean } {
  const custom = analysisConfig(index, "analyzer", name);
  if (custom) {
    const type = String(custom.type ?? "custom");
    if (type === "custom") {
      const filters = custom.filter === undefined
        ? []
        : Array.isArray(custom.filter)
        ? custom.filter
        : [custom.filter];
      if (custom.char_filter !== undefined) charFilters(custom.char_filter);
      return {
        chain: {
          tokenizer: tokenizerOf(custom.tokenizer ?? "standard", index),
          filters: filters.map((f) => tokenFilter(f, index)),
        },
        custom: true,
      };
    }
    const builtIn = own(ANALYZER_CHAINS, type);
    if (!builtIn) throw unsupported("analyzer type", type);
    if (type === "standard" || type === "stop") {
      // `stopwords` on the standard and stop analyzers.
      const words = custom.stopwords !== undefined
        ? stopWords(custom.stopwords)
        : type === "stop"
        ? ENGLISH_STOP_WORDS
        : [];
      const filters = type === "standard" ? [builtIn.filters[0]!] : [];
      if (words.length) filters.push({ name: "stop", run: stopFilter(words) });
      return { chain: { tokenizer: builtIn.tokenizer, filters }, custom: false };
    }
    return { chain: builtIn, custom: false };
  }
  const builtIn = own(ANALYZER_CHAINS, name);
  if (builtIn) return { chain: builtIn, custom: false };
  if (KNOWN_ELSEWHERE.test(name) || /^(english|french|german|spanish|italian|dutch)$/.test(name)) {
    throw unsupported("analyzer", name);
  }
  throw illegalArgument(
    index ? `failed to find analyzer [${name}]` : `failed to find global analyzer [${name}]`,
  );
}

/** A normalizer by name: `lowercase`, or an index's custom one (keyword tokenizer + filters). */
function normalizerChain(name: string, index: IndexState | undefined): Chain {
  const keyword = { name: "keyword", run: keywordTokenizer };
  if (name === "lowercase") {
    return { tokenizer: keyword, filters: [{ name: "lowercase", run: TOKEN_FILTERS.lowercase! }] };
  }
  const custom = analysisConfig(index, "normalizer", name);
  if (!custom) {
    throw illegalArgument(
      index
        ? `failed to find normalizer under [${name}]`
        : `failed to find global normalizer under [${name}]`,
    );
  }
  if (custom.char_filter !== undefined) charFilters(custom.char_filter);
  const filters = custom.filter === undefined
    ? []
    : Array.isArray(custom.filter)
    ? custom.filter
    : [custom.filter];
  return { tokenizer: keyword, filters: filters.map((f) => tokenFilter(f, index)) };
}

/** The mapping of a dotted field path (multi-fields included), if mapped. */
function mappingOf(index: IndexState, path: string): FieldMapping | undefined {
  const parts = path.split(".");
  let props = index.mappings.properties ?? {};
  for (let i = 0; i < parts.length; i++) {
    // A dotted name may be one key (`a.b`) or nested objects: try the longest key first.
    for (let j = parts.length; j > i; j--) {
      const key = parts.slice(i, j).join(".");
      const m = Object.hasOwn(props, key) ? props[key] : undefined;
      if (!m) continue;
      if (j === parts.length) return m;
      const sub = m.fields?.[parts.slice(j).join(".")];
      if (sub) return sub;
      props = m.properties ?? {};
      i = j - 1;
      break;
    }
  }
  return undefined;
}

/** What analyzes the text: a chain, whether it is custom, and the name `explain` shows. */
interface Plan {
  chain: Chain;
  custom: boolean;
  name: string;
  /** Positions between two values (`keyword` fields: none). */
  gap?: number;
}

function planOf(
  body: Record<string, unknown>,
  index: IndexState | undefined,
  flavour: string,
): Plan {
  const { analyzer, tokenizer, filter, char_filter: charFilter, field, normalizer } = body;
  const extras = tokenizer !== undefined || filter !== undefined || charFilter !== undefined;
  if (analyzer !== undefined && extras) {
    throw validationFailed("cannot define extra components on a named analyzer");
  }
  if (normalizer !== undefined && (analyzer !== undefined || tokenizer !== undefined)) {
    throw validationFailed("tokenizer/analyze should be null if normalizer is specified");
  }
  if (typeof analyzer === "string") {
    const { chain, custom } = namedAnalyzer(analyzer, index);
    // OpenSearch's global built-in analyzers keep the Lucene default of no gap.
    const noGap = flavour === "opensearch" && !index && !custom;
    return { chain, custom, name: analyzer, ...(noGap ? { gap: 0 } : {}) };
  }
  if (normalizer !== undefined && !index) {
    throw validationFailed("index is required if normalizer is specified");
  }
  if (typeof normalizer === "string") {
    return { chain: normalizerChain(normalizer, index), custom: true, name: normalizer, gap: 0 };
  }
  if (extras) {
    charFilters(charFilter);
    const filters = filter === undefined ? [] : Array.isArray(filter) ? filter : [filter];
    const chain = {
      tokenizer: tokenizer === undefined
        ? { name: "keyword", run: keywordTokenizer }
        : tokenizerOf(tokenizer, index),
      filters: filters.map((f) => tokenFilter(f, index)),
    };
    return { chain, custom: true, name: "" };
  }
  if (typeof field === "string" && index) {
    const m = mappingOf(index, field);
    const type = m?.type ?? (m?.properties ? "object" : undefined);
    if (type === undefined || type === "text" || type === "match_only_text") {
      const name = typeof m?.analyzer === "string" ? m.analyzer : defaultAnalyzer(index);
      const { chain, custom } = namedAnalyzer(name, index);
      return { chain, custom, name };
    }
    if (type === "keyword") {
      if (typeof m?.normalizer === "string") {
        return {
          chain: normalizerChain(m.normalizer, index),
          custom: true,
          name: m.normalizer,
          gap: 0,
        };
      }
      return { chain: ANALYZER_CHAINS.keyword!, custom: false, name: "keyword", gap: 0 };
    }
    throw illegalArgument(
      `Can't process field [${field}], Analysis requests are only supported on tokenized fields`,
    );
  }
  const name = index ? defaultAnalyzer(index) : "standard";
  const { chain, custom } = namedAnalyzer(name, index);
  return { chain, custom, name };
}

function defaultAnalyzer(index: IndexState): string {
  return analysisConfig(index, "analyzer", "default") ? "default" : "standard";
}

/** The tokens of each stage over every text: the tokenizer's, then each filter's. */
function run(chain: Chain, texts: readonly string[], gap: number): ChainToken[][] {
  const stages: ChainToken[][] = [[], ...chain.filters.map(() => [])];
  let offset = 0;
  let position = -1;
  for (const text of texts) {
    let ts = chain.tokenizer.run(text);
    const shift = (list: ChainToken[], base: number) =>
      list.map((t) => ({
        ...t,
        start_offset: t.start_offset + offset,
        end_offset: t.end_offset + offset,
        position: t.position + base,
      }));
    const base = position + 1;
    stages[0]!.push(...shift(ts, base));
    chain.filters.forEach((f, i) => {
      ts = f.run(ts);
      stages[i + 1]!.push(...shift(ts, base));
    });
    const last = ts.length ? ts[ts.length - 1]!.position : -1;
    position = base + last + gap;
    offset += text.length + 1;
  }
  return stages;
}

const EXTRA_ATTRIBUTES = ["bytes", "positionLength", "termFrequency"] as const;

function detailed(ts: ChainToken[], attributes: Set<string> | undefined) {
  return ts.map((t) => {
    const extra: Record<string, unknown> = {
      bytes: `[${
        [...new TextEncoder().encode(t.token)].map((b) => b.toString(16).padStart(2, "0")).join(
          " ",
        )
      }]`,
      positionLength: 1,
      termFrequency: 1,
    };
    const out: Record<string, unknown> = { ...t };
    for (const k of EXTRA_ATTRIBUTES) if (!attributes || attributes.has(k)) out[k] = extra[k];
    return out;
  });
}

const FIELDS = new Set([
  "text",
  "analyzer",
  "tokenizer",
  "filter",
  "token_filter",
  "char_filter",
  "field",
  "normalizer",
  "explain",
  "attributes",
]);

/** The body, which is required; unknown keys are refused as the real parser does. */
function requestOf(ctx: RequestContext): Record<string, unknown> {
  const body = bodyObject(ctx);
  if (!body) throw esError("parse_exception", "request body or source parameter is required");
  for (const k of Object.keys(body)) {
    if (!FIELDS.has(k)) throw xContentParseError(`[analyze_request] unknown field [${k}]`);
  }
  if (body.token_filter !== undefined && body.filter === undefined) {
    return { ...body, filter: body.token_filter };
  }
  return body;
}

/**
 * The tokens of a field's values as its analyzer (or the analyzer named `analyzer`) makes them,
 * with offsets and positions running on across the values, as the term vectors API reports them.
 */
export function fieldTokens(
  index: IndexState,
  field: string,
  values: readonly string[],
  opts: { flavour: string; analyzer?: string },
): ChainToken[] {
  const spec = opts.analyzer === undefined ? { field } : { analyzer: opts.analyzer };
  const plan = planOf(spec, index, opts.flavour);
  const stages = run(plan.chain, values, plan.gap ?? POSITION_GAP);
  return stages[stages.length - 1]!;
}

/** `GET|POST /{index?}/_analyze`. */
export function analyzeHandler(ctx: RequestContext): Reply {
  const req = requestOf(ctx);
  const name = ctx.p.index ?? ctx.params.get("index") ?? undefined;
  const index = name === undefined ? undefined : ctx.state.cluster.readIndex(name);
  const text = req.text;
  const texts = typeof text === "string"
    ? [text]
    : Array.isArray(text)
    ? text.map((t) => (typeof t === "string" ? t : JSON.stringify(t)))
    : [];
  if (text === undefined || text === null || texts.length === 0) {
    throw validationFailed("text is missing");
  }
  if (
    req.analyzer === undefined && req.normalizer === undefined && req.field !== undefined && !index
  ) {
    throw illegalArgument("analysis based on a specific field requires an index");
  }
  const plan = planOf(req, index, ctx.state.flavour);
  const stages = run(plan.chain, texts, plan.gap ?? POSITION_GAP);
  if (req.explain !== true) return ok({ tokens: stages[stages.length - 1] });
  const attributes = Array.isArray(req.attributes)
    ? new Set(req.attributes.map(String))
    : undefined;
  if (!plan.custom) {
    return ok({
      detail: {
        custom_analyzer: false,
        analyzer: { name: plan.name, tokens: detailed(stages[stages.length - 1]!, attributes) },
      },
    });
  }
  return ok({
    detail: {
      custom_analyzer: true,
      charfilters: [],
      tokenizer: { name: plan.chain.tokenizer.name, tokens: detailed(stages[0]!, attributes) },
      tokenfilters: plan.chain.filters.map((f, i) => ({
        name: f.name,
        tokens: detailed(stages[i + 1]!, attributes),
      })),
    },
  });
}
