// The `check` option of a Configuration: statements are checked against the API specification
// when they are registered, and against the live mapping of the index they address on first
// use; findings are warned about or refused.

import {
  checkCommand,
  type CheckOptions,
  type Diagnostic,
  formatDiagnostic,
  MappingModel,
  targetIndex,
} from "../check/mod.ts";
import { ResponseError } from "../driver/mod.ts";
import {
  type BoundTemplate,
  type EntityClass,
  getEntityMeta,
  type JdbcTemplate,
  mappingOf,
} from "../template/mod.ts";
import { MapperError, type StatementSite } from "./errors.ts";

/** How a Configuration checks its statements: `off`, `warn` (the default sink is console.warn)
 * or `error` (registration throws a MapperError listing the findings). */
export type CheckMode = "off" | "warn" | "error";

/** What the registration check reads of a registry: each statement's text and parameters. */
export interface CheckedStatements {
  statement(id: string): {
    readonly params?: readonly string[];
    readonly entity?: EntityClass;
    render(args: Record<string, unknown>): { text: string };
  };
}

/** How a Configuration checks: its mode, the checker's options and where warnings go. */
export interface CheckSettings {
  /** `off`, `warn` or `error`. */
  readonly mode: CheckMode;
  /** The checker's options (flavour, mappings, …). */
  readonly options: CheckOptions;
  /** Where findings go in `warn` mode. */
  readonly warn: (message: string) => void;
}

/** A registration check: the settings, and whether the statements came from a mapper class. */
export interface RegistrationCheck extends CheckSettings {
  /** Statements of a mapper class name their parameters (`:name`); those of a file do not. */
  readonly named: boolean;
}

/** The codes a mapping adds: what a live check reports for a statement checked at registration. */
const FIELD_CODES: ReadonlySet<string> = new Set([
  "unknown-field",
  "field-type",
  "date-format",
  "field-value",
]);

/**
 * Checks the statements `ids` of `registry`; statements that cannot render without arguments
 * (a `<foreach>` over a required collection) are left to their first use. Returns the ids it
 * checked. In `error` mode it throws before returning (the caller undoes the registration).
 */
export function checkStatements(
  registry: CheckedStatements,
  ids: readonly string[],
  check: RegistrationCheck,
): string[] {
  const { mode, options, warn, named } = check;
  if (mode === "off") return [];
  const problems: string[] = [];
  const checked: string[] = [];
  for (const id of ids) {
    const statement = registry.statement(id);
    let text: string;
    try {
      text = statement.render({}).text;
    } catch {
      continue;
    }
    checked.push(id);
    const parameters = named && statement.params?.length ? { parameters: statement.params } : {};
    const declared = options.mapping || options.mappings || !statement.entity
      ? undefined
      : entityMapping(statement.entity);
    const found = checkCommand(text, {
      ...options,
      ...parameters,
      ...(declared ? { mapping: declared } : {}),
    });
    const shown = mode === "error" ? found.filter((d) => d.severity === "error") : found;
    for (const d of shown) problems.push(`${id}: ${formatDiagnostic(text, d)}`);
  }
  if (problems.length > 0 && mode === "error") {
    throw new MapperError(`statements do not pass the check:\n${problems.join("\n")}`, {});
  }
  for (const p of problems) warn(p);
  return checked;
}

const entityMappings = new WeakMap<EntityClass, MappingModel | undefined>();

/**
 * The mapping an entity declares (`@Column({ mapping })`, `defineEntity`), when it declares one:
 * what a statement of a mapper over that entity is checked against at registration. Columns
 * without a mapping are known by name only (dynamic mapping gives them their type).
 */
export function entityMapping(entity: EntityClass): MappingModel | undefined {
  if (entityMappings.has(entity)) return entityMappings.get(entity);
  let model: MappingModel | undefined;
  try {
    const declared = mappingOf(entity);
    if (Object.keys(declared.mappings.properties ?? {}).length > 0) {
      model = MappingModel.from(declared);
      for (const f of getEntityMeta(entity).fields) {
        if (!model.field(f.column)) model.add(f.column, { type: "undeclared" });
      }
    }
  } catch {
    model = undefined; // a declaration error is reported where the class is defined
  }
  entityMappings.set(entity, model);
  return model;
}

