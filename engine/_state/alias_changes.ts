// Alias changes as one step: applied together, checked as Elasticsearch checks an alias when it
// builds its metadata, and undone together when a check fails.

import { esError } from "../_errors.ts";
import type { Cluster } from "./cluster.ts";
import type { AliasMeta, IndexState } from "./index_state.ts";

/**
 * Every index of a hidden alias must mark it hidden; otherwise 500 `illegal_state_exception`
 * with Elasticsearch's wording (indices in name order).
 */
export function checkAlias(cluster: Cluster, alias: string): void {
  const holders = cluster.aliasIndices(alias).sort((a, b) => (a.name < b.name ? -1 : 1));
  const hidden = holders.filter((i) => i.aliases.get(alias)?.is_hidden === true);
  if (hidden.length === 0 || hidden.length === holders.length) return;
  const visible = holders.filter((i) => !hidden.includes(i));
  throw esError(
    "illegal_state_exception",
    `alias [${alias}] has is_hidden set to true on indices [${
      hidden.map((i) => i.name).join(",")
    }] but does not have is_hidden set to true on indices [${
      visible.map((i) => i.name).join(",")
    }]; alias must have the same is_hidden setting on all indices`,
  );
}

/**
 * Runs alias changes all at once (and index creations or removals made with them): when an
 * alias they touch ends up inconsistent (see {@link checkAlias}), or `change` throws, every
 * index and its aliases are put back and the error is rethrown, so a request changes everything
 * or nothing.
 */
export function changeAliases(cluster: Cluster, change: () => void): void {
  const indices = new Map(cluster.indices);
  const before = new Map<IndexState, Map<string, AliasMeta>>(
    [...cluster.indices.values()].map((i) => [i, new Map(i.aliases)]),
  );
  try {
    change();
    const touched = new Set<string>();
    for (const index of cluster.indices.values()) {
      const old = before.get(index) ?? new Map<string, AliasMeta>();
      for (const name of new Set([...old.keys(), ...index.aliases.keys()])) {
        if (old.get(name) !== index.aliases.get(name)) touched.add(name);
      }
    }
    for (const name of touched) checkAlias(cluster, name);
  } catch (e) {
    cluster.indices.clear();
    for (const [name, index] of indices) cluster.indices.set(name, index);
    for (const [index, aliases] of before) {
      index.aliases.clear();
      for (const [name, meta] of aliases) index.aliases.set(name, meta);
    }
    throw e;
  }
}
