// Index templates: composable ones (`_index_template`), the component templates they are composed
// of (`_component_template`) and legacy ones (`_template`), kept as given and resolved into the
// settings, mappings and aliases a new index starts with.

import { setOwn } from "../_index/own.ts";
import { isJsonObject } from "../_json.ts";
import { matchPattern } from "../_index/name_pattern.ts";
import type { FlatSettings } from "./settings.ts";

/** Settings, mappings and aliases of a template (or of what a new index starts with). */
export interface TemplateBody {
  /** Settings, flat (`index.number_of_shards` → "1"). */
  settings: FlatSettings;
  /** Mappings as given (not yet parsed). */
  mappings: Record<string, unknown>;
  /** Aliases by name, each as given (`{index}` in a name stands for the new index's name). */
  aliases: Record<string, unknown>;
}

/** A component template (`PUT /_component_template/{name}`). */
export interface ComponentTemplate {
  /** What it contributes. */
  template: Partial<TemplateBody>;
  /** `version`, `_meta`, `deprecated` and the dates, as given. */
  extra: Record<string, unknown>;
}

/** A composable index template (`PUT /_index_template/{name}`). */
export interface ComposableTemplate {
  /** Index name patterns. */
  index_patterns: string[];
  /** Its own settings, mappings and aliases (applied after its components'). */
  template?: Partial<TemplateBody>;
  /** Component templates, merged in this order. */
  composed_of: string[];
  /** Higher wins (none given counts as 0). */
  priority?: number;
  /** `version`, `_meta`, `data_stream`, `allow_auto_create`, … as given. */
  extra: Record<string, unknown>;
}

/** A legacy index template (`PUT /_template/{name}`). */
export interface LegacyTemplate {
  /** Index name patterns. */
  index_patterns: string[];
  /** Higher orders apply later (they win). */
  order: number;
  /** `version`, when given. */
  version?: number;
  /** Settings, mappings and aliases. */
  body: TemplateBody;
}

/** What index creation takes from the templates that match a name. */
export interface ResolvedTemplate extends TemplateBody {
  /** The composable template that won, if one did. */
  composable?: string;
  /** Whether the winning template creates data streams only. */
  dataStream: boolean;
}

/**
 * Merges mappings `over` onto `base`: objects' `properties` merge field by field (a field of the
 * same name defined again replaces the earlier one unless both are objects), other top-level
 * objects merge key by key, anything else is replaced.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mergeMappings } from "./templates.ts";
 * const merged = mergeMappings(
 *   { properties: { a: { type: "keyword" }, o: { properties: { x: { type: "long" } } } } },
 *   { properties: { a: { type: "text" }, o: { properties: { y: { type: "long" } } } } },
 * );
 * assert.deepEqual(merged, {
 *   properties: { a: { type: "text" }, o: { properties: { x: { type: "long" }, y: { type: "long" } } } },
 * });
 * ```
 */
export function mergeMappings(
  base: Record<string, unknown>,
  over: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const before = out[key];
    if (key === "properties" && isJsonObject(before) && isJsonObject(value)) {
      setOwn(out, key, mergeProperties(before, value));
    } else if (isJsonObject(before) && isJsonObject(value)) {
      setOwn(out, key, { ...before, ...value });
    } else {
      setOwn(out, key, value);
    }
  }
  return out;
}

function mergeProperties(
  base: Record<string, unknown>,
  over: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [name, field] of Object.entries(over)) {
    const before = out[name];
    const objects = isJsonObject(before) && isJsonObject(field) &&
      isJsonObject(before.properties) &&
      isJsonObject(field.properties);
    setOwn(
      out,
      name,
      objects
        ? mergeMappings(before as Record<string, unknown>, field as Record<string, unknown>)
        : field,
    );
  }
  return out;
}

/**
 * Whether two index patterns can match one same name: the text before their first `*` and after
 * their last `*` must agree (a name without `*` must match the other pattern).
 */
export function patternsOverlap(a: string, b: string): boolean {
  if (!a.includes("*")) return matchPattern(b, a);
  if (!b.includes("*")) return matchPattern(a, b);
  const head = (p: string) => p.slice(0, p.indexOf("*"));
  const tail = (p: string) => p.slice(p.lastIndexOf("*") + 1);
  const [ha, hb, ta, tb] = [head(a), head(b), tail(a), tail(b)];
  return (ha.startsWith(hb) || hb.startsWith(ha)) && (ta.endsWith(tb) || tb.endsWith(ta));
}

/** Every template of the cluster. */
export class Templates {
  /** Composable index templates by name. */
  readonly composable: Map<string, ComposableTemplate> = new Map();
  /** Component templates by name. */
  readonly component: Map<string, ComponentTemplate> = new Map();
  /** Legacy templates by name. */
  readonly legacy: Map<string, LegacyTemplate> = new Map();

  /** Composable templates other than `name` whose patterns overlap `patterns`. */
  overlapping(name: string, patterns: readonly string[]): [string, ComposableTemplate][] {
    return [...this.composable].filter(([other, t]) =>
      other !== name &&
      t.index_patterns.some((p) => patterns.some((q) => patternsOverlap(p, q)))
    );
  }

  /** The composable templates matching index `name`, highest priority first. */
  matching(name: string): [string, ComposableTemplate][] {
    return [...this.composable]
      .filter(([, t]) => t.index_patterns.some((p) => matchPattern(p, name)))
      .sort(([, a], [, b]) => (b.priority ?? 0) - (a.priority ?? 0));
  }

  /** A composable template's components and its own part, merged in order. */
  compose(template: ComposableTemplate): TemplateBody {
    const parts = template.composed_of.flatMap((c) => {
      const found = this.component.get(c);
      return found ? [found.template] : [];
    });
    if (template.template) parts.push(template.template);
    return mergeBodies(parts);
  }

  /**
   * What a new index named `name` starts with: the matching composable template of the highest
   * priority, or (when none matches) every matching legacy template, lower orders first.
   */
  resolve(name: string): ResolvedTemplate | undefined {
    const [best] = this.matching(name);
    if (best) {
      return {
        ...this.compose(best[1]),
        composable: best[0],
        dataStream: best[1].extra.data_stream !== undefined,
      };
    }
    const legacy = [...this.legacy.values()]
      .filter((t) => t.index_patterns.some((p) => matchPattern(p, name)))
      .sort((a, b) => a.order - b.order);
    if (legacy.length === 0) return undefined;
    return { ...mergeBodies(legacy.map((t) => t.body)), dataStream: false };
  }
}

/** Merges template parts in order: later settings, mappings and aliases win. */
export function mergeBodies(parts: readonly Partial<TemplateBody>[]): TemplateBody {
  const out: TemplateBody = { settings: {}, mappings: {}, aliases: {} };
  for (const part of parts) {
    out.settings = { ...out.settings, ...part.settings };
    if (part.mappings) out.mappings = mergeMappings(out.mappings, part.mappings);
    out.aliases = { ...out.aliases, ...part.aliases };
  }
  return out;
}
