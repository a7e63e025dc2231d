// Background tasks: `wait_for_completion=false` runs the work, stores its result and returns a task id.

import { EngineError } from "../_errors.ts";
import type { Reply, RequestContext } from "./context.ts";

/** Runs `work`; with `wait_for_completion=false` answers `{task}` and keeps the result for GET _tasks. */
export async function runAsTask(
  ctx: RequestContext,
  action: string,
  work: () => Promise<Reply>,
): Promise<Reply> {
  if (ctx.params.get("wait_for_completion") !== "false") return await work();
  const started = ctx.state.now();
  const reply = await work();
  const n = ctx.state.tasks.size + 1;
  const id = `searchvisitor:${n}`;
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
  const task = ctx.state.tasks.get(ctx.p.task_id);
  if (!task) {
    throw new EngineError(
      404,
      "resource_not_found_exception",
      `task [${ctx.p.task_id}] isn't running and hasn't stored its results`,
    );
  }
  return { status: 200, body: task };
}
