// GET|POST /_field_caps, /{index}/_field_caps: each field's type per index, merged as the real
// engines merge them (one entry per type; `indices` only when the types differ;
// `non_searchable_indices` / `non_aggregatable_indices` when the indices disagree), with the
// `filters`, `types`, `include_unmapped`, `include_empty_fields` and `index_filter` options.
//
// Each flavour lists its own metadata fields with their own capabilities (OpenSearch 3.8.0 has no
// `metadata_field` key and refuses `filters`, `types` and `include_empty_fields`). Object and nested
// fields are never matched by the pattern themselves: like Elasticsearch's and OpenSearch's
// FieldCapabilitiesFetcher, the engine adds them as the parents of each field it keeps (unless
// `filters=-parent`), and an alias field is reported with its target's type and capabilities.

import {
  illegalArgument,
  parsingErrorAt,
  validationFailed,
  xContentParseError,
} from "../_errors.ts";
import { setOwn } from "../_index/own.ts";
import type { FieldMapping } from "../_index/types.ts";
import type { IndexState } from "../_state/index_state.ts";
import { matchPattern, nameList } from "../_index/name_pattern.ts";
import { NUMBER_TYPES, RANGE_TYPES } from "../_index/field_map.ts";
import { locate } from "./body_spot.ts";
import {
  bodyObject,
  bodyTextOf,
  boolParam,
  ok,
  type Reply,
  type RequestContext,
} from "./context.ts";
import { unrecognized } from "./params.ts";
import { indexFilterMatches } from "./index_filter.ts";
import { targets } from "./targets.ts";

type Flavour = "elasticsearch" | "opensearch";

const AGGREGATABLE = new Set([
  "keyword",
  ...NUMBER_TYPES,
  "date",
  "date_nanos",
  "boolean",
  "ip",
  "version",
  "constant_keyword",
  "wildcard",
  "geo_point",
  ...RANGE_TYPES,
]);

/** Aggregatable through doc values in one flavour only (Elasticsearch 9.5.4, OpenSearch 3.8.0). */
const AGGREGATABLE_ES = new Set(["flattened", "binary"]);
const AGGREGATABLE_OS = new Set(["binary", "geo_shape", "join", "token_count"]);

/** Types searchable through their doc values when not indexed (`index: false`; Elasticsearch). */
const DOC_VALUE_SEARCH = new Set([
  "keyword",
  ...NUMBER_TYPES,
  "date",
  "date_nanos",
  "boolean",
  "ip",
]);

/** Types that can never be searched. */
const NOT_SEARCHABLE = new Set(["binary", "object", "nested"]);
const NOT_SEARCHABLE_OS = new Set([...NOT_SEARCHABLE, "rank_features", "percolator"]);

/** Types without doc values unless the mapping asks for them. */
const NO_DOC_VALUES = new Set(["binary"]);

/** Types without norms (`_field_names` is filled for an indexed field with neither). */
const TEXT_LIKE = new Set(["text", "match_only_text", "search_as_you_type"]);

/** What an index holds, for the metadata fields `include_empty_fields=false` keeps. */
interface Presence {
  docs: boolean;
  routed: boolean;
  nested: boolean;
  fieldNames: boolean;
  ignored: boolean;
}

interface MetaField {
  type: string;
  searchable: boolean;
  aggregatable: boolean;
  has: (p: Presence) => boolean;
}

const always = (): boolean => true;
const never = (): boolean => false;
const docs = (p: Presence): boolean => p.docs;

/** `sa`: searchable and aggregatable, `s-`: searchable only, `-a`, `--`. */
type Caps = "sa" | "s-" | "-a" | "--";

function metaField(type: string, caps: Caps, has: (p: Presence) => boolean = always): MetaField {
  return { type, searchable: caps[0] === "s", aggregatable: caps[1] === "a", has };
}

/**
 * Elasticsearch 9.5.4's metadata fields on a standard index, as `_field_caps` lists them, and
 * which of them a Lucene index holds (`include_empty_fields=false`): the constant ones always, the
 * per-document ones once a document is in, `_routing`/`_nested_path`/`_ignored`/`_field_names`
 * when some document gave them a value, the rest never.
 */
