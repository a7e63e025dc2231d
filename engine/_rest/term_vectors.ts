// `_termvectors` and `_mtermvectors`: the terms of a document's text and keyword fields with
// their frequencies, positions and offsets, computed from the document as the real engines do
// when no term vectors are stored, and the statistics of the shard the document lives on
// (Lucene's: deleted documents not yet merged away count).

import { EngineError, esError, illegalArgument } from "../_errors.ts";
import { isJsonObject } from "../_json.ts";
import { nameMatcher } from "../_index/name_pattern.ts";
import { own } from "../_index/own.ts";
import type { FieldMapping } from "../_index/types.ts";
import { shardDocValues } from "../_hits/shard_doc.ts";
import type { IndexState } from "../_state/index_state.ts";
import { refreshDue } from "../_state/refresh.ts";
import { fieldTokens } from "./analyze.ts";
import { bodyObject, ok, type Reply, type RequestContext } from "./context.ts";
import { errorBody } from "./error_body.ts";
import { selectTerms, type TermFilter, termFilterOf } from "./term_vector_filter.ts";

/** What one term vectors request asks for. */
interface Request {
  index: string;
  id?: string;
  doc?: Record<string, unknown>;
  fields?: string[];
  offsets: boolean;
  positions: boolean;
  termStatistics: boolean;
  fieldStatistics: boolean;
  perFieldAnalyzer: Record<string, unknown>;
  routing?: string;
  /** Only the best-scored terms, each with its score. */
  filter?: TermFilter;
}

/** A mapped field whose values are terms (text or keyword), and where its values come from. */
interface StringField {
  path: string;
  /** The source path (a multi-field reads its parent's values). */
  source: string;
  /** `term_vector` is stored (anything but `no`). */
  stored: boolean;
}

function stringFields(
  props: Record<string, FieldMapping> | undefined,
  prefix = "",
  out: StringField[] = [],
): StringField[] {
  for (const [name, m] of Object.entries(props ?? {})) {
    const path = prefix + name;
    const isString = (f: FieldMapping) =>
      f.type === "text" || f.type === "keyword" || f.type === "match_only_text";
    const stored = (f: FieldMapping) => typeof f.term_vector === "string" && f.term_vector !== "no";
    if (isString(m)) out.push({ path, source: path, stored: stored(m) });
    for (const [sub, f] of Object.entries(m.fields ?? {})) {
      if (isString(f)) out.push({ path: `${path}.${sub}`, source: path, stored: stored(f) });
    }
    if (m.properties && m.type !== "nested") stringFields(m.properties, `${path}.`, out);
  }
  return out;
}

/** The values at a dotted source path (objects and arrays walked, dotted keys too), as text. */
function valuesAt(source: unknown, path: string): string[] {
  const out: string[] = [];
  const walk = (v: unknown, rest: string) => {
    if (Array.isArray(v)) {
      for (const item of v) walk(item, rest);
      return;
    }
    if (rest === "") {
      if (typeof v === "string") out.push(v);
      else if (typeof v === "number" || typeof v === "boolean") out.push(String(v));
      return;
    }
    if (!isJsonObject(v)) return;
    const parts = rest.split(".");
    for (let i = 1; i <= parts.length; i++) {
      const child = own(v, parts.slice(0, i).join("."));
      if (child !== undefined) walk(child, parts.slice(i).join("."));
    }
  };
  walk(source, path);
  return out;
}

/** A boolean flag from the request body, else the URL; undefined when neither names it. */
function flag(
  body: Record<string, unknown>,
  params: URLSearchParams,
  name: string,
): boolean | undefined {
  const v = own(body, name) ?? params.get(name);
  if (v === undefined || v === null) return undefined;
  return v === true || v === "true" || v === "";
}

function fieldList(v: unknown): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v)) return v.map(String);
  return String(v).split(",").map((f) => f.trim()).filter((f) => f !== "");
}

