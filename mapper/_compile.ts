// Turns a declaration (an annotation or a mapper-file statement) into a CompiledStatement:
// defaults resolved, result types looked up, options checked once.

import { CommandSyntaxError, type ResultSet } from "../driver/mod.ts";
import { bindTemplate, type EntityClass } from "../template/mod.ts";
import type { MapperFile, MapperStatement, ResultMapDef } from "../xml/mod.ts";
import type { CompiledStatement } from "./_statement_runner.ts";
import { inStatement, MapperError, type StatementSite } from "./errors.ts";
import {
  defaultReturns,
  RETURNS,
  type Returns,
  type StatementDef,
  type StatementKind,
} from "./statement_options.ts";

/** Looks up a result type named in a mapper file. */
export type TypeLookup = (name: string) => EntityClass | "map" | undefined;

function checkReturns(returns: unknown, site: StatementSite): Returns {
  if (!RETURNS.includes(returns as Returns)) {
    throw new MapperError(
      `returns ${JSON.stringify(returns)} is not one of ${RETURNS.join(", ")}`,
      site,
    );
  }
  return returns as Returns;
}

/** Compiles an annotation (or defineMapper) declaration. */
export function compileAnnotation(
  def: StatementDef & { kind: StatementKind },
  site: StatementSite & { statementId: string },
  mapperEntity: EntityClass | undefined,
): CompiledStatement {
  const { options } = def;
  const returns = checkReturns(options.returns ?? defaultReturns(def.kind), site);
  const entity = options.entity === "map" ? undefined : options.entity ?? mapperEntity;
  if (options.params !== undefined && !Array.isArray(options.params)) {
    throw new MapperError("params must be an array of names", site);
  }
  if (options.keyProperty !== undefined && !options.useGeneratedKeys) {
    throw new MapperError("keyProperty needs useGeneratedKeys: true", site);
  }
  const text = def.text;
  checkSyntax(text, site);
  return Object.freeze({
    id: site.statementId,
    site,
    kind: def.kind,
    returns,
    ...(entity ? { entity } : {}),
    ...(options.params ? { params: options.params } : {}),
    useGeneratedKeys: options.useGeneratedKeys === true,
    ...(options.keyProperty ? { keyProperty: options.keyProperty } : {}),
    render: (args: Record<string, unknown>) => ({ text, args }),
  });
}

/**
 * Scans a statement text once, so a malformed text fails when the mapper is created rather than
 * on first use (binding errors need the real arguments and wait for the call).
 */
function checkSyntax(text: string, site: StatementSite): void {
  try {
    bindTemplate(text, {});
  } catch (error) {
    if (error instanceof CommandSyntaxError) throw inStatement(error, site);
  }
}

const KIND: Record<MapperStatement["kind"], StatementKind> = {
  select: "query",
  insert: "insert",
  update: "update",
  delete: "delete",
  execute: "execute",
};

/** How a mapper-file statement is compiled: where its types come from, what a mapper class adds. */
export interface FileStatementOptions {
  /** Resolves `resultType`/`type` names to entity classes (the Configuration's registry). */
  readonly lookup: TypeLookup;
  /** `@Returns` of a mapper class over the file, else the statement kind's default. */
  readonly returns?: Returns;
  /** The entity of a mapper class over the file (used without a resultType/resultMap). */
  readonly entity?: EntityClass;
  /** The named parameters a mapper class method declares. */
  readonly params?: readonly string[];
}

/** Compiles a mapper-file statement. */
export function compileFileStatement(
  file: MapperFile,
  statement: MapperStatement,
  site: StatementSite & { statementId: string },
  options: FileStatementOptions,
): CompiledStatement {
  const { lookup, ...overrides } = options;
  const kind = KIND[statement.kind];
  const where = `${file.file ?? file.namespace}:${statement.line}`;
  const returns = checkReturns(overrides.returns ?? defaultReturns(kind), site);
  let entity: EntityClass | undefined;
  let mapRows: ((rs: ResultSet) => unknown[]) | undefined;
  if (statement.resultMap !== undefined) {
    const map = file.resultMaps.get(statement.resultMap);
    if (!map) {
      throw new MapperError(
        `resultMap "${statement.resultMap}" (${where}) is not declared in ${file.namespace}; add a <resultMap id="${statement.resultMap}">`,
        site,
      );
    }
    mapRows = resultMapRows(map, map.type === undefined ? "map" : typeOf(map.type, lookup, site));
  } else if (statement.resultType !== undefined) {
    const type = typeOf(statement.resultType, lookup, site);
    if (type !== "map") entity = type;
  } else {
    entity = overrides.entity;
  }
  return Object.freeze({
    id: site.statementId,
    site,
    kind,
    returns,
    ...(entity ? { entity } : {}),
    ...(mapRows ? { mapRows } : {}),
    ...(overrides.params ? { params: overrides.params } : {}),
    fromFile: true,
    useGeneratedKeys: statement.useGeneratedKeys === true,
    ...(statement.keyProperty ? { keyProperty: statement.keyProperty } : {}),
    render: (args: Record<string, unknown>) => statement.render(args),
  });
}

const MAP_TYPES = new Set(["map", "hashmap", "java.util.map", "java.util.hashmap", "object"]);

function typeOf(name: string, lookup: TypeLookup, site: StatementSite): EntityClass | "map" {
  const found = lookup(name);
  if (found) return found;
  if (MAP_TYPES.has(name.toLowerCase())) return "map";
  throw new MapperError(
    `result type "${name}" is not registered; call config.registerType("${name}", TheClass) before adding the mapper file`,
    site,
  );
}

function resultMapRows(map: ResultMapDef, type: EntityClass | "map"): (rs: ResultSet) => unknown[] {
  const mapped = new Set(map.columns.map((c) => c.column));
  return (rs) => {
    const out: unknown[] = [];
    while (rs.next()) {
      const doc = (rs.getJson("_DOC") ?? {}) as Record<string, unknown>;
      const target = (type === "map" ? {} : new type()) as Record<string, unknown>;
      for (const [key, value] of Object.entries(doc)) {
        // Auto-mapping: other fields by name — every field for a map, own fields for a class.
        if (mapped.has(key) || key === "__proto__") continue;
        if (type === "map" || Object.hasOwn(target, key)) target[key] = value;
      }
      // The key is the document _id on every path (selectById, lists, annotation queries,
      // lambda, streams, result maps): it addresses the document, a _source copy may differ.
      const key = rs.getColumns().includes("_ID") ? rs.getObject("_ID") : null;
      for (const { column, property, id } of map.columns) {
        const value = id && key !== null && key !== "" ? key : doc[column];
        if (value !== undefined && property !== "__proto__") target[property] = value;
      }
      out.push(target);
    }
    return out;
  };
}
