// One index: settings, mappings, aliases, live documents (real-time) and the searchable shard (refreshed).

import { shardFor, splitRoutingShards } from "../_index/routing.ts";
import { esError } from "../_errors.ts";
import { type MergeCounters, Shard } from "../_index/shard.ts";
import type { Mappings, StoredDoc } from "../_index/types.ts";
import type { SearchTarget } from "../_index/search_target.ts";
import { fieldMapOf } from "../_index/field_map.ts";
import { IndexStats } from "./index_stats.ts";
import { autoExpandReplicas, type FlatSettings, parseInterval } from "./settings.ts";

/** What an alias carries besides its name. */
export interface AliasMeta {
  filter?: Record<string, unknown>;
  index_routing?: string;
  search_routing?: string;
  is_write_index?: boolean;
  is_hidden?: boolean;
}

/** Documents by id. */
export interface DocLookup {
  /** The document with this id, or undefined. */
  get(id: string): StoredDoc | undefined;
  /** How many there are. */
  readonly size: number;
}

/** The documents search sees, looked up in the shard's segments (no map of their own). */
export interface VisibleDocs extends DocLookup {
  /** All of them. */
  values(): IterableIterator<StoredDoc>;
}

/** The version a deleted document leaves behind, so later writes keep counting. */
interface Tombstone {
  version: number;
  seqNo: number;
}

/** A tombstone and when it was left (ms since the epoch), for `index.gc_deletes`. */
interface DatedTombstone extends Tombstone {
  readonly at: number;
}

/** How many pending writes pass between checks for a due scheduled refresh (a power of two). */
const REFRESH_CHECK = 4096;

const NO_VECTORS: readonly string[] = [];
const VECTOR_PATHS = new WeakMap<object, readonly string[]>();
const VECTOR_RELEASES = new Map<string, boolean>();

/** Whether an engine version leaves vectors out of `_source` (Elasticsearch 9.2 and later). */
function excludesVectors(engine: { flavour: string; version: string }): boolean {
  if (engine.flavour !== "elasticsearch") return false;
  let yes = VECTOR_RELEASES.get(engine.version);
  if (yes === undefined) {
    const [major = 0, minor = 0] = engine.version.split(".").map(Number);
    yes = !(major < 9 || (major === 9 && minor < 2));
    VECTOR_RELEASES.set(engine.version, yes);
  }
  return yes;
}

/** State of one index. */
export class IndexState {
  readonly name: string;
  readonly uuid: string;
  readonly creationDate: number;
  settings: FlatSettings;
  mappings: Mappings;
  readonly aliases: Map<string, AliasMeta> = new Map();
  /**
   * Live documents (real-time reads): the pending writes over the searchable ones, without a map
   * of its own per document.
   */
  readonly docs: DocLookup;
  #liveCount = 0;
  /** Deleted ids' last versions, oldest first (a tombstone is re-inserted when it is replaced). */
  readonly #tombstones: Map<string, DatedTombstone> = new Map();
  #tombstonesPruned = 0;
  #closed = false;
  /** Operation counters for `_stats`. */
  readonly stats: IndexStats = new IndexStats();
  /** Refresh interval used when the settings give none. */
  defaultRefreshMs = 1000;
  lastRefresh: number;
  /**
   * When the scheduled refresh started ticking (the index's creation): the real engines refresh
   * every interval on a schedule of their own, which an explicit refresh does not move.
   */
  readonly #scheduleOrigin: number;
  /** When the oldest write still pending was made (by {@link clock}), if known. */
  #pendingSince: number | undefined;
  /**
   * The cluster's clock. With it, writes run the scheduled refresh when it is due (checked every
   * REFRESH_CHECK pending writes), so a long load is indexed in segments as it arrives instead
   * of all at once before the first search.
   */
  clock: (() => number) | undefined;
  private pending: Map<string, StoredDoc | null> = new Map();
  private pendingRouting: Map<string, string> = new Map();
  /**
   * Pending ids that a segment held when first written (`put` with `existed` true and nothing
   * pending). The others are fresh: no segment held them, so the refresh need not look for them
   * in every segment again. (The few stale ones are listed rather than the many fresh ones: a
   * load of new documents adds nothing here.)
   */
  #stale: Set<string> = new Set();
  private shard: Shard = new Shard();
  /** Each primary shard's next sequence number (the real engines count per shard, from 0). */
  private nextSeqNos: number[] = [];
  private listeners: Array<() => void> = [];