const ES_METADATA: ReadonlyMap<string, MetaField> = new Map([
  ["_data_stream_timestamp", metaField("_data_stream_timestamp", "--", never)],
  ["_doc_count", metaField("integer", "--", never)],
  ["_field_names", metaField("_field_names", "s-", (p) => p.fieldNames)],
  ["_id", metaField("_id", "s-", docs)],
  ["_ignored", metaField("_ignored", "sa", (p) => p.ignored)],
  ["_ignored_source", metaField("_ignored_source", "--", never)],
  ["_index", metaField("_index", "sa")],
  ["_index_mode", metaField("_index_mode", "sa")],
  ["_nested_path", metaField("_nested_path", "s-", (p) => p.nested)],
  ["_routing", metaField("_routing", "s-", (p) => p.routed)],
  ["_seq_no", metaField("_seq_no", "sa", docs)],
  ["_source", metaField("_source", "--", docs)],
  ["_tier", metaField("keyword", "sa")],
  ["_version", metaField("_version", "-a", docs)],
]);

/** OpenSearch 3.8.0's metadata fields (`_feature` is mapper-extras'; `_id` has field data). */
const OS_METADATA: ReadonlyMap<string, MetaField> = new Map([
  ["_data_stream_timestamp", metaField("_data_stream_timestamp", "--")],
  ["_doc_count", metaField("long", "--")],
  ["_feature", metaField("_feature", "--")],
  ["_field_names", metaField("_field_names", "s-")],
  ["_id", metaField("_id", "sa")],
  ["_ignored", metaField("_ignored", "s-")],
  ["_index", metaField("_index", "sa")],
  ["_nested_path", metaField("_nested_path", "s-")],
  ["_routing", metaField("_routing", "s-")],
  ["_seq_no", metaField("_seq_no", "sa")],
  ["_source", metaField("_source", "--")],
  ["_version", metaField("_version", "--")],
]);

const FILTERS = new Set(["+metadata", "-metadata", "-nested", "-multifield", "-parent", "parent"]);

/** The query parameters OpenSearch 3.8.0's `_field_caps` takes (it has no filters or types). */
const OS_PARAMS = [
  "fields",
  "include_unmapped",
  "ignore_unavailable",
  "allow_no_indices",
  "expand_wildcards",
  "index",
  "pretty",
  "human",
  "error_trace",
  "source",
  "source_content_type",
  "filter_path",
];
const OS_UNKNOWN = ["filters", "types", "include_empty_fields", "ignore_throttled"];

/** One field of one index, with what the `filters` option looks at. */
interface FieldInfo {
  path: string;
  type: string;
  searchable: boolean;
  aggregatable: boolean;
  meta?: Record<string, unknown>;
  metadata: boolean;
  nested: boolean;
  multifield: boolean;
  /** The field whose value it indexes (for `include_empty_fields`; an alias's target). */
  source: string;
  /** The path its parent objects hang from (an alias's target's). */
  home: string;
  /** The mapping, for the metadata fields a value fills (`_field_names`, `_ignored`). */
  mapping?: FieldMapping;
}

interface Mapped {
  fields: FieldInfo[];
  /** Object and nested paths, added as the parents of the fields kept. */
  objects: Map<string, "object" | "nested">;
}

function capsOf(
  field: FieldMapping,
  type: string,
  flavour: Flavour,
): { searchable: boolean; aggregatable: boolean } {
  const f = field as FieldMapping & { index?: unknown; doc_values?: unknown; fielddata?: unknown };
  const docValues = f.doc_values === undefined ? !NO_DOC_VALUES.has(type) : f.doc_values !== false;
  const indexed = f.index !== false;
  const fielddata = type === "text" && f.fielddata === true;
  if (flavour === "opensearch") {
    return {
      searchable: !NOT_SEARCHABLE_OS.has(type) && indexed,
      aggregatable: (AGGREGATABLE.has(type) || AGGREGATABLE_OS.has(type)) && docValues || fielddata,
    };
  }
  return {
    searchable: !NOT_SEARCHABLE.has(type) && (indexed || docValues && DOC_VALUE_SEARCH.has(type)) ||
      type === "binary" && docValues,
    aggregatable: (AGGREGATABLE.has(type) || AGGREGATABLE_ES.has(type)) && docValues || fielddata,
  };
}

/** The type `_field_caps` names (OpenSearch reports a `token_count` as the integer it indexes). */
function typeName(type: string, flavour: Flavour): string {
  return flavour === "opensearch" && type === "token_count" ? "integer" : type;
}

