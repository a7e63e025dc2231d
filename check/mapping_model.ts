/**
 * An index mapping as the checker reads it: every field path with its type, multi-fields, object
 * and nested paths, the `dynamic` setting that governs each path, and `*` name patterns.
 *
 * @module
 */

/** One mapped field. */
export interface MappedField {
  /** The mapping type (`text`, `keyword`, `long`, `date`, `object`, `nested`, …). */
  readonly type: string;
  /** True when a `text` field has `fielddata: true`. */
  readonly fielddata?: boolean;
  /** The date `format` of a date field. */
  readonly format?: string;
}

/**
 * The fields of one or more indices, read from a `GET _mapping` response, a `mappings` object or
 * a `{ properties }` object.
 *
 * @example
 * ```ts
 * import { MappingModel } from "@searchvisitor/searchvisitor/check";
 * import assert from "node:assert/strict";
 *
 * const model = MappingModel.from({
 *   users: { mappings: { properties: {
 *     name: { type: "text", fields: { raw: { type: "keyword" } } },
 *     address: { properties: { city: { type: "keyword" } } },
 *   } } },
 * });
 * assert.equal(model.field("name.raw")?.type, "keyword");
 * assert.equal(model.field("address.city")?.type, "keyword");
 * assert.equal(model.field("address")?.type, "object");
 * assert.equal(model.field("nope"), undefined);
 * assert.equal(model.dynamicAt("nope"), true);
 * ```
 */
export class MappingModel {
  readonly #fields = new Map<string, MappedField>();
  /** The `dynamic` setting by object path (`""` for the root): true, false, strict, runtime. */
  readonly #dynamic = new Map<string, string>();

  /**
   * Reads a mapping snapshot.
   *
   * @param snapshot A `GET _mapping` response, a `mappings` object or `{ properties }`.
   * @returns The model (fields of every index merged).
   * @example
   * ```ts
   * import { MappingModel } from "@searchvisitor/searchvisitor/check";
   * import assert from "node:assert/strict";
   *
   * const model = MappingModel.from({ dynamic: "strict", properties: { age: { type: "long" } } });
   * assert.equal(model.field("age")?.type, "long");
   * assert.equal(model.dynamicAt("other"), false);
   * ```
   */
  static from(snapshot: unknown): MappingModel {
    const model = new MappingModel();
    const obj = snapshot as Record<string, unknown> | null;
    if (!obj || typeof obj !== "object") return model;
    if ("properties" in obj || "dynamic" in obj) model.#read(obj, "");
    else if ("mappings" in obj) model.#read(obj.mappings as Record<string, unknown>, "");
    else {
      for (const index of Object.values(obj)) {
        const mappings = (index as Record<string, unknown> | null)?.mappings;
        if (mappings && typeof mappings === "object") {
          model.#read(mappings as Record<string, unknown>, "");
        }
      }
    }
    return model;
  }

