// Index resizing (`_clone`, `_split`, `_shrink`) and index blocks (`_block`): a resized target
// is a new index with the source's mappings, settings and documents, created only from a source
// that blocks writes, with the shard counts each operation allows.

import { esError, illegalArgument, validationFailed, xContentParseError } from "../_errors.ts";
import { KeptDoc } from "../_index/kept_doc.ts";
import type { StoredDoc } from "../_index/types.ts";
import { changeAliases } from "../_state/alias_changes.ts";
import { resolveDateMathName } from "../_state/date_math_names.ts";
import type { IndexState } from "../_state/index_state.ts";
import { flattenSettings } from "../_state/settings.ts";
import { checkKnownSettings } from "../_state/setting_registry.ts";
import { readAliasMeta } from "./aliases.ts";
import { bodyObject, ok, type Reply, type RequestContext } from "./context.ts";
import { targets } from "./targets.ts";

/** The three ways to resize an index. */
export type ResizeKind = "clone" | "split" | "shrink";

/** Source settings a target never inherits: its own identity, shard and replica counts. */
const NOT_COPIED =
  /^index\.(uuid|creation_date|provided_name|number_of_shards|number_of_replicas|version\.|resize\.|routing\.allocation\.initial_recovery\.|verified_read_only$)/;

/**
 * Lucene's routing factor between the source's and the target's shard counts (`getRoutingFactor`):
 * a split's target must be a multiple of the source, a shrink's a factor of it.
 */
function checkRoutingFactor(source: number, target: number): void {
  if (source < target) {
    const factor = Math.floor(target / source);
    if (factor * source !== target || factor <= 1) {
      throw illegalArgument(
        `the number of source shards [${source}] must be a factor of [${target}]`,
      );
    }
  } else if (source > target) {
    const factor = Math.floor(source / target);
    if (factor * target !== source || factor <= 1) {
      throw illegalArgument(
        `the number of source shards [${source}] must be a multiple of [${target}]`,
      );
    }
  }
}

/**
 * The target's shard count, checked against the source's as the operation requires, in the real
 * engines' order (before the write block is looked at).
 */
function targetShards(kind: ResizeKind, source: number, requested: string | undefined): number {
  const n = requested === undefined ? undefined : Number(requested);
  if (kind === "clone") {
    const target = n ?? source;
    if (target !== source) {
      throw illegalArgument(
        `the number of target shards (${target}) must be the same as the number of source shards (${source})`,
      );
    }
    return target;
  }
  if (kind === "split") {
    if (n === undefined) {
      throw validationFailed("index.number_of_shards is required for split operations");
    }
    checkRoutingFactor(source, n);
    if (source > n) {
      throw illegalArgument(
        `the number of source shards [${source}] must be less that the number of target shards [${n}]`,
      );
    }
    return n;
  }
  const target = n ?? 1;
  if (target > source) {
    throw illegalArgument(
      `the number of target shards [${target}] must be less that the number of source shards [${source}]`,
    );
  }
  checkRoutingFactor(source, target);
  return target;
}

/** A copy of a document for another index: same id, source text, version and sequence number. */
function copyOf(doc: StoredDoc): StoredDoc {
  const copy: StoredDoc = doc instanceof KeptDoc
    ? new KeptDoc({
      id: doc.id,
      source: doc.parse(),
      text: doc.text,
      version: doc.version,
      seqNo: doc.seqNo,
    })
    : { id: doc.id, source: doc.source, version: doc.version, seqNo: doc.seqNo, primaryTerm: 1 };
  if (doc.routing !== undefined) copy.routing = doc.routing;
  return copy;
}