  constructor(name: string, settings: FlatSettings, mappings: Mappings, now: number) {
    this.name = name;
    this.uuid = randomUuid();
    this.creationDate = now;
    this.lastRefresh = now;
    this.#scheduleOrigin = now;
    this.settings = {
      "index.number_of_shards": "1",
      "index.number_of_replicas": "1",
      ...settings,
      "index.uuid": this.uuid,
      "index.creation_date": String(now),
      "index.provided_name": name,
      "index.version.created": "8150099",
    };
    this.mappings = mappings;
    const pending = this.pending;
    const shard = this.shard;
    // deno-lint-ignore no-this-alias
    const self = this;
    this.docs = {
      get(id: string): StoredDoc | undefined {
        const doc = pending.get(id);
        return doc !== undefined ? doc ?? undefined : shard.get(id);
      },
      get size(): number {
        return self.#liveCount;
      },
    };
  }

  /** True while the index is closed; closing stops background merging and quantisation. */
  get closed(): boolean {
    return this.#closed;
  }

  set closed(value: boolean) {
    this.#closed = value;
    if (value) this.shard.cancelMerge();
  }

  /** Stops background work (a running merge, quantisation): the index is being deleted. */
  release(): void {
    this.shard.cancelMerge();
  }

  /** Merges down to at most `maxSegments` segments (or the deletions away), synchronously. */
  forceMerge(maxSegments: number, onlyDeletes = false): void {
    this.shard.forceMerge(maxSegments, onlyDeletes);
  }

  /** The shard's merge counters, for `_stats`. */
  get merges(): MergeCounters {
    return this.shard.merges;
  }

  /** `index.refresh_interval` in ms (-1 = disabled). */
  get refreshIntervalMs(): number {
    const raw = this.settings["index.refresh_interval"];
    return raw === undefined ? this.defaultRefreshMs : parseInterval(raw);
  }

  /** `index.gc_deletes` in ms: how long a deleted id's version is kept (60 s by default). */
  get gcDeletesMs(): number {
    const raw = this.settings["index.gc_deletes"];
    return raw === undefined ? 60_000 : parseInterval(raw, "index.gc_deletes");
  }

