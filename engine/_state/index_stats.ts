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

  /** Counts one index operation that took `millis`. */
  indexed(millis: number): void {
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

  /** Counts one real-time get that found (or missed) its document. */
  got(found: boolean, millis: number): void {
    this.getTotal++;
    this.getMillis += millis;
    if (found) {
      this.existsTotal++;
      this.existsMillis += millis;
    } else {
      this.missingTotal++;
      this.missingMillis += millis;
    }
  }
}

/** How many distinct `stats` group names one index keeps counters for. */
export const MAX_GROUPS = 1000;
