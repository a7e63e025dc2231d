// The statements a Configuration knows, by id (`namespace.id`): from annotation mappers
// (namespace = class name or the declared namespace) and from mapper files. Also the result
// types mapper files name, and the compiled form of each statement (compiled once).

import { UnsupportedFeatureError } from "../driver/mod.ts";
import type { EntityClass } from "../template/mod.ts";
import { compileAnnotation, compileFileStatement } from "./_compile.ts";
import { type MapperClass, type MapperDef, mapperDefOf } from "./mapper_def.ts";
import type { CompiledStatement } from "./_statement_runner.ts";
import {
  loadMapperFile,
  type LoadMapperOptions,
  type MapperFile,
  MapperLoadError,
} from "../xml/mod.ts";
import { MapperError, type StatementSite } from "./errors.ts";
import type { StatementDef, StatementKind } from "./statement_options.ts";
import type { WriteOptions } from "./_entity_writes.ts";
import type { LambdaOptions } from "../lambda/mod.ts";
import type { LiveCheck } from "./check_statements.ts";

type Entry =
  | { readonly owner: MapperClass; readonly compiled: CompiledStatement }
  | { readonly file: MapperFile; readonly id: string };

/** A mapper class, checked and compiled: its namespace and one statement per method. */
export interface CompiledMapper {
  readonly name: string;
  readonly namespace: string;
  readonly entity?: EntityClass;
  readonly methods: ReadonlyMap<string, CompiledStatement>;
}

/** The registry's contents at one moment (see `StatementRegistry.mark`). */
export interface RegistryMark {
  readonly files: ReadonlySet<string>;
  readonly entries: ReadonlySet<string>;
}

/** The statement registry of one Configuration. */
export class StatementRegistry {
  readonly types: Map<string, EntityClass | "map"> = new Map();
  readonly macros: Map<string, string> = new Map();
  readonly #files = new Map<string, MapperFile>();
  readonly #entries = new Map<string, Entry>();
  readonly #compiled = new Map<string, CompiledStatement>();
  readonly #mappers = new WeakMap<object, CompiledMapper>();
  readonly #loading = new Map<string, Promise<MapperFile>>();
  /** Where `@RefMapper("path/file.xml")` files are loaded from, when configured. */
  fileOptions?: LoadMapperOptions & { readonly base: URL };

  /** Registers a mapper file's statements under its namespace. */
  addFile(file: MapperFile): void {
    const known = this.#files.get(file.namespace);
    if (known === file) return;
    if (known) {
      throw new MapperError(
        `a mapper file with namespace "${file.namespace}" is already registered (${
          known.file ?? "given as text"
        }); give each file its own namespace`,
        { mapper: file.namespace },
      );
    }
    for (const id of file.statements.keys()) this.#claim(`${file.namespace}.${id}`, { file, id });
    this.#files.set(file.namespace, file);
  }

