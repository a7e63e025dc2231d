// Adds members to the body of a bound `_search` command: `from`/`size`/`track_total_hits` for a
// Page, `seq_no_primary_term`/`version` for entities with a version field. Members the text
// already fixes are refused (for paging) or kept (for metadata). Works on the parsed command (its
// offset, method, target and compact body chunks read with bodyMembers; no second scan of the
// text), so placeholders stay placeholders and argument order does not change.

import type { ParsedCommand } from "../driver/mod.ts";
import { bodyMembers, parseScript } from "../driver/internal.ts";
import type { BoundTemplate, Page } from "../template/mod.ts";
import { MapperError, type StatementSite } from "./errors.ts";

/** What to add to a search body. */
export interface SearchAdditions {
  /** Page the search: `from`, `size` (when the page size is above 0) and `track_total_hits`. */
  page?: Page;
  /** Ask for `_seq_no`/`_primary_term` on every hit. */
  seqNoPrimaryTerm?: boolean;
  /** Ask for `_version` on every hit. */
  version?: boolean;
}

/** The most hits one request returns by default (Elasticsearch's `max_result_window`). */
const UNPAGED_SIZE = 10_000;

/** A member to add, and what to do when the text already has it. */
interface Wanted {
  readonly key: string;
  readonly text: string;
  readonly arg?: number;
  readonly fixed: "refuse" | "keep";
}

function onlySearch(text: string, site: StatementSite, why: string): ParsedCommand {
  const commands = parseScript(text).commands;
  const command = commands[0];
  if (commands.length !== 1 || !command || command.endpoint !== "_search" || command.ndjson) {
    const what = command ? `${command.method} ${command.target.join("?")}` : "no command";
    throw new MapperError(
      `${why} needs exactly one _search command, but the statement has ${
        commands.length > 1 ? `${commands.length} commands` : what
      }; split it or drop the ${why === "paging" ? "Page argument" : "version field"}`,
      site,
    );
  }
  return command;
}

/**
 * Adds the members to the one `_search` command of a bound statement.
 *
 * @throws {MapperError} When paging and the text has several commands, is not a `_search`, or
 *   already fixes `from`, `size` or `track_total_hits`.
 */
export function addToSearch(
  bound: BoundTemplate,
  additions: SearchAdditions,
  site: StatementSite,
): BoundTemplate {
  const paging = additions.page !== undefined;
  // from/size are bound (`?`), so every page of a statement shares one cached command text.
  const want: Wanted[] = [];
  if (paging) {
    const page = additions.page!;
    if (page.getPageSize() > 0) {
      want.push({ key: "from", text: "?", arg: page.getFirstRecordPosition(), fixed: "refuse" });
      want.push({ key: "size", text: "?", arg: page.getPageSize(), fixed: "refuse" });
    } else {
      // Paging off: every hit (up to one request's window) unless the text sets its own size.
      want.push({ key: "size", text: "?", arg: UNPAGED_SIZE, fixed: "keep" });
    }
    want.push({ key: "track_total_hits", text: "true", fixed: "refuse" });
  }
  if (additions.seqNoPrimaryTerm) {
    want.push({ key: "seq_no_primary_term", text: "true", fixed: "keep" });
  }
  if (additions.version) want.push({ key: "version", text: "true", fixed: "keep" });
  if (want.length === 0) return bound;
  let command: ParsedCommand;
  try {
    command = onlySearch(bound.text, site, paging ? "paging" : "reading versions");
  } catch (error) {
    if (paging) throw error;
    return bound; // versions are a courtesy: other commands are run as written
  }
  if (paging) {
    const fixed = command.hints.find((h) => h.name.startsWith("overwrite_find_"));
    if (fixed) {
      throw new MapperError(
        `the statement pages itself with the hint ${fixed.name}; remove it or drop the Page argument`,
        site,
      );
    }
  }
  const body = command.body;
  const bodySlot = command.hintSlotCount + command.targetSlotCount;
  if (body && body.length === 2 && body[0] === "" && command.slots[bodySlot]?.kind === "body") {
    return addToBodyArgument(bound, bodySlot, { want, paging, site });
  }
  const compact = body === undefined ? "{}" : body.join("?");
  const members = bodyMembers(command);
  if (!members) {
    if (!paging) return bound;
    throw new MapperError("cannot page a search whose body is not a JSON object", site);
  }
  const additionsText: string[] = [];
  const additionArgs: unknown[] = [];
  for (const { key, text: value, arg, fixed } of want) {
    const present = members.find((m) => m.key === key);
    if (present === undefined && members.some((m) => m.key === undefined) && paging) {
      throw new MapperError(
        "cannot page a search whose body has a placeholder as a top-level member name",
        site,
      );
    }
    if (present === undefined) {
      additionsText.push(`"${key}":${value}`);
      if (arg !== undefined) additionArgs.push(arg);
    } else if (fixed === "refuse") {
      if (key === "track_total_hits" && present.value.trim() === "true") continue;
      throw new MapperError(
        `the statement text fixes "${key}" (${present.value.trim()}), which the Page sets; remove it from the text or drop the Page argument`,
        site,
      );
    }
  }
  if (additionsText.length === 0) return bound;
  const rest = compact.slice(1).trimStart();
  const newBody = `{${additionsText.join(",")}${rest.startsWith("}") ? "" : ","}${rest}`;
  // The command is rewritten from its parsed pieces: the method, the target as the driver reads
  // it (its `{?}` slots in place) and the edited compact body.
  const start = command.offset;
  const end = start + command.text.length;
  const text = `${bound.text.slice(0, start)}${command.method} ${command.pathTemplate} ${newBody}${
    bound.text.slice(end)
  }`;
  const args = [...bound.args];
  args.splice(bodySlot, 0, ...additionArgs);
  return { text, args };
}

/** What `addToSearch` adds to one command, and for what: paging refuses what versions keep. */
interface Adding {
  /** The members to add. */
  readonly want: readonly Wanted[];
  /** Whether a Page asked for them (else only version metadata, a courtesy). */
  readonly paging: boolean;
  /** The statement, for errors. */
  readonly site: StatementSite;
}

function addToBodyArgument(bound: BoundTemplate, index: number, adding: Adding): BoundTemplate {
  const { want, paging, site } = adding;
  const value = bound.args[index];
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    if (!paging) return bound;
    throw new MapperError("cannot page a search whose body argument is not an object", site);
  }
  const merged: Record<string, unknown> = { ...value as Record<string, unknown> };
  for (const { key, text, arg, fixed } of want) {
    if (!(key in merged)) merged[key] = arg ?? JSON.parse(text);
    else if (fixed === "refuse") {
      if (key === "track_total_hits" && merged[key] === true) continue;
      throw new MapperError(
        `the body argument fixes "${key}", which the Page sets; remove it or drop the Page argument`,
        site,
      );
    }
  }
  const args = [...bound.args];
  args[index] = merged;
  return { text: bound.text, args };
}
