// Handlers of index templates: composable (`_index_template`), component (`_component_template`)
// and legacy (`_template`) ones, their simulation, and the `_cat` tables that list them, answered
// in the real engines' shapes and with their errors.

import {
  EngineError,
  esError,
  illegalArgument,
  resourceNotFound,
  validationFailed,
} from "../_errors.ts";
import { matchPattern } from "../_index/name_pattern.ts";
import { isJsonObject } from "../_json.ts";
import { parseMappings } from "../_state/mapping_merge.ts";
import { checkKnownSettings } from "../_state/setting_registry.ts";
import { flattenSettings, nestSettings } from "../_state/settings.ts";
import {
  type ComposableTemplate,
  type LegacyTemplate,
  mergeBodies,
  type TemplateBody,
} from "../_state/templates.ts";
import { catTable } from "./cat.ts";
import {
  bodyObject,
  boolParam,
  type EngineState,
  ok,
  type Reply,
  type RequestContext,
} from "./context.ts";

const COMPOSABLE_KEYS = [
  "index_patterns",
  "template",
  "composed_of",
  "priority",
  "version",
  "_meta",
  "data_stream",
  "allow_auto_create",
  "ignore_missing_component_templates",
  "deprecated",
];
const COMPONENT_KEYS = ["template", "version", "_meta", "deprecated"];
const TEMPLATE_KEYS = ["settings", "mappings", "aliases", "lifecycle", "data_stream_options"];
const LEGACY_KEYS = ["index_patterns", "order", "version", "settings", "mappings", "aliases"];

function unknownField(object: string, key: string): EngineError {
  return esError("x_content_parse_exception", `[1:2] [${object}] unknown field [${key}]`);
}

function checkKeys(body: Record<string, unknown>, allowed: string[], object: string): void {
  for (const key of Object.keys(body)) if (!allowed.includes(key)) throw unknownField(object, key);
}

function patterns(raw: unknown): string[] {
  if (raw === undefined) throw illegalArgument("Required [index_patterns]");
  return (Array.isArray(raw) ? raw : [raw]).map(String);
}

/** The settings, mappings and aliases of a template's `template` part (or a legacy body). */
function readBody(raw: Record<string, unknown>): Partial<TemplateBody> {
  const out: Partial<TemplateBody> = {};
  if (raw.settings !== undefined) out.settings = flattenSettings(raw.settings);
  if (isJsonObject(raw.mappings)) out.mappings = structuredClone(raw.mappings);
  if (isJsonObject(raw.aliases)) out.aliases = structuredClone(raw.aliases);
  return out;
}

/** Settings checks, worded as each product words them for a template. */
function checkSettings(ctx: RequestContext, name: string, settings: Record<string, string>): void {
  try {
    checkKnownSettings(settings);
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    if (ctx.state.flavour === "opensearch") throw esError("settings_exception", e.message);
    throw esError(
      "invalid_index_template_exception",
      `index_template [${name}] invalid, cause [Validation Failed: 1: ${e.message};]`,
    );
  }
}

/** Settings checks of a component or legacy template: OpenSearch words them as `settings_exception`. */
function checkPlainSettings(ctx: RequestContext, settings: Record<string, string>): void {
  try {
    checkKnownSettings(settings);
  } catch (e) {
    if (!(e instanceof EngineError) || ctx.state.flavour !== "opensearch") throw e;
    throw esError("settings_exception", e.message);
  }
}

/** Mapping checks of a composed template, with the real engines' chain of causes. */
function checkMappings(
  ctx: RequestContext,
  name: string,
  mappings: Record<string, unknown>,
  kind: string,
): void {
  try {
    parseMappings(mappings, "create", ctx.state.flavour);
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    throw illegalArgument(
      `${kind} [${name}] template after composition is invalid`,
      illegalArgument(`invalid composite mappings for [${name}]`, e),
    );
  }
}

function numberField(raw: unknown, field: string, fallback: number): number {
  if (raw === undefined || raw === null) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n)) {
    throw esError(
      "x_content_parse_exception",
      `[1:2] [index_template] failed to parse field [${field}]`,
    );
  }
  return n;
}

