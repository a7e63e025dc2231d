// Background tasks: `wait_for_completion=false` runs the work, stores its result and returns a task id.

import { illegalArgument, resourceNotFound, validationFailed } from "../_errors.ts";
import type { Reply, RequestContext } from "./context.ts";

/** How many finished task results are kept. */
const MAX_STORED_TASKS = 1000;
let taskCounter = 0;

/** Runs `work`; with `wait_for_completion=false` answers `{task}` and keeps the result for GET _tasks. */
export async function runAsTask(
  ctx: RequestContext,
  action: string,
  work: () => Promise<Reply>,
): Promise<Reply> {
  if (ctx.params.get("wait_for_completion") !== "false") return await work();
  const started = ctx.state.now();
  const reply = await work();
  const n = ++taskCounter;
  const id = `searchvisitor:${n}`;
  // Finished tasks are kept for GET _tasks, the oldest dropped past a bound.
  if (ctx.state.tasks.size >= MAX_STORED_TASKS) {
    ctx.state.tasks.delete(ctx.state.tasks.keys().next().value!);
  }
  ctx.state.tasks.set(id, {
    completed: true,
    task: {
      node: "searchvisitor",
      id: n,
      type: "transport",
      action,
      start_time_in_millis: started,
      running_time_in_nanos: 0,
      cancellable: true,
      status: reply.body,
    },
    response: reply.body,
  });
  return { status: 200, body: { task: id } };
}

/** GET /_tasks/{task_id}. */
export function getTaskHandler(ctx: RequestContext): Reply {
  const task = ctx.state.tasks.get(ctx.p.task_id!);
  if (!task) {
    throw resourceNotFound(`task [${ctx.p.task_id}] isn't running and hasn't stored its results`);
  }
  return { status: 200, body: task };
}

/** GET /_tasks: no task is ever running (work finishes before its request is answered). */
export function listTasksHandler(ctx: RequestContext): Reply {
  const groupBy = ctx.params.get("group_by") ?? "nodes";
  if (!["nodes", "parents", "none"].includes(groupBy)) {
    throw illegalArgument(
      `No enum constant org.elasticsearch.rest.action.admin.cluster.RestListTasksAction.GroupBy.${groupBy.toUpperCase()}`,
    );
  }
  if (groupBy === "none") return { status: 200, body: { tasks: [] } };
  if (groupBy === "parents") return { status: 200, body: { tasks: {} } };
  return { status: 200, body: { nodes: {} } };
}

/**
 * POST /_delete_by_query/{task_id}/_rethrottle (and the `_update_by_query`, `_reindex` forms).
 * Tasks run to completion before their request returns, so a known task has nothing left to
 * throttle; an unknown one is Elasticsearch's 404.
 */
export function rethrottleHandler(ctx: RequestContext): Reply {
  const rps = ctx.params.get("requests_per_second");
  if (rps === null) {
    throw validationFailed("requests_per_second must be set");
  }
  if (!/^(-1|\d+(\.\d+)?)$/.test(rps) || Number(rps) === 0) {
    throw illegalArgument(
      `[requests_per_second] must be a float greater than 0. Use -1 to disable throttling.`,
    );
  }
  const id = ctx.p.task_id ?? "";
  if (!/^[^:]+:\d+$/.test(id)) {
    throw illegalArgument(`malformed task id ${id}`);
  }
  if (!ctx.state.tasks.has(id)) {
    throw resourceNotFound(`task [${id}] is missing`);
  }
  return { status: 200, body: { nodes: {} } };
}
