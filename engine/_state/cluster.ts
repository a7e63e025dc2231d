// The cluster: every index by name, index-expression resolution (lists, wildcards, aliases, _all).

import { type EngineError, esError, illegalArgument } from "../_errors.ts";
import type { Mappings } from "../_index/types.ts";
import { type AliasMeta, IndexState } from "./index_state.ts";
import { validateAliasName, validateIndexName } from "./names.ts";
import { isPattern, matchPattern } from "../_index/name_pattern.ts";
import { type FlatSettings, validateSettings } from "./settings.ts";
import { checkShardLimit, MAX_SHARDS_PER_NODE, type ShardLimit, shardsOf } from "./shard_limit.ts";
import { type AutoCreate, autoCreateRefusal } from "./auto_create.ts";
import { Templates } from "./templates.ts";

/** Options of index-expression resolution, as the `ignore_unavailable` family of parameters. */
export interface ResolveOptions {
  ignoreUnavailable?: boolean;
  allowNoIndices?: boolean;
  expandClosed?: boolean;
  expandOpen?: boolean;
  /** Wildcards also match hidden indices (`index.hidden: true`), as `expand_wildcards=hidden|all`. */
  expandHidden?: boolean;
  includeClosed?: boolean;
  /**
   * Aliases are not index names here (index deletion): wildcards match indices only and a bare
   * alias name is unavailable.
   */
  ignoreAliases?: boolean;
}

/** 404 `index_not_found_exception` for `name`. */
export function indexNotFound(
  name: string,
  reason = `no such index [${name}]`,
  resourceType = "index_or_alias",
): EngineError {
  return esError("index_not_found_exception", reason, {
    "resource.type": resourceType,
    "resource.id": name,
    index_uuid: "_na_",
    index: name,
  });
}

/** All indices of the engine. */
export class Cluster {
  readonly indices: Map<string, IndexState> = new Map();
  /** `cluster.max_shards_per_node` and how to word its refusal. */
  shardLimit: ShardLimit = {
    perNode: MAX_SHARDS_PER_NODE,
    flavour: "elasticsearch",
    version: "9.1.0",
  };
  readonly now: () => number;
  /** When the cluster started (for `_cat/nodes` `uptime`). */
  readonly startedAt: number;
  /** `index.refresh_interval` given to new indices that set none, in ms (1000 = Elasticsearch default). */
  defaultRefreshIntervalMs = 1000;
  /**
   * Settings every new index starts with unless it sets them: what the real product adds at
   * creation (`index.replication.type` on OpenSearch, the data tier preference on Elasticsearch).
   */
  defaultIndexSettings: FlatSettings = {};
  /**
   * Whether new indices route over their default routing shards (OpenSearch) or, when
   * `index.number_of_routing_shards` is not set, modulo the shard count (Elasticsearch 9.5).
   */
  routingOverRoutingShards = false;
  /** The bytes of an empty shard's commit point (see {@link IndexState.commitBytes}). */
  commitBytes = 227;
  /**
   * The `resource.type` of a missing index in a single-index operation (a document read or
   * delete): `index_or_alias` on Elasticsearch, `index_expression` on OpenSearch.
   */
  singleIndexResourceType = "index_or_alias";
  /**
   * Whether an index created with `index.soft_deletes.enabled: false` is refused, as both real
   * engines refuse it; the OpenSearch flavour still takes it, which OpenSearch's own
   * `indices.create` YAML test expects (tests/diff/known_differences.md).
   */
  softDeletesRequired = false;
  /** `action.auto_create_index`: which missing indices document writes may create. */
  autoCreateIndex: AutoCreate = true;
  /** Index, component and legacy templates. */
  readonly templates: Templates = new Templates();
  /**
   * Creates the index a document write names when it is missing (the REST layer sets one that
   * applies the matching templates; by default an index with no settings or mappings).
   */
  autoCreate: (name: string) => IndexState = (name) => this.create(name, {}, {});

  constructor(now: () => number) {
    this.now = now;
    this.startedAt = now();
  }