  /**
   * The tombstone a delete left for `id`, while `index.gc_deletes` keeps it: a later write of the
   * id continues from its version. The real engines prune older ones (at a refresh), after which
   * the id starts again at version 1.
   */
  tombstone(id: string, now?: number): Tombstone | undefined {
    // A load without deletes has none: no lookup, no clock read.
    if (this.#tombstones.size === 0) return undefined;
    const t = this.#tombstones.get(id);
    if (t === undefined || (now ?? Date.now()) - t.at <= this.gcDeletesMs) return t;
    this.#tombstones.delete(id);
    return undefined;
  }

  /** Leaves a tombstone for `id`; tombstones past `index.gc_deletes` are dropped as it goes. */
  leaveTombstone(id: string, tombstone: Tombstone, now: number = Date.now()): void {
    this.#tombstones.delete(id);
    this.#tombstones.set(id, { version: tombstone.version, seqNo: tombstone.seqNo, at: now });
    const gc = this.gcDeletesMs;
    // Oldest first: the expired ones are a prefix, dropped at most every quarter of the period.
    if (now - this.#tombstonesPruned < gc / 4) return;
    this.#tombstonesPruned = now;
    for (const [key, t] of this.#tombstones) {
      if (now - t.at <= gc) break;
      this.#tombstones.delete(key);
    }
  }

  /** `index.max_result_window`. */
  get maxResultWindow(): number {
    return Number(this.settings["index.max_result_window"] ?? 10000);
  }

  /**
   * Number of replicas (for `_shards.total` and health). With `index.auto_expand_replicas` the
   * count follows the one node: `nodes - 1 = 0`, raised to the range's minimum.
   */
  get replicas(): number {
    const auto = autoExpandReplicas(this.settings["index.auto_expand_replicas"] ?? "false");
    if (auto) return Math.max(auto.min, Math.min(auto.max, 0));
    return Number(this.settings["index.number_of_replicas"] ?? 1);
  }

  /** The `_shards` header of a write response. */
  shardsHeader(): { total: number; successful: number; failed: number } {
    return { total: 1 + this.replicas, successful: 1, failed: 0 };
  }

  /** Documents as of the last refresh (what search and `realtime=false` reads see). */
  get visible(): VisibleDocs {
    const shard = this.shard;
    return {
      get: (id) => shard.get(id),
      get size() {
        return shard.docCount;
      },
      values: () => shard.liveDocs(),
    };
  }

  /** Takes the next sequence number of the shard a routing value (or id) lands on. */
  takeSeqNo(routing: string): number {
    const shard = this.shardOf(routing);
    const next = this.nextSeqNos[shard] ?? 0;
    this.nextSeqNos[shard] = next + 1;
    return next;
  }

  /** The highest sequence number a shard has given out (-1 before its first write). */
  maxSeqNo(shard: number): number {
    return (this.nextSeqNos[shard] ?? 0) - 1;
  }

  /**
   * Stores a document; visible to GET at once and to search after refresh. `existed`: whether a
   * live document had this id (looked up when not given).
   */
  put(
    id: string,
    doc: StoredDoc,
    routing?: string,
    existed: boolean = this.docs.get(id) !== undefined,
  ): void {
    if (this.#tombstones.size > 0) this.#tombstones.delete(id);
    this.#stage(id, doc, routing, existed);
  }

  /**
   * Removes a document, leaving its tombstone (the version and sequence number a later write of
   * the id continues from); `existed` as for {@link put}.
   */
  remove(
    id: string,
    tombstone?: Tombstone,
    routing?: string,
    existed: boolean = this.docs.get(id) !== undefined,
  ): void {
    if (tombstone) this.leaveTombstone(id, tombstone);
    this.#stage(id, null, routing, existed);
  }

  /** A write (a document, or `null` for a removal) waiting for the next refresh. */
  #stage(id: string, doc: StoredDoc | null, routing: string | undefined, existed?: boolean): void {
    if (routing !== undefined) this.pendingRouting.set(id, routing);
    else if (this.pendingRouting.size > 0) this.pendingRouting.delete(id);
    if (existed && !this.pending.has(id)) this.#stale.add(id);
    if (this.pending.size === 0) this.#pendingSince = this.clock?.();
    this.pending.set(id, doc);
    this.#liveCount += (doc ? 1 : 0) - (existed ? 1 : 0);
    if (this.clock !== undefined && (this.pending.size & (REFRESH_CHECK - 1)) === 0) {
      this.refreshIfDue(this.clock());
    }
  }

  /**
   * The documents written to `shard` and not yet refreshed (a realtime read's internal refresh
   * would index them: term vectors count them in their shard's statistics).
   */
  *pendingOn(shard: number): Generator<StoredDoc> {
    for (const [id, doc] of this.pending) {
      if (doc && this.shardOf(this.pendingRouting.get(id) ?? id) === shard) yield doc;
    }
  }

  /** Number of primary shards (documents are spread over them by routing). */
  get shardCount(): number {
    return Number(this.settings["index.number_of_shards"] ?? 1);
  }

  /** The shard a routing value (or id) lands on: murmur3, as the real engines route. */
  shardOf(routing: string): number {
    const n = this.shardCount;
    if (n <= 1) return 0;
    return shardFor(routing, n, this.routingShards);
  }

  /**
   * Route over the routing shards (`index.number_of_routing_shards` or its default), as OpenSearch
   * does, or by the hash modulo the shard count, what Elasticsearch 9.5 was measured to do (even
   * with the setting given).
   */
  routesOverRoutingShards = false;

  /**
   * What each started shard's store holds before any document: its Lucene commit point
   * (`segments_N`), measured on an empty shard as 227 bytes on Elasticsearch 9.5.4 and 208 on
   * OpenSearch 3.8.0.
   */
  commitBytes = 227;

  /** The routing shards documents are placed over (see {@link routesOverRoutingShards}). */
  get routingShards(): number {
    const n = this.shardCount;
    if (!this.routesOverRoutingShards) return n;
    const given = Number(this.settings["index.number_of_routing_shards"]);
    return Number.isInteger(given) && given >= n && given % n === 0 ? given : splitRoutingShards(n);
  }

  /**
   * Makes writes visible to search: all of them, or with `shard` only those routed to that shard
   * (what `refresh=true` on a single-document write does on a multi-shard index).
   */
  refresh(now: number, shard?: number): void {
    const partial = shard !== undefined && this.shardCount > 1;
    if (!partial) this.lastRefresh = now;
    this.stats.refreshTotal++;
    if (this.pending.size > 0) {
      const started = performance.now();
      const changes: Array<{ id: string; doc: StoredDoc | null; fresh: boolean }> = [];
      const stale = this.#stale;
      for (const [id, doc] of this.pending) {
        if (partial && this.shardOf(this.pendingRouting.get(id) ?? id) !== shard) continue;
        changes.push({ id, doc, fresh: stale.size === 0 || !stale.has(id) });
      }
      const whole = changes.length === this.pending.size;
      if (whole) {
        this.#pendingSince = undefined;
        this.pending.clear();
        this.pendingRouting.clear();
        stale.clear();
      } else {
        for (const { id } of changes) {
          this.pending.delete(id);
          this.pendingRouting.delete(id);
          stale.delete(id);
        }
      }
      // The pending writes are keyed by id: each id comes once.
      if (changes.length > 0) this.shard.refresh(changes, this.mappings, true);
      this.stats.refreshMillis += performance.now() - started;
    }
    if (partial) return;
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }

  /**
   * Refreshes when the scheduled refresh is due (the lazy form of the 1 s refresh): pending writes
   * become searchable at the first tick of the schedule after the oldest of them, as in the real
   * engines, whose schedule an explicit refresh does not move (a write made just after a tick
   * waits for the next one, however long ago the last refresh was).
   */
  refreshIfDue(now: number): void {
    const interval = this.refreshIntervalMs;
    if (interval < 0) return;
    const since = this.#pendingSince;
    if (this.pending.size > 0 && since !== undefined && interval > 0) {
      const tick = (t: number) => Math.floor((t - this.#scheduleOrigin) / interval);
      if (tick(now) > tick(since)) this.refresh(now);
      return;
    }
    if (now - this.lastRefresh >= interval) this.refresh(now);
  }

  /** True when some writes are not yet searchable. */
  get hasPending(): boolean {
    return this.pending.size > 0;
  }

  /** Registers a callback for the next refresh. */
  onNextRefresh(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Live document count (real-time). */
  get docCount(): number {
    return this.#liveCount;
  }

  /** Searchable document count. */
  get searchableCount(): number {
    return this.shard.docCount;
  }

  /** What the search core needs to search this index. */
  searchTarget(): SearchTarget {
    return {
      index: this.name,
      snapshot: this.shard.snapshot(),
      mappings: this.mappings,
      shards: this.shardCount,
      routingShards: this.routingShards,
      maxResultWindow: this.maxResultWindow,
      maxInnerResultWindow: this.#intSetting("index.max_inner_result_window", 100),
      maxDocvalueFields: this.#intSetting("index.max_docvalue_fields_search", 100),
      maxScriptFields: this.#intSetting("index.max_script_fields", 32),
      maxRegexLength: this.#intSetting("index.max_regex_length", 1000),
      maxTermsCount: this.#intSetting("index.max_terms_count", 65536),
      maxAnalyzedOffset: this.#intSetting("index.highlight.max_analyzed_offset", 1_000_000),
    };
  }

  /**
   * The vector fields (`dense_vector`, `sparse_vector`) that Elasticsearch 9.2 and later leave out
   * of `_source` unless asked for (`index.mapping.exclude_source_vectors`, true by default).
   */
  sourceVectors(engine: { flavour: string; version: string }): readonly string[] {
    if (!excludesVectors(engine)) return NO_VECTORS;
    if (String(this.settings["index.mapping.exclude_source_vectors"] ?? "true") === "false") {
      return NO_VECTORS;
    }
    // Asked on every search: the list is kept per field map (a mapping change makes a new one).
    const fields = fieldMapOf(this.mappings);
    let paths = VECTOR_PATHS.get(fields);
    if (!paths) {
      paths = [...fields.roots.values()]
        .filter((f) => f.type === "dense_vector" || f.type === "sparse_vector")
        .map((f) => f.path);
      VECTOR_PATHS.set(fields, paths);
    }
    return paths;
  }

  /** An integer index setting, or `fallback` when unset. */
  #intSetting(key: string, fallback: number): number {
    const raw = this.settings[key];
    return raw === undefined || raw === null ? fallback : Number(raw);
  }

  /** Throws 400 `index_closed_exception` when the index is closed. */
  ensureOpen(): void {
    if (this.closed) {
      throw esError("index_closed_exception", "closed", {
        index_uuid: this.uuid,
        index: this.name,
      });
    }
  }
}

function randomUuid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(
    /=+$/,
    "",
  ).slice(0, 22);
}
