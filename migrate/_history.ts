// The history index: one document per applied (or failed) version, and the lock document
// `lock`, taken with a create-only write and renewed by compare-and-set (if_seq_no).

import { type DataSource, ResponseError } from "../driver/mod.ts";
import { call, seg } from "./_http.ts";
import { MigrationError } from "./errors.ts";

/** One row of the history, as stored in the history index. */
export interface HistoryRecord {
  /** The version, e.g. `2` or `1.1`. */
  version: string;
  /** The description from the file name. */
  description: string;
  /** The file name. */
  script: string;
  /** SHA-256 of the file's text when it was applied. */
  checksum: string;
  /** When it was applied (ISO 8601). */
  installed_on: string;
  /** How long it ran, in milliseconds. */
  execution_ms: number;
  /** False when a step failed. */
  success: boolean;
  /** Its place in the order of application, from 1. */
  installed_rank: number;
  /** Who applied it, when the migrator was told. */
  installed_by?: string;
  /** The failure's message, for a failed one. */
  error?: string;
  /** The 1-based command that failed. */
  failed_command?: number;
  /** That command's line. */
  failed_line?: number;
}

const MAPPING = {
  dynamic: false,
  properties: {
    kind: { type: "keyword" },
    version: { type: "keyword" },
    description: { type: "keyword" },
    script: { type: "keyword" },
    checksum: { type: "keyword" },
    installed_on: { type: "date" },
    execution_ms: { type: "long" },
    success: { type: "boolean" },
    installed_rank: { type: "integer" },
    installed_by: { type: "keyword" },
    owner: { type: "keyword" },
    heartbeat_at: { type: "date" },
  },
};

/** Creates the history index unless it exists (a racing creator is fine). */
export async function ensureHistory(ds: DataSource, index: string): Promise<void> {
  const head = await call(ds, { method: "HEAD", path: `/${seg(index)}`, allowNotFound: true });
  if (head.status === 200) return;
  try {
    await call(ds, {
      method: "PUT",
      path: `/${seg(index)}`,
      body: {
        settings: { number_of_shards: 1 },
        mappings: MAPPING,
      },
    });
  } catch (error) {
    if (!(error instanceof ResponseError && error.type === "resource_already_exists_exception")) {
      throw error;
    }
  }
}

/** Every version record, by installed rank (empty when the index does not exist). */
export async function readHistory(ds: DataSource, index: string): Promise<HistoryRecord[]> {
  const reply = await call(ds, {
    method: "POST",
    path: `/${seg(index)}/_search`,
    body: {
      size: 10000,
      query: { term: { kind: "migration" } },
    },
    allowNotFound: true,
    idempotent: true,
  });
  if (reply.status === 404) return [];
  const rows = (reply.body?.hits?.hits ?? []).map((h: { _source: HistoryRecord }) => h._source);
  return rows.sort((a: HistoryRecord, b: HistoryRecord) => a.installed_rank - b.installed_rank);
}

/** Writes (or replaces) one version's record, visible to the next read at once. */
export async function writeRecord(
  ds: DataSource,
  index: string,
  record: HistoryRecord,
): Promise<void> {
  await call(ds, {
    method: "PUT",
    path: `/${seg(index)}/_doc/${seg("v-" + record.version)}?refresh=true`,
    body: { kind: "migration", ...record },
    idempotent: true,
  });
}

/** Deletes one version's record (repair of a failed one). */
export async function deleteRecord(ds: DataSource, index: string, version: string) {
  await call(ds, {
    method: "DELETE",
    path: `/${seg(index)}/_doc/${seg("v-" + version)}?refresh=true`,
    allowNotFound: true,
  });
}

/** The lock's holder. */
export interface LockHolder {
  /** Who holds it: the migrator's `installedBy` and a random tag. */
  owner: string;
  /** When the holder last renewed it (ISO 8601). */
  heartbeat_at: string;
}

/** A held lock: renew it between steps, release it at the end. */
export class HistoryLock {
  #seqNo: number;
  #term: number;
  /** Who holds it (`LockOptions.owner`). */
  readonly owner: string;
  private readonly now: () => Date;
  /**
   * A lock taken by `options.owner`, at the sequence number and primary term of the write that
   * took it (the next renewal is conditional on them).
   */
  constructor(
    private readonly ds: DataSource,
    private readonly index: string,
    options: Pick<LockOptions, "owner" | "now">,
    written: { readonly _seq_no: number; readonly _primary_term: number },
  ) {
    this.owner = options.owner;
    this.now = options.now;
    this.#seqNo = written._seq_no;
    this.#term = written._primary_term;
  }

