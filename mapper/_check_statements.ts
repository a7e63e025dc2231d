// The `check` option of a Configuration: statements are checked against the API specification
// when they are registered; findings are warned about or refused.

import { checkCommand, type CheckOptions, formatDiagnostic } from "../check/mod.ts";
import type { StatementRegistry } from "./_registry.ts";
import { MapperError } from "./errors.ts";

/** How a Configuration checks its statements: `off`, `warn` (the default sink is console.warn)
 * or `error` (registration throws a MapperError listing the findings). */
export type CheckMode = "off" | "warn" | "error";

/** Checks the statements `ids` of `registry`; statements that cannot render without arguments
 * (a `<foreach>` over a required collection) are left to run time. */
export function checkStatements(
  registry: StatementRegistry,
  ids: readonly string[],
  mode: CheckMode,
  options: CheckOptions,
  warn: (message: string) => void,
  named: boolean,
): void {
  if (mode === "off") return;
  const problems: string[] = [];
  for (const id of ids) {
    const statement = registry.statement(id);
    let text: string;
    try {
      text = statement.render({}).text;
    } catch {
      continue;
    }
    const parameters = named && statement.params?.length ? { parameters: statement.params } : {};
    const found = checkCommand(text, { ...options, ...parameters });
    const shown = mode === "error" ? found.filter((d) => d.severity === "error") : found;
    for (const d of shown) problems.push(`${id}: ${formatDiagnostic(text, d)}`);
  }
  if (problems.length === 0) return;
  if (mode === "error") {
    throw new MapperError(`statements do not pass the check:\n${problems.join("\n")}`, {});
  }
  for (const p of problems) warn(p);
}