/** Reads and checks a composable template body (as stored, and as `_simulate` takes it). */
function readComposable(
  ctx: RequestContext,
  name: string,
  body: Record<string, unknown>,
): ComposableTemplate {
  checkKeys(body, COMPOSABLE_KEYS, "index_template");
  const index_patterns = patterns(body.index_patterns);
  let template: Partial<TemplateBody> | undefined;
  if (body.template !== undefined) {
    if (!isJsonObject(body.template)) throw unknownField("index_template", "template");
    checkKeys(body.template, TEMPLATE_KEYS, "template");
    template = readBody(body.template);
  }
  if (index_patterns.includes("*") && template?.settings?.["index.hidden"] !== undefined) {
    throw validationFailed("global composable templates may not specify the setting index.hidden");
  }
  const composed_of = Array.isArray(body.composed_of) ? body.composed_of.map(String) : [];
  const priority = body.priority === undefined || body.priority === null
    ? undefined
    : numberField(body.priority, "priority", 0);
  const extra: Record<string, unknown> = {};
  for (const key of ["version", "_meta", "allow_auto_create", "deprecated"]) {
    if (body[key] !== undefined && body[key] !== null) extra[key] = body[key];
  }
  if (body.data_stream !== undefined && body.data_stream !== null) {
    const given = isJsonObject(body.data_stream) ? body.data_stream : {};
    extra.data_stream = ctx.state.flavour === "elasticsearch"
      ? { hidden: false, allow_custom_routing: false, ...given }
      : { timestamp_field: { name: "@timestamp" }, ...given };
  }
  if (Array.isArray(body.ignore_missing_component_templates)) {
    extra.ignore_missing_component_templates = body.ignore_missing_component_templates.map(String);
  }
  const templates = ctx.state.cluster.templates;
  const ignored = (extra.ignore_missing_component_templates ?? []) as string[];
  const missing = composed_of.filter((c) => !templates.component.has(c) && !ignored.includes(c));
  if (missing.length > 0) {
    throw esError(
      "invalid_index_template_exception",
      `index_template [${name}] invalid, cause [index template [${name}] specifies component templates [${
        missing.join(", ")
      }] that do not exist]`,
    );
  }
  const same = templates.overlapping(name, index_patterns).filter(([, t]) =>
    (t.priority ?? 0) === (priority ?? 0)
  );
  if (same.length > 0) {
    throw illegalArgument(
      `index template [${name}] has index patterns [${
        index_patterns.join(", ")
      }] matching patterns from existing templates [${
        same.map(([n]) => n).join(", ")
      }] with patterns (${
        same.map(([n, t]) => `${n} => [${t.index_patterns.join(", ")}]`).join(",")
      }) that have the same priority [${
        priority ?? 0
      }], multiple index templates may not match during index creation, please use a different priority`,
    );
  }
  const stored: ComposableTemplate = { index_patterns, composed_of, extra };
  if (priority !== undefined) stored.priority = priority;
  if (template) stored.template = template;
  const composed = templates.compose(stored);
  checkSettings(ctx, name, composed.settings);
  checkMappings(ctx, name, composed.mappings, "composable template");
  return stored;
}

function datesOf(state: EngineState, before: Record<string, unknown> | undefined) {
  if (state.flavour !== "elasticsearch") return {};
  const now = state.now();
  return {
    created_date_millis: before?.created_date_millis ?? now,
    modified_date_millis: now,
  };
}

/** `PUT|POST /_index_template/{name}`. */
export function putIndexTemplateHandler(ctx: RequestContext): Reply {
  const name = ctx.p.name!;
  const templates = ctx.state.cluster.templates;
  const before = templates.composable.get(name);
  if (before && boolParam(ctx, "create")) {
    throw illegalArgument(`index template [${name}] already exists`);
  }
  const stored = readComposable(ctx, name, bodyObject(ctx) ?? {});
  Object.assign(stored.extra, datesOf(ctx.state, before?.extra));
  templates.composable.set(name, stored);
  return ok({ acknowledged: true });
}

/** A template part as GET shows it (`flat_settings` keeps settings flat). */
function bodyView(ctx: RequestContext, body: Partial<TemplateBody>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (body.settings && Object.keys(body.settings).length > 0) {
    // OpenSearch shows a composable or component template's settings nested whatever is asked.
    const flat = ctx.state.flavour === "elasticsearch" && boolParam(ctx, "flat_settings");
    out.settings = flat ? body.settings : nestSettings(body.settings);
  }
  if (body.mappings) out.mappings = sortedMappings(body.mappings);
  if (body.aliases) out.aliases = body.aliases;
  return out;
}

/** Mappings with their `properties` in name order, as the real engines keep them. */
function sortedMappings(mappings: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...mappings };
  if (isJsonObject(mappings.properties)) {
    const props: Record<string, unknown> = {};
    for (const key of Object.keys(mappings.properties).sort()) {
      const field = mappings.properties[key];
      props[key] = isJsonObject(field) ? sortedMappings(field) : field;
    }
    out.properties = props;
  }
  return out;
}

