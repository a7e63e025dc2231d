// Turns single-document write commands into `_bulk` action and source lines (executeBatch).

import { UnsupportedFeatureError } from "../errors.ts";
import type { BoundCommand } from "../command/command.ts";
import { classify } from "./_endpoint.ts";

/** The NDJSON lines of one batched command, and the `refresh` it asked for. */
export interface BulkEntry {
  lines: string[];
  refresh?: string;
}

const NUMERIC = new Set(["if_seq_no", "if_primary_term", "version", "retry_on_conflict"]);
const TEXT = new Set(["routing", "version_type", "pipeline"]);

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/**
 * Converts one command to bulk lines.
 *
 * @param command A bound single-document write.
 * @param position The 1-based position in the batch, for errors.
 * @returns The action line, the source line when there is one, and `refresh`.
 */
export function toBulkEntry(command: BoundCommand, position: number): BulkEntry {
  const endpoint = classify(command.method, command.path);
  const refuse = (why: string): never => {
    throw new UnsupportedFeatureError(
      `batch command ${position} (${command.method} ${command.path}): ${why}; a batch takes ` +
        "PUT|POST /idx/_doc[/id], PUT|POST /idx/_create/id, POST /idx/_update/id, DELETE /idx/_doc/id",
      { command: command.text },
    );
  };
  const kind = endpoint.kind;
  if (kind !== "doc_write" && kind !== "update" && kind !== "doc_delete") {
    refuse("it is not a single-document write");
  }
  const [index, api, id] = endpoint.segments;
  const meta: Record<string, unknown> = { _index: decode(index!) };
  if (id !== undefined) meta._id = decode(id);
  let action = kind === "update" ? "update" : kind === "doc_delete" ? "delete" : "index";
  if (api === "_create") action = "create";
  let refresh: string | undefined;
  for (const pair of endpoint.query.split("&").filter((p) => p !== "")) {
    const eq = pair.indexOf("=");
    const name = decode(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? "" : decode(pair.slice(eq + 1));
    if (name === "refresh") refresh = value === "" ? "true" : value;
    else if (name === "op_type" && value === "create" && action === "index") action = "create";
    else if (name === "op_type" && value === "index") continue;
    else if (name === "require_alias") meta.require_alias = value !== "false";
    else if (NUMERIC.has(name) && /^-?\d+$/.test(value)) meta[name] = Number(value);
    else if (TEXT.has(name)) meta[name] = value;
    else refuse(`the query parameter "${name}" cannot be carried into a bulk item`);
  }
  const lines = [JSON.stringify({ [action]: meta })];
  if (action !== "delete") {
    const body = command.body?.trim();
    if (!body) refuse("it has no document body");
    // A JSON text has no raw line breaks inside strings, so joining its lines keeps it exact.
    lines.push((body as string).replace(/[\r\n]+/g, " "));
  }
  return refresh === undefined ? { lines } : { lines, refresh };
}
