// Replays a corpus against a real engine (the oracle, asked twice for repeatable requests) and the
// embedded engine, and sorts every answer pair into one outcome: identical, different,
// unsupported (the embedded engine refuses what the real one accepts), no oracle (the real
// distribution lacks the module), unstable (the two real answers differ) or set aside (a 404 on
// both sides for an example naming an index nobody seeded, a follow-up of a generated value).

import { type Answer, type Difference, differences, parseBody } from "./compare.ts";
import type { Item, Step } from "./generate.ts";

/** What became of one request. */
export type Outcome =
  | "identical"
  | "different"
  | "unsupported"
  | "no oracle"
  | "unstable"
  | "both 404";

/** One compared request, with both answers (kept for the examples of the report). */
export interface Exchange {
  corpus: string;
  kind: string;
  method: string;
  path: string;
  body?: string;
  real: Answer;
  engine: Answer;
  outcome: Outcome;
  differences: Difference[];
}

/**
 * The embedded engine's ways of refusing what it does not implement (a real engine accepted the
 * request): an unknown query, aggregation, field type or endpoint, or its own "not supported".
 */
const UNSUPPORTED =
  /unknown query \[|Unknown aggregation type \[|not supported by this engine|no handler found for uri|No handler for type \[|unknown key \[[a-z_]+\] for|script_lang not supported|Unknown key for a START_OBJECT in \[(suggest|rescore|runtime_mappings)\]/i;

/**
 * The real distribution's ways of saying it lacks a module (Elasticsearch's integration-test
 * zip has no painless, no analysis-common, no by-query APIs, no mapper-extras, no x-pack
 * mappers such as `unsigned_long`…; a missing `_reindex` answers 405, another route of that path
 * taking the request; a missing field type is "No handler for type [..]" before 8.x and "The mapper
 * type [..] declared on field [..] does not exist" in 9.x).
 */
const NO_ORACLE =
  /script_lang not supported \[painless\]|unsupported lang \[(painless|mustache|expression)\]|(no handler found|Incorrect HTTP method) for uri \[[^\]]*(_reindex|_update_by_query|_delete_by_query|_search\/template|_render|_scripts\/painless|_rank_eval|_msearch\/template)|(No handler for type|The mapper type) \[(scaled_float|wildcard|unsigned_long|geo_shape|join|search_as_you_type|match_only_text|rank_feature|token_count)\]|Unknown aggregation type \[(auto_date_histogram|moving_fn|bucket_selector|bucket_sort|derivative|serial_diff|top_metrics|matrix_stats|adjacency_matrix)\]|unknown query \[(has_child|has_parent|percolate|rank_feature)\]|failed to find (global )?(tokenizer|analyzer|filter|char_filter|normalizer)|analyzer \[[^\]]+\] has not been configured|Unknown (tokenizer|filter|char_filter) type/i;

/**
 * The root path (`GET /`, `HEAD /`): the `rest-root` module serves it; without the module the
 * real engine answers 405 there (another route, `DELETE /`, holds the path), which it never does
 * with the module.
 */
const ROOT_PATH = /^\/(\?|$)/;

/**
 * Paths of APIs the real distribution's missing modules serve: there another route takes them
 * (`GET /_reindex` as an index named `_reindex`, `/_scripts/painless/_execute` as a stored script
 * named `painless`), so any refusal there says nothing about the API.
 */
const NO_ORACLE_PATH = /^\/(_reindex|_update_by_query|_delete_by_query|_scripts\/painless\/)/;

/**
 * Whether the real answer is the missing module's, not the API's: such a request is not compared,
 * nor sent to the embedded engine, whose state would otherwise part from the real engine's (a
 * `_reindex` the real engine cannot run creating indices later answers count).
 */
export function noOracle(step: Step, real: Answer, opts: ReplayOptions): boolean {
  if (!opts.partialOracle || step.onPurpose || real.status < 400) return false;
  const path = step.path.replace(/^\/[^/_][^/]*(?=\/_)/, "");
  if (real.status === 405 && ROOT_PATH.test(step.path)) return true;
  return NO_ORACLE.test(real.text) || NO_ORACLE_PATH.test(path);
}

/** APIs that only read, whatever their method (searches, templates rendered, evaluations). */
const READS =
  /\/(_search|_msearch|_count|_explain|_validate|_field_caps|_render|_rank_eval|_mget|_termvectors|_mtermvectors|_analyze)(\/|\?|$)|\/_execute(\?|$)/;

/** Whether a request may change the engine's state: not a GET or HEAD, nor a read by POST. */
export function mayWrite(method: string, path: string): boolean {
  return method !== "GET" && method !== "HEAD" && !READS.test(path);
}

/**
 * Whether a request without an oracle changed the embedded engine's state all the same: a write
 * the real engine refused for its missing module (an index created with an `unsigned_long` field)
 * that the embedded engine carried out. The replayed corpora send every request to both sides, so
 * from there on the two states differ: what follows in the same test section has no oracle either.
 */
export function partsStates(step: Step, real: Answer, engine: Answer): boolean {
  return mayWrite(step.method, step.path) && real.status >= 400 && engine.status >= 200 &&
    engine.status < 300;
}

/**
 * Whether a step is kept from the embedded engine after the real engine's answer: one without an
 * oracle, or a write the real engine refused as busy (429) or did not answer. Both are set aside;
 * sent to the engine alone they would part the two states.
 */
export function withheld(step: Step, real: Answer, opts: ReplayOptions): boolean {
  const busy = real.status === 429 || real.status === 0;
  return noOracle(step, real, opts) || (!step.repeatable && busy);
}

/** One side's base URL and the values it generated for the `$name` placeholders. */
interface Side {
  url: string;
  vars: Map<string, string>;
}

/** Sends one step to one side; the answer's text as received (HEAD: empty). */
export async function send(side: Side, step: Step, signal?: AbortSignal): Promise<Answer> {
  const fill = (s: string) => s.replace(/\$(pit|scroll)\b/g, (_, k) => side.vars.get(k) ?? "");
  const headers: Record<string, string> = /^\/_cat(\/|$|\?)/.test(step.path)
    ? {}
    : { Accept: "application/json" };
  Object.assign(headers, step.headers ?? {});
  if (step.body !== undefined) headers["Content-Type"] = step.contentType ?? "application/json";
  try {
    const res = await fetch(side.url + fill(step.path), {
      method: step.method,
      headers,
      body: step.body === undefined ? undefined : fill(step.body),
      signal: signal ?? AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    if (step.capture) {
      const parsed = parseBody(text) as Record<string, unknown> | string;
      const v = typeof parsed === "object" && parsed !== null
        ? parsed[step.capture.path]
        : undefined;
      if (typeof v === "string") side.vars.set(step.capture.name, v);
    }
    return { status: res.status, text };
  } catch (e) {
    return { status: 0, text: `${(e as Error).name}: ${(e as Error).message}` };
  }
}

/** How the replay classifies and what it keeps. */
export interface ReplayOptions {
  corpus: string;
  /** The real engine lacks modules (Elasticsearch's integration-test zip): count "no oracle". */
  partialOracle: boolean;
  /** Examples naming indices nobody seeded: a 404 on both sides is set aside. */
  setAsideBoth404?: boolean;
  /**
   * Filled before each step goes to the embedded engine with the ids the real engine generated
   * for it ({@link generatedIds}), for the embedded engine's `ids` option to hand out: its
   * documents then land on the real engine's shards.
   */
  ids?: string[];
}

/** The action lines of a bulk body that name no `_id` (index and create), by item position. */
function idlessItems(body: string): Array<{ item: number; op: string }> {
  const out: Array<{ item: number; op: string }> = [];
  const lines = body.split("\n").filter((l) => l.trim() !== "");
  let item = 0;
  for (let i = 0; i < lines.length; i++) {
    let action: Record<string, Record<string, unknown>>;
    try {
      action = JSON.parse(lines[i]!);
    } catch {
      return out;
    }
    const op = Object.keys(action ?? {})[0];
    if (op === undefined) return out;
    const meta = action[op];
    if ((op === "index" || op === "create") && (meta?._id === undefined || meta._id === null)) {
      out.push({ item, op });
    }
    if (op !== "delete") i++; // the document or update body
    item++;
  }
  return out;
}

/**
 * The ids the real engine generated for a write's documents given without one, in the order it
 * made them: a `POST /{index}/_doc` answer's `_id`, a bulk answer's item ids where the action
 * named none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generatedIds } from "./replay.ts";
 * const step = { kind: "w", method: "POST", path: "/i/_doc/", body: "{}", repeatable: false };
 * const real = { status: 201, text: '{"_id":"YuTwNqIBh3WpBktc3zk6","result":"created"}' };
 * assert.deepEqual(generatedIds(step, real), ["YuTwNqIBh3WpBktc3zk6"]);
 * ```
 */
export function generatedIds(step: Step, real: Answer): string[] {
  if (step.method !== "POST" && step.method !== "PUT") return [];
  const path = step.path.replace(/\?.*$/, "");
  const parsed = parseBody(real.text) as Record<string, unknown> | string;
  if (typeof parsed !== "object" || parsed === null) return [];
  if (/^\/[^/_][^/]*\/_doc\/?$/.test(path)) {
    return typeof parsed._id === "string" ? [parsed._id] : [];
  }
  if (!/(^|\/)_bulk$/.test(path) || step.body === undefined || !Array.isArray(parsed.items)) {
    return [];
  }
  const items = parsed.items as Array<Record<string, { _id?: unknown }>>;
  return idlessItems(step.body).flatMap(({ item, op }) => {
    const id = items[item]?.[op]?._id;
    return typeof id === "string" ? [id] : [];
  });
}

/** Sorts one answer pair (and the second real answer, when asked twice) into an outcome. */
export function classify(
  step: Step,
  real: Answer,
  again: Answer | undefined,
  engine: Answer,
  opts: ReplayOptions,
): { outcome: Outcome; differences: Difference[] } {
  // The real engine overloaded (429) or not answering in time (status 0) says nothing about the
  // request: set aside with the unstable ones.
  const busy = (a: Answer | undefined) => a !== undefined && (a.status === 429 || a.status === 0);
  if (busy(real) || busy(again)) return { outcome: "unstable", differences: [] };
  if (again && differences(real, again).length) return { outcome: "unstable", differences: [] };
  if (noOracle(step, real, opts)) return { outcome: "no oracle", differences: [] };
  if (opts.setAsideBoth404 && real.status === 404 && engine.status === 404) {
    return { outcome: "both 404", differences: [] };
  }
  const diffs = differences(real, engine);
  if (!diffs.length) return { outcome: "identical", differences: [] };
  if (real.status < 300 && engine.status >= 400 && UNSUPPORTED.test(engine.text)) {
    return { outcome: "unsupported", differences: diffs };
  }
  return { outcome: "different", differences: diffs };
}

/** Replays items in order against both sides; the records of every non-plumbing step. */
export async function replay(
  items: readonly Item[],
  realUrl: string,
  engineUrl: string,
  opts: ReplayOptions,
): Promise<Exchange[]> {
  const real: Side = { url: realUrl.replace(/\/$/, ""), vars: new Map() };
  const engine: Side = { url: engineUrl.replace(/\/$/, ""), vars: new Map() };
  const out: Exchange[] = [];
  for (const item of items) {
    for (const step of item) {
      const a = await send(real, step);
      const again = step.repeatable ? await send(real, step) : undefined;
      if (opts.ids) opts.ids.splice(0, opts.ids.length, ...generatedIds(step, a));
      const b = withheld(step, a, opts)
        ? { status: 0, text: "not sent: the real engine lacks the module or was busy" }
        : await send(engine, step);
      if (step.plumbing) continue;
      const { outcome, differences } = classify(step, a, again, b, opts);
      out.push({
        corpus: opts.corpus,
        kind: step.kind,
        method: step.method,
        path: step.path,
        ...(step.body === undefined ? {} : { body: step.body }),
        real: a,
        engine: b,
        outcome,
        differences,
      });
    }
  }
  return out;
}

/**
 * The records of a corpus replayed twice from a clean state (the specification examples): a
 * request whose real answers in the two runs differ is unstable, writes included (a document
 * indexed without an id lands on a random shard, so its `_seq_no` varies from run to run). A
 * request the second run did not ask at the same place (the runs took different turns) is
 * unstable too; where the two real answers agree the first run's outcome stands.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { type Exchange, settleRuns } from "./replay.ts";
 * const rec = (seqNo: number, engine = 0): Exchange => ({
 *   corpus: "spec",
 *   kind: "spec:_global/index",
 *   method: "POST",
 *   path: "/i/_doc/",
 *   real: { status: 201, text: `{"_seq_no":${seqNo}}` },
 *   engine: { status: 201, text: `{"_seq_no":${engine}}` },
 *   outcome: seqNo === engine ? "identical" : "different",
 *   differences: seqNo === engine ? [] : [{ kind: "value", where: "_seq_no" }],
 * });
 * assert.equal(settleRuns([rec(2)], [rec(1)])[0]!.outcome, "unstable");
 * assert.equal(settleRuns([rec(2)], [rec(2)])[0]!.outcome, "different");
 * ```
 */
export function settleRuns(first: readonly Exchange[], second: readonly Exchange[]): Exchange[] {
  return first.map((r, i) => {
    const again = second[i];
    const same = again !== undefined && again.kind === r.kind && again.method === r.method &&
      again.path === r.path && again.body === r.body;
    if (r.outcome === "unstable" || (same && !differences(r.real, again.real).length)) return r;
    return { ...r, outcome: "unstable" as const, differences: [] };
  });
}