/** `POST|PUT /{index}/_clone|_split|_shrink/{target}`. */
export function resizeHandler(ctx: RequestContext, kind: ResizeKind): Reply {
  const body = bodyObject(ctx) ?? {};
  for (const key of Object.keys(body)) {
    if (key !== "settings" && key !== "aliases") {
      throw xContentParseError(`[resize_request] unknown field [${key}]`);
    }
  }
  const cluster = ctx.state.cluster;
  const sourceName = ctx.p.index!;
  const source = cluster.indices.get(sourceName);
  if (!source) {
    throw esError("index_not_found_exception", `no such index [${sourceName}]`, {
      index_uuid: "_na_",
      index: sourceName,
    });
  }
  const targetName = resolveDateMathName(ctx.p.target!, ctx.state.now());
  const existing = cluster.indices.get(targetName);
  if (existing) {
    throw esError(
      "resource_already_exists_exception",
      `index [${targetName}/${existing.uuid}] already exists`,
      { index_uuid: existing.uuid, index: targetName },
    );
  }
  source.ensureOpen();
  const requested = flattenSettings(body.settings ?? {});
  const shards = targetShards(kind, source.shardCount, requested["index.number_of_shards"]);
  if (source.settings["index.blocks.write"] !== "true") {
    const wording = ctx.state.flavour === "opensearch"
      ? "must block write operations to resize index"
      : "must be read-only to resize index";
    throw esError(
      "illegal_state_exception",
      `index ${sourceName} ${wording}. use "index.blocks.write=true"`,
    );
  }
  const settings: Record<string, string> = {};
  for (const [k, v] of Object.entries(source.settings)) if (!NOT_COPIED.test(k)) settings[k] = v;
  // A null in the request (flattened to "") removes what the source set.
  for (const [k, v] of Object.entries(requested)) {
    if (v === "") delete settings[k];
    else settings[k] = v;
  }
  settings["index.number_of_shards"] = String(shards);
  settings["index.routing_partition_size"] ??= "1";
  if (ctx.state.flavour === "opensearch") {
    settings["index.resize.source.name"] = sourceName;
    settings["index.resize.source.uuid"] = source.uuid;
  }
  checkKnownSettings(requested);
  const aliases = Object.entries((body.aliases ?? {}) as Record<string, unknown>).map(
    ([name, meta]) => [name, readAliasMeta(meta)] as const,
  );
  let target: IndexState | undefined;
  changeAliases(cluster, () => {
    target = cluster.create(targetName, settings, structuredClone(source.mappings));
    for (const [alias, meta] of aliases) {
      cluster.putAlias(target, resolveDateMathName(alias, ctx.state.now()), meta);
    }
  });
  // The source's documents as of now, written or not yet refreshed: resizing copies them all.
  const now = ctx.state.now();
  source.refresh(now);
  for (const doc of source.visible.values()) {
    target!.put(doc.id, copyOf(doc), doc.routing, false);
  }
  target!.refresh(now);
  return ok({ acknowledged: true, shards_acknowledged: true, index: targetName });
}

const BLOCKS = new Set(["write", "read", "read_only", "metadata"]);

function blockName(ctx: RequestContext): string {
  const block = ctx.p.block!;
  if (!BLOCKS.has(block)) throw illegalArgument(`No block found with name ${block}`);
  return block;
}

/** `PUT /{index}/_block/{block}`: sets `index.blocks.<block>` on each index. */
export function addBlockHandler(ctx: RequestContext): Reply {
  const block = blockName(ctx);
  const found = targets(ctx, {});
  for (const index of found) {
    index.settings[`index.blocks.${block}`] = "true";
    if (ctx.state.flavour === "elasticsearch" && block !== "read") {
      index.settings["index.verified_read_only"] = "true";
    }
  }
  return ok({
    acknowledged: true,
    shards_acknowledged: true,
    indices: found.map((i) => ({ name: i.name, blocked: true })),
  });
}

/** `DELETE /{index}/_block/{block}` (Elasticsearch): removes the block. */
export function removeBlockHandler(ctx: RequestContext): Reply {
  const block = blockName(ctx);
  const found = targets(ctx, {});
  for (const index of found) {
    delete index.settings[`index.blocks.${block}`];
    const still = ["write", "read_only", "metadata"].some((b) =>
      index.settings[`index.blocks.${b}`] === "true"
    );
    if (!still) delete index.settings["index.verified_read_only"];
  }
  return ok({ acknowledged: true, indices: found.map((i) => ({ name: i.name, unblocked: true })) });
}
