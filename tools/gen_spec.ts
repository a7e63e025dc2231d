// Derives the checker's compact API specification (check/_spec_data.ts) from Elasticsearch's own
// specification, as shipped by the npm package @elastic/request-converter (Apache-2.0) in
// dist/schema.json. Build-time only: the checker reads the generated file and has no dependency.
//
// Usage: deno task gen:spec [--schema path/to/schema.json]
//
// What the compact form keeps: every endpoint (name, methods and paths, path and URL parameters
// with their kinds), and the body schemas of the request bodies the checker covers (BODY_APIS):
// the search body with the whole query DSL and every aggregation, count, explain, by-query,
// update, mget, index creation and mappings, aliases, reindex, scroll and point in time.

const PACKAGE = "@elastic/request-converter";
const VERSION = "9.5.0";
const OUT = new URL("../check/_spec_data.ts", import.meta.url);

/** The endpoints whose request body the checker checks; other bodies are taken as they are. */
const BODY_APIS = [
  "search",
  "count",
  "explain",
  "delete_by_query",
  "update_by_query",
  "update",
  "mget",
  "indices.create",
  "indices.put_mapping",
  "indices.update_aliases",
  "indices.put_alias",
  "indices.validate_query",
  "reindex",
  "scroll",
  "clear_scroll",
  "open_point_in_time",
  "close_point_in_time",
  "async_search.submit",
  "msearch",
  "field_caps",
  "termvectors",
  "indices.analyze",
  "search_template",
];

/** The `_bulk` types the checker reads action lines with. */
const BULK_TYPES = ["OperationContainer", "UpdateAction"];

// deno-lint-ignore no-explicit-any
type Any = any;
const BUILTIN: Record<string, string> = {
  string: "string",
  boolean: "boolean",
  number: "number",
  null: "null",
  binary: "any",
  void: "any",
};
const NUMBERS = new Set([
  "integer",
  "long",
  "float",
  "double",
  "short",
  "byte",
  "uint",
  "ulong",
  "DurationValue",
  "EpochTime",
]);

async function loadSchema(path: string | undefined): Promise<Any> {
  if (path) return JSON.parse(await Deno.readTextFile(path));
  const specifier = `npm:${PACKAGE}@${VERSION}/dist/schema.json`;
  return (await import(specifier, { with: { type: "json" } })).default;
}

function key(name: Any): string {
  return `${name.namespace}.${name.name}`;
}

