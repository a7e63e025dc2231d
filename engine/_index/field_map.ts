// Flattens an index's mappings into one entry per searchable field path.

import { type Analyzer, analyzerFor, keywordAnalyzer } from "./analysis.ts";
import { nameMatcher } from "./name_pattern.ts";
import { bigIntToIp, ipToBigInt } from "./ip_address.ts";
import { precisionOf } from "./number_precision.ts";
import type { FieldMapping, Mappings } from "./types.ts";
import { isVectorType, readVectorSpec, type VectorSpec } from "./vectors.ts";

/** How a field is indexed. */
export type FieldKind = "text" | "keyword" | "number" | "date" | "boolean";

/** One searchable field path with its kind and analysis. */
export interface FieldInfo {
  /** Dotted path, e.g. `user.name.keyword`. */
  readonly path: string;
  /** Index kind. */
  readonly kind: FieldKind;
  /** The mapping type as written (`long`, `ip`, `text`, ...). */
  readonly type: string;
  /** Analyzer for text; keyword analyzer otherwise. */
  readonly analyzer: Analyzer;
  /** Search analyzer (text only). */
  readonly searchAnalyzer: Analyzer;
  /** Date format, if any. */
  readonly format?: string;
  /** Whole-number type: values are truncated. */
  readonly integer: boolean;
  /** `date_nanos`: values are epoch nanoseconds. */
  readonly nanos: boolean;
  /** Rounding to the stored precision (float, half_float, scaled_float), or null. */
  readonly round: ((n: number) => number) | null;
  /** Keyword values longer than this are not indexed (`ignore_above`). */
  readonly ignoreAbove: number;
  /** Keyword normalizer (`lowercase`), identity otherwise. */
  readonly normalize: (s: string) => string;
  /** Multi-fields fed from the same source value. */
  readonly subFields: FieldInfo[];
  /** `doc_values` (true unless the mapping turns them off). */
  readonly docValues: boolean;
  /** A vector field's mapping (`dense_vector`, `knn_vector`). */
  readonly vector?: VectorSpec;
}

/** The numeric field types of Elasticsearch's mappings. */
export const NUMBER_TYPES: ReadonlySet<string> = new Set([
  "long",
  "integer",
  "short",
  "byte",
  "double",
  "float",
  "half_float",
  "scaled_float",
  "unsigned_long",
]);
/** The range field types of Elasticsearch's mappings. */
export const RANGE_TYPES: ReadonlySet<string> = new Set([
  "integer_range",
  "float_range",
  "long_range",
  "double_range",
  "date_range",
  "ip_range",
]);
const INTEGER_TYPES = new Set(["long", "integer", "short", "byte", "unsigned_long"]);

function kindOf(type: string): FieldKind {
  if (type === "text" || type === "match_only_text") return "text";
  if (NUMBER_TYPES.has(type)) return "number";
  if (type === "date" || type === "date_nanos") return "date";
  if (type === "boolean") return "boolean";
  return "keyword";
}

/** An address as the real engines print it back (`0:0::ffff:9.0.0.1` → `9.0.0.1`), else as is. */
function canonicalIp(s: string): string {
  const n = ipToBigInt(s);
  return n === null ? s : bigIntToIp(n);
}

function makeInfo(path: string, m: FieldMapping): FieldInfo {
  const type = m.type ?? "keyword";
  const kind = kindOf(type);
  const analyzer = kind === "text" ? analyzerFor(m.analyzer) : keywordAnalyzer;
  const searchAnalyzer = kind === "text"
    ? analyzerFor((m.search_analyzer as string | undefined) ?? m.analyzer)
    : keywordAnalyzer;
  const subFields: FieldInfo[] = [];
  for (const [name, sub] of Object.entries(m.fields ?? {})) {
    subFields.push(makeInfo(`${path}.${name}`, sub));
  }
  return {
    path,
    kind,
    type,
    analyzer,
    searchAnalyzer,
    format: m.format,
    integer: INTEGER_TYPES.has(type),
    nanos: type === "date_nanos",
    round: precisionOf(type, m.scaling_factor),
    ignoreAbove: typeof m.ignore_above === "number" ? m.ignore_above : Infinity,
    normalize: type === "ip"
      ? canonicalIp
      : m.normalizer === "lowercase"
      ? (s) => s.toLowerCase()
      : (s) => s,
    subFields,
    docValues: m.doc_values !== false,
    ...(isVectorType(type) ? { vector: readVectorSpec(path, m) } : {}),
  };
}

