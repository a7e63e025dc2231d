// Scroll and point-in-time contexts with keep-alive expiry.

import { type EngineError, esError, illegalArgument } from "../_errors.ts";
import type { Candidate } from "../_hits/hits_render.ts";
import type { HitOptions } from "../_hits/hits_render.ts";
import type { SearchTarget } from "../_index/search_target.ts";
import {
  checkOpenPits,
  checkOpenScrolls,
  MAX_BUCKETS,
  MAX_CLAUSE_COUNT,
  MAX_OPEN_PIT_CONTEXT,
  MAX_OPEN_SCROLL_CONTEXT,
} from "../_index/limits.ts";

/** The state of an open scroll: the full ordered result and how far it was read. */
export interface ScrollState {
  /** Frozen targets. */
  readonly targets: SearchTarget[];
  /** All hits in order. */
  readonly ordered: Candidate[];
  /** Next position to return. */
  position: number;
  /** Page size. */
  readonly size: number;
  /** Total hits at open time. */
  readonly total: number;
  /** Max score at open time. */
  readonly maxScore: number | null;
  /** How to render hits. */
  readonly render: HitOptions;
  /** Keep-alive in ms. */
  keepAlive: number;
  /** Expiry time (ms since epoch). */
  expiresAt: number;
  /** When the scroll was opened (set when it is registered). */
  openedAt?: number;
}

/** An open point in time: frozen targets. */
export interface PitState {
  /** Frozen targets. */
  readonly targets: SearchTarget[];
  /** Keep-alive in ms. */
  keepAlive: number;
  /** Expiry time. */
  expiresAt: number;
  /** Creation time. */
  readonly createdAt: number;
  /** Sorts get an implicit `_shard_doc` tiebreaker (Elasticsearch; OpenSearch adds none). */
  readonly tiebreaker: boolean;
}

let counter = 0;

function newId(kind: string): string {
  const rand = crypto.getRandomValues(new Uint8Array(12));
  const raw = `${kind}:${++counter}:${
    Array.from(rand, (b) => b.toString(16).padStart(2, "0")).join("")
  }`;
  return btoa(raw).replace(/=+$/, "");
}

/** Holds scroll and PIT contexts; expired ones vanish on the next access. */
export class SearchContexts {
  /** Clock in ms. */
  readonly now: () => number;
  /** `search.max_keep_alive` in ms (default 24h). */
  maxKeepAlive = 86_400_000;
  /** `search.max_buckets`. */
  maxBuckets: number = MAX_BUCKETS;
  /** `indices.query.bool.max_clause_count`. */
  maxClauseCount: number = MAX_CLAUSE_COUNT;
  /** `search.max_open_scroll_context`. */
  maxOpenScrollContext: number = MAX_OPEN_SCROLL_CONTEXT;
  /** `search.max_open_pit_context` (OpenSearch's limit; Elasticsearch has none). */
  maxOpenPitContext: number = MAX_OPEN_PIT_CONTEXT;
  /** The node's id, as hits with `explain` name it in `_node`. */
  nodeId = "";
  /** Called with each scroll as it is freed (cleared or expired), for the `scroll` stats. */
  onScrollFreed: ((scroll: ScrollState, now: number) => void) | undefined;
  readonly #scrolls = new Map<string, ScrollState>();
  readonly #pits = new Map<string, PitState>();

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  /** Throws when a keep-alive exceeds `search.max_keep_alive`. */
  checkKeepAlive(ms: number, text: string): void {
    if (ms > this.maxKeepAlive) {
      throw illegalArgument(
        `Keep alive for request (${text}) is too large. It must be less than (${
          formatMs(this.maxKeepAlive)
        }). This limit can be set by changing the [search.max_keep_alive] cluster level setting.`,
      );
    }
  }

  #purge(): void {
    const now = this.now();
    for (const [id, s] of this.#scrolls) {
      if (s.expiresAt <= now) this.#freeScroll(id, s, now);
    }
    for (const [id, p] of this.#pits) if (p.expiresAt <= now) this.#pits.delete(id);
  }

  /** Throws OpenSearch's 429 when no further point in time may be opened. */
  checkPitRoom(): void {
    this.#purge();
    checkOpenPits(this.#pits.size, this.maxOpenPitContext);
  }

  /** Throws Elasticsearch's 429 when no further scroll may be opened. */
  checkScrollRoom(): void {
    this.#purge();
    checkOpenScrolls(this.#scrolls.size, this.maxOpenScrollContext);
  }

  /** Registers a scroll and returns its id. */
  addScroll(state: ScrollState): string {
    this.#purge();
    const id = newId("scroll");
    state.openedAt ??= this.now();
    this.#scrolls.set(id, state);
    return id;
  }

  /** The live scroll with this id, or a 404 `search_context_missing_exception`. */
  scroll(id: string): ScrollState {
    this.#purge();
    const s = this.#scrolls.get(id);
    if (!s) throw missing(id);
    return s;
  }

  #freeScroll(id: string, s: ScrollState, now: number): boolean {
    if (!this.#scrolls.delete(id)) return false;
    this.onScrollFreed?.(s, now);
    return true;
  }

  /** Frees scrolls; returns how many were freed. */
  clearScrolls(ids: string[] | "_all"): number {
    this.#purge();
    const now = this.now();
    let n = 0;
    for (const id of ids === "_all" ? [...this.#scrolls.keys()] : ids) {
      const s = this.#scrolls.get(id);
      if (s !== undefined && this.#freeScroll(id, s, now)) n++;
    }
    return n;
  }

  /** The live scrolls and points in time, each with the targets it holds open. */
  openContexts(): Array<{ kind: "scroll" | "pit"; targets: readonly SearchTarget[] }> {
    this.#purge();
    return [
      ...[...this.#scrolls.values()].map((s) => ({ kind: "scroll" as const, targets: s.targets })),
      ...[...this.#pits.values()].map((p) => ({ kind: "pit" as const, targets: p.targets })),
    ];
  }

  /** Registers a PIT and returns its id. */
  addPit(state: PitState): string {
    this.#purge();
    const id = newId("pit");
    this.#pits.set(id, state);
    return id;
  }

  /** The live PIT with this id, or a 404 `search_context_missing_exception`. */
  pit(id: string): PitState {
    this.#purge();
    const p = this.#pits.get(id);
    if (!p) throw missing(id);
    return p;
  }

  /** All live PITs with their ids. */
  pits(): [string, PitState][] {
    this.#purge();
    return [...this.#pits];
  }

  /** Closes PITs; returns the ids that were open. */
  closePits(ids: string[] | "_all"): string[] {
    this.#purge();
    const list = ids === "_all" ? [...this.#pits.keys()] : ids;
    return list.filter((id) => this.#pits.delete(id));
  }
}

function missing(id: string): EngineError {
  return esError("search_context_missing_exception", `No search context found for id [${id}]`);
}

function formatMs(ms: number): string {
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000}d`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