function composableView(ctx: RequestContext, t: ComposableTemplate): Record<string, unknown> {
  const out: Record<string, unknown> = { index_patterns: t.index_patterns };
  if (t.template) out.template = bodyView(ctx, t.template);
  if (ctx.state.flavour === "elasticsearch" || t.composed_of.length > 0) {
    out.composed_of = t.composed_of;
  }
  if (t.priority !== undefined) out.priority = t.priority;
  const { created_date_millis, modified_date_millis, ...rest } = t.extra;
  Object.assign(out, rest);
  if (created_date_millis !== undefined) {
    Object.assign(out, { created_date_millis, modified_date_millis });
  }
  return out;
}

/** The entries of `map` a comma-separated name list (wildcards allowed) selects, or a 404. */
function select<T>(
  map: Map<string, T>,
  names: string | undefined,
  missing: (name: string) => EngineError,
): { found: [string, T][]; none: boolean } {
  if (names === undefined) return { found: [...map], none: false };
  const list = names.split(",").map((n) => n.trim()).filter((n) => n !== "");
  const found = [...map].filter(([n]) => list.some((p) => p === "_all" || matchPattern(p, n)));
  if (found.length === 0 && list.length === 1 && !list[0]!.includes("*") && list[0] !== "_all") {
    throw missing(list[0]!);
  }
  return { found, none: found.length === 0 };
}

/** `GET /_index_template/{name?}`. */
export function getIndexTemplateHandler(ctx: RequestContext): Reply {
  const { found, none } = select(
    ctx.state.cluster.templates.composable,
    ctx.p.name,
    (n) => resourceNotFound(`index template matching [${n}] not found`),
  );
  const index_templates = found.map(([name, t]) => ({
    name,
    index_template: composableView(ctx, t),
  }));
  return ok({ index_templates }, none ? 404 : 200);
}

/** `HEAD /_index_template/{name}`, `/_component_template/{name}`, `/_template/{name}`. */
export function existsTemplateHandler(
  kind: "composable" | "component" | "legacy",
): (ctx: RequestContext) => Reply {
  return (ctx) => {
    const map: Map<string, unknown> = ctx.state.cluster.templates[kind];
    const list = ctx.p.name!.split(",");
    const any = [...map.keys()].some((n) => list.some((p) => matchPattern(p, n)));
    return { status: any ? 200 : 404 };
  };
}

/** `DELETE` of composable, component or legacy templates (comma-separated names, wildcards). */
export function deleteTemplateHandler(
  kind: "composable" | "component" | "legacy",
): (ctx: RequestContext) => Reply {
  return (ctx) => {
    const templates = ctx.state.cluster.templates;
    const map: Map<string, unknown> = templates[kind];
    const raw = ctx.p.name!;
    // OpenSearch takes a component template's name as one name (wildcards, no list).
    const literal = kind === "component" && ctx.state.flavour === "opensearch";
    const list = literal ? [raw] : raw.split(",").map((n) => n.trim()).filter((n) => n !== "");
    const names = [...map.keys()].filter((n) => list.some((p) => matchPattern(p, n)));
    const exact = list.filter((p) => !p.includes("*"));
    const absent = exact.filter((p) => !map.has(p));
    // Wildcards that match nothing delete nothing; a name that does not exist is a 404.
    if (absent.length > 0) {
      if (kind === "component" && ctx.state.flavour === "elasticsearch") {
        throw resourceNotFound(absent.join(","));
      }
      throw esError("index_template_missing_exception", `index_template [${raw}] missing`);
    }
    if (kind === "component") {
      const users = [...templates.composable].filter(([, t]) =>
        t.composed_of.some((c) => names.includes(c))
      );
      if (users.length > 0) {
        const used = names.filter((n) => users.some(([, t]) => t.composed_of.includes(n)));
        throw illegalArgument(
          `component templates [${
            used.join(", ")
          }] cannot be removed as they are still in use by index templates [${
            users.map(([n]) => n).join(", ")
          }]`,
        );
      }
    }
    for (const n of names) map.delete(n);
    return ok({ acknowledged: true });
  };
}