/** The fields OpenSearch 3.8.0 maps under some types of its modules, as `_field_caps` lists them. */
function osSubfields(path: string, field: FieldMapping, type: string): FieldInfo[] {
  const sub = (name: string, t: string, caps: Caps): FieldInfo => ({
    path: `${path}${name}`,
    type: t,
    searchable: caps[0] === "s",
    aggregatable: caps[1] === "a",
    metadata: false,
    nested: false,
    multifield: true,
    source: path,
    home: `${path}${name}`,
  });
  if (type === "search_as_you_type") {
    const max = Number((field as { max_shingle_size?: unknown }).max_shingle_size ?? 3);
    const out: FieldInfo[] = [];
    for (let n = 2; n <= max && n <= 4; n++) out.push(sub(`._${n}gram`, type, "s-"));
    out.push(sub("._index_prefix", "prefix", "s-"));
    return out;
  }
  if (type === "percolator") {
    return [
      sub(".query_builder_field", "binary", "-a"),
      sub(".extracted_terms", "keyword", "s-"),
      sub(".extraction_result", "keyword", "s-"),
      sub(".range_field", "ip_range", "s-"),
      sub(".minimum_should_match_field", "integer", "-a"),
    ];
  }
  if (type === "join") {
    const relations = (field as { relations?: unknown }).relations;
    if (!relations || typeof relations !== "object") return [];
    return Object.keys(relations).map((parent) => sub(`#${parent}`, "parent", "sa"));
  }
  return [];
}

/** Where a walk stands: the object path the fields hang from, and whether it is under `nested`. */
interface Place {
  readonly prefix: string;
  readonly nested: boolean;
}

/** Lists the fields of `props` at `place` into `ctx.out`. */
function walk(
  props: Record<string, FieldMapping> | undefined,
  place: Place,
  ctx: { flavour: Flavour; out: Mapped; aliases: [string, FieldMapping][] },
): void {
  for (const [name, field] of Object.entries(props ?? {})) {
    const path = place.prefix ? `${place.prefix}.${name}` : name;
    const type = field.type ?? "object";
    if (type === "object" || type === "nested") {
      ctx.out.objects.set(path, type);
      walk(field.properties, { prefix: path, nested: place.nested || type === "nested" }, ctx);
      continue;
    }
    if (type === "alias") {
      ctx.aliases.push([path, field]);
      continue;
    }
    const meta = (field as { meta?: Record<string, unknown> }).meta;
    const info: FieldInfo = {
      path,
      type: typeName(type, ctx.flavour),
      ...capsOf(field, type, ctx.flavour),
      metadata: false,
      nested: place.nested,
      multifield: false,
      source: path,
      home: path,
      mapping: field,
    };
    if (meta && typeof meta === "object") info.meta = meta;
    ctx.out.fields.push(info);
    if (ctx.flavour === "opensearch") ctx.out.fields.push(...osSubfields(path, field, type));
    for (const [sub, subField] of Object.entries(field.fields ?? {})) {
      const subType = subField.type ?? "object";
      const subMeta = (subField as { meta?: Record<string, unknown> }).meta;
      ctx.out.fields.push({
        path: `${path}.${sub}`,
        type: typeName(subType, ctx.flavour),
        ...capsOf(subField, subType, ctx.flavour),
        ...(subMeta && typeof subMeta === "object" ? { meta: subMeta } : {}),
        metadata: false,
        nested: place.nested,
        multifield: true,
        source: path,
        home: `${path}.${sub}`,
        mapping: subField,
      });
    }
  }
}

/** An index's mapped fields (aliases resolved to their targets) and its object paths. */
function mappedFields(index: IndexState, flavour: Flavour): Mapped {
  const out: Mapped = { fields: [], objects: new Map() };
  const aliases: [string, FieldMapping][] = [];
  walk(index.mappings.properties, { prefix: "", nested: false }, { flavour, out, aliases });
  const byPath = new Map(out.fields.map((f) => [f.path, f]));
  for (const [path, field] of aliases) {
    const target = byPath.get(String((field as { path?: unknown }).path));
    if (target) out.fields.push({ ...target, path, multifield: false });
  }
  return out;
}

/** Paths that hold a value in some searchable document (objects' keys walked, arrays flattened). */
function valuedPaths(index: IndexState): Set<string> {
  const out = new Set<string>();
  const visit = (value: unknown, path: string): void => {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) {
      for (const v of value) visit(v, path);
      return;
    }
    if (typeof value === "object") {
      for (const [k, v] of Object.entries(value)) visit(v, path ? `${path}.${k}` : k);
      return;
    }
    for (let p = path; p !== ""; p = p.includes(".") ? p.slice(0, p.lastIndexOf(".")) : "") {
      out.add(p);
    }
  };
  for (const doc of index.visible.values()) visit(doc.source, "");
  return out;
}

