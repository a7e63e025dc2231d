/**
 * The zero-downtime reindex: a new index from a mapping, the alias's write side moved to it,
 * the old index copied in as a task (newer writes win), then one `_aliases` call swaps the reads.
 *
 * @module
 */

import { type DataSource, ResponseError } from "../driver/mod.ts";
import { call, seg } from "./_http.ts";
import { MigrationError } from "./errors.ts";

/** A reindex step, as a `.json` migration writes it (`{"reindex": {...}}`) or a caller passes it. */
export interface ReindexSpec {
  /** The alias that readers and writers use (e.g. `users`). */
  alias: string;
  /** The new index's mappings (`{ "properties": … }`). */
  mappings?: Record<string, unknown>;
  /** The new index's settings. */
  settings?: Record<string, unknown>;
  /** The new index's name (default: `<alias>_v<n+1>` after the current `<alias>_v<n>`). */
  index?: string;
  /** Delete the old index after the swap (default false: it is kept, out of the alias). */
  deleteOld?: boolean;
  /**
   * How documents are copied: `"reindex"` (the server's `_reindex` as a task), `"client"`
   * (scroll pages and `_bulk` create items from here) or `"auto"` (the default: `_reindex`,
   * and the client copy where the server has no `_reindex`, as Elasticsearch's integ-test zip).
   */
  copy?: "auto" | "reindex" | "client";
  /** Documents per page of the client copy (default 500). */
  batchSize?: number;
}

/** How far the copy is. */
export interface ReindexProgress {
  /** The documents to copy (known once the copy started). */
  total: number;
  /** Copied so far. */
  created: number;
  /** Left alone because a newer write reached the new index first. */
  skipped: number;
}

/** Options of a library call that the file form has no words for. */
export interface ReindexOptions {
  /** Called at each poll of the task (or each page of the client copy). */
  onProgress?: (progress: ReindexProgress) => void;
  /** Milliseconds between two polls of the task (default 250). */
  pollMs?: number;
  /** Called between steps (the migrator renews its lock here). */
  heartbeat?: () => Promise<void>;
}

/** What a reindex did. */
export interface ReindexResult {
  /** The alias. */
  alias: string;
  /** The index the alias pointed to before (undefined when the alias was created). */
  from?: string;
  /** The new index. */
  to: string;
  /** How the documents were copied (`none` when there was no old index). */
  method: "reindex" | "client" | "none";
  /** The final counts. */
  progress: ReindexProgress;
  /** True when the old index was deleted. */
  deletedOld: boolean;
}

const SPEC_KEYS = ["alias", "mappings", "settings", "index", "deleteOld", "copy", "batchSize"];

/**
 * Checks a reindex step read from JSON and returns it typed.
 *
 * @param value The parsed `reindex` member.
 * @returns The spec.
 *
 * @example
 * ```ts
 * import { readReindexSpec } from "@searchvisitor/searchvisitor/migrate";
 * import assert from "node:assert/strict";
 *
 * assert.equal(readReindexSpec({ alias: "users", mappings: {} }).alias, "users");
 * assert.throws(() => readReindexSpec({ alias: "users", keep: true }), /unknown member "keep"/);
 * ```
 */
export function readReindexSpec(value: unknown): ReindexSpec {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new TypeError("a reindex step is an object with an alias and the new mappings");
  }
  const spec = value as Record<string, unknown>;
  for (const key of Object.keys(spec)) {
    if (!SPEC_KEYS.includes(key)) {
      throw new TypeError(
        `a reindex step has an unknown member "${key}" (it takes ${SPEC_KEYS.join(", ")})`,
      );
    }
  }
  if (typeof spec.alias !== "string" || !/^[a-z0-9][a-z0-9._-]*$/.test(spec.alias)) {
    throw new TypeError(`a reindex step needs "alias": a plain lower-case alias name`);
  }
  if (
    spec.index !== undefined &&
    (typeof spec.index !== "string" || !/^[a-z0-9][a-z0-9._-]*$/.test(spec.index))
  ) {
    throw new TypeError(`"index" is a plain lower-case index name`);
  }
  for (const key of ["mappings", "settings"]) {
    const v = spec[key];
    if (v !== undefined && (v === null || typeof v !== "object" || Array.isArray(v))) {
      throw new TypeError(`"${key}" is an object`);
    }
  }
  if (spec.deleteOld !== undefined && typeof spec.deleteOld !== "boolean") {
    throw new TypeError(`"deleteOld" is true or false`);
  }
  if (spec.copy !== undefined && !["auto", "reindex", "client"].includes(spec.copy as string)) {
    throw new TypeError(`"copy" is "auto", "reindex" or "client"`);
  }
  if (
    spec.batchSize !== undefined &&
    !(Number.isInteger(spec.batchSize) && (spec.batchSize as number) > 0)
  ) {
    throw new TypeError(`"batchSize" is a positive integer`);
  }
  return spec as unknown as ReindexSpec;
}