/** The statement a live check is about: its id and where it was declared. */
export interface CheckedStatement {
  /** The statement's id (`namespace.id`). */
  readonly id: string;
  /** Where it was declared, for errors. */
  readonly site: StatementSite;
}

/** What one data source has been checked against: statements done, mappings read. */
interface SourceState {
  readonly done: Set<string>;
  readonly tries: Map<string, number>;
  readonly mappings: Map<string, Promise<MappingModel | undefined>>;
}

/** How many indices' mappings a live check keeps per data source. */
const MAX_MAPPINGS = 256;
/** How often a statement whose index does not exist yet is tried again before it is let be. */
const MAX_TRIES = 3;

/**
 * The check on first use: the first time a statement runs over a data source, its bound
 * command is checked against the live mapping of the index it addresses (`GET /<index>/_mapping`,
 * read once per index and data source). In `error` mode a finding of severity error refuses the
 * call before the command is sent; in `warn` mode findings go to `warn`.
 */
export class LiveCheck {
  readonly #mode: CheckMode;
  readonly #options: CheckOptions;
  readonly #warn: (message: string) => void;
  /** Statements checked in full at registration: their first use adds the mapping's codes. */
  readonly registered: Set<string> = new Set();
  readonly #sources = new WeakMap<object, SourceState>();

  constructor(settings: CheckSettings) {
    this.#mode = settings.mode;
    this.#options = settings.options;
    this.#warn = settings.warn;
  }

  /**
   * Checks `bound` (of `statement`) before it runs over `over.source` (reading mappings through
   * `over.jdbc`), once per statement and data source.
   */
  async before(
    statement: CheckedStatement,
    bound: BoundTemplate,
    over: { readonly jdbc: JdbcTemplate; readonly source: object },
  ): Promise<void> {
    const { id } = statement;
    const { jdbc, source } = over;
    let state = this.#sources.get(source);
    if (!state) {
      state = { done: new Set(), tries: new Map(), mappings: new Map() };
      this.#sources.set(source, state);
    }
    if (state.done.has(id)) return;
    const index = targetIndex(bound.text);
    if (index === undefined) {
      state.done.add(id);
      return;
    }
    const mapping = await this.#mapping(state, index, jdbc);
    if (mapping === undefined) {
      const tries = (state.tries.get(id) ?? 0) + 1;
      state.tries.set(id, tries);
      if (tries >= MAX_TRIES) state.done.add(id);
      return;
    }
    state.done.add(id);
    state.tries.delete(id);
    const found = checkCommand(bound.text, {
      ...this.#options,
      mapping,
      argumentCount: bound.args.length,
    }).filter((d) => !this.registered.has(id) || FIELD_CODES.has(d.code));
    this.#report(statement, bound.text, index, found);
  }

  #report(
    { id, site }: CheckedStatement,
    text: string,
    index: string,
    found: Diagnostic[],
  ): void {
    const errors = found.filter((d) => d.severity === "error");
    if (this.#mode === "error" && errors.length > 0) {
      throw new MapperError(
        `does not pass the check against the mapping of "${index}"; the command was not sent:\n${
          errors.map((d) => formatDiagnostic(text, d)).join("\n")
        }`,
        site,
      );
    }
    for (const d of found) {
      this.#warn(`${id} (mapping of "${index}"): ${formatDiagnostic(text, d)}`);
    }
  }

  // The mapping of an index, read once; undefined when the index does not exist (yet) or the
  // mapping cannot be read (then the statement is not checked, and is tried again later).
  #mapping(
    state: SourceState,
    index: string,
    jdbc: JdbcTemplate,
  ): Promise<MappingModel | undefined> {
    const known = state.mappings.get(index);
    if (known) return known;
    const read = jdbc.query({ text: "GET /{?}/_mapping", args: [index] }, undefined, {
      extractor: (rs) => MappingModel.from(rs.raw),
    }).catch((error) => {
      state.mappings.delete(index);
      if (error instanceof ResponseError) return undefined;
      throw error;
    });
    if (state.mappings.size >= MAX_MAPPINGS) state.mappings.clear();
    state.mappings.set(index, read);
    return read;
  }
}