/** Whether a keyword value was too long to index (`ignore_above`), which fills `_ignored`. */
function ignoredValue(field: FieldMapping, index: IndexState, path: string): boolean {
  const limit = (field as { ignore_above?: unknown }).ignore_above;
  if (field.type !== "keyword" || typeof limit !== "number") return false;
  const tooLong = (v: unknown): boolean =>
    Array.isArray(v) ? v.some(tooLong) : typeof v === "string" && v.length > limit;
  for (const doc of index.visible.values()) {
    let v: unknown = doc.source;
    for (const part of path.split(".")) {
      v = Array.isArray(v)
        ? v.flatMap((
          x,
        ) => (x && typeof x === "object" ? [(x as Record<string, unknown>)[part]] : []))
        : v && typeof v === "object"
        ? (v as Record<string, unknown>)[part]
        : undefined;
    }
    if (tooLong(v)) return true;
  }
  return false;
}

/** What the index holds that gives the per-document metadata fields a value. */
function presenceOf(index: IndexState, mapped: Mapped, valued: Set<string>): Presence {
  const visible = [...index.visible.values()];
  const leaves = mapped.fields.filter((f) => f.mapping && valued.has(f.source));
  const routed = visible.some((d) => d.routing !== undefined);
  return {
    docs: visible.length > 0,
    routed,
    nested: [...mapped.objects].some(([path, type]) => type === "nested" && valued.has(path)),
    // `_field_names` names the indexed fields that have neither doc values nor norms (`_routing`
    // among them).
    fieldNames: routed || leaves.some((f) => {
      const m = f.mapping as FieldMapping & {
        index?: unknown;
        doc_values?: unknown;
        norms?: unknown;
      };
      if (m.index === false) return false;
      if (TEXT_LIKE.has(String(m.type))) return m.norms === false;
      return m.doc_values === false && DOC_VALUE_SEARCH.has(String(m.type));
    }),
    ignored: leaves.some((f) => ignoredValue(f.mapping!, index, f.source)),
  };
}

/** An index's fields (parents apart), the object paths, the metadata fields first. */
function fieldsOf(
  index: IndexState,
  opts: { readonly flavour: Flavour; readonly emptyToo: boolean },
): { fields: FieldInfo[]; objects: Map<string, "object" | "nested"> } {
  const { flavour, emptyToo } = opts;
  const mapped = mappedFields(index, flavour);
  const valued = emptyToo ? undefined : valuedPaths(index);
  const presence = valued && presenceOf(index, mapped, valued);
  const metadata: FieldInfo[] = [];
  for (const [path, m] of flavour === "opensearch" ? OS_METADATA : ES_METADATA) {
    if (presence && !m.has(presence)) continue;
    metadata.push({
      path,
      type: m.type,
      searchable: m.searchable,
      aggregatable: m.aggregatable,
      metadata: true,
      nested: false,
      multifield: false,
      source: path,
      home: path,
    });
  }
  const fields = valued
    ? mapped.fields.filter((f) => valued.has(f.source) || f.type === "constant_keyword")
    : mapped.fields;
  return { fields: [...metadata, ...fields], objects: mapped.objects };
}

function keep(f: FieldInfo, filters: Set<string>, types: string[]): boolean {
  if (filters.has("+metadata") && !f.metadata) return false;
  if (filters.has("-metadata") && f.metadata) return false;
  if (filters.has("-nested") && f.nested) return false;
  if (filters.has("-multifield") && f.multifield) return false;
  return types.length === 0 || types.includes(f.type);
}

/**
 * One index's answer: the fields the patterns and filters keep, then (unless `-parent`) the
 * object and nested fields above each of them, as the real engines add them.
 */