function fail(spec: ReindexSpec, message: string, cause?: unknown): never {
  throw new MigrationError(
    "MIGRATION_REINDEX",
    `reindex of alias ${spec.alias}: ${message}`,
    {},
    cause === undefined ? {} : { cause },
  );
}

/** The alias's indices and each one's alias options, or undefined when no index has it. */
async function aliasIndices(
  ds: DataSource,
  alias: string,
): Promise<Map<string, Record<string, unknown>> | undefined> {
  const reply = await call(ds, {
    method: "GET",
    path: `/_alias/${seg(alias)}`,
    allowNotFound: true,
  });
  if (reply.status === 404) return undefined;
  const out = new Map<string, Record<string, unknown>>();
  for (const [index, entry] of Object.entries(reply.body ?? {})) {
    const options = (entry as { aliases?: Record<string, Record<string, unknown>> }).aliases
      ?.[alias];
    if (options) out.set(index, options);
  }
  return out.size === 0 ? undefined : out;
}

async function exists(ds: DataSource, index: string): Promise<boolean> {
  return (await call(ds, { method: "HEAD", path: `/${seg(index)}`, allowNotFound: true }))
    .status ===
    200;
}

async function nextName(ds: DataSource, spec: ReindexSpec, from: string | undefined) {
  if (spec.index !== undefined) {
    if (await exists(ds, spec.index)) fail(spec, `the new index ${spec.index} exists already`);
    return spec.index;
  }
  const m = from === undefined
    ? null
    : new RegExp(`^${spec.alias.replace(/\./g, "\\.")}_v(\\d+)$`).exec(from);
  let n = m ? Number(m[1]) + 1 : from === undefined ? 1 : 2;
  for (let tries = 0; tries < 100; tries++, n++) {
    const name = `${spec.alias}_v${n}`;
    if (!(await exists(ds, name))) return name;
  }
  return fail(spec, `no free name ${spec.alias}_v<n>: give "index"`);
}

/** Alias options to carry over to the new index (filter, routing), never the write flag. */
function carried(options: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ["filter", "index_routing", "search_routing", "is_hidden"]) {
    if (options[key] !== undefined) out[key] = options[key];
  }
  return out;
}

function noReindexApi(error: unknown): boolean {
  if (!(error instanceof ResponseError)) return false;
  if (![400, 404, 405, 410].includes(error.status)) return false;
  return /no handler|unrecognized|not supported|incorrect http method/i.test(error.message);
}

/**
 * Moves an alias to a new index without losing writes that arrive through it meanwhile:
 *
 * 1. the new index is created from `mappings` and `settings`;
 * 2. one `_aliases` call makes it the alias's write index (the old one stays readable);
 * 3. the old index is write-blocked (`_block/write`, which waits for writes in flight; a write
 *    that raced the move answers 403 and goes to the new index when sent again), refreshed and
 *    copied into the new one with `op_type: create` and `conflicts: proceed`: a document written through the
 *    alias since step 2 is newer and is never overwritten; `_reindex` runs as a task that is
 *    polled (`wait_for_completion=false`, `GET _tasks/<id>`), or the client copies pages;
 * 4. one `_aliases` call takes the old index out of the alias (and deletes it, by option).
 *
 * Guaranteed: every index and create through the alias lands, and the last write of each id
 * wins. Not covered during steps 2–3: a partial `_update` of a document not copied yet answers
 * 404 (the writer sees it), and a delete of a document not copied yet is undone by the copy.
 * Searches through the alias see both indices during step 3 (a copied document twice). With no
 * alias yet, the index is created and given the alias. An alias left on two indices by an
 * interrupted move (the write index being the newer) is resumed from step 3.
 *
 * @param ds The cluster.
 * @param spec The step.
 * @param options Progress and heartbeat callbacks.
 * @returns What was done.
 *
 * @example
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { Engine } from "@searchvisitor/searchvisitor/engine";
 * import { reindexAlias } from "@searchvisitor/searchvisitor/migrate";
 * import assert from "node:assert/strict";
 *
 * const engine = new Engine();
 * const ds = new DataSource({ nodes: ["http://engine"], fetch: engine.fetch });
 * const first = await reindexAlias(ds, { alias: "users", mappings: { properties: { name: { type: "text" } } } });
 * assert.deepEqual([first.to, first.method], ["users_v1", "none"]);
 * await ds.transport.request({ method: "PUT", path: "/users/_doc/1?refresh=true", body: '{"name": "Ada"}' });
 * const moved = await reindexAlias(ds, {
 *   alias: "users",
 *   mappings: { properties: { name: { type: "keyword" } } },
 *   deleteOld: true,
 * });
 * assert.deepEqual([moved.from, moved.to, moved.progress.created, moved.deletedOld], ["users_v1", "users_v2", 1, true]);
 * const got = await ds.transport.request({ method: "GET", path: "/users_v2/_doc/1" });
 * assert.equal(JSON.parse(got.body)._source.name, "Ada");
 * engine.close();
 * ```
 */