/** `PUT|POST /_component_template/{name}`. */
export function putComponentTemplateHandler(ctx: RequestContext): Reply {
  const name = ctx.p.name!;
  const templates = ctx.state.cluster.templates;
  const before = templates.component.get(name);
  if (before && boolParam(ctx, "create")) {
    throw illegalArgument(`component template [${name}] already exists`);
  }
  const body = bodyObject(ctx) ?? {};
  checkKeys(body, COMPONENT_KEYS, "component_template");
  if (!isJsonObject(body.template)) throw illegalArgument("Required [template]");
  checkKeys(body.template, TEMPLATE_KEYS, "template");
  const template = readBody(body.template);
  checkPlainSettings(ctx, template.settings ?? {});
  parseMappings(template.mappings ?? {}, "create", ctx.state.flavour);
  const extra: Record<string, unknown> = {};
  for (const key of ["version", "_meta", "deprecated"]) {
    if (body[key] !== undefined && body[key] !== null) extra[key] = body[key];
  }
  Object.assign(extra, datesOf(ctx.state, before?.extra));
  templates.component.set(name, { template, extra });
  return ok({ acknowledged: true });
}

/** `GET /_component_template/{name?}`. */
export function getComponentTemplateHandler(ctx: RequestContext): Reply {
  const { found, none } = select(
    ctx.state.cluster.templates.component,
    ctx.p.name,
    (n) => resourceNotFound(`component template matching [${n}] not found`),
  );
  const component_templates = found.map(([name, t]) => {
    const { created_date_millis, modified_date_millis, ...rest } = t.extra;
    const view: Record<string, unknown> = { template: bodyView(ctx, t.template), ...rest };
    if (created_date_millis !== undefined) {
      Object.assign(view, { created_date_millis, modified_date_millis });
    }
    return { name, component_template: view };
  });
  return ok({ component_templates }, none ? 404 : 200);
}

/** `PUT|POST /_template/{name}`: a legacy template. */
export function putLegacyTemplateHandler(ctx: RequestContext): Reply {
  const name = ctx.p.name!;
  const templates = ctx.state.cluster.templates;
  if (templates.legacy.has(name) && boolParam(ctx, "create")) {
    throw illegalArgument(`index_template [${name}] already exists`);
  }
  const body = bodyObject(ctx) ?? {};
  for (const key of Object.keys(body)) {
    if (!LEGACY_KEYS.includes(key)) {
      throw esError("parse_exception", `unknown key [${key}] in the template `);
    }
  }
  if (body.index_patterns === undefined) {
    throw validationFailed("index patterns are missing");
  }
  const index_patterns = patterns(body.index_patterns);
  const part = readBody(body);
  const settings = part.settings ?? {};
  checkPlainSettings(ctx, settings);
  const mappings = part.mappings ?? {};
  parseMappings(mappings, "create", ctx.state.flavour);
  const stored: LegacyTemplate = {
    index_patterns,
    order: numberField(ctx.params.get("order") ?? body.order, "order", 0),
    body: { settings, mappings, aliases: part.aliases ?? {} },
  };
  if (body.version !== undefined && body.version !== null) {
    stored.version = numberField(body.version, "version", 0);
  }
  templates.legacy.set(name, stored);
  return ok({ acknowledged: true });
}

/** `GET /_template/{name?}`: `{name: {order, version, index_patterns, settings, …}}`. */
export function getLegacyTemplateHandler(ctx: RequestContext): Reply {
  const map = ctx.state.cluster.templates.legacy;
  const names = ctx.p.name?.split(",").map((n) => n.trim());
  const out: Record<string, unknown> = {};
  for (const [name, t] of map) {
    if (names && !names.some((p) => p === "_all" || matchPattern(p, name))) continue;
    const view: Record<string, unknown> = { order: t.order };
    if (t.version !== undefined) view.version = t.version;
    view.index_patterns = t.index_patterns;
    view.settings = boolParam(ctx, "flat_settings")
      ? sortedFlat(t.body.settings)
      : nestSettings(t.body.settings);
    view.mappings = sortedMappings(t.body.mappings);
    view.aliases = t.body.aliases;
    out[name] = view;
  }
  const missing = names !== undefined && Object.keys(out).length === 0;
  return ok(out, missing ? 404 : 200);
}

function sortedFlat(settings: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(settings).sort()) out[key] = settings[key]!;
  return out;
}

