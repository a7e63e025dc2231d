// How alike two answers to the same request are. The normalisation is the conformance runner's
// (`compare.mjs` of the shared conformance folder), no wider: fields that differ between any two
// clusters are dropped (took, uuids, node and cluster names, build info, error reasons and stack
// traces, scroll/PIT/task ids), documents (`_source`) keep every field, integers compare exactly
// and fractions within a relative 1e-5. Widening this list to raise a figure is not allowed: a
// difference the engine shows is fixed in the engine or recorded in known_differences.md.

/** One HTTP answer: its status and body text. */
export interface Answer {
  status: number;
  text: string;
}

/** The keys dropped wherever they appear outside `_source` (and their last dotted part). */
export const DROP: ReadonlySet<string> = new Set([
  "took",
  "cluster_uuid",
  "uuid",
  "index_uuid",
  "build_hash",
  "build_date",
  "build_type",
  "build_flavor",
  "build_snapshot",
  "lucene_version",
  "minimum_wire_compatibility_version",
  "minimum_index_compatibility_version",
  "tagline",
  "cluster_name",
  "creation_date",
  "creation_date_string",
  "provided_name",
  "reason",
  "stack_trace",
  "caused_by",
  "root_cause",
  "failed_shards",
  "suppressed",
  "script_stack",
  "header",
  "_scroll_id",
  "pit_id",
  "id",
  "task",
  "_node",
  "node",
  "name",
  "number",
  "distribution",
  "version",
  "node_id",
  "version.created",
]);

/** Whether a key is dropped: it or its last dotted part is in {@link DROP}, or it is a timing. */
export function dropped(k: string): boolean {
  return DROP.has(k) || DROP.has(k.slice(k.lastIndexOf(".") + 1)) ||
    /^index\.(version\.created|creation_date|uuid|provided_name)$/.test(k) ||
    /_nanos$|_in_millis$/.test(k);
}

/** Two leaves (as printed by {@link leaves}) that are fractions within a relative 1e-5. */
export function close(v: string, w: string): boolean {
  if (/^"/.test(v) || /^"/.test(w)) return false;
  const a = Number(v), b = Number(w);
  if (!Number.isFinite(a) || !Number.isFinite(b) || (Number.isInteger(a) && Number.isInteger(b))) {
    return false;
  }
  return Math.abs(a - b) <= 1e-5 * Math.max(Math.abs(a), Math.abs(b));
}

/** An id that an engine generated for itself (20-odd URL-safe characters), as a printed leaf. */
export function generatedId(v: string): boolean {
  return /^"[A-Za-z0-9_-]{16,}"$/.test(v);
}

/** Every leaf of a parsed body by dotted path, dropped keys left out (not under `_source`). */
export function leaves(
  v: unknown,
  p = "",
  out: Map<string, string> = new Map(),
  inSource = false,
): Map<string, string> {
  if (v !== null && typeof v === "object") {
    const rec = v as Record<string, unknown>;
    const keys = Array.isArray(v) ? v.map((_, i) => String(i)) : Object.keys(rec);
    if (!keys.length) out.set(p, Array.isArray(v) ? "[]" : "{}");
    for (const k of keys) {
      if (!Array.isArray(v) && !inSource && dropped(k)) continue;
      leaves(rec[k], p === "" ? k : `${p}.${k}`, out, inSource || k === "_source");
    }
  } else out.set(p, typeof v === "number" ? String(v) : JSON.stringify(v));
  return out;
}

/** A body parsed as JSON, or the text itself when it is not JSON. */
export function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A path with its array positions generalised (`hits.hits.3._id` → `hits.hits.N._id`). */
export function shape(p: string): string {
  return p.replace(/\.\d+(?=\.|$)/g, ".N");
}

/** One way two answers differ: its kind and the field (a dotted shape) or the two statuses. */
export interface Difference {
  kind: "status" | "only in real" | "only in engine" | "value";
  where: string;
}

/**
 * The differences between the real engine's answer and the embedded engine's, after the
 * normalisation above; empty when they are identical.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { differences } from "./compare.ts";
 * const a = { status: 200, text: '{"took":3,"hits":{"total":1}}' };
 * assert.deepEqual(differences(a, { status: 200, text: '{"took":9,"hits":{"total":1}}' }), []);
 * assert.deepEqual(differences(a, { status: 200, text: '{"hits":{"total":2}}' }), [
 *   { kind: "value", where: "hits.total" },
 * ]);
 * ```
 */
export function differences(real: Answer, engine: Answer): Difference[] {
  if (real.status !== engine.status) {
    return [{ kind: "status", where: `${real.status} vs ${engine.status}` }];
  }
  const la = leaves(parseBody(real.text)), lb = leaves(parseBody(engine.text));
  const out: Difference[] = [];
  const seen = new Set<string>();
  const add = (kind: Difference["kind"], k: string) => {
    const where = shape(k);
    if (seen.has(kind + where)) return;
    seen.add(kind + where);
    out.push({ kind, where });
  };
  for (const [k, v] of la) {
    const w = lb.get(k);
    if (w === undefined) {
      add("only in real", k);
      continue;
    }
    if (w === v || (/(^|\.)_id$/.test(k) && generatedId(v) && generatedId(w)) || close(v, w)) {
      continue;
    }
    add("value", k);
  }
  for (const k of lb.keys()) if (!la.has(k)) add("only in engine", k);
  return out;
}
