// Handlers of GET/PUT _settings and GET/PUT _mapping.

import { checkWholeMapping, mappingLimits } from "../_state/mapping_limits.ts";
import { esError } from "../_errors.ts";
import type { IndexState } from "../_state/index_state.ts";
import { mergeMappings, parseMappings, withMappingDefaults } from "../_state/mapping_merge.ts";
import { mappingView } from "../_state/mapping_view.ts";
import { matchPattern } from "../_index/name_pattern.ts";
import {
  checkUpdatable,
  type FlatSettings,
  flattenSettings,
  nestSettings,
  validateSettings,
} from "../_state/settings.ts";
import { checkKnownSettings, defaultsBeside } from "../_state/setting_registry.ts";
import { boolParam, ok, type Reply, type RequestContext, requireBody } from "./context.ts";
import { targets } from "./targets.ts";

/** Java's `ZonedDateTime.toString` in UTC: seconds and millis only when not zero. */
function javaInstant(ms: number): string {
  const iso = new Date(ms).toISOString();
  if (iso.endsWith(":00.000Z")) return `${iso.slice(0, 16)}Z`;
  if (iso.endsWith(".000Z")) return `${iso.slice(0, 19)}Z`;
  return iso;
}

/**
 * With `human`: the settings plus `index.creation_date_string` and `index.version.created_string`
 * (the release a version id such as `8150099` stands for), as Elasticsearch adds them.
 */
export function humanSettings(settings: FlatSettings): FlatSettings {
  const out: FlatSettings = { ...settings };
  const created = Number(settings["index.creation_date"]);
  if (Number.isFinite(created)) out["index.creation_date_string"] = javaInstant(created);
  const version = Number(settings["index.version.created"]);
  if (Number.isInteger(version) && version > 0) {
    const major = Math.floor(version / 1_000_000);
    const minor = Math.floor(version / 10_000) % 100;
    const revision = Math.floor(version / 100) % 100;
    out["index.version.created_string"] = `${major}.${minor}.${revision}`;
  }
  return out;
}

/** How a request asks for an index's settings. */
export interface SettingsView {
  /** `flat_settings`: dotted keys rather than nested objects. */
  flat?: boolean;
  /** The settings asked for, by name or pattern (all when absent, empty or `_all`). */
  names?: string[];
  /** `human`: the readable forms of dates and versions beside the numbers. */
  human?: boolean;
}

/** An index's settings, nested (or flat with `flat_settings`); `human` adds the readable ones. */
export function settingsView(index: IndexState, view: SettingsView): Record<string, unknown> {
  const { flat = false, names, human = false } = view;
  let settings: FlatSettings = human ? humanSettings(index.settings) : index.settings;
  if (names && names.length > 0 && !names.includes("_all")) {
    settings = Object.fromEntries(
      Object.entries(settings).filter(([k]) => names.some((n) => matchPattern(n, k))),
    );
  }
  return flat ? { ...settings } : nestSettings(settings);
}

/** GET /_settings, /{index}/_settings[/{name}]. */
export function getSettingsHandler(ctx: RequestContext): Reply {
  const flat = boolParam(ctx, "flat_settings");
  const names = ctx.p.name?.split(",");
  const out: Record<string, unknown> = {};
  const withDefaults = boolParam(ctx, "include_defaults");
  for (const index of targets(ctx, { includeClosed: true })) {
    const entry: Record<string, unknown> = {
      settings: settingsView(index, { flat, names, human: boolParam(ctx, "human") }),
    };
    if (withDefaults) {
      let defaults = defaultsBeside(index.settings);
      if (names && names.length > 0 && !names.includes("_all")) {
        defaults = Object.fromEntries(
          Object.entries(defaults).filter(([k]) => names.some((n) => matchPattern(n, k))),
        );
      }
      entry.defaults = flat ? defaults : nestSettings(defaults);
    }
    out[index.name] = entry;
  }
  return ok(out);
}

/** PUT /_settings, /{index}/_settings. */
export function putSettingsHandler(ctx: RequestContext): Reply {
  const body = requireBody(ctx);
  const changes = flattenSettings(body.settings ?? body);
  checkKnownSettings(changes, ctx.state.flavour);
  validateSettings(changes);
  const preserve = boolParam(ctx, "preserve_existing");
  const found = targets(ctx, { includeClosed: true });
  checkUpdatable(changes, found.filter((i) => !i.closed).map((i) => `${i.name}/${i.uuid}`));
  for (const index of found) {
    for (const [key, value] of Object.entries(changes)) {
      // `preserve_existing` only adds settings the index does not have yet.
      if (preserve && Object.hasOwn(index.settings, key)) continue;
      if (value === "") delete index.settings[key];
      else index.settings[key] = value;
    }
  }
  return ok({ acknowledged: true });
}

/** GET /_mapping, /{index}/_mapping. */
export function getMappingHandler(ctx: RequestContext): Reply {
  const out: Record<string, unknown> = {};
  for (const index of targets(ctx, { includeClosed: true })) {
    out[index.name] = { mappings: mappingView(index.mappings) };
  }
  return ok(out);
}

/** PUT /{index}/_mapping. */
export function putMappingHandler(ctx: RequestContext): Reply {
  const body = requireBody(ctx);
  const parsed = parseMappings(body, "put", ctx.state.flavour);
  const incoming = ctx.state.flavour === "elasticsearch" ? withMappingDefaults(parsed) : parsed;
  const found = targets(ctx);
  if (found.length === 0) {
    throw esError("index_not_found_exception", `no such index [${ctx.p.index ?? "_all"}]`);
  }
  const merged = found.map((index) => [index, mergeMappings(index.mappings, incoming)] as const);
  for (const [index, mappings] of merged) {
    checkWholeMapping(mappings.properties, mappingLimits(index.settings));
  }
  for (const [index, mappings] of merged) index.mappings = mappings;
  return ok({ acknowledged: true });
}
