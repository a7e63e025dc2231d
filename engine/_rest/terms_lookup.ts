// The terms-lookup form of the `terms` query (`{"terms": {"f": {"index", "id", "path"}}}`): the
// values are read from a stored document before the query is parsed, as Elasticsearch's rewrite
// fetches them. A missing document gives no values (the query matches nothing).

import { parsingError } from "../_errors.ts";
import type { Cluster } from "../_state/cluster.ts";
import type { JsonObject } from "../_json.ts";

const LOOKUP_KEYS = new Set(["index", "id", "path", "routing", "type", "store"]);

function isLookup(v: unknown): v is JsonObject {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const keys = Object.keys(v);
  return keys.includes("path") && keys.every((k) => LOOKUP_KEYS.has(k));
}

/** The values at a dotted path of a source, arrays flattened (objects inside arrays walked). */
export function valuesAt(source: unknown, path: string): unknown[] {
  let level: unknown[] = [source];
  for (const part of path.split(".")) {
    const next: unknown[] = [];
    for (const o of level) {
      if (o === null || typeof o !== "object") continue;
      if (Array.isArray(o)) {
        level.push(...o);
        continue;
      }
      if (!Object.hasOwn(o, part)) continue;
      const v = (o as JsonObject)[part];
      if (Array.isArray(v)) next.push(...v);
      else next.push(v);
    }
    level = next;
  }
  return level.filter((v) => v !== null && typeof v !== "object");
}

function lookup(spec: JsonObject, cluster: Cluster): unknown[] {
  if (typeof spec.id !== "string" && typeof spec.id !== "number") {
    throw parsingError("[terms] query lookup element requires specifying the id.");
  }
  if (typeof spec.path !== "string") {
    throw parsingError("[terms] query lookup element requires specifying the path.");
  }
  if (typeof spec.index !== "string") {
    throw parsingError("[terms] query lookup element requires specifying the index.");
  }
  const index = cluster.readIndex(spec.index);
  const doc = index.docs.get(String(spec.id));
  return doc ? valuesAt(doc.source, spec.path) : [];
}

/** Returns `body` with every terms lookup inside it replaced by the values it names. */
export function resolveTermsLookups<T>(body: T, cluster: Cluster): T {
  const own = (o: JsonObject, k: string, value: unknown) =>
    Object.defineProperty(o, k, { value, enumerable: true, writable: true, configurable: true });
  // Copies only what a lookup changes: a body without lookups (say 65,000 ranges) is walked
  // once and returned as it came, without a copy of each object.
  const walk = (v: unknown, depth: number): unknown => {
    if (v === null || typeof v !== "object" || depth > 1000) return v;
    if (Array.isArray(v)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        const next = walk(v[i], depth + 1);
        if (next !== v[i]) (copy ??= v.slice())[i] = next;
      }
      return copy ?? v;
    }
    // Keys, not entries: a pair array per key of every object of every search adds up.
    const obj = v as JsonObject;
    const keys = Object.keys(obj);
    let out: JsonObject | undefined;
    for (let at = 0; at < keys.length; at++) {
      const k = keys[at]!;
      const x = obj[k];
      let next = walk(x, depth + 1);
      if (k === "terms" && next !== null && typeof next === "object" && !Array.isArray(next)) {
        const terms: JsonObject = {};
        for (const [f, spec] of Object.entries(next as JsonObject)) {
          own(terms, f, isLookup(spec) ? lookup(spec, cluster) : spec);
        }
        next = terms;
      }
      if (next !== x && out === undefined) {
        out = {};
        for (let j = 0; j < at; j++) own(out, keys[j]!, obj[keys[j]!]);
      }
      if (out !== undefined) own(out, k, next);
    }
    return out ?? v;
  };
  return walk(body, 0) as T;
}
