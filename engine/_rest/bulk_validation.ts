// `_bulk` validated as Elasticsearch validates a bulk request before running any item: every
// item's own validation (versions and sequence numbers, ids, update bodies) is gathered into one
// 400 `action_request_validation_exception` for the whole request; an update body that does not
// parse (unknown field) fails the whole request too. Items that carry none of the
// parameters concerned skip the checks, so plain index items cost one look at their metadata.

import { validationFailed } from "../_errors.ts";
import { parseUpdateBody, updateBodyProblems } from "../_state/update.ts";
import { writeOptionProblems } from "../_state/writes.ts";
import { updateParamProblems, writeOptions } from "./write_params.ts";
import { utf8Length } from "../_utf8.ts";

/** One parsed bulk action as the validation reads it. */
export interface BulkItem {
  /** `index`, `create`, `update` or `delete`. */
  readonly op: string;
  /** The action's metadata line. */
  readonly meta: Record<string, unknown>;
  /** An update's body. */
  readonly source?: Record<string, unknown>;
}

const MAX_ID_BYTES = 512;

function idProblem(id: unknown): string | undefined {
  if (typeof id !== "string" || id.length <= MAX_ID_BYTES / 3) return undefined;
  const bytes = utf8Length(id);
  return bytes > MAX_ID_BYTES
    ? `id [${id}] is too long, must be no longer than ${MAX_ID_BYTES} bytes but was: ${bytes}`
    : undefined;
}

function itemProblems(item: BulkItem, defaultIndex: string | undefined): string[] {
  const { op, meta } = item;
  const problems: string[] = [];
  if ((meta._index ?? defaultIndex) === undefined || meta._index === null) {
    problems.push("index is missing");
  }
  const id = meta._id;
  const opts = writeOptions((name) => meta[name]);
  if (op === "update") {
    parseUpdateBody(item.source ?? {});
    if (id === undefined || id === null) problems.push("id is missing");
    problems.push(
      ...updateParamProblems(item.source ?? {}, opts, meta.retry_on_conflict),
      ...updateBodyProblems(item.source ?? {}),
    );
  } else if (op === "delete") {
    if (id === undefined || id === null) problems.push("id is missing");
    problems.push(...writeOptionProblems(opts, true));
  } else {
    if (op === "create") opts.opType = "create";
    const own = writeOptionProblems(opts);
    problems.push(...own);
    if (own.length === 0 && (id === undefined || id === null)) {
      const type = opts.versionType ?? "internal";
      if (type !== "internal" || opts.version !== undefined) {
        problems.push("an id must be provided if version type or value are set");
      }
    }
    if (meta.pipeline === "") problems.push("pipeline cannot be an empty string");
  }
  const tooLong = idProblem(id);
  if (tooLong !== undefined) problems.push(tooLong);
  return problems;
}

/**
 * Throws the whole request's 400 when any item fails Elasticsearch's request validation.
 *
 * @param items The parsed actions, in order.
 * @param defaultIndex The index of `/{index}/_bulk`, if any.
 */
export function validateBulk(items: readonly BulkItem[], defaultIndex: string | undefined): void {
  let problems: string[] | undefined;
  for (const item of items) {
    const m = item.meta;
    if (
      item.op !== "update" && m.version === undefined && m.version_type === undefined &&
      m.if_seq_no === undefined && m.if_primary_term === undefined && m.pipeline !== "" &&
      (m._index !== undefined ? m._index !== null : defaultIndex !== undefined) &&
      (typeof m._id !== "string" || m._id.length <= MAX_ID_BYTES / 3) &&
      (item.op !== "delete" || (m._id !== undefined && m._id !== null))
    ) continue;
    const found = itemProblems(item, defaultIndex);
    if (found.length > 0) (problems ??= []).push(...found);
  }
  if (problems !== undefined) throw validationFailed(...problems);
}
