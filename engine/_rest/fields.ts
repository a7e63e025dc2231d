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