function indexFields(
  index: IndexState,
  opts: {
    flavour: Flavour;
    emptyToo: boolean;
    patterns: string[];
    filters: Set<string>;
    types: string[];
    runtime?: Map<string, string>;
  },
): FieldInfo[] {
  const found = fieldsOf(index, opts);
  const objects = found.objects;
  let fields = found.fields;
  if (opts.flavour === "elasticsearch" && opts.emptyToo) {
    // Runtime fields (the index's, then the request's) shadow mapped fields of the same name;
    // they hold no indexed value and hang from no parent object.
    const runtime = new Map([...runtimeOf(index.mappings.runtime) ?? [], ...opts.runtime ?? []]);
    if (runtime.size > 0) {
      fields = fields.filter((f) => !runtime.has(f.path));
      for (const [path, type] of runtime) {
        fields.push({
          path,
          type,
          searchable: true,
          aggregatable: true,
          metadata: false,
          nested: false,
          multifield: false,
          source: path,
          home: "",
        });
      }
    }
  }
  const out = new Map<string, FieldInfo>();
  const parents = !opts.filters.has("-parent");
  for (const f of fields) {
    if (!opts.patterns.some((p) => matchPattern(p, f.path))) continue;
    if (!keep(f, opts.filters, opts.types)) continue;
    out.set(f.path, f);
    if (!parents) continue;
    for (let dot = f.home.lastIndexOf("."); dot > 0; dot = f.home.lastIndexOf(".", dot - 1)) {
      const parent = f.home.slice(0, dot);
      if (out.has(parent)) break;
      const type = objects.get(parent);
      if (type === undefined) continue;
      out.set(parent, {
        path: parent,
        type,
        searchable: false,
        aggregatable: false,
        metadata: false,
        nested: type === "nested",
        multifield: false,
        source: parent,
        home: parent,
      });
    }
  }
  return [...out.values()];
}

interface TypeEntry {
  indices: string[];
  nonSearchable: string[];
  nonAggregatable: string[];
  metadata: boolean;
  metas: Map<string, Set<string>>;
}

/** How a type entry prints: with its `indices` (the indices disagree), in which engine's shape. */
interface RenderAs {
  readonly listIndices: boolean;
  readonly flavour: Flavour;
}

function render(type: string, e: TypeEntry, as: RenderAs): Record<string, unknown> {
  const { listIndices } = as;
  const elastic = as.flavour === "elasticsearch";
  // OpenSearch 3.8.0 prints no `metadata_field`; Elasticsearch 9 says of every field whether it
  // is a semantic_text inference field (the engine has none).
  const out: Record<string, unknown> = elastic
    ? {
      type,
      metadata_field: e.metadata,
      searchable: e.nonSearchable.length === 0,
      aggregatable: e.nonAggregatable.length === 0,
      inference: false,
    }
    : {
      type,
      searchable: e.nonSearchable.length === 0,
      aggregatable: e.nonAggregatable.length === 0,
    };
  if (listIndices) out.indices = [...e.indices].sort();
  const some = (list: string[]): boolean => list.length > 0 && list.length < e.indices.length;
  if (some(e.nonSearchable)) out.non_searchable_indices = [...e.nonSearchable].sort();
  if (some(e.nonAggregatable)) out.non_aggregatable_indices = [...e.nonAggregatable].sort();
  if (e.metas.size > 0) {
    const meta: Record<string, string[]> = {};
    for (const [k, v] of [...e.metas].sort(([a], [b]) => (a < b ? -1 : 1))) meta[k] = [...v].sort();
    out.meta = meta;
  }
  return out;
}

/** The body keys each flavour's `_field_caps` reads. */
const ES_BODY = new Set(["fields", "index_filter", "runtime_mappings"]);

/**
 * The field patterns asked for, checked as each engine checks them. Elasticsearch 9.5.4 takes
 * them from the body or the parameter, never both, and refuses none at all
 * (`no fields specified`); OpenSearch 3.8.0 only from the parameter, its body holding nothing
 * but `index_filter`. An empty list is refused by both.
 */
function requestedFields(ctx: RequestContext, body: Record<string, unknown> | undefined): string[] {
  const param = ctx.params.get("fields");
  const empty = () => illegalArgument("specified fields can't be null or empty");
  if (ctx.state.flavour === "opensearch") {
    const fields = nameList(param);
    if (fields.length === 0) throw empty();
    for (const k of Object.keys(body ?? {})) {
      if (k !== "index_filter") throw parsingErrorAt(`request does not support [${k}]`, k, "name");
    }
    return fields;
  }
  if (body !== undefined) {
    for (const k of Object.keys(body)) {
      if (ES_BODY.has(k)) continue;
      const at = locate(bodyTextOf(ctx), { key: k, at: "name" });
      throw xContentParseError(
        `${at ? `[${at.line}:${at.col}] ` : ""}[field_caps_request] unknown field [${k}]`,
      );
    }
    if (body.fields !== undefined) {
      if (param !== null) {
        throw illegalArgument(
          "can't specify a request body and [fields] request parameter, either specify a request body or the [fields] request parameter",
        );
      }
      const fields = (Array.isArray(body.fields) ? body.fields : [body.fields]).map(String);
      if (fields.length === 0) throw empty();
      return fields;
    }
  }
  if (param === null) throw validationFailed("no fields specified");
  const fields = nameList(param);
  if (fields.length === 0) throw empty();
  return fields;
}