  /** Creates an index after validating its name, settings and mappings. */
  create(name: string, settings: FlatSettings, mappings: Mappings): IndexState {
    validateIndexName(name);
    const existing = this.indices.get(name);
    if (existing) {
      throw esError(
        "resource_already_exists_exception",
        `index [${name}/${existing.uuid}] already exists`,
        { index_uuid: existing.uuid, index: name },
      );
    }
    if (this.aliasIndices(name).length > 0) {
      throw esError(
        "invalid_index_name_exception",
        `Invalid index name [${name}], already exists as alias`,
        {
          index_uuid: "_na_",
          index: name,
        },
      );
    }
    validateSettings(settings);
    if (this.softDeletesRequired && settings["index.soft_deletes.enabled"] === "false") {
      throw illegalArgument(
        "Creating indices with soft-deletes disabled is no longer supported. Please do not specify a value for setting [index.soft_deletes.enabled].",
      );
    }
    let open = 0;
    for (const other of this.indices.values()) if (!other.closed) open += shardsOf(other.settings);
    checkShardLimit(this.shardLimit, open, shardsOf(settings));
    const index = new IndexState(
      name,
      { ...this.defaultIndexSettings, ...settings },
      mappings,
      this.now(),
    );
    index.clock = this.now;
    index.routesOverRoutingShards = this.routingOverRoutingShards;
    index.commitBytes = this.commitBytes;
    if (
      this.defaultRefreshIntervalMs !== 1000 && settings["index.refresh_interval"] === undefined
    ) {
      index.defaultRefreshMs = this.defaultRefreshIntervalMs;
    }
    this.indices.set(name, index);
    return index;
  }

  /** The index named exactly `name`, or a 404. */
  get(name: string): IndexState {
    const index = this.indices.get(name);
    if (!index) throw indexNotFound(name);
    return index;
  }

  /** Indices that carry alias `alias`. */
  aliasIndices(alias: string): IndexState[] {
    return [...this.indices.values()].filter((i) => i.aliases.has(alias));
  }

  /** Every alias name in the cluster. */
  aliasNames(): string[] {
    const names = new Set<string>();
    for (const index of this.indices.values()) for (const a of index.aliases.keys()) names.add(a);
    return [...names];
  }

  /**
   * Resolves an index expression (`a,b*,-c`, `_all`, aliases) to concrete indices, in name order
   * of first appearance. Missing concrete names give 404 unless `ignoreUnavailable`.
   */
  resolve(expression: string | undefined, options: ResolveOptions = {}): IndexState[] {
    // No expression, `_all` or `*` means every index, as named; aliases add nothing then.
    const trivial = !expression || expression === "_all" || expression === "*";
    const parts = trivial
      ? ["*"]
      : expression.split(",").map((p) => p.trim()).filter((p) => p !== "");
    const found = new Map<string, IndexState>();
    let sawWildcard = false;
    for (const part of parts) {
      if (part.startsWith("-") && found.size > 0) {
        const pattern = part.slice(1);
        for (const name of [...found.keys()]) if (matchPattern(pattern, name)) found.delete(name);
        continue;
      }
      if (part === "_all" || isPattern(part)) {
        sawWildcard = true;
        const pattern = part === "_all" ? "*" : part;
        let matched = false;
        for (const index of this.indices.values()) {
          if (index.closed ? !options.expandClosed : options.expandOpen === false) continue;
          if (isHidden(index) && !options.expandHidden && !dotted(pattern, index)) continue;
          if (
            matchPattern(pattern, index.name) &&
            !(pattern.startsWith("*") && index.name.startsWith(".") && !options.expandHidden)
          ) {
            found.set(index.name, index);
            matched = true;
          }
        }
        for (const alias of options.ignoreAliases || trivial ? [] : this.aliasNames()) {
          if (!matchPattern(pattern, alias)) continue;
          const dottedAlias = pattern.startsWith(".") && alias.startsWith(".");
          if (this.aliasHidden(alias) && !options.expandHidden && !dottedAlias) continue;
          // Through a visible (or asked-for) alias every index counts, hidden or not.
          for (const index of this.aliasIndices(alias)) {
            if (index.closed ? !options.expandClosed : options.expandOpen === false) continue;
            found.set(index.name, index);
            matched = true;
          }
        }
        // Each wildcard must match something when no indices are not allowed.
        if (options.allowNoIndices === false && !matched && parts.length > 1) {
          throw indexNotFound(part);
        }
        continue;
      }
      const index = this.indices.get(part);
      if (index) {
        if (index.closed && !options.includeClosed) {
          if (options.ignoreUnavailable) continue;
          index.ensureOpen();
        }
        found.set(index.name, index);
        continue;
      }
      const viaAlias = options.ignoreAliases ? [] : this.aliasIndices(part);
      if (viaAlias.length > 0) {
        for (const i of viaAlias) found.set(i.name, i);
        continue;
      }
      if (options.ignoreUnavailable) continue;
      // A name starting with `_` is reserved for APIs: Elasticsearch says so rather than 404.
      if (part.startsWith("_")) {
        throw esError(
          "invalid_index_name_exception",
          `Invalid index name [${part}], must not start with '_'.`,
          { index_uuid: "_na_", index: part },
        );
      }
      throw indexNotFound(part);
    }
    if (found.size === 0 && options.allowNoIndices === false) {
      if (sawWildcard) throw indexNotFound(parts.join(","));
      // Only missing names, all ignored: OpenSearch 3.8.0 names an `index_expression` here.
      const name = expression ?? "_all";
      throw indexNotFound(name, `no such index [${name}]`, this.singleIndexResourceType);
    }
    return [...found.values()];
  }

