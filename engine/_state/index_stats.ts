// What one index has done since it was created, as `_stats` reports it: indexing, get, search
// (also per `stats` group), refresh, flush and bulk counters. Times are kept in fractional
// milliseconds and reported rounded down, as Elasticsearch turns its nanoseconds into millis.

/** Search counters of one index, or of one `stats` group of it. */
export class SearchCounters {
  queryTotal = 0;
  queryMillis = 0;
  fetchTotal = 0;
  fetchMillis = 0;
  scrollTotal = 0;
  scrollMillis = 0;
}

/** The counters of one index. */
export class IndexStats {
  indexTotal = 0;
  indexMillis = 0;
  indexFailed = 0;
  deleteTotal = 0;
  deleteMillis = 0;
  noopUpdateTotal = 0;
  getTotal = 0;
  getMillis = 0;
  existsTotal = 0;
  existsMillis = 0;
  missingTotal = 0;
  missingMillis = 0;
  readonly search: SearchCounters = new SearchCounters();
  /** Search counters per `stats` group named in search requests (bounded: see {@link group}). */
  readonly groups: Map<string, SearchCounters> = new Map();
  refreshTotal = 0;
  refreshMillis = 0;
  externalRefreshTotal = 0;
  externalRefreshMillis = 0;
  flushTotal = 0;
  flushMillis = 0;
  /** Write operations since the last flush (the translog's uncommitted operations). */
  translogOps = 0;
  bulkTotal = 0;
  bulkMillis = 0;
  bulkBytes = 0;

  /** The counters of a `stats` group; past {@link MAX_GROUPS} groups a new name is not kept. */
  group(name: string): SearchCounters | undefined {
    let found = this.groups.get(name);
    if (found === undefined && this.groups.size < MAX_GROUPS) {
      found = new SearchCounters();
      this.groups.set(name, found);
    }
    return found;
  }

  /**
   * How much the next index operation's time should count: every one of the first
   * {@link INDEX_TIME_EXACT} is timed (weight 1), then one in {@link INDEX_TIME_SAMPLE} stands
   * for its sample (weight 8); 0 means "do not read the clock".
   */
  indexTimeWeight(): number {
    if (this.indexTotal < INDEX_TIME_EXACT) return 1;
    return this.indexTotal % INDEX_TIME_SAMPLE === 0 ? INDEX_TIME_SAMPLE : 0;
  }

  /**
   * Counts one index operation; `millis` is its time already weighted (see
   * {@link indexTimeWeight}), so `index_time_in_millis` is exact for a small index and an
   * estimate of the sum, without a clock read per write, for a large one.
   */
  indexed(millis = 0): void {
    this.indexTotal++;
    this.indexMillis += millis;
    this.translogOps++;
  }

  /** Counts one delete operation that took `millis`. */
  deleted(millis: number): void {
    this.deleteTotal++;
    this.deleteMillis += millis;
    this.translogOps++;
  }

  /** Counts one bulk request that wrote here, taking `millis` with `bytes` of sources for this index. */
  bulked(millis: number, bytes: number): void {
    this.bulkTotal++;
    this.bulkMillis += millis;
    this.bulkBytes += bytes;
  }

  /** Counts one real-time get that found (`exists`) or missed (`missing`) its document. */
  got(outcome: "exists" | "missing", millis: number): void {
    this.getTotal++;
    this.getMillis += millis;
    if (outcome === "exists") {
      this.existsTotal++;
      this.existsMillis += millis;
    } else {
      this.missingTotal++;
      this.missingMillis += millis;
    }
  }
}

/**
 * One index operation in this many is timed: a clock read costs about 0.3 µs in Deno, twice per
 * write adds a few percent to a bulk load, and a sample estimates the sum as well.
 */
export const INDEX_TIME_SAMPLE = 8;

/** Index operations timed one by one before sampling starts. */
export const INDEX_TIME_EXACT = 64;

/** How many distinct `stats` group names one index keeps counters for. */
export const MAX_GROUPS = 1000;