  #read(mapping: Record<string, unknown>, prefix: string): void {
    const dynamic = mapping.dynamic;
    if (dynamic !== undefined) this.#dynamic.set(prefix, String(dynamic));
    const properties = mapping.properties as Record<string, Record<string, unknown>> | undefined;
    if (!properties || typeof properties !== "object") return;
    for (const [name, def] of Object.entries(properties)) {
      if (!def || typeof def !== "object") continue;
      const path = prefix ? `${prefix}.${name}` : name;
      const type = typeof def.type === "string"
        ? def.type
        : def.properties !== undefined
        ? "object"
        : "object";
      const field: MappedField = {
        type,
        ...(def.fielddata === true ? { fielddata: true } : {}),
        ...(typeof def.format === "string" ? { format: def.format } : {}),
      };
      this.#fields.set(path, field);
      if (def.properties) this.#read(def, path);
      const multi = def.fields as Record<string, Record<string, unknown>> | undefined;
      if (multi && typeof multi === "object") {
        for (const [sub, subDef] of Object.entries(multi)) {
          if (subDef && typeof subDef.type === "string") {
            this.#fields.set(`${path}.${sub}`, {
              type: subDef.type,
              ...(subDef.fielddata === true ? { fielddata: true } : {}),
            });
          }
        }
      }
    }
  }

  /**
   * A copy that can take more fields without changing this one.
   *
   * @returns The copy.
   * @example
   * ```ts
   * import { MappingModel } from "@searchvisitor/searchvisitor/check";
   * import assert from "node:assert/strict";
   *
   * const model = new MappingModel();
   * model.copy().add("x", { type: "long" });
   * assert.equal(model.size, 0);
   * ```
   */
  copy(): MappingModel {
    const copy = new MappingModel();
    for (const [k, v] of this.#fields) copy.#fields.set(k, v);
    for (const [k, v] of this.#dynamic) copy.#dynamic.set(k, v);
    return copy;
  }

  /**
   * Adds a field (runtime fields of a request, fields an entity declares).
   *
   * @param path The dotted path.
   * @param field Its type.
   * @example
   * ```ts
   * import { MappingModel } from "@searchvisitor/searchvisitor/check";
   * import assert from "node:assert/strict";
   *
   * const model = new MappingModel();
   * model.add("day", { type: "keyword" });
   * assert.equal(model.field("day")?.type, "keyword");
   * ```
   */
  add(path: string, field: MappedField): void {
    this.#fields.set(path, field);
  }

  /**
   * The field at a path, if mapped.
   *
   * @param path The dotted path.
   * @returns The field, or undefined.
   * @example
   * ```ts
   * import { MappingModel } from "@searchvisitor/searchvisitor/check";
   * import assert from "node:assert/strict";
   *
   * assert.equal(MappingModel.from({ properties: { a: { type: "long" } } }).field("a")?.type, "long");
   * ```
   */
  field(path: string): MappedField | undefined {
    return this.#fields.get(path);
  }

  /**
   * The number of mapped paths.
   *
   * @example
   * ```ts
   * import { MappingModel } from "@searchvisitor/searchvisitor/check";
   * import assert from "node:assert/strict";
   *
   * assert.equal(MappingModel.from({ properties: { a: { type: "long" } } }).size, 1);
   * ```
   */
  get size(): number {
    return this.#fields.size;
  }

  /**
   * Every mapped path.
   *
   * @returns The paths, in mapping order.
   * @example
   * ```ts
   * import { MappingModel } from "@searchvisitor/searchvisitor/check";
   * import assert from "node:assert/strict";
   *
   * const model = MappingModel.from({ properties: { a: { properties: { b: { type: "long" } } } } });
   * assert.deepEqual(model.paths(), ["a", "a.b"]);
   * ```
   */
  paths(): string[] {
    return [...this.#fields.keys()];
  }

  /**
   * True when a name pattern (`*` wildcards) matches at least one mapped path.
   *
   * @param pattern The pattern, such as `user.*`.
   * @returns Whether any field matches.
   * @example
   * ```ts
   * import { MappingModel } from "@searchvisitor/searchvisitor/check";
   * import assert from "node:assert/strict";
   *
   * const model = MappingModel.from({ properties: { title_en: { type: "text" } } });
   * assert.ok(model.matches("title_*"));
   * assert.ok(!model.matches("body_*"));
   * ```
   */
  matches(pattern: string): boolean {
    const re = patternRe(pattern);
    for (const path of this.#fields.keys()) if (re.test(path)) return true;
    return false;
  }

  /**
   * Whether documents may add fields under a path (the nearest `dynamic` setting above it;
   * `true` when none is set, as the engines default).
   *
   * @param path The dotted path of a field that is not mapped.
   * @returns True when the field could appear through dynamic mapping.
   * @example
   * ```ts
   * import { MappingModel } from "@searchvisitor/searchvisitor/check";
   * import assert from "node:assert/strict";
   *
   * const model = MappingModel.from({ dynamic: false, properties: {
   *   meta: { type: "object", dynamic: true, properties: {} } } });
   * assert.equal(model.dynamicAt("meta.anything"), true);
   * assert.equal(model.dynamicAt("other"), false);
   * ```
   */
  dynamicAt(path: string): boolean {
    const setting = this.#settingAt(path);
    return setting !== "false" && setting !== "strict" && setting !== "leaf";
  }

  /**
   * Whether a document with a field at this unmapped path is refused (the nearest `dynamic`
   * setting above it is `strict`).
   *
   * @param path The dotted path of a field that is not mapped.
   * @returns True when indexing such a document fails.
   * @example
   * ```ts
   * import { MappingModel } from "@searchvisitor/searchvisitor/check";
   * import assert from "node:assert/strict";
   *
   * const model = MappingModel.from({ dynamic: "strict", properties: {
   *   meta: { type: "object", dynamic: false, properties: {} } } });
   * assert.equal(model.strictAt("other"), true);
   * assert.equal(model.strictAt("meta.anything"), false);
   * ```
   */
  strictAt(path: string): boolean {
    return this.#settingAt(path) === "strict";
  }

  #settingAt(path: string): string {
    const parts = path.split(".");
    for (let n = parts.length - 1; n >= 0; n--) {
      const prefix = parts.slice(0, n).join(".");
      const setting = this.#dynamic.get(prefix);
      if (setting !== undefined) return setting;
      if (n > 0) {
        const f = this.#fields.get(prefix);
        if (f && f.type !== "object" && f.type !== "nested") return "leaf";
      }
    }
    return "true";
  }
}

/**
 * The mappings of several indices, each kept apart, so that a command is checked against the
 * mapping of the index it addresses: a name, a comma list, a `*` pattern or an alias (with the
 * aliases of a `GET _alias` response). Several indices addressed at once are merged.
 *
 * @example
 * ```ts
 * import { checkCommand, IndexMappings } from "@searchvisitor/searchvisitor/check";
 * import assert from "node:assert/strict";
 *
 * const mappings = IndexMappings.from(
 *   { users: { mappings: { dynamic: "strict", properties: { name: { type: "text" } } } },
 *     orders: { mappings: { properties: { total: { type: "long" } } } } },
 *   { users: { aliases: { people: {} } } },
 * );
 * assert.equal(mappings.for("people")?.field("name")?.type, "text");
 * assert.equal(mappings.for("orders")?.field("name"), undefined);
 * const [d] = checkCommand('GET /people/_search {"sort": ["nmae"]}', { mappings });
 * assert.equal(d!.code, "unknown-field");
 * assert.deepEqual(checkCommand('GET /orders/_search {"sort": ["total"]}', { mappings }), []);
 * ```
 */
export class IndexMappings {
  readonly #indices = new Map<string, unknown>();
  readonly #aliases = new Map<string, string[]>();
  readonly #models = new Map<string, MappingModel | undefined>();

  /**
   * Reads a `GET _mapping` response and, optionally, a `GET _alias` response.
   *
   * @param snapshot `{ index: { mappings } }` for each index.
   * @param aliases `{ index: { aliases: { name: {} } } }`; by default the `aliases` beside each
   *   index's `mappings` in the snapshot.
   * @returns The mappings.
   * @example
   * ```ts
   * import { IndexMappings } from "@searchvisitor/searchvisitor/check";
   * import assert from "node:assert/strict";
   *
   * const m = IndexMappings.from({ a: { mappings: {} }, b: { mappings: {} } });
   * assert.deepEqual(m.indices(), ["a", "b"]);
   * ```
   */
  static from(snapshot: unknown, aliases?: unknown): IndexMappings {
    const out = new IndexMappings();
    if (snapshot && typeof snapshot === "object") {
      for (const [name, entry] of Object.entries(snapshot)) {
        if (entry && typeof entry === "object") out.#indices.set(name, entry);
      }
    }
    // Without a `GET _alias` response, aliases kept beside each index's mappings are read.
    aliases ??= snapshot;
    if (aliases && typeof aliases === "object") {
      for (const [index, entry] of Object.entries(aliases)) {
        const names = (entry as { aliases?: unknown } | null)?.aliases;
        if (!names || typeof names !== "object") continue;
        for (const alias of Object.keys(names)) {
          out.#aliases.set(alias, [...(out.#aliases.get(alias) ?? []), index]);
        }
      }
    }
    return out;
  }

  /**
   * The index names known.
   *
   * @returns The names, in snapshot order.
   * @example
   * ```ts
   * import { IndexMappings } from "@searchvisitor/searchvisitor/check";
   * import assert from "node:assert/strict";
   *
   * assert.deepEqual(IndexMappings.from({}).indices(), []);
   * ```
   */
  indices(): string[] {
    return [...this.#indices.keys()];
  }

  /**
   * The mapping a request target addresses, or undefined when it names no known index.
   *
   * @param target An index name, alias, `*` pattern or comma list of them.
   * @returns The merged mapping of the indices it addresses.
   * @example
   * ```ts
   * import { IndexMappings } from "@searchvisitor/searchvisitor/check";
   * import assert from "node:assert/strict";
   *
   * const m = IndexMappings.from({
   *   "logs-1": { mappings: { properties: { a: { type: "long" } } } },
   *   "logs-2": { mappings: { properties: { b: { type: "keyword" } } } },
   * });
   * assert.equal(m.for("logs-*")?.size, 2);
   * assert.equal(m.for("metrics"), undefined);
   * ```
   */
  for(target: string): MappingModel | undefined {
    if (this.#models.has(target)) return this.#models.get(target);
    const names = new Set<string>();
    for (const part of target.split(",")) {
      const p = part.trim();
      if (p === "" || p.startsWith("-")) continue;
      if (p === "_all" || p.includes("*")) {
        const re = p === "_all" ? /^/ : patternRe(p);
        for (const n of this.#indices.keys()) if (re.test(n)) names.add(n);
        for (const [alias, indices] of this.#aliases) {
          if (re.test(alias)) { for (const n of indices) names.add(n); }
        }
      } else if (this.#indices.has(p)) names.add(p);
      else for (const n of this.#aliases.get(p) ?? []) names.add(n);
    }
    const model = names.size === 0 ? undefined : MappingModel.from(
      Object.fromEntries([...names].map((n) => [n, this.#indices.get(n)])),
    );
    if (this.#models.size >= 1024) this.#models.clear();
    this.#models.set(target, model);
    return model;
  }
}

function patternRe(pattern: string): RegExp {
  return new RegExp(
    "^" + pattern.split("*").map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*") + "$",
  );
}