function requestOf(
  index: string,
  body: Record<string, unknown>,
  params: URLSearchParams,
): Request {
  const filter = termFilterOf(own(body, "filter"));
  const doc = own(body, "doc");
  const id = own(body, "_id") ?? own(body, "id");
  const routing = own(body, "routing") ?? params.get("routing") ?? undefined;
  const analyzers = own(body, "per_field_analyzer");
  return {
    index,
    ...(id === undefined || id === null ? {} : { id: String(id) }),
    ...(isJsonObject(doc) ? { doc } : {}),
    ...(() => {
      const fields = fieldList(own(body, "fields") ?? params.get("fields") ?? undefined);
      return fields ? { fields } : {};
    })(),
    offsets: flag(body, params, "offsets") ?? true,
    positions: flag(body, params, "positions") ?? true,
    termStatistics: flag(body, params, "term_statistics") ?? false,
    fieldStatistics: flag(body, params, "field_statistics") ?? true,
    perFieldAnalyzer: isJsonObject(analyzers) ? analyzers : {},
    ...(routing === undefined ? {} : { routing: String(routing) }),
    ...(filter ? { filter } : {}),
  };
}

/** Statistics of one field on one shard: the field's, and each term's. */
interface ShardStats {
  docCount: number;
  sumDocFreq: number;
  sumTtf: number;
  terms: Map<string, { docFreq: number; ttf: number }>;
}

function shardStats(
  ctx: RequestContext,
  index: IndexState,
  at: { field: string; shard: number },
): ShardStats {
  const { field, shard } = at;
  // The flavour decides how documents spread over shards (OpenSearch routes over routing shards).
  const target = { ...index.searchTarget(), flavour: ctx.state.flavour };
  const shardOf = shardDocValues(target, 0);
  const span = 2 ** 32;
  const out: ShardStats = { docCount: 0, sumDocFreq: 0, sumTtf: 0, terms: new Map() };
  for (const v of target.snapshot.views) {
    const fi = v.segment.fields.get(field);
    if (!fi) continue;
    const on = (local: number) => Math.floor(shardOf[v.base + local]! / span) === shard;
    for (const d of fi.present) if (on(d)) out.docCount++;
    for (const [term, posting] of fi.terms) {
      let docFreq = 0;
      let ttf = 0;
      posting.docs.forEach((d, i) => {
        if (!on(d)) return;
        docFreq++;
        ttf += posting.freqs ? posting.freqs[i]! : 1;
      });
      if (docFreq === 0) continue;
      out.sumDocFreq += docFreq;
      out.sumTtf += ttf;
      const known = out.terms.get(term);
      if (known) {
        known.docFreq += docFreq;
        known.ttf += ttf;
      } else out.terms.set(term, { docFreq, ttf });
    }
  }
  return out;
}

/** Adds to `stats` the documents of the shard written since its last refresh. */
function addPending(
  ctx: RequestContext,
  index: IndexState,
  at: { field: string; source: string; shard: number },
  stats: ShardStats,
): void {
  for (const doc of index.pendingOn(at.shard)) {
    const values = valuesAt(doc.source, at.source);
    if (values.length === 0) continue;
    const tokens = fieldTokens(index, at.field, values, { flavour: ctx.state.flavour });
    if (tokens.length === 0) continue;
    stats.docCount++;
    const counts = new Map<string, number>();
    for (const t of tokens) counts.set(t.token, (counts.get(t.token) ?? 0) + 1);
    for (const [term, n] of counts) {
      stats.sumDocFreq++;
      stats.sumTtf += n;
      const known = stats.terms.get(term);
      if (known) {
        known.docFreq++;
        known.ttf += n;
      } else stats.terms.set(term, { docFreq: 1, ttf: n });
    }
  }
}

