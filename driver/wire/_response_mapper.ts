// Turns a response into results (the "read" stage, ARCHITECTURE.md): result sets for reads, real update counts for
// writes, a BulkError for a bulk request with failed items.
//
// A 2xx of the wrong shape is not success. Where an API must answer an object with a known member
// — `hits.hits` (a list) for a search, `responses` for `_msearch`, `docs` for `_mget`, `count` for
// `_count`, `found` for a document GET, `result` for a document write, update or delete, `items`
// for `_bulk`, `updated`/`deleted` for the by-query APIs (unless they answer a `task`) — a JSON
// array or an object without it is an InvalidResponseError, never 0 rows or a count of 1. When
// the command asks for `filter_path`, the caller trimmed the answer on purpose: only the array is
// refused, and what was filtered out reads as absent (no rows, a count of 0; a write's count is
// then 1, as its 2xx says). Counts beyond 2^53 stay exact: `COUNT` is a bigint cell and an update
// count a bigint (`getLargeUpdateCount`).

import { BulkError, InvalidResponseError, PartialResultsError, ResponseError } from "../errors.ts";
import { shardFailuresOf } from "../response_errors.ts";
import { type Endpoint, queryValue } from "./_endpoint.ts";
import { type JsonReply, parseJsonBody } from "./_json_body.ts";
import { isJsonObject, type JsonObject } from "../_json.ts";
import { bulkItemsOf, generatedKeys } from "./_bulk_items.ts";
import { docRow } from "../jdbc/_json_cell.ts";
import {
  DOC_COLUMNS,
  type ResultSetMeta,
  ROWS_OF_HITS,
  type TotalHits,
} from "../jdbc/result_set.ts";
import {
  aliasesTable,
  catTable,
  genericTable,
  mappingTable,
  settingsTable,
  type Table,
} from "./_tabular.ts";

/** One result of a command: rows, or an update count with the ids it wrote. */
export type Outcome =
  | { kind: "rows"; table: Table; meta: ResultSetMeta }
  | { kind: "count"; count: number | bigint; keys: string[] };

/** A response to map: the body as read, what errors say, and whether partial results are asked for. */
export interface MappedReply extends JsonReply {
  /** The path asks for `allow_partial_search_results=true`: shard failures are read, not thrown. */
  allowPartial?: boolean;
  /** The response headers: a search's result set reads its `Warning` header from them. */
  readonly headers?: Headers;
}

/**
 * Maps one response to its results.
 *
 * @param endpoint The classified endpoint.
 * @param reply The status (2xx, or 404 where the endpoint allows it), body text, content type
 *   ("" when absent), the command (kept on errors) and the redaction of error excerpts.
 * @returns One outcome, or one per sub-search for `_msearch`.
 * @throws {InvalidResponseError} When a body that must be JSON is empty, HTML or broken.
 */
