// `docvalue_fields` and the `fields` option: per-hit field values under `fields`.

import { decimalFormat } from "../_index/decimal_format.ts";
import { parsingError } from "../_errors.ts";
import { setOwn } from "../_index/own.ts";
import { formatDateAt, parseDateAt } from "../_index/dates.ts";
import { fieldMapOf } from "../_index/field_map.ts";
import type { SearchTarget } from "../_index/search_target.ts";
import type { StoredDoc } from "../_index/types.ts";
import { numAt } from "../_index/segment.ts";
import { sourceText } from "../_index/raw_source.ts";
import { parseExactJson } from "../_index/exact_json.ts";
import { nestedSourceFields } from "./nested_fields.ts";
import {
  checkPoint,
  encodeLat,
  encodeLon,
  formatPoint,
  type GeoPoint,
  javaDouble,
  parsePoint,
  sourcePoints,
} from "../_index/geo.ts";
import { geoColumn } from "../_index/geo_values.ts";

/** One requested field with an optional format. */
export interface FieldRequest {
  /** Field name or wildcard pattern. */
  readonly field: string;
  /** Format (`#.0` style for numbers, anything else ignored). */
  readonly format?: string;
}

/** Reads `docvalue_fields` / `fields` entries (strings or `{field, format}`) and a comma list param. */
export function parseFieldRequests(body: unknown, param: string | null): FieldRequest[] {
  const list = param !== null
    ? param.split(",").filter((s) => s)
    : Array.isArray(body)
    ? body
    : body === undefined
    ? []
    : [body];
  return list.map((e) => {
    if (typeof e === "string") return { field: e };
    if (e === null || typeof e !== "object" || Array.isArray(e)) {
      throw parsingError(
        `[fields] expected a string or an object, but found [${JSON.stringify(e)}]`,
      );
    }
    const o = e as Record<string, unknown>;
    return { field: String(o.field), format: typeof o.format === "string" ? o.format : undefined };
  });
}

/**
 * A number under a `format`: any pattern is a `DecimalFormat` one (`"abc"` writes 3.14 as `abc3`),
 * but OpenSearch still reads the old `use_field_mapping` as "no format" (Elasticsearch 9.5.4 writes
 * `use_field_mapping1`).
 */
function formatNumber(
  v: number,
  format: string | undefined,
  flavour: SearchTarget["flavour"],
): number | string {
  if (!format || (format === "use_field_mapping" && flavour === "opensearch")) return v;
  return decimalFormat(v, format);
}

/** Metadata fields with doc values (nested objects report their parent's). */
const META_DOC_VALUES: Record<string, ((doc: StoredDoc) => number) | undefined> = {
  _seq_no: (doc) => doc.seqNo,
  _primary_term: (doc) => doc.primaryTerm,
  _version: (doc) => doc.version,
};

/** Doc-value based `fields` of one hit (sorted values per doc, dates as ISO strings). */
export function docValueFields(
  target: SearchTarget,
  global: number,
  requests: readonly FieldRequest[],
): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  const fields = fieldMapOf(target.mappings);
  const view = target.snapshot.viewOf(global);
  const local = global - view.base;
  for (const r of requests) {
    const meta = META_DOC_VALUES[r.field];
    if (meta) {
      setOwn(out, r.field, [meta(target.snapshot.doc(global))]);
      continue;
    }
    for (const path of fields.expand(r.field)) {
      const info = fields.byPath.get(path)!;
      if (info.type === "geo_point") {
        const geo = geoPointDocValues(view.segment, path, local, target.flavour);
        if (geo.length) setOwn(out, path, geo);
        continue;
      }
      const f = view.segment.fields.get(path);
      if (!f || info.kind === "text") continue;
      const values: unknown[] = [];
      for (let i = f.dvStart[local]!; i < f.dvStart[local + 1]!; i++) {
        if (f.strValues) values.push(f.strValues[i]);
        else {
          const n = f.numValues![i]!;
          if (info.kind === "date") values.push(formatDateAt(n, info));
          else if (info.kind === "boolean") values.push(n === 1);
          else {
            const exact = f.exact ? numAt(f, i) : n;
            values.push(
              typeof exact === "bigint" && !r.format
                ? exact
                : formatNumber(n, r.format, target.flavour),
            );
          }
        }
      }
      if (values.length) setOwn(out, path, values);
    }
  }
  return out;
}

/**
 * A doc's geo_point doc values as `"lat, lon"` text: OpenSearch 3.8.0 lists them in the order
 * Lucene keeps them (by encoded latitude, then longitude), Elasticsearch 9.5.4 sorts the texts.
 */