export async function reindexAlias(
  ds: DataSource,
  spec: ReindexSpec,
  options: ReindexOptions = {},
): Promise<ReindexResult> {
  readReindexSpec(spec);
  const beat = options.heartbeat ?? (() => Promise.resolve());
  const body = {
    ...(spec.settings ? { settings: spec.settings } : {}),
    ...(spec.mappings ? { mappings: spec.mappings } : {}),
  };
  const current = await aliasIndices(ds, spec.alias);
  const progress: ReindexProgress = { total: 0, created: 0, skipped: 0 };
  if (current === undefined) {
    if (await exists(ds, spec.alias)) {
      fail(
        spec,
        `${spec.alias} is an index, not an alias: reindex it once into ${spec.alias}_v1 under another name, or move readers to an alias first`,
      );
    }
    const to = await nextName(ds, spec, undefined);
    await call(ds, {
      method: "PUT",
      path: `/${seg(to)}`,
      body: {
        ...body,
        aliases: { [spec.alias]: { is_write_index: true } },
      },
    });
    return { alias: spec.alias, to, method: "none", progress, deletedOld: false };
  }
  let from: string;
  let to: string;
  if (current.size === 1) {
    const [name, aliasOptions] = [...current][0]!;
    from = name;
    to = await nextName(ds, spec, from);
    await call(ds, { method: "PUT", path: `/${seg(to)}`, body: body });
    await beat();
    await call(ds, {
      method: "POST",
      path: "/_aliases",
      body: {
        actions: [
          {
            add: {
              index: from,
              alias: spec.alias,
              ...carried(aliasOptions),
              is_write_index: false,
            },
          },
          { add: { index: to, alias: spec.alias, ...carried(aliasOptions), is_write_index: true } },
        ],
      },
    });
  } else {
    const writers = [...current].filter(([, o]) => o.is_write_index === true);
    const others = [...current].filter(([, o]) => o.is_write_index !== true);
    if (
      current.size !== 2 || writers.length !== 1 || (spec.index && writers[0]![0] !== spec.index)
    ) {
      fail(
        spec,
        `the alias points to ${
          [...current.keys()].join(", ")
        }: a move needs it on one index (or on two after an interrupted move, the newer being the write index)`,
      );
    }
    to = writers[0]![0];
    from = others[0]![0];
  }
  await beat();
  await blockWrites(ds, from);
  await call(ds, { method: "POST", path: `/${seg(from)}/_refresh` });
  const job: CopyJob = { ds, spec, from, to, progress, options, beat };
  let method: "reindex" | "client" = spec.copy === "client" ? "client" : "reindex";
  if (method === "reindex") {
    try {
      await serverCopy(job);
    } catch (error) {
      if (spec.copy === "reindex" || !noReindexApi(error)) {
        if (error instanceof MigrationError) throw error;
        fail(spec, `copying ${from} into ${to} failed: ${(error as Error).message}`, error);
      }
      method = "client";
    }
  }
  if (method === "client") await clientCopy(job);
  await call(ds, { method: "POST", path: `/${seg(to)}/_refresh` });
  await beat();
  await call(ds, {
    method: "POST",
    path: "/_aliases",
    body: {
      // remove_index takes the index's aliases with it (OpenSearch refuses both in one call).
      actions: [
        spec.deleteOld ? { remove_index: { index: from } } : {
          remove: { index: from, alias: spec.alias },
        },
      ],
    },
  });
  return { alias: spec.alias, from, to, method, progress, deletedOld: spec.deleteOld === true };
}