  #claim(id: string, entry: Entry): void {
    const known = this.#entries.get(id);
    if (known) {
      const owner = "owner" in known ? known.owner.name : known.file.file ?? known.file.namespace;
      throw new MapperError(
        `statement id ${id} is already declared by ${owner}; choose another namespace`,
        { statementId: id },
      );
    }
    this.#entries.set(id, entry);
  }

  #findFile(source: string): MapperFile | undefined {
    const byNamespace = this.#files.get(source);
    if (byNamespace) return byNamespace;
    const name = source.replace(/^\.?\//, "");
    for (const file of this.#files.values()) {
      const from = file.file ?? "";
      if (from === source || from.endsWith("/" + name) || from === name) return file;
    }
    if (this.fileOptions) {
      const href = this.#urlOf(source)?.href;
      for (const file of this.#files.values()) if (href && file.file === href) return file;
    }
    return undefined;
  }

  #urlOf(source: string): URL | undefined {
    try {
      return new URL(source, this.fileOptions?.base);
    } catch {
      return undefined;
    }
  }

  /** The mapper file a `@RefMapper` source names: a file, a namespace, or a file name / URL. */
  resolveFile(source: string | MapperFile, site: StatementSite): MapperFile {
    if (typeof source !== "string") {
      this.addFile(source);
      return source;
    }
    const found = this.#findFile(source);
    if (found) return found;
    throw new MapperError(
      `@RefMapper("${source}") names no registered mapper file; register it first with config.addMapper(parseMapperFile(text)) or await config.loadMapper(url), or give the configuration a base to load it from: new Configuration({ mapperFiles: { base: import.meta.url } }) (known namespaces: ${
        [...this.#files.keys()].join(", ") || "none"
      })`,
      site,
    );
  }

  /**
   * The file source of a `@RefMapper` class that is not registered yet but can be loaded from
   * the configured base (then its mapper is created lazily), or undefined.
   */
  pendingFile(type: MapperClass): string | undefined {
    if (!this.fileOptions || this.#mappers.has(type)) return undefined;
    const mark = mapperDefOf(type)?.mark;
    if (mark?.kind !== "ref" || typeof mark.source !== "string") return undefined;
    return this.#findFile(mark.source) ? undefined : mark.source;
  }

  /** Loads and registers a `@RefMapper` file from the configured base (once per URL). */
  loadFile(source: string, site: StatementSite): Promise<MapperFile> {
    const options = this.fileOptions!;
    const url = this.#urlOf(source);
    if (!url) {
      return Promise.reject(
        new MapperError(`@RefMapper("${source}") is not a path or URL`, site),
      );
    }
    const known = this.#loading.get(url.href);
    if (known) return known;
    const loading = loadMapperFile(url, options).then((file) => {
      if (!this.#findFile(source)) this.addFile(file);
      return this.#findFile(source) ?? file;
    }, (error) => {
      this.#loading.delete(url.href);
      if (!(error instanceof MapperLoadError)) throw error;
      throw new MapperLoadError(
        `@RefMapper("${source}") of ${site.mapper}: ${error.message} (resolved against the base ${options.base.href}, from Configuration({ mapperFiles: { base } }))`,
        error.file,
        error,
      );
    });
    this.#loading.set(url.href, loading);
    return loading;
  }

  /** Checks and compiles a mapper class once; registers its annotation statements. */
  compileMapper(type: MapperClass): CompiledMapper {
    const hit = this.#mappers.get(type);
    if (hit) return hit;
    const def = mapperDefOf(type);
    if (!def?.mark) {
      throw new MapperError(
        "is not a mapper: mark it with @SimpleMapper() or @RefMapper(…), or declare it with defineMapper()",
        { mapper: type.name },
      );
    }
    const namespace = def.namespace ?? type.name;
    const methods = new Map<string, CompiledStatement>();
    for (const [method, statement] of def.statements) {
      const site = { mapper: type.name, method, statementId: `${namespace}.${method}` };
      if (statement.kind === "call") {
        throw new UnsupportedFeatureError(
          `${type.name}.${method}: @Call (stored procedures do not exist on a search engine); use @Execute with a script, _update_by_query or an ingest pipeline`,
        );
      }
      methods.set(
        method,
        compileAnnotation(statement as StatementDef & { kind: StatementKind }, site, def.entity),
      );
    }
    const annotated = new Set(methods.keys());
    if (def.mark.kind === "ref") this.#addFileMethods(type, def, methods);
    for (const [method, compiled] of methods) {
      if (!annotated.has(method)) continue; // a mapper-file statement, registered with its file
      const known = this.#entries.get(compiled.id);
      if (known && "owner" in known && known.owner === type) continue;
      this.#claim(compiled.id, { owner: type, compiled });
    }
    const mapper: CompiledMapper = {
      name: type.name,
      namespace,
      ...(def.entity ? { entity: def.entity } : {}),
      methods,
    };
    this.#mappers.set(type, mapper);
    return mapper;
  }

  #addFileMethods(type: MapperClass, def: MapperDef, methods: Map<string, CompiledStatement>) {
    const source = (def.mark as { source: string | MapperFile }).source;
    const file = this.resolveFile(source, { mapper: type.name });
    for (const [id, statement] of file.statements) {
      const site = { mapper: type.name, method: id, statementId: `${file.namespace}.${id}` };
      if (methods.has(id)) {
        throw new MapperError(
          `is declared twice: by an annotation and by <${statement.kind} id="${id}"> of ${
            file.file ?? file.namespace
          }; remove one`,
          site,
        );
      }
      const compiled = compileFileStatement(
        file,
        statement,
        site,
        {
          lookup: (name) => this.types.get(name),
          ...(def.returns.has(id) ? { returns: def.returns.get(id)! } : {}),
          ...(def.params.has(id) ? { params: def.params.get(id)! } : {}),
          ...(def.entity ? { entity: def.entity } : {}),
        },
      );
      methods.set(id, compiled);
    }
    for (const [option, methods] of [["returns", def.returns], ["params", def.params]] as const) {
      for (const method of methods.keys()) {
        if (!file.statements.has(method)) {
          throw new MapperError(
            `${option} names "${method}", but ${file.namespace} has no statement with that id`,
            { mapper: type.name, method },
          );
        }
      }
    }
  }

  /** The statement with this id, compiled. */
  statement(id: string): CompiledStatement {
    const hit = this.#compiled.get(id);
    if (hit) return hit;
    const entry = this.#entries.get(id);
    if (!entry) {
      const known = [...this.#entries.keys()];
      const near = known.filter((k) => k.endsWith("." + id.split(".").pop())).slice(0, 5);
      throw new MapperError(
        `no statement with this id; ${
          near.length > 0
            ? `did you mean ${near.join(", ")}?`
            : "register its mapper file or mapper class first"
        } (${known.length} statements registered)`,
        { statementId: id },
      );
    }
    const compiled = "compiled" in entry ? entry.compiled : compileFileStatement(
      entry.file,
      entry.file.statements.get(entry.id)!,
      { mapper: entry.file.file ?? entry.file.namespace, statementId: id },
      { lookup: (name) => this.types.get(name) },
    );
    this.#compiled.set(id, compiled);
    return compiled;
  }

  /** What is registered now, so that a registration a check refuses can be undone. */
  mark(): RegistryMark {
    return { files: new Set(this.#files.keys()), entries: new Set(this.#entries.keys()) };
  }

  /** Forgets what was registered since `mark` (and the compiled mapper of `type`). */
  undo(mark: RegistryMark, type?: MapperClass): void {
    for (const k of [...this.#files.keys()]) if (!mark.files.has(k)) this.#files.delete(k);
    for (const k of [...this.#entries.keys()]) {
      if (!mark.entries.has(k)) {
        this.#entries.delete(k);
        this.#compiled.delete(k);
      }
    }
    if (type) this.#mappers.delete(type);
  }

  /** Every registered statement id. */
  ids(): string[] {
    return [...this.#entries.keys()];
  }
}

/** What a Configuration hands to the sessions it opens. */
export interface SessionSetup {
  readonly registry: StatementRegistry;
  readonly writes: WriteOptions;
  /** Mapping options of the sessions' LambdaTemplate. */
  readonly lambda?: LambdaOptions;
  /** The check on first use, when the configuration checks statements. */
  readonly check?: LiveCheck;
}

let pending: SessionSetup | undefined;

/** Runs `open` (a Session constructor call) with `setup` visible to it. */
export function openWith<S>(setup: SessionSetup, open: () => S): S {
  pending = setup;
  try {
    return open();
  } finally {
    pending = undefined;
  }
}

/** The setup of the session being opened; a fresh, empty one outside `openWith`. */
export function takeSetup(): SessionSetup {
  const setup = pending ?? { registry: new StatementRegistry(), writes: {} };
  pending = undefined;
  return setup;
}