  /**
   * The index a document write goes to: an index, or an alias with one index or a write index.
   * Creates a missing index (auto-create) unless `requireAlias`.
   */
  writeIndex(name: string, requireAlias = false): IndexState {
    const direct = this.indices.get(name);
    const viaAlias = this.aliasIndices(name);
    if (requireAlias && viaAlias.length === 0) {
      // Both real engines name no resource here (Elasticsearch 9.5.4, OpenSearch 3.8.0).
      throw esError(
        "index_not_found_exception",
        `no such index [${name}] and [require_alias] request flag is [true] and [${name}] is not an alias`,
        { index_uuid: "_na_", index: name },
      );
    }
    if (direct) {
      direct.ensureOpen();
      return direct;
    }
    if (viaAlias.length === 1 && viaAlias[0]!.aliases.get(name)?.is_write_index !== false) {
      viaAlias[0]!.ensureOpen();
      return viaAlias[0]!;
    }
    if (viaAlias.length > 0) {
      const writer = viaAlias.find((i) => i.aliases.get(name)?.is_write_index === true);
      if (!writer) {
        throw illegalArgument(
          `no write index is defined for alias [${name}]. The write index may be explicitly disabled using is_write_index=false or the alias points to multiple indices without one being designated as a write index`,
        );
      }
      writer.ensureOpen();
      return writer;
    }
    const refusal = autoCreateRefusal(this.autoCreateIndex, name);
    if (refusal !== undefined) throw indexNotFound(name, refusal);
    return this.autoCreate(name);
  }

  /** The index a document read goes to (index or single-index alias), or a 404. */
  readIndex(name: string): IndexState {
    const direct = this.indices.get(name);
    if (direct) {
      direct.ensureOpen();
      return direct;
    }
    const viaAlias = this.aliasIndices(name);
    if (viaAlias.length === 1) {
      viaAlias[0]!.ensureOpen();
      return viaAlias[0]!;
    }
    if (viaAlias.length > 1) {
      throw illegalArgument(
        `alias [${name}] has more than one index associated with it [${
          viaAlias.map((i) => i.name).join(", ")
        }], can't execute a single index op`,
      );
    }
    throw indexNotFound(name, undefined, this.singleIndexResourceType);
  }

  /** True when alias `alias` is hidden (`is_hidden: true`), left out of wildcard expansion. */
  aliasHidden(alias: string): boolean {
    return this.aliasIndices(alias).some((i) => i.aliases.get(alias)?.is_hidden === true);
  }

  /** Adds or replaces an alias on an index. */
  putAlias(index: IndexState, alias: string, meta: AliasMeta): void {
    const clash = this.indices.get(alias);
    if (clash) {
      // OpenSearch 3.8.0 names the index; Elasticsearch 9.5.4 names nothing.
      if (this.shardLimit.flavour === "opensearch") {
        throw esError(
          "invalid_alias_name_exception",
          `Invalid alias name [${alias}], an index exists with the same name as the alias`,
          { index: alias, index_uuid: clash.uuid },
        );
      }
      throw esError(
        "invalid_alias_name_exception",
        `Invalid alias name [${alias}]: an index, data stream, ESQL view, or ESQL dataset exists with the same name as the alias`,
      );
    }
    validateAliasName(alias);
    if (meta.is_write_index === true) {
      for (const other of this.aliasIndices(alias)) {
        if (other !== index && other.aliases.get(alias)?.is_write_index === true) {
          other.aliases.set(alias, { ...other.aliases.get(alias), is_write_index: false });
        }
      }
    }
    index.aliases.set(alias, meta);
  }
}

/** `index.hidden: true`: left out of wildcard expansion unless hidden indices are asked for. */
function isHidden(index: IndexState): boolean {
  return index.settings["index.hidden"] === "true";
}

/** A pattern starting with a dot still matches hidden dot-named indices, as in Elasticsearch. */
function dotted(pattern: string, index: IndexState): boolean {
  return pattern.startsWith(".") && index.name.startsWith(".");
}