export function mapResponse(endpoint: Endpoint, reply: MappedReply): Outcome[] {
  // The content type is read where it decides (a `read`'s text answer) or goes into an error:
  // a reply may look it up only when asked (the executor's does).
  const { status, text, command, redactSecrets } = reply;
  const body = endpoint.kind === "head"
    ? null
    : endpoint.kind === "read" && /^text\/plain/i.test(reply.contentType)
    ? text // `_nodes/hot_threads` and other text answers: one `value` row
    : parseJsonBody(reply);
  const json: JsonObject = isJsonObject(body) ? body : {};
  const notFound = status === 404;
  const shape = SHAPES[endpoint.kind];
  if (shape !== undefined && !notFound) {
    const trimmed = queryValue(endpoint.query, "filter_path") !== undefined;
    const problem = Array.isArray(body)
      ? `a JSON array came where ${shape.what} is due`
      : trimmed
      ? undefined
      : shape.check(json);
    if (problem !== undefined) {
      throw new InvalidResponseError(
        {
          status,
          contentType: reply.contentType,
          text: redactSecrets ? redactSecrets(text) : text,
        },
        problem,
        { command },
      );
    }
  }
  switch (endpoint.kind) {
    case "head":
      return [rows({ columns: ["STATUS"], rows: [[status]] }, body)];
    case "search":
      return [searchRows(json, body, reply)];
    case "msearch":
      return msearch(json, reply);
    case "mget": {
      const docs = Array.isArray(json.docs) ? json.docs.filter(isJsonObject) : [];
      const table = docTable(docs.map((d) => [d._id, d.found === false ? undefined : d._source]));
      return [rows(table, body, { hits: docs })];
    }
    case "count":
      return [rows({ columns: ["COUNT"], rows: [[integerOr(json.count, 0)]] }, body)];
    case "doc_get": {
      if (notFound && json.found !== false) throw ResponseError.fromBody(status, text, { command });
      const docs: [unknown, unknown][] = json.found === false ? [] : [[json._id, json._source]];
      return [rows(docTable(docs), body, { hits: json.found === false ? [] : [json] })];
    }
    case "source_get": {
      if (notFound) {
        const type = isJsonObject(json.error) ? json.error.type : undefined;
        if (text !== "" && type !== "resource_not_found_exception") {
          throw ResponseError.fromBody(status, text, { command });
        }
        return [rows(docTable([]), body)];
      }
      return [rows(docTable([[decodeSegment(endpoint.segments[2]), body]]), body)];
    }
    case "cat":
      return [rows(catTable(endpoint.segments[1] ?? "", body), body, { epochSeconds: EPOCHS })];
    case "mapping":
      return [rows(mappingTable(body), body)];
    case "settings":
      return [rows(settingsTable(body), body)];
    case "aliases":
      return [rows(aliasesTable(body), body)];
    case "read":
      return [rows(genericTable(body), body, pitOf(endpoint, json))];
    case "bulk":
      return [bulkCount(json, command)];
    case "update_by_query":
      return [count(integerOr(json.updated, 0))];
    case "delete_by_query":
      return [count(integerOr(json.deleted, 0))];
    case "reindex":
      return isInteger(json.total) ? [count(exact(json.total))] : [rows(genericTable(body), body)];
    case "update":
      return [count(json.result === "noop" ? 0 : 1, keyOf(json))];
    case "doc_delete":
      if (notFound && json.result !== "not_found") {
        throw ResponseError.fromBody(status, text, { command });
      }
      return [count(json.result === "deleted" ? 1 : 0)];
    case "doc_write":
    case "write":
      return [count(1, keyOf(json))];
  }
}

/** `_cat` columns in epoch seconds (count, health, snapshots …). */
const EPOCHS: readonly string[] = Object.freeze(["EPOCH", "START_EPOCH", "END_EPOCH"]);

/** What an API must answer (a 2xx of another shape is an InvalidResponseError). */
interface Shape {
  /** What is due, for the message: "a search response". */
  what: string;
  /** The problem with an object, or undefined when it has what the API must answer. */
  check(json: JsonObject): string | undefined;
}

function shape(what: string, check: (json: JsonObject) => string | undefined): Shape {
  return { what, check };
}

const hasHits = (json: JsonObject) =>
  isJsonObject(json.hits) && Array.isArray(json.hits.hits)
    ? undefined
    : "the search response has no hits.hits list";

const needs = (what: string, member: string, ok: (value: unknown) => boolean) =>
  shape(
    what,
    (json) =>
      ok(json[member])
        ? undefined
        : `${what} has no ${member}${member === "count" ? " number" : ""}`,
  );

const isString = (v: unknown) => typeof v === "string";

/** A by-query answer: its count, or a `task` when it runs in the background. */
const byQuery = (what: string, member: string) =>
  shape(
    what,
    (json) =>
      isInteger(json[member]) || typeof json.task === "string"
        ? undefined
        : `${what} has neither ${member} nor a task`,
  );

const SHAPES: Partial<Record<Endpoint["kind"], Shape>> = {
  search: shape("a search response", hasHits),
  msearch: shape("an _msearch response", (json) => {
    if (!Array.isArray(json.responses)) return "the _msearch response has no responses list";
    const k = json.responses.findIndex((r) =>
      !isJsonObject(r) || (r.error === undefined && hasHits(r) !== undefined)
    );
    return k < 0 ? undefined : `_msearch response ${k + 1} is neither a search nor an error`;
  }),
  mget: needs("the _mget response", "docs", Array.isArray),
  count: needs("the _count response", "count", isInteger),
  doc_get: needs("the document response", "found", (v) => typeof v === "boolean"),
  bulk: needs("the _bulk response", "items", Array.isArray),
  update_by_query: byQuery("the _update_by_query response", "updated"),
  delete_by_query: byQuery("the _delete_by_query response", "deleted"),
  reindex: shape("a _reindex response", () => undefined),
  update: needs("the _update response", "result", isString),
  doc_delete: needs("the delete response", "result", isString),
  doc_write: needs("the document write response", "result", isString),
};

function rows(table: Table, raw: unknown, extra: ResultSetMeta = {}): Outcome {
  return { kind: "rows", table, meta: { raw, ...extra } };
}

