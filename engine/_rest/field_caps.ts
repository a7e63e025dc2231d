// GET|POST /_field_caps, /{index}/_field_caps: each field's type per index, merged as
// Elasticsearch merges them (one entry per type; `indices` only when the types differ;
// `non_searchable_indices` / `non_aggregatable_indices` when the indices disagree), with the
// `filters`, `types`, `include_unmapped`, `include_empty_fields` and `index_filter` options.

import { illegalArgument } from "../_errors.ts";
import { setOwn } from "../_index/own.ts";
import type { FieldMapping } from "../_index/types.ts";
import type { IndexState } from "../_state/index_state.ts";
import { matchPattern, nameList } from "../_index/name_pattern.ts";
import { NUMBER_TYPES } from "../_index/field_map.ts";
import { countApi } from "../_search/matches_api.ts";
import { bodyObject, boolParam, ok, type Reply, type RequestContext } from "./context.ts";
import { targets } from "./targets.ts";

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
]);

/** Types searchable through their doc values when not indexed (`index: false`). */
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

const METADATA: Record<string, { searchable: boolean; aggregatable: boolean }> = {
  _id: { searchable: true, aggregatable: false },
  _index: { searchable: true, aggregatable: true },
  _routing: { searchable: true, aggregatable: false },
  _source: { searchable: false, aggregatable: false },
  _seq_no: { searchable: true, aggregatable: true },
  _version: { searchable: false, aggregatable: true },
  _ignored: { searchable: true, aggregatable: true },
};

const FILTERS = new Set(["+metadata", "-metadata", "-nested", "-multifield", "-parent"]);

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
  parent: boolean;
  /** The field whose value a multi-field indexes (for `include_empty_fields`). */
  source: string;
}

function capsOf(field: FieldMapping, type: string): { searchable: boolean; aggregatable: boolean } {
  const f = field as FieldMapping & { index?: unknown; doc_values?: unknown; fielddata?: unknown };
  const docValues = f.doc_values !== false;
  const searchable = !NOT_SEARCHABLE.has(type) &&
    (f.index !== false || docValues && DOC_VALUE_SEARCH.has(type));
  const aggregatable = AGGREGATABLE.has(type) && docValues ||
    type === "text" && f.fielddata === true;
  return { searchable, aggregatable };
}

/** Lists the fields of `props` into `out`; `under` is the object field they stand in, if any. */
function walk(
  props: Record<string, FieldMapping> | undefined,
  out: FieldInfo[],
  under?: FieldInfo,
): void {
  for (const [name, field] of Object.entries(props ?? {})) {
    const path = under ? `${under.path}.${name}` : name;
    const type = field.type ?? "object";
    const parent = type === "object" || type === "nested";
    const nested = (under?.nested ?? false) || type === "nested";
    const meta = (field as { meta?: Record<string, unknown> }).meta;
    const info: FieldInfo = {
      path,
      type,
      ...capsOf(field, type),
      metadata: false,
      nested,
      multifield: false,
      parent,
      source: path,
    };
    if (meta && typeof meta === "object") info.meta = meta;
    out.push(info);
    if (field.properties) walk(field.properties, out, info);
    for (const [sub, subField] of Object.entries(field.fields ?? {})) {
      const subType = subField.type ?? "object";
      out.push({
        path: `${path}.${sub}`,
        type: subType,
        ...capsOf(subField, subType),
        metadata: false,
        nested,
        multifield: true,
        parent: false,
        source: path,
      });
    }
  }
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

/** An index's fields; mapped fields without a value in any document only with `includeEmpty`. */
function fieldsOf(index: IndexState, opts: { includeEmpty: boolean }): FieldInfo[] {
  const out: FieldInfo[] = Object.entries(METADATA).map(([path, caps]) => ({
    path,
    type: path,
    ...caps,
    metadata: true,
    nested: false,
    multifield: false,
    parent: false,
    source: path,
  }));
  const mapped: FieldInfo[] = [];
  walk(index.mappings.properties, mapped);
  if (opts.includeEmpty) return [...out, ...mapped];
  const valued = valuedPaths(index);
  const constants = new Set(
    mapped.filter((f) => f.type === "constant_keyword").map((f) => f.path),
  );
  return [
    ...out,
    ...mapped.filter((f) => valued.has(f.source) || constants.has(f.path)),
  ];
}

function keep(f: FieldInfo, filters: Set<string>, types: string[]): boolean {
  if (filters.has("+metadata") && !f.metadata) return false;
  if (filters.has("-metadata") && f.metadata) return false;
  if (filters.has("-nested") && f.nested) return false;
  if (filters.has("-multifield") && f.multifield) return false;
  if (filters.has("-parent") && f.parent) return false;
  return types.length === 0 || types.includes(f.type);
}

interface TypeEntry {
  indices: string[];
  nonSearchable: string[];
  nonAggregatable: string[];
  metadata: boolean;
  metas: Map<string, Set<string>>;
}

/** How one field's capabilities are written. */
interface RenderShape {
  /** List the indices of each type (the field has more than one). */
  listIndices: boolean;
  /** Elasticsearch's answer (it adds `inference`), not OpenSearch's. */
  elastic: boolean;
}

function render(type: string, e: TypeEntry, shape: RenderShape): Record<string, unknown> {
  const { listIndices, elastic } = shape;
  const out: Record<string, unknown> = {
    type,
    metadata_field: e.metadata,
    searchable: e.nonSearchable.length === 0,
    aggregatable: e.nonAggregatable.length === 0,
  };
  // Elasticsearch 9 says of every field whether it is a semantic_text inference field (the
  // engine has none).
  if (elastic) out.inference = false;
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

/** GET|POST /_field_caps, /{index}/_field_caps (`fields` parameter or body). */
export function fieldCapsHandler(ctx: RequestContext): Reply {
  const body = bodyObject(ctx) ?? {};
  const requested = ctx.params.get("fields") ??
    (Array.isArray(body.fields) ? body.fields.join(",") : body.fields);
  const patterns = nameList(typeof requested === "string" ? requested : null);
  const filters = new Set(nameList(ctx.params.get("filters")));
  for (const f of filters) {
    if (!FILTERS.has(f)) throw illegalArgument(`Unknown field caps filter [${f}]`);
  }
  const types = nameList(ctx.params.get("types"));
  const emptyToo = boolParam(ctx, "include_empty_fields", true);
  let indices: IndexState[] = targets(ctx);
  if (body.index_filter !== undefined) {
    // Only the indices holding a document that matches the filter.
    indices = indices.filter((i) =>
      Number(
        countApi([i.searchTarget()], { query: body.index_filter }, new URLSearchParams()).count,
      ) > 0
    );
  }
  indices = [...indices].sort((a, b) => (a.name < b.name ? -1 : 1));
  const byField = new Map<string, Map<string, TypeEntry>>();
  for (const index of indices) {
    for (const f of fieldsOf(index, { includeEmpty: emptyToo })) {
      if (!patterns.some((p) => matchPattern(p, f.path)) || !keep(f, filters, types)) continue;
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
      entry[type] = render(type, e, {
        listIndices: byType.size > 1,
        elastic: ctx.state.flavour === "elasticsearch",
      });
    }
    setOwn(fields, name, entry);
  }
  return ok({ indices: indices.map((i) => i.name), fields });
}