/** All fields of an index by dotted path: top-level ones, object children and multi-fields. */
export class FieldMap {
  /** Every searchable field by path. */
  readonly byPath: Map<string, FieldInfo> = new Map();
  /** Fields fed directly from a source path (no multi-fields). */
  readonly roots: Map<string, FieldInfo> = new Map();
  /** Object paths (for `exists` on objects and wildcard expansion). */
  readonly objects: Set<string> = new Set();
  /** Paths mapped as `nested` (each also in `objects`). */
  readonly nested: Set<string> = new Set();
  /** The map of every field, whatever the scope; this map itself unless made by `scope`. */
  full: FieldMap = this;
  /** Nested paths whose fields are copied into the parent scope or the root (`include_in_*`). */
  readonly #includes = new Map<string, { parent: boolean; root: boolean }>();
  readonly #scopes = new Map<string, FieldMap>();

  constructor(mappings: Mappings | undefined) {
    this.#walk("", mappings?.properties ?? {});
  }

  /** The innermost nested path holding `path` ("" for the root). */
  nestedPathOf(path: string): string {
    let best = "";
    for (const n of this.nested) {
      if (n.length > best.length && path.startsWith(n + ".")) best = n;
    }
    return best;
  }

  /**
   * The fields a query sees in one nested scope (`""` for the root documents, else a nested
   * path): those whose innermost nested path is the scope, plus those copied into it by
   * `include_in_parent` / `include_in_root`. As in Elasticsearch, a query outside a `nested`
   * query does not see the fields of nested objects.
   */
  scope(path: string): FieldMap {
    const full = this.full;
    if (full !== this) return full.scope(path);
    if (this.nested.size === 0) return this;
    let scoped = this.#scopes.get(path);
    if (!scoped) {
      scoped = new FieldMap(undefined);
      scoped.full = this;
      for (const o of this.objects) scoped.objects.add(o);
      for (const n of this.nested) scoped.nested.add(n);
      const visible = (field: string): boolean => {
        const own = this.nestedPathOf(field);
        if (own === path) return true;
        const flags = this.#includes.get(own);
        return (flags?.root === true && path === "") ||
          (flags?.parent === true && this.nestedPathOf(own) === path);
      };
      for (const [p, info] of this.roots) if (visible(p)) scoped.roots.set(p, info);
      for (const [p, info] of this.byPath) if (visible(p)) scoped.byPath.set(p, info);
      this.#scopes.set(path, scoped);
    }
    return scoped;
  }

  #walk(prefix: string, props: Record<string, FieldMapping>): void {
    for (const [name, m] of Object.entries(props)) {
      const path = prefix + name;
      if (m.properties || m.type === "object" || m.type === "nested") {
        this.objects.add(path);
        if (m.type === "nested") {
          this.nested.add(path);
          this.#includes.set(path, {
            parent: m.include_in_parent === true,
            root: m.include_in_root === true,
          });
        }
        this.#walk(path + ".", m.properties ?? {});
        continue;
      }
      if (m.type === "alias" && typeof m.path === "string") continue;
      const info = makeInfo(path, m);
      this.roots.set(path, info);
      this.#add(info);
    }
  }

  #add(info: FieldInfo): void {
    this.byPath.set(info.path, info);
    for (const sub of info.subFields) this.#add(sub);
  }

  /** Field paths matching a pattern with `*` wildcards. */
  expand(pattern: string): string[] {
    if (!pattern.includes("*")) return this.byPath.has(pattern) ? [pattern] : [];
    const matches = nameMatcher(pattern);
    return [...this.byPath.keys()].filter(matches);
  }
}

const fieldMapCache = new Map<string, FieldMap>();

/** The field map of a mappings object, cached by its JSON text (mappings change in place). */
export function fieldMapOf(mappings: Mappings | undefined): FieldMap {
  const key = JSON.stringify(mappings?.properties ?? {});
  let map = fieldMapCache.get(key);
  if (!map) {
    map = new FieldMap(mappings);
    if (fieldMapCache.size >= 256) fieldMapCache.delete(fieldMapCache.keys().next().value!);
    fieldMapCache.set(key, map);
  }
  return map;
}