/** Runtime fields by name (`mappings.runtime`, a search's `runtime_mappings`) with their type. */
function runtimeOf(spec: unknown): Map<string, string> | undefined {
  if (spec === null || typeof spec !== "object" || Array.isArray(spec)) return undefined;
  const out = new Map<string, string>();
  for (const [name, field] of Object.entries(spec)) {
    const type = (field as { type?: unknown } | null)?.type;
    if (typeof type === "string") out.set(name, type);
  }
  return out;
}

/** OpenSearch 3.8.0 refuses the options it lacks as unrecognized parameters. */
function checkOpenSearchParams(ctx: RequestContext): void {
  const unknown = OS_UNKNOWN.filter((k) => ctx.params.has(k)).sort();
  if (unknown.length === 0) return;
  throw illegalArgument(unrecognized(ctx.path, unknown, OS_PARAMS, "parameter"));
}

/** GET|POST /_field_caps, /{index}/_field_caps (`fields` parameter or body). */
export function fieldCapsHandler(ctx: RequestContext): Reply {
  const flavour = ctx.state.flavour;
  const parsed = bodyObject(ctx);
  const body = parsed ?? {};
  const patterns = requestedFields(ctx, parsed);
  // OpenSearch checks its parameters once it has read the fields and the body.
  if (flavour === "opensearch") checkOpenSearchParams(ctx);
  const runtime = flavour === "elasticsearch" ? runtimeOf(body.runtime_mappings) : undefined;
  const filters = new Set(nameList(ctx.params.get("filters")));
  for (const f of filters) {
    if (!FILTERS.has(f)) throw illegalArgument(`Unknown field caps filter [${f}]`);
  }
  const types = nameList(ctx.params.get("types"));
  const emptyToo = boolParam(ctx, "include_empty_fields", true);
  let indices: IndexState[] = targets(ctx);
  if (body.index_filter !== undefined) {
    indices = indices.filter((i) => indexFilterMatches(i, body.index_filter, flavour));
  }
  indices = [...indices].sort((a, b) => (a.name < b.name ? -1 : 1));
  const byField = new Map<string, Map<string, TypeEntry>>();
  for (const index of indices) {
    const opts = { flavour, emptyToo, patterns, filters, types, runtime };
    for (const f of indexFields(index, opts)) {
      const byType = byField.get(f.path) ?? new Map<string, TypeEntry>();
      const e: TypeEntry = byType.get(f.type) ?? {
        indices: [],
        nonSearchable: [],
        nonAggregatable: [],
        metadata: f.metadata,
        metas: new Map(),
      };
      e.indices.push(index.name);
      if (!f.searchable) e.nonSearchable.push(index.name);
      if (!f.aggregatable) e.nonAggregatable.push(index.name);
      for (const [k, v] of Object.entries(f.meta ?? {})) {
        const values = e.metas.get(k) ?? new Set<string>();
        values.add(String(v));
        e.metas.set(k, values);
      }
      byType.set(f.type, e);
      byField.set(f.path, byType);
    }
  }
  if (boolParam(ctx, "include_unmapped")) {
    // A field some indices lack gets an `unmapped` entry naming them.
    for (const byType of byField.values()) {
      const holders = new Set([...byType.values()].flatMap((t) => t.indices));
      const missing = indices.map((i) => i.name).filter((n) => !holders.has(n));
      if (missing.length === 0) continue;
      byType.set("unmapped", {
        indices: missing,
        nonSearchable: missing,
        nonAggregatable: missing,
        metadata: false,
        metas: new Map(),
      });
    }
  }
  const fields: Record<string, unknown> = {};
  for (const [name, byType] of [...byField].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const entry: Record<string, unknown> = {};
    for (const [type, e] of byType) {
      entry[type] = render(type, e, { listIndices: byType.size > 1, flavour });
    }
    setOwn(fields, name, entry);
  }
  return ok({ indices: indices.map((i) => i.name), fields });
}