/** Builds the compact specification. */
export function compact(schema: Any): Any {
  const types = new Map<string, Any>(schema.types.map((t: Any) => [key(t.name), t]));
  const shortNames = new Map<string, string>();
  const used = new Map<string, number>();
  for (const t of schema.types) used.set(t.name.name, (used.get(t.name.name) ?? 0) + 1);
  for (const t of schema.types) {
    const k = key(t.name);
    shortNames.set(
      k,
      used.get(t.name.name) === 1
        ? t.name.name
        : `${t.name.namespace.split(".").pop()}.${t.name.name}`,
    );
  }
  const out: Record<string, Any> = {};
  const queue: string[] = [];

  function ref(name: Any, generics: Map<string, Any>): Any {
    const k = key(name);
    if (generics.has(k)) return generics.get(k);
    if (name.namespace === "_builtins") return BUILTIN[name.name] ?? "any";
    if (name.namespace === "_types" && NUMBERS.has(name.name)) return "number";
    if (name.namespace === "_types" && name.name === "Field") return "field";
    const def = types.get(k);
    if (!def) return "any";
    if (def.kind === "type_alias" && !def.variants && def.type.kind === "instance_of") {
      const inner = def.type.type;
      if (
        inner.namespace === "_builtins" || (inner.namespace === "_types" && NUMBERS.has(inner.name))
      ) {
        return ref(inner, generics);
      }
    }
    if (def.generics?.length) return "any";
    const short = shortNames.get(k)!;
    if (!(short in out)) {
      out[short] = null;
      queue.push(k);
    }
    return "@" + short;
  }

  function expr(t: Any, generics: Map<string, Any>): Any {
    switch (t.kind) {
      case "instance_of":
        return ref(t.type, generics);
      case "array_of":
        return ["[]", expr(t.value, generics)];
      case "union_of":
        return ["|", ...t.items.map((i: Any) => expr(i, generics))];
      case "dictionary_of": {
        const field = t.key.kind === "instance_of" && t.key.type.name === "Field" ? 1 : 0;
        return ["{}", expr(t.value, generics), t.singleKey ? 1 : 0, field];
      }
      case "literal_value":
        return ["=", t.value];
      default:
        return "any";
    }
  }

  function properties(def: Any, acc: Record<string, Any>, aliases: Record<string, string>) {
    if (def.inherits) {
      const parent = types.get(key(def.inherits.type));
      if (parent) properties(parent, acc, aliases);
    }
    for (const p of def.properties ?? []) {
      // [type, required?, containerProperty?]
      acc[p.name] = [expr(p.type, new Map())];
      if (p.required || p.containerProperty) acc[p.name].push(p.required ? 1 : 0);
      if (p.containerProperty) acc[p.name].push(1);
      for (const a of p.aliases ?? []) aliases[a] = p.name;
    }
  }

  function define(k: string) {
    const def = types.get(k)!;
    const short = shortNames.get(k)!;
    if (def.kind === "enum") {
      out[short] = { e: def.members.flatMap((m: Any) => [m.name, ...(m.aliases ?? [])]) };
    } else if (def.kind === "type_alias") {
      const entry: Any = { t: expr(def.type, new Map()) };
      if (def.variants?.kind === "internal_tag") entry.tag = def.variants.tag;
      out[short] = entry;
    } else if (def.kind === "interface") {
      const p: Record<string, Any> = {};
      const a: Record<string, string> = {};
      properties(def, p, a);
      const entry: Any = { p };
      if (Object.keys(a).length) entry.a = a;
      if (def.variants?.kind === "container") entry.c = 1;
      if (def.shortcutProperty) entry.s = def.shortcutProperty;
      for (const b of def.behaviors ?? []) {
        if (b.type.name === "AdditionalProperties" || b.type.name === "AdditionalProperty") {
          entry.x = expr(b.generics?.[1] ?? { kind: "user_defined_value" }, new Map());
          if (b.type.name === "AdditionalProperty") entry.x1 = 1;
          const k = b.generics?.[0];
          if (k?.kind === "instance_of" && k.type.name === "Field") entry.xf = 1;
        }
      }
      out[short] = entry;
    } else out[short] = "any";
  }

  const endpoints: Any[] = [];
  const common = new Map<string, Any>();
  for (const behaviour of ["CommonQueryParameters", "CommonCatQueryParameters"]) {
    const def = types.get(`_spec_utils.${behaviour}`);
    const p: Record<string, Any> = {};
    if (def) { for (const prop of def.properties) p[prop.name] = paramKind(prop.type); }
    common.set(behaviour, p);
  }
  // A URL parameter's kind: "b" boolean, "n" number, "s" any other text, or "@Name" when its
  // values are an enum's members (also in a list of them: `expand_wildcards=open,hidden`).
  function paramKind(t: Any): string {
    const e = expr(t, new Map());
    if (e === "boolean") return "b";
    if (e === "number") return "n";
    const member = Array.isArray(e) && e[0] === "|" ? e[1] : e;
    if (typeof member === "string" && member.startsWith("@")) {
      const def = types.get([...shortNames].find(([, v]) => "@" + v === member)?.[0] ?? "");
      if (def?.kind === "enum") return member;
    }
    return "s";
  }
  for (const endpoint of schema.endpoints) {
    const request = types.get(key(endpoint.request));
    const query: Record<string, string> = {};
    for (const b of request?.attachedBehaviors ?? []) Object.assign(query, common.get(b) ?? {});
    for (const q of request?.query ?? []) query[q.name] = paramKind(q.type);
    let body: Any = 0;
    if (BODY_APIS.includes(endpoint.name) && request?.body) {
      if (request.body.kind === "properties") {
        const p: Record<string, Any> = {};
        const a: Record<string, string> = {};
        properties({ properties: request.body.properties }, p, a);
        const short = `${endpoint.name}.Body`;
        out[short] = Object.keys(a).length ? { p, a } : { p };
        body = "@" + short;
      } else if (request.body.kind === "value") body = expr(request.body.value, new Map());
    }
    endpoints.push([
      endpoint.name,
      endpoint.urls.map((u: Any) => [u.methods.join(","), u.path]),
      query,
      body,
      endpoint.requestBodyRequired ? 1 : 0,
    ]);
  }
  // The `_bulk` action lines (a body of alternating actions and documents, left out above since
  // its documents are generic): the checker reads the action containers by these names.
  for (const name of BULK_TYPES) {
    const k = `_global.bulk.${name}`;
    if (types.has(k)) ref(types.get(k).name, new Map());
  }
  while (queue.length) define(queue.shift()!);
  return { endpoints, types: out };
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--schema");
  const schema = await loadSchema(at >= 0 ? Deno.args[at + 1] : undefined);
  const spec = compact(schema);
  const json = JSON.stringify(spec);
  const text = `// GENERATED by tools/gen_spec.ts (deno task gen:spec) — do not edit.
// Derived from dist/schema.json of the npm package ${PACKAGE}@${VERSION}, which ships the
// elasticsearch-specification (https://github.com/elastic/elasticsearch-specification),
// licensed under the Apache License 2.0; see check/NOTICE. Reduced to the endpoints, their URL
// parameters and the request-body types the checker uses.

/** The compact specification as JSON text (parsed once by \`_spec.ts\`). */
export const SPEC_JSON: string = ${JSON.stringify(json)};
`;
  await Deno.writeTextFile(OUT, text);
  // The committed file is what `deno fmt` leaves, so regenerating changes nothing by itself.
  await new Deno.Command(Deno.execPath(), { args: ["fmt", "-q", OUT.pathname] }).output();
  console.log(
    `wrote ${OUT.pathname}: ${spec.endpoints.length} endpoints, ${
      Object.keys(spec.types).length
    } types, ${Math.round(text.length / 1024)} KiB`,
  );
}
