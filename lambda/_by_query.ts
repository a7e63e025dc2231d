// What update and delete share: the empty-where guard, the by-key form (one `eq` on the key or
// `_id`) and running a by-query command after a refresh.

import { IllegalStateError, ResponseError } from "../driver/mod.ts";
import type { BoundTemplate } from "../template/mod.ts";
import { compileRefresh, type ExactResolver } from "./compiler.ts";
import type { ConditionNode } from "./nodes.ts";
import type { Runtime } from "./_runtime.ts";
import type { Target } from "./target.ts";

/** The `_id` when the whole condition is one `eq` on the key field (or on `_id`). */
export function keyOf(target: Target, where: ConditionNode | null): string | undefined {
  if (where === null || where.kind !== "compare" || where.op !== "eq") return undefined;
  if (/[*,]/.test(target.index)) return undefined; // a pattern has no single document address
  if (where.field !== "_id" && where.field !== target.key?.column) return undefined;
  const v = where.value;
  return typeof v === "string" || typeof v === "number" || typeof v === "bigint"
    ? String(v)
    : undefined;
}

/** Refuses a write with no condition unless the caller allowed it. */
export function guardEmptyWhere(
  target: Target,
  where: ConditionNode | null,
  call: {
    /** The builder method asked (`doUpdate`, `doDelete`), for the error. */
    readonly method: string;
    /** Whether `allowEmptyWhere()` was called. */
    readonly allowEmpty: boolean;
  },
): void {
  const { method, allowEmpty } = call;
  if (where === null && !allowEmpty) {
    throw new IllegalStateError(
      `${method}() has no condition and would change every document of "${target.index}"; add a condition, or call allowEmptyWhere() first if that is what you mean`,
    );
  }
}

/** Runs a by-id command; a missing document counts 0. */
export async function runById(runtime: Runtime, command: BoundTemplate): Promise<number> {
  try {
    return await runtime.jdbc.executeUpdate(command);
  } catch (e) {
    if (e instanceof ResponseError && e.status === 404 && e.type !== "index_not_found_exception") {
      return 0;
    }
    throw e;
  }
}

/** Refreshes the index (when the template says so), then runs a by-query command. */
export async function runByQuery(
  runtime: Runtime,
  target: Target,
  where: ConditionNode | null,
  compile: (resolver: ExactResolver) => BoundTemplate,
): Promise<number> {
  const resolver = await runtime.resolver(target.index, where, []);
  const command = compile(resolver);
  if (runtime.refresh) await runtime.jdbc.execute(compileRefresh(target.index));
  return await runtime.jdbc.executeUpdate(command);
}