/**
 * Blocks writes to the old index with `PUT /<index>/_block/write`, which waits for the writes
 * in flight (routed there before the alias moved) to finish: after it, the refresh sees every
 * write the old index will ever get. A server without the API (the embedded engine, which has
 * no writes in flight) is left as it is.
 */
async function blockWrites(ds: DataSource, index: string): Promise<void> {
  try {
    await call(ds, { method: "PUT", path: `/${seg(index)}/_block/write` });
  } catch (error) {
    if (!noReindexApi(error)) throw error;
  }
}

/** One copy of the old index into the new one, and what it reports to. */
interface CopyJob {
  ds: DataSource;
  spec: ReindexSpec;
  from: string;
  to: string;
  progress: ReindexProgress;
  options: ReindexOptions;
  beat: () => Promise<void>;
}

async function serverCopy(job: CopyJob): Promise<void> {
  const { ds, from, to, progress, options, beat } = job;
  const started = await call(ds, {
    method: "POST",
    path: "/_reindex?wait_for_completion=false",
    body: {
      conflicts: "proceed",
      source: { index: from },
      dest: { index: to, op_type: "create" },
    },
  });
  const task = String(started.body?.task ?? "");
  if (!/^[^/]+:\d+$/.test(task)) {
    throw new MigrationError(
      "MIGRATION_REINDEX",
      `_reindex answered no task id: ${JSON.stringify(started.body)}`,
    );
  }
  for (;;) {
    const reply = await call(ds, { method: "GET", path: `/_tasks/${seg(task)}`, idempotent: true });
    const status = reply.body?.task?.status ?? {};
    progress.total = Number(status.total ?? progress.total);
    progress.created = Number(status.created ?? progress.created);
    progress.skipped = Number(status.version_conflicts ?? progress.skipped);
    options.onProgress?.({ ...progress });
    if (reply.body?.completed === true) {
      const error = reply.body.error;
      const failures = reply.body.response?.failures ?? [];
      if (error || failures.length > 0) {
        throw new MigrationError(
          "MIGRATION_REINDEX",
          `task ${task} copying ${from} into ${to} failed: ${JSON.stringify(error ?? failures[0])}`,
        );
      }
      const r = reply.body.response ?? {};
      progress.total = Number(r.total ?? progress.total);
      progress.created = Number(r.created ?? progress.created);
      progress.skipped = Number(r.version_conflicts ?? progress.skipped);
      return;
    }
    await beat();
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 250));
  }
}

async function clientCopy(job: CopyJob): Promise<void> {
  const { ds, spec, from, to, progress, options, beat } = job;
  await using conn = await ds.getConnection();
  const stream = conn.stream(
    `POST /${seg(from)}/_search {"query": {"match_all": {}}, "seq_no_primary_term": false}`,
    [],
    { pageSize: spec.batchSize ?? 500 },
  );
  for await (const page of stream.pages()) {
    const hits = ((page.raw as { hits?: { hits?: { _routing?: string }[] } })?.hits?.hits) ?? [];
    progress.total = Number(page.total?.value ?? progress.total);
    const lines: string[] = [];
    let i = 0;
    while (page.next()) {
      const routing = hits[i++]?._routing;
      const action = {
        create: { _index: to, _id: page.getString("_ID"), ...(routing ? { routing } : {}) },
      };
      lines.push(JSON.stringify(action), page.getString("_DOC")!);
    }
    if (lines.length === 0) continue;
    const reply = await call(ds, {
      method: "POST",
      path: "/_bulk",
      ndjson: lines.join("\n") + "\n",
    });
    for (const item of reply.body?.items ?? []) {
      const result = item.create ?? {};
      if (result.status === 409) progress.skipped++;
      else if (result.status >= 200 && result.status < 300) progress.created++;
      else {
        throw new MigrationError(
          "MIGRATION_REINDEX",
          `copying ${result._id} from ${from} into ${to} failed: ${JSON.stringify(result.error)}`,
        );
      }
    }
    options.onProgress?.({ ...progress });
    await beat();
  }
}