/** One document's term vectors (or why it has none). */
function termVectors(ctx: RequestContext, req: Request): Record<string, unknown> {
  const index = ctx.state.cluster.readIndex(req.index);
  // The statistics are the searcher's: what a refresh due by now has made visible.
  refreshDue([index], ctx.state.now());
  const started = Date.now();
  let source: Record<string, unknown>;
  const head: Record<string, unknown> = { _index: index.name };
  let shard: number;
  let realtime = false;
  if (req.doc) {
    source = req.doc;
    head._version = 0;
    // The real engines send a document of the request to a random shard; the engine takes the
    // first, or the one its routing names.
    shard = req.routing === undefined ? 0 : index.shardOf(req.routing);
  } else {
    if (req.id === undefined) throw illegalArgument("[termvectors] requires an [id] or a [doc]");
    head._id = req.id;
    realtime = flag({}, ctx.params, "realtime") ?? true;
    // `realtime=false` reads what searches see; otherwise the latest write.
    const stored = realtime ? index.docs.get(req.id) : index.visible.get(req.id);
    if (!stored) return { ...head, _version: 0, found: false, took: Date.now() - started };
    source = stored.source;
    head._version = stored.version;
    shard = index.shardOf(req.routing ?? stored.routing ?? req.id);
    // A realtime read refreshes the shard's internal reader, not the one searches see: its
    // statistics count the writes not yet refreshed (see addPending).
  }
  const all = stringFields(index.mappings.properties);
  const chosen = req.fields
    ? all.filter((f) => req.fields!.some((pattern) => nameMatcher(pattern)(f.path)))
    : req.doc
    ? all
    : all.filter((f) => f.stored);
  const vectors: Record<string, unknown> = {};
  for (const field of chosen) {
    const values = valuesAt(source, field.source);
    if (values.length === 0) continue;
    const analyzer = own(req.perFieldAnalyzer, field.path);
    const tokens = fieldTokens(index, field.path, values, {
      flavour: ctx.state.flavour,
      ...(typeof analyzer === "string" ? { analyzer } : {}),
    });
    if (tokens.length === 0) continue;
    const byTerm = new Map<string, typeof tokens>();
    for (const t of tokens) byTerm.set(t.token, [...(byTerm.get(t.token) ?? []), t]);
    const stats = req.fieldStatistics || req.termStatistics || req.filter
      ? shardStats(ctx, index, { field: field.path, shard })
      : undefined;
    if (stats && realtime) {
      addPending(ctx, index, { field: field.path, source: field.source, shard }, stats);
    }
    const scores = req.filter && stats
      ? selectTerms(new Map([...byTerm].map(([t, l]) => [t, l.length])), stats, req.filter)
      : undefined;
    const terms: Record<string, unknown> = {};
    for (const term of [...byTerm.keys()].sort()) {
      if (scores && !scores.has(term)) continue;
      const list = byTerm.get(term)!;
      const entry: Record<string, unknown> = {};
      const known = stats?.terms.get(term);
      if (req.termStatistics && known) {
        entry.doc_freq = known.docFreq;
        entry.ttf = known.ttf;
      }
      entry.term_freq = list.length;
      if (req.positions || req.offsets) {
        entry.tokens = list.map((t) => ({
          ...(req.positions ? { position: t.position } : {}),
          ...(req.offsets ? { start_offset: t.start_offset, end_offset: t.end_offset } : {}),
        }));
      }
      if (scores) entry.score = scores.get(term);
      terms[term] = entry;
    }
    const out: Record<string, unknown> = {};
    if (req.fieldStatistics && stats) {
      out.field_statistics = {
        sum_doc_freq: stats.sumDocFreq,
        doc_count: stats.docCount,
        sum_ttf: stats.sumTtf,
      };
    }
    out.terms = terms;
    vectors[field.path] = out;
  }
  return { ...head, found: true, took: Date.now() - started, term_vectors: vectors };
}

/** `GET|POST /{index}/_termvectors/{id?}`. */
export function termVectorsHandler(ctx: RequestContext): Reply {
  const body = bodyObject(ctx) ?? {};
  const req = requestOf(ctx.p.index!, body, ctx.params);
  if (ctx.p.id !== undefined) req.id = ctx.p.id;
  return ok(termVectors(ctx, req));
}

/** `GET|POST /{index?}/_mtermvectors`: `docs` (each its own request) or `ids` of one index. */
export function multiTermVectorsHandler(ctx: RequestContext): Reply {
  const body = bodyObject(ctx) ?? {};
  for (const [key, v] of Object.entries(body)) {
    if (key !== "docs" && key !== "ids" && Array.isArray(v)) {
      throw esError("parse_exception", `no parameter named [${key}] and type ARRAY`);
    }
  }
  const ids = own(body, "ids") ?? ctx.params.get("ids")?.split(",");
  const docs = own(body, "docs");
  const entries: Record<string, unknown>[] = Array.isArray(docs)
    ? docs.filter(isJsonObject)
    : Array.isArray(ids)
    ? ids.map((id) => ({ _id: String(id) }))
    : [];
  const out = entries.map((entry) => {
    const index = own(entry, "_index") ?? ctx.p.index;
    const id = own(entry, "_id");
    try {
      if (typeof index !== "string") throw illegalArgument("[_index] is missing");
      return termVectors(ctx, requestOf(index, entry, ctx.params));
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      return {
        ...(typeof index === "string" ? { _index: index } : {}),
        ...(id === undefined ? {} : { _id: String(id) }),
        error: errorBody(e, ctx.state.flavour).error,
      };
    }
  });
  return ok({ docs: out });
}
