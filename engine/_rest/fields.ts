// Field-level views of mappings: GET _mapping/field/{fields} (field caps: field_caps.ts).

import { setOwn } from "../_index/own.ts";
import type { FieldMapping } from "../_index/types.ts";
import { matchPattern, nameList } from "../_index/name_pattern.ts";
import { ok, type Reply, type RequestContext } from "./context.ts";
import { targets } from "./targets.ts";

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

/** Whether a mapping entry is an object or nested field (which holds fields, not values). */
function isObject(field: FieldMapping): boolean {
  return field.type === "object" || field.type === "nested" ||
    (field.type === undefined && field.properties !== undefined);
}

/** A leaf's mapping as the real engines print it here: with its multi-fields. */
function leafMapping(field: FieldMapping): FieldMapping {
  const { properties: _p, ...rest } = field;
  return rest;
}

/**
 * The metadata fields GET _mapping/field lists (with an empty mapping) when a pattern names them,
 * as real OpenSearch 3.8.0 and Elasticsearch 9.5.4 list them for `*`.
 */
const METADATA: Record<"elasticsearch" | "opensearch", readonly string[]> = {
  opensearch: [
    "_routing",
    "_doc_count",
    "_index",
    "_feature",
    "_ignored",
    "_seq_no",
    "_nested_path",
    "_data_stream_timestamp",
    "_field_names",
    "_source",
    "_id",
    "_version",
  ],
  elasticsearch: [
    "_routing",
    "_doc_count",
    "_ignored_source",
    "_index",
    "_index_mode",
    "_ignored",
    "_tier",
    "_seq_no",
    "_nested_path",
    "_data_stream_timestamp",
    "_field_names",
    "_source",
    "_id",
    "_version",
  ],
};

/** GET /_mapping/field/{fields}, GET /{index}/_mapping/field/{fields}. */
export function fieldMappingHandler(ctx: RequestContext): Reply {
  const patterns = nameList(ctx.p.fields ?? "*");
  const out: Record<string, unknown> = {};
  for (const index of targets(ctx)) {
    const mappings: Record<string, unknown> = {};
    for (const name of METADATA[ctx.state.flavour]) {
      if (!patterns.some((p) => matchPattern(p, name))) continue;
      setOwn(mappings, name, { full_name: name, mapping: {} });
    }
    // Objects and nested fields are not listed, only the fields under them.
    for (const [path, field] of listFields(index.mappings.properties)) {
      if (isObject(field) || !patterns.some((p) => matchPattern(p, path))) continue;
      const short = path.split(".").pop()!;
      setOwn(mappings, path, { full_name: path, mapping: { [short]: leafMapping(field) } });
    }
    out[index.name] = { mappings };
  }
  return ok(out);
}