function geoPointDocValues(
  segment: Parameters<typeof geoColumn>[0],
  path: string,
  local: number,
  flavour?: "elasticsearch" | "opensearch",
): string[] {
  const col = geoColumn(segment, path);
  const at: number[] = [];
  for (let i = col.start[local]!; i < col.start[local + 1]!; i++) at.push(i);
  const enc = (i: number) => [encodeLat(col.lat[i]!), encodeLon(col.lon[i]!)] as const;
  at.sort((x, y) => {
    const [a, b] = [enc(x), enc(y)];
    return a[0] - b[0] || a[1] - b[1];
  });
  const texts = at.map((i) => `${javaDouble(col.lat[i]!)}, ${javaDouble(col.lon[i]!)}`);
  return flavour === "opensearch" ? texts : texts.sort();
}

/** The points of a geo_point field in a source, as the `fields` option writes them. */
function sourceGeoPoints(object: unknown, root: string, format?: string): unknown[] {
  const out: unknown[] = [];
  for (const raw of sourcePoints(object, root.split("."))) {
    let p: GeoPoint;
    try {
      p = parsePoint(raw);
    } catch {
      continue;
    }
    if (!checkPoint(p, root)) out.push(formatPoint(p, format));
  }
  return out;
}

/** Leaf values at a dotted path of a source (arrays flattened, dotted keys understood). */
export function sourceValues(source: unknown, parts: string[], out: unknown[]): void {
  if (source === undefined || source === null) return;
  if (Array.isArray(source)) {
    for (const s of source) sourceValues(s, parts, out);
    return;
  }
  if (parts.length === 0) {
    if (typeof source !== "object") out.push(source);
    return;
  }
  if (typeof source !== "object") return;
  const o = source as Record<string, unknown>;
  // Keys may themselves contain dots (`{"a.b": 1}`).
  for (let i = parts.length; i > 0; i--) {
    const key = parts.slice(0, i).join(".");
    if (Object.hasOwn(o, key)) sourceValues(o[key], parts.slice(i), out);
  }
}

/**
 * The `fields` option: values of mapped fields taken from `_source`, always as arrays; fields of
 * nested objects below `scope` (the hit's own nested path, "" for a root document) come grouped
 * per object.
 */
export function sourceFields(
  target: SearchTarget,
  source: Record<string, unknown>,
  requests: readonly FieldRequest[],
  scope = "",
): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  const fields = fieldMapOf(target.mappings);
  /** A field's values in `object`, read at `name` (its path relative to the object). */
  const read = (object: unknown, path: string, name: string, format?: string): unknown[] => {
    const info = fields.byPath.get(path)!;
    const root = fields.roots.has(path) ? name : name.slice(0, name.lastIndexOf("."));
    if (info.type === "geo_point") return sourceGeoPoints(object, root, format);
    let values: unknown[] = [];
    sourceValues(object, root.split("."), values);
    if (
      object === source && info.integer &&
      values.some((v) => typeof v === "number" && !Number.isSafeInteger(v))
    ) {
      // A whole number beyond 2^53 was rounded when the source was parsed: read its digits.
      const text = sourceText(source);
      if (text !== undefined) sourceValues(parseExactJson(text), root.split("."), values = []);
    }
    return values.map((v) => {
      if (info.kind === "keyword" || info.kind === "text") return String(v);
      if (info.kind !== "date") return v;
      // Dates come out in the field's format (ISO text in UTC by default), as doc values do.
      const n = parseDateAt(v, info);
      return Number.isNaN(n)
        ? v
        : formatDateAt(n, { nanos: info.nanos, format: format ?? info.format });
    });
  };
  const nested: string[] = [];
  for (const r of requests) {
    for (const path of fields.expand(r.field)) {
      // Fields of nested objects come grouped per object, under the nested field.
      if (fields.nestedPathOf(path) !== scope) {
        if (!nested.includes(path)) nested.push(path);
        continue;
      }
      const converted = read(source, path, path, r.format);
      if (converted.length) setOwn(out, path, converted);
    }
  }
  if (nested.length) {
    // In a nested object's own hit the source is wrapped under its path: group from the object.
    let object: unknown = source;
    for (const part of scope ? scope.split(".") : []) {
      object = (object as Record<string, unknown> | undefined)?.[part];
    }
    nestedSourceFields({ fields, read }, { source: object, base: scope }, nested, out);
  }
  return out;
}
