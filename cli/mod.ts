/**
 * The console: run files of commands, or an interactive prompt, against a cluster or the embedded
 * engine; rows print as aligned tables that fit the terminal, and large NDJSON files stream into
 * `_bulk` requests behind a progress bar. The program is `cli/main.ts` (`deno task cli`, the npm
 * package's `searchvisitor` bin); this module holds its runtime-free parts, so a host of its own
 * (a web terminal, a test) can drive {@linkcode runCli} or a {@linkcode ConsoleSession}.
 *
 * @example A session over the embedded engine
 * ```ts
 * import { ConsoleSession } from "@searchvisitor/searchvisitor/cli";
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { Engine } from "@searchvisitor/searchvisitor/engine";
 * import assert from "node:assert/strict";
 *
 * const engine = new Engine();
 * let out = "";
 * const ds = new DataSource({ nodes: ["http://engine"], fetch: engine.fetch, indexRefresh: true });
 * const session = new ConsoleSession(ds, { out: (t) => (out += t), err: (t) => (out += t), width: () => 40 });
 * await session.runScript('PUT /people/_doc/1 {"name": "Ada"}\nGET /people/_search\n');
 * assert.match(out, /\| 1   \| \{"name":"Ada"\} \|/);
 * assert.match(out, /\(1 row, total 1, took \d+ ms\)/);
 * engine.close();
 * ```
 *
 * @module
 */

export { type CliOptions, parseArgs, USAGE, UsageError } from "./args.ts";
export { type Chunk, CommandBuffer, parseDirective } from "./command_buffer.ts";
export { cellText, formatTable, type TableOptions } from "./table.ts";
export { formatProgress, grouped, type Progress } from "./progress.ts";
export {
  BulkFileError,
  bulkLoad,
  type BulkLoadOptions,
  type BulkLoadResult,
  type BulkReply,
  lines,
  readBulkReply,
} from "./bulk_load.ts";
export {
  describeError,
  EXIT,
  exitCodeOf,
  type Format,
  FORMATS,
  renderResults,
  renderResultSet,
} from "./output.ts";
export { type ConsoleIO, ConsoleSession, HELP } from "./console_session.ts";
export { CHECK_USAGE, type CheckHost, runCheck, runMapping } from "./check_cli.ts";
export { GEN_USAGE, type GenHost, runGen } from "./gen_cli.ts";
export { MIGRATE_USAGE, type MigrateHost, runMigrate } from "./migrate_cli.ts";
export { type CliHost, INTERRUPT, type LineReader, runCli } from "./run.ts";