function count(n: number | bigint, keys: string[] = []): Outcome {
  return { kind: "count", count: n, keys };
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" ? value : fallback;
}

/** A whole number as the exact parser handed it back: a number, or a bigint beyond 2^53. */
function isInteger(value: unknown): value is number | bigint {
  return typeof value === "bigint" || (typeof value === "number" && Number.isInteger(value));
}

/** The value exactly: a safe integer as a number, anything larger as a bigint. */
function exact(value: number | bigint): number | bigint {
  return typeof value === "bigint" && Number.isSafeInteger(Number(value)) ? Number(value) : value;
}

function integerOr(value: unknown, fallback: number): number | bigint {
  return isInteger(value) ? exact(value) : fallback;
}

function keyOf(json: JsonObject): string[] {
  return typeof json._id === "string" ? [json._id] : [];
}

function decodeSegment(segment: string | undefined): string | null {
  if (segment === undefined) return null;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function pitOf(endpoint: Endpoint, json: JsonObject): ResultSetMeta {
  if (typeof json.pit_id === "string") return { pitId: json.pit_id };
  if (endpoint.segments.at(-1) === "_pit" && typeof json.id === "string") return { pitId: json.id };
  return {};
}

/** `_ID`, `_DOC`: the id as text ("" when absent) and the source as a JSON cell (or null). */
function docTable(docs: readonly [unknown, unknown][]): Table {
  return { columns: DOC_COLUMNS, rows: docs.map(([id, source]) => docRow(id, source)) };
}

function totalOf(hits: JsonObject): TotalHits | null {
  const total = hits.total;
  if (typeof total === "number") return { value: total, relation: "eq" };
  if (isJsonObject(total) && typeof total.value === "number") {
    return { value: total.value, relation: total.relation === "gte" ? "gte" : "eq" };
  }
  return null;
}

function searchRows(json: JsonObject, raw: unknown, reply: MappedReply): Outcome {
  const shards = shardFailuresOf(json);
  if (shards !== undefined && reply.allowPartial !== true) {
    throw new PartialResultsError(shards, { command: reply.command });
  }
  const hits = isJsonObject(json.hits) ? json.hits : {};
  const list: unknown[] = Array.isArray(hits.hits) ? hits.hits : [];
  // The hits behind the rows: the list itself, unless it holds something that is not a hit.
  // The rows are read from them by the result set (ROWS_OF_HITS): one pass, when needed.
  let kept: unknown[] = list;
  for (let i = 0; i < list.length; i++) {
    const hit = list[i];
    if (isJsonObject(hit)) {
      if (kept !== list) kept.push(hit);
    } else if (kept === list) kept = list.slice(0, i);
  }
  const meta: ResultSetMeta = {
    raw,
    hits: kept,
    total: totalOf(hits),
    took: typeof json.took === "number" ? json.took : null,
    aggregations: json.aggregations,
    headers: reply.headers,
  };
  if (typeof json._scroll_id === "string") meta.scrollId = json._scroll_id;
  if (typeof json.pit_id === "string") meta.pitId = json.pit_id;
  if (shards !== undefined) meta.shardFailures = shards;
  return { kind: "rows", table: HITS_TABLE, meta };
}

/** The table of every search's rows: read from its hits (one frozen object, none per answer). */
const HITS_TABLE: Table = Object.freeze({ columns: DOC_COLUMNS, rows: ROWS_OF_HITS });

function msearch(json: JsonObject, reply: MappedReply): Outcome[] {
  const command = reply.command;
  const responses = Array.isArray(json.responses) ? json.responses : [];
  return responses.map((sub, i) => {
    const part = isJsonObject(sub) ? sub : {};
    if (part.error !== undefined) {
      const status = numberOr(part.status, 500);
      const error = new ResponseError(status, { error: part.error, status }, { command });
      error.message = `_msearch sub-search ${i + 1} failed: ${error.message}`;
      throw error;
    }
    try {
      return searchRows(part, sub, reply);
    } catch (error) {
      if (error instanceof PartialResultsError) {
        error.message = `_msearch sub-search ${i + 1}: ${error.message}`;
      }
      throw error;
    }
  });
}

function bulkCount(json: JsonObject, command?: string): Outcome {
  const items = bulkItemsOf(json);
  if (json.errors === true) {
    const error = new BulkError(items, { command });
    error.message += `; the ${error.successCount} successful item(s) were written`;
    throw error;
  }
  const ok = items.filter((i) => i.error === undefined && i.status < 300);
  return count(ok.length, generatedKeys(ok));
}
