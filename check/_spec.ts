// The compact API specification (generated into `_spec_data.ts` by `deno task gen:spec`) and the
// endpoint index built over it once: method + path → endpoint, URL parameters, body type.

import { SPEC_JSON } from "./_spec_data.ts";

/** A type expression of the compact form (see tools/gen_spec.ts). */
export type TypeExpr = string | readonly unknown[];

/** A type definition of the compact form. */
export interface TypeDef {
  /** Enum members. */
  readonly e?: readonly string[];
  /** Alias target. */
  readonly t?: TypeExpr;
  /** Internal tag of a tagged union alias. */
  readonly tag?: string;
  /** Properties: name → [type, required?, containerProperty?]. */
  readonly p?: Readonly<Record<string, readonly unknown[]>>;
  /** Property aliases (`aggs` → `aggregations`). */
  readonly a?: Readonly<Record<string, string>>;
  /** A container: exactly one variant key. */
  readonly c?: 1;
  /** The shortcut property (a scalar stands for it). */
  readonly s?: string;
  /** The type of additional properties. */
  readonly x?: TypeExpr;
  /** Additional properties are keyed by field names. */
  readonly xf?: 1;
}

/** One endpoint: name, URL templates (methods, segments), URL parameters, body type. */
export interface Endpoint {
  readonly name: string;
  readonly urls: readonly { methods: readonly string[]; segments: readonly string[] }[];
  readonly params: Readonly<Record<string, string>>;
  readonly body: TypeExpr | 0;
  readonly bodyRequired: boolean;
  /** The path parameter names. */
  readonly pathParams: ReadonlySet<string>;
}

/** The specification the checker uses. */
export interface Spec {
  readonly endpoints: readonly Endpoint[];
  readonly types: Readonly<Record<string, TypeDef>>;
}

let loaded: Spec | undefined;

/** The Elasticsearch specification, parsed on first use. */
export function elasticSpec(): Spec {
  if (loaded) return loaded;
  const raw = JSON.parse(SPEC_JSON) as {
    endpoints: [string, [string, string][], Record<string, string>, TypeExpr | 0, 0 | 1][];
    types: Record<string, TypeDef>;
  };
  const endpoints = raw.endpoints.map(([name, urls, params, body, required]) => {
    const pathParams = new Set<string>();
    const parsed = urls.map(([methods, path]) => {
      const segments = path.split("/").filter((s) => s !== "");
      for (const s of segments) if (s.startsWith("{")) pathParams.add(s.slice(1, -1));
      return { methods: methods.split(","), segments };
    });
    return { name, urls: parsed, params, body, bodyRequired: required === 1, pathParams };
  });
  loaded = { endpoints, types: raw.types };
  return loaded;
}
