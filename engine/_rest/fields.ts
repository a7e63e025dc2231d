// Field-level views of mappings: GET _mapping/field/{fields} and _field_caps.

import { setOwn } from "../_index/own.ts";
import type { FieldMapping } from "../_index/types.ts";
import type { IndexState } from "../_state/index_state.ts";
import { matchPattern, nameList } from "../_index/name_pattern.ts";
import { bodyObject, ok, type Reply, type RequestContext } from "./context.ts";
import { targets } from "./targets.ts";
import { countApi } from "../_search/search_api.ts";
import { NUMBER_TYPES } from "../_index/field_map.ts";

/** Every field of a mapping with its full dotted path: objects, leaves and multi-fields. */
export function listFields(
  props: Record<string, FieldMapping> | undefined,
  prefix = "",
): Array<[string, FieldMapping]> {
  const out: Array<[string, FieldMapping]> = [];
  for (const [name, field] of Object.entries(props ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    out.push([path, field]);
    if (field.properties) out.push(...listFields(field.properties, path));
    if (field.fields) out.push(...listFields(field.fields, path));
  }
  return out;
}

function leafMapping(field: FieldMapping): FieldMapping {
  const { properties: _p, fields: _f, ...rest } = field;
  return field.properties && field.type === undefined ? { type: "object", ...rest } : rest;
}

/** GET /_mapping/field/{fields}, GET /{index}/_mapping/field/{fields}. */
export function fieldMappingHandler(ctx: RequestContext): Reply {
  const patterns = nameList(ctx.p.fields ?? "*");
  const out: Record<string, unknown> = {};
  for (const index of targets(ctx)) {
    const mappings: Record<string, unknown> = {};
    for (const [path, field] of listFields(index.mappings.properties)) {
      if (!patterns.some((p) => matchPattern(p, path))) continue;
      const short = path.split(".").pop()!;
      setOwn(mappings, path, { full_name: path, mapping: { [short]: leafMapping(field) } });
    }
    out[index.name] = { mappings };
  }
  return ok(out);
}

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

const METADATA: Record<string, { type: string; searchable: boolean; aggregatable: boolean }> = {
  _id: { type: "_id", searchable: true, aggregatable: false },
  _index: { type: "_index", searchable: true, aggregatable: true },
  _routing: { type: "_routing", searchable: true, aggregatable: false },
  _source: { type: "_source", searchable: false, aggregatable: false },
  _seq_no: { type: "_seq_no", searchable: true, aggregatable: true },
  _version: { type: "_version", searchable: false, aggregatable: true },
  _ignored: { type: "_ignored", searchable: true, aggregatable: true },
};

/** Field caps' `meta`: each key with every (distinct, sorted) value the indices give it. */
function withMeta(
  caps: Record<string, unknown>,
  metas: Map<string, Set<string>>,
): Record<string, unknown> {
  const { meta: _drop, ...rest } = caps;
  if (metas.size === 0) return rest;
  const out: Record<string, string[]> = {};
  for (const [k, v] of [...metas].sort(([a], [b]) => (a < b ? -1 : 1))) out[k] = [...v].sort();
  return { ...rest, meta: out };
}

/** GET|POST /_field_caps, /{index}/_field_caps (`fields` parameter or body). */
export function fieldCapsHandler(ctx: RequestContext): Reply {
  const body = bodyObject(ctx) ?? {};
  const requested = ctx.params.get("fields") ??
    (Array.isArray(body.fields) ? body.fields.join(",") : body.fields);
  const patterns = nameList(typeof requested === "string" ? requested : null);
  let indices: IndexState[] = targets(ctx);
  if (body.index_filter !== undefined) {
    // Only the indices holding a document that matches the filter.
    indices = indices.filter((i) =>
      Number(
        countApi([i.searchTarget()], { query: body.index_filter }, new URLSearchParams()).count,
      ) > 0
    );
  }
  const byField = new Map<
    string,
    Map<
      string,
      { caps: Record<string, unknown>; indices: string[]; metas: Map<string, Set<string>> }
    >
  >();
  const add = (name: string, caps: Record<string, unknown>, index: string): void => {
    const types = byField.get(name) ?? new Map();
    const type = String(caps.type);
    const entry = types.get(type) ?? { caps, indices: [], metas: new Map() };
    entry.indices.push(index);
    for (const [k, v] of Object.entries((caps.meta ?? {}) as Record<string, unknown>)) {
      const values = entry.metas.get(k) ?? new Set();
      values.add(String(v));
      entry.metas.set(k, values);
    }
    types.set(type, entry);
    byField.set(name, types);
  };
  for (const index of indices) {
    for (const [name, caps] of Object.entries(METADATA)) {
      if (patterns.some((p) => matchPattern(p, name))) {
        add(name, { ...caps, metadata_field: true }, index.name);
      }
    }
    for (const [path, field] of listFields(index.mappings.properties)) {
      if (!patterns.some((p) => matchPattern(p, path))) continue;
      const type = field.type ?? "object";
      const leaf = type !== "object" && type !== "nested";
      const caps: Record<string, unknown> = {
        type,
        metadata_field: false,
        searchable: leaf,
        aggregatable: AGGREGATABLE.has(type),
      };
      const meta = (field as { meta?: Record<string, string> }).meta;
      if (meta && typeof meta === "object") caps.meta = meta;
      add(path, caps, index.name);
    }
  }
  if (ctx.params.get("include_unmapped") === "true") {
    // A field some indices lack gets an `unmapped` entry naming them.
    for (const types of byField.values()) {
      const holders = new Set([...types.values()].flatMap((t) => t.indices));
      const missing = indices.map((i) => i.name).filter((n) => !holders.has(n));
      if (missing.length === 0) continue;
      types.set("unmapped", {
        caps: { type: "unmapped", metadata_field: false, searchable: false, aggregatable: false },
        indices: missing,
        metas: new Map(),
      });
    }
  }
  const fields: Record<string, unknown> = {};
  for (const [name, types] of [...byField].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const entry: Record<string, unknown> = {};
    for (const [type, { caps, indices: holders, metas }] of types) {
      // Elasticsearch names the indices only when the field's type differs between them.
      entry[type] = types.size === 1
        ? withMeta(caps, metas)
        : { ...withMeta(caps, metas), indices: holders };
    }
    setOwn(fields, name, entry);
  }
  return ok({ indices: indices.map((i) => i.name), fields });
}