  /** Moves the heartbeat on; throws MIGRATION_LOCKED when another process took the lock over. */
  async renew(): Promise<void> {
    try {
      const reply = await call(this.ds, {
        method: "PUT",
        path: `/${
          seg(this.index)
        }/_doc/lock?if_seq_no=${this.#seqNo}&if_primary_term=${this.#term}&refresh=true`,
        body: { kind: "lock", owner: this.owner, heartbeat_at: this.now().toISOString() },
      });
      this.#seqNo = reply.body._seq_no;
      this.#term = reply.body._primary_term;
    } catch (error) {
      if (error instanceof ResponseError && error.status === 409) {
        throw new MigrationError(
          "MIGRATION_LOCKED",
          `the migration lock of ${this.owner} was taken over (stale or force-unlocked): stopping`,
          {},
          { cause: error },
        );
      }
      throw error;
    }
  }

  /** Deletes the lock if it is still this one. */
  async release(): Promise<void> {
    try {
      await call(this.ds, {
        method: "DELETE",
        path: `/${
          seg(this.index)
        }/_doc/lock?if_seq_no=${this.#seqNo}&if_primary_term=${this.#term}&refresh=true`,
        allowNotFound: true,
      });
    } catch (error) {
      if (!(error instanceof ResponseError && error.status === 409)) throw error;
    }
  }
}

/** How the lock is waited for. */
export interface LockOptions {
  owner: string;
  /** Give up after this long (ms). */
  waitMs: number;
  /** A lock whose heartbeat is older than this is stale and taken over (ms). */
  staleMs: number;
  now: () => Date;
}

/** Takes the lock: a create-only write; waits while another holds it; takes a stale one over. */
export async function acquireLock(
  ds: DataSource,
  index: string,
  options: LockOptions,
): Promise<HistoryLock> {
  const started = Date.now();
  const doc = () => ({
    kind: "lock",
    owner: options.owner,
    heartbeat_at: options.now().toISOString(),
  });
  const lock = (body: { _seq_no: number; _primary_term: number }) =>
    new HistoryLock(ds, index, options, body);
  for (let attempt = 0;; attempt++) {
    try {
      return lock(
        (await call(ds, {
          method: "PUT",
          path: `/${seg(index)}/_create/lock?refresh=true`,
          body: doc(),
        })).body,
      );
    } catch (error) {
      if (!(error instanceof ResponseError && error.status === 409)) throw error;
    }
    const held = await call(ds, {
      method: "GET",
      path: `/${seg(index)}/_doc/lock`,
      allowNotFound: true,
    });
    if (held.status === 404 || held.body?.found === false) continue; // released meanwhile
    const holder = held.body._source as LockHolder;
    const age = options.now().getTime() - Date.parse(holder.heartbeat_at);
    if (age > options.staleMs) {
      try {
        const path = `/${
          seg(index)
        }/_doc/lock?if_seq_no=${held.body._seq_no}&if_primary_term=${held.body._primary_term}&refresh=true`;
        return lock((await call(ds, { method: "PUT", path, body: doc() })).body);
      } catch (error) {
        if (!(error instanceof ResponseError && error.status === 409)) throw error;
        continue; // another process took it over first
      }
    }
    if (Date.now() - started >= options.waitMs) {
      throw new MigrationError(
        "MIGRATION_LOCKED",
        `another migration holds the lock of ${index}: ${holder.owner}, alive at ${holder.heartbeat_at}. ` +
          `Wait for it; if that process died, its lock is taken over once stale (${
            Math.round(options.staleMs / 1000)
          } s), or run \`searchvisitor migrate --force-unlock\``,
      );
    }
    await new Promise((r) => setTimeout(r, Math.min(100 + attempt * 50, 500) + Math.random() * 50));
  }
}

/** Deletes the lock whoever holds it; returns the holder it removed. */
export async function forceUnlock(ds: DataSource, index: string): Promise<LockHolder | undefined> {
  const held = await call(ds, {
    method: "GET",
    path: `/${seg(index)}/_doc/lock`,
    allowNotFound: true,
  });
  if (held.status === 404 || held.body?.found === false) return undefined;
  await call(ds, {
    method: "DELETE",
    path: `/${seg(index)}/_doc/lock?refresh=true`,
    allowNotFound: true,
  });
  return held.body._source as LockHolder;
}
