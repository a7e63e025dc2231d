// Where mapper declarations are kept: decorators write into the class's standard decorator
// metadata, defineMapper into a side table; both give the same MapperDef. Also the link from a
// mapper instance to the session that runs its statements.

import type { EntityClass } from "../template/mod.ts";
import type { MapperFile } from "../xml/mod.ts";
import type { Returns, StatementDef } from "./statement_options.ts";
import type { RunContext } from "./_statement_runner.ts";
import type { WriteOptions } from "./_entity_writes.ts";
import type { LambdaTemplate } from "../lambda/mod.ts";
import { MapperError } from "./errors.ts";

(Symbol as { metadata?: symbol }).metadata ??= Symbol.for("Symbol.metadata");

/** A class whose instances are mappers. */
// deno-lint-ignore no-explicit-any
export type MapperClass<M = unknown> = new (...args: any[]) => M;

/** How a class is marked as a mapper: annotations only, or a mapper file plus annotations. */
export type MapperMark =
  | { readonly kind: "simple" }
  | { readonly kind: "ref"; readonly source: string | MapperFile };

/** Everything declared about a mapper class. */
export interface MapperDef {
  mark?: MapperMark;
  namespace?: string;
  entity?: EntityClass;
  /** Result shapes of mapper-file statements, by method name. */
  returns: Map<string, Returns>;
  /** Parameter names of mapper-file statements, by method name (`listByUserName(name, page)`). */
  params: Map<string, readonly string[]>;
  /** Statement declarations, by method name. */
  statements: Map<string, StatementDef>;
}

const KEY = Symbol.for("searchvisitor.mapper");
const defined = new WeakMap<object, MapperDef>();

function copy(parent: MapperDef | undefined): MapperDef {
  return {
    mark: parent?.mark, // a subclass of a mapper is a mapper; its namespace is its own name
    namespace: undefined,
    entity: parent?.entity,
    returns: new Map(parent?.returns),
    params: new Map(parent?.params),
    statements: new Map(parent?.statements),
  };
}

/** The (own) declaration record of a class being decorated. */
export function defOfMetadata(metadata: DecoratorMetadataObject | undefined): MapperDef {
  if (!metadata) {
    throw new TypeError(
      "decorator metadata is unavailable: use TC39 standard decorators (no experimentalDecorators), or defineMapper()",
    );
  }
  const record = metadata as Record<symbol, MapperDef | undefined>;
  if (!Object.hasOwn(record, KEY)) record[KEY] = copy(record[KEY]);
  return record[KEY]!;
}

/** The declaration record defineMapper writes (inheriting what decorators declared). */
export function defForDefine(type: MapperClass): MapperDef {
  let def = defined.get(type);
  if (!def) {
    def = copy(mapperDefOf(type));
    defined.set(type, def);
  }
  return def;
}

function ownDefOf(type: MapperClass): MapperDef | undefined {
  const own = defined.get(type);
  if (own) return own;
  if (!Object.hasOwn(type, Symbol.metadata)) return undefined;
  const metadata = (type as { [Symbol.metadata]?: Record<symbol, MapperDef | undefined> | null })[
    Symbol.metadata
  ];
  return metadata?.[KEY];
}

/**
 * What is declared about a class (defineMapper first, then decorators), merged over what its
 * parent classes declare (not every runtime chains decorator metadata to the parent's), or
 * undefined.
 */
export function mapperDefOf(type: MapperClass): MapperDef | undefined {
  const own = ownDefOf(type);
  const parentType: unknown = Object.getPrototypeOf(type);
  const parent = typeof parentType === "function" && parentType !== Function.prototype
    ? mapperDefOf(parentType as MapperClass)
    : undefined;
  if (!parent) return own;
  return {
    mark: own?.mark ?? parent.mark,
    namespace: own?.namespace, // each class has its own statement ids
    entity: own?.entity ?? parent.entity,
    returns: new Map([...parent.returns, ...own?.returns ?? []]),
    params: new Map([...parent.params, ...own?.params ?? []]),
    statements: new Map([...parent.statements, ...own?.statements ?? []]),
  };
}

/** Records `returns` and `params` of mapper-file methods, checking the names given. */
export function setFileMethodOptions(
  def: MapperDef,
  options: {
    returns?: Record<string, Returns>;
    params?: Record<string, readonly string[]>;
  },
  mapper: string,
): void {
  for (const [method, shape] of Object.entries(options.returns ?? {})) {
    def.returns.set(method, shape);
  }
  for (const [method, names] of Object.entries(options.params ?? {})) {
    if (!Array.isArray(names) || names.some((n) => typeof n !== "string" || n === "")) {
      throw new MapperError('params must be an array of parameter names, e.g. ["userName"]', {
        mapper,
        method,
      });
    }
    def.params.set(method, Object.freeze([...names]));
  }
}

/** Runs the statements of one mapper instance; BaseMapper methods read the rest. */
export interface MapperRuntime {
  /** Runs the statement of a method. */
  invoke(method: string, args: readonly unknown[]): Promise<unknown>;
  /** The mapper class name, for errors. */
  readonly mapper: string;
  /** What statements run on. */
  readonly executor: RunContext;
  /** The mapper's entity, when declared. */
  readonly entity?: EntityClass;
  /** How BaseMapper writes refresh. */
  readonly writes: WriteOptions;
  /** The session's LambdaTemplate (BaseMapper's builders and sample queries). */
  readonly lambda: LambdaTemplate;
}

const runtimes = new WeakMap<object, MapperRuntime>();

/** Links a mapper instance to its runtime (done by `session.createMapper`). */
export function attachRuntime(instance: object, runtime: MapperRuntime): void {
  runtimes.set(instance, runtime);
}

/** The runtime of a mapper instance, or an error telling how to create the mapper. */
export function runtimeOf(instance: unknown, method: string): MapperRuntime {
  const runtime = instance !== null && typeof instance === "object"
    ? runtimes.get(instance)
    : undefined;
  if (runtime) return runtime;
  const name = (instance as { constructor?: { name?: string } } | null)?.constructor?.name;
  throw new MapperError(
    "this mapper was not created by a session; create it with session.createMapper(" +
      `${name ?? "MapperClass"})`,
    { mapper: name, method },
  );
}

/** The method body a statement declaration installs: it forwards to the instance's runtime. */
export function forwarder(method: string): (...args: unknown[]) => Promise<unknown> {
  const fn = function (this: unknown, ...args: unknown[]): Promise<unknown> {
    try {
      return runtimeOf(this, method).invoke(method, args);
    } catch (error) {
      return Promise.reject(error);
    }
  };
  Object.defineProperty(fn, "name", { value: method });
  return fn;
}