/** What a simulation answers: the composed settings, mappings and aliases, and the overlaps. */
function simulation(
  ctx: RequestContext,
  name: string,
  t: ComposableTemplate,
  indexName: string,
): Record<string, unknown> {
  const templates = ctx.state.cluster.templates;
  const composed = templates.compose(t);
  const defaults = ctx.state.flavour === "elasticsearch"
    ? ctx.state.cluster.defaultIndexSettings
    : {};
  const body = mergeBodies([{ settings: defaults }, composed]);
  const aliases: Record<string, unknown> = {};
  for (const [alias, meta] of Object.entries(body.aliases)) {
    aliases[alias.replaceAll("{index}", indexName)] = meta;
  }
  return {
    template: {
      settings: nestSettings(body.settings),
      mappings: sortedMappings(body.mappings),
      aliases,
    },
    overlapping: templates.overlapping(name, t.index_patterns).map(([n, o]) => ({
      name: n,
      index_patterns: o.index_patterns,
    })),
  };
}

function simulatedName(prefix: string): string {
  return prefix + crypto.randomUUID().replace(/-/g, "").slice(0, 22).toLowerCase();
}

/** `POST /_index_template/_simulate_index/{name}`: what creating index `name` would take. */
export function simulateIndexHandler(ctx: RequestContext): Reply {
  const index = ctx.p.name!;
  const templates = ctx.state.cluster.templates;
  const [best, ...others] = templates.matching(index);
  if (!best) return ok({});
  const out = simulation(ctx, best[0], best[1], index);
  out.overlapping = others.map(([n, o]) => ({ name: n, index_patterns: o.index_patterns }));
  return ok(out);
}

/** `POST /_index_template/_simulate/{name?}`: a stored template, or the one in the body. */
export function simulateTemplateHandler(ctx: RequestContext): Reply {
  const body = bodyObject(ctx);
  const templates = ctx.state.cluster.templates;
  const named = ctx.p.name;
  if (body === undefined || Object.keys(body).length === 0) {
    if (named === undefined) {
      throw validationFailed(
        "either index name or index template body must be specified for simulation",
      );
    }
    const stored = templates.composable.get(named);
    if (!stored) {
      throw illegalArgument(`unable to simulate template [${named}] that does not exist`);
    }
    return ok(simulation(ctx, named, stored, simulatedName("simulate_template_index_")));
  }
  const name = named ?? simulatedName("simulate_template_");
  const t = readComposable(ctx, name, body);
  return ok(simulation(ctx, name, t, simulatedName("simulate_template_index_")));
}

/** `GET /_cat/templates/{name?}`: legacy templates, then composable ones. */
export function catTemplatesHandler(ctx: RequestContext): Reply {
  const templates = ctx.state.cluster.templates;
  const filter = ctx.p.name;
  const keep = (n: string) => filter === undefined || matchPattern(filter, n);
  const rows: Record<string, string>[] = [];
  for (const [name, t] of templates.legacy) {
    if (!keep(name)) continue;
    rows.push({
      name,
      index_patterns: `[${t.index_patterns.join(", ")}]`,
      order: String(t.order),
      ...(t.version === undefined ? {} : { version: String(t.version) }),
      composed_of: "",
    });
  }
  for (const [name, t] of templates.composable) {
    if (!keep(name)) continue;
    const version = t.extra.version;
    rows.push({
      name,
      index_patterns: `[${t.index_patterns.join(", ")}]`,
      order: String(t.priority ?? 0),
      ...(version === undefined ? {} : { version: String(version) }),
      composed_of: `[${t.composed_of.join(", ")}]`,
    });
  }
  return catTable(ctx, rows, ["name", "index_patterns", "order", "version", "composed_of"]);
}

/** `GET /_cat/component_templates/{name?}` (Elasticsearch). */
export function catComponentTemplatesHandler(ctx: RequestContext): Reply {
  const templates = ctx.state.cluster.templates;
  const filter = ctx.p.name;
  const rows: Record<string, string>[] = [];
  for (const [name, t] of templates.component) {
    if (filter !== undefined && !matchPattern(filter, name)) continue;
    const props = t.template.mappings?.properties;
    const meta = t.extra._meta;
    const version = t.extra.version;
    rows.push({
      name,
      ...(version === undefined ? {} : { version: String(version) }),
      alias_count: String(Object.keys(t.template.aliases ?? {}).length),
      mapping_count: String(isJsonObject(props) ? Object.keys(props).length : 0),
      settings_count: String(Object.keys(t.template.settings ?? {}).length),
      metadata_count: String(isJsonObject(meta) ? Object.keys(meta).length : 0),
      included_in: `[${
        [...templates.composable].filter(([, c]) => c.composed_of.includes(name)).map(([n]) => n)
          .join(", ")
      }]`,
    });
  }
  return catTable(ctx, rows, [
    "name",
    "version",
    "alias_count",
    "mapping_count",
    "settings_count",
    "metadata_count",
    "included_in",
  ]);
}
