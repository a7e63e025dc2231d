// Background tasks: `wait_for_completion=false` runs the work, stores its result and returns a task id.

import { EngineError, illegalArgument, resourceNotFound, validationFailed } from "../_errors.ts";
import type { EngineState, Reply, RequestContext } from "./context.ts";

/** How many finished task results are kept. */
const MAX_STORED_TASKS = 1000;
let taskCounter = 0;

/**
 * A task's `requests_per_second`: by-query work waits after each batch so that it runs at that
 * rate (-1: unthrottled); `_rethrottle` changes it while the task runs and wakes its wait.
 */
export interface Throttle {
  rps: number;
  /** Milliseconds spent waiting so far (`throttled_millis`). */
  throttledMs: number;
  /** The progress the task reports while it runs (`status`). */
  status: Record<string, unknown>;
  /** Ends the current wait early (rethrottle, engine closed). */
  wake?: () => void;
  /** Called when the task first waits (its request is then answered with the task id). */
  onWait?: () => void;
}

/** Running tasks' throttles, by engine and task id. */
const RUNNING = new WeakMap<EngineState, Map<string, Throttle>>();

function running(state: EngineState): Map<string, Throttle> {
  let map = RUNNING.get(state);
  if (!map) RUNNING.set(state, map = new Map());
  return map;
}

/** The `requests_per_second` parameter as a rate (-1 when absent or unthrottled). */
function rateOf(ctx: RequestContext): number {
  const rps = Number(ctx.params.get("requests_per_second") ?? -1);
  return rps > 0 ? rps : -1;
}

/**
 * Waits, after a batch of `docs` that started at `startedAt`, until the batch has taken as long
 * as `requests_per_second` asks (Elasticsearch pads each batch the same way). Returns at once
 * when unthrottled; a rethrottle re-reads the rate, a closing engine ends the wait.
 */
export async function throttleBatch(
  state: EngineState,
  throttle: Throttle,
  docs: number,
  startedAt: number,
): Promise<void> {
  for (;;) {
    if (!(throttle.rps > 0)) return;
    const left = startedAt + docs / throttle.rps * 1000 - Date.now();
    if (left <= 0) return;
    const waited = Date.now();
    throttle.status.throttled_until_millis = Math.ceil(left);
    throttle.onWait?.();
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        state.timers.delete(timer);
        state.waiters.delete(closed);
        throttle.wake = undefined;
        resolve();
      };
      const closed = () => {
        throttle.rps = -1; // the engine closes: the task finishes unthrottled
        done();
      };
      const timer = setTimeout(done, Math.min(left, 2 ** 31 - 1));
      state.timers.add(timer);
      state.waiters.add(closed);
      throttle.wake = done;
    });
    throttle.throttledMs += Date.now() - waited;
    throttle.status.throttled_millis = throttle.throttledMs;
    throttle.status.throttled_until_millis = 0;
  }
}

/**
 * Runs `work`; with `wait_for_completion=false` answers `{task}` at once and runs it in the
 * background (GET _tasks shows it running with its progress, then its result).
 */
export async function runAsTask(
  ctx: RequestContext,
  action: string,
  work: (throttle: Throttle) => Promise<Reply>,
): Promise<Reply> {
  const throttle: Throttle = { rps: rateOf(ctx), throttledMs: 0, status: {} };
  if (ctx.params.get("wait_for_completion") !== "false") return await work(throttle);
  const started = ctx.state.now();
  // The work runs until it finishes or first waits for its throttle: a bad request is still
  // refused at once, and work that needs no wait is stored finished, as before.
  const waiting = new Promise<{ waiting: true }>((resolve) =>
    throttle.onWait = () => resolve({ waiting: true })
  );
  const pending = work(throttle);
  const first = await Promise.race([pending.then((reply) => ({ reply })), waiting]);
  throttle.onWait = undefined;
  const n = ++taskCounter;
  const id = `searchvisitor:${n}`;
  // Finished tasks are kept for GET _tasks, the oldest dropped past a bound.
  if (ctx.state.tasks.size >= MAX_STORED_TASKS) {
    ctx.state.tasks.delete(ctx.state.tasks.keys().next().value!);
  }
  const task = {
    node: "searchvisitor",
    id: n,
    type: "transport",
    action,
    start_time_in_millis: started,
    running_time_in_nanos: 0,
    cancellable: true,
    status: throttle.status as unknown,
  };
  const finish = (entry: Record<string, unknown>, status: unknown) => {
    running(ctx.state).delete(id);
    ctx.state.tasks.set(id, {
      completed: true,
      task: { ...task, status, running_time_in_nanos: (ctx.state.now() - started) * 1e6 },
      ...entry,
    });
  };
  if ("reply" in first) {
    finish({ response: first.reply.body }, first.reply.body);
    return { status: 200, body: { task: id } };
  }
  ctx.state.tasks.set(id, { completed: false, task });
  running(ctx.state).set(id, throttle);
  pending.then(
    (reply) => finish({ response: reply.body }, reply.body),
    (e) =>
      finish({
        error: e instanceof EngineError
          ? e.toCause()
          : { type: "exception", reason: "internal error" },
      }, throttle.status),
  );
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
 * POST /_delete_by_query/{task_id}/_rethrottle (and the `_update_by_query`, `_reindex` forms):
 * a running task takes the new rate at once (its current wait is cut short and measured again);
 * a finished one has nothing left to throttle; an unknown one is Elasticsearch's 404.
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
  const throttle = running(ctx.state).get(id);
  if (throttle) {
    throttle.rps = Number(rps) > 0 ? Number(rps) : -1;
    throttle.status.requests_per_second = throttle.rps;
    throttle.wake?.();
  }
  return { status: 200, body: { nodes: {} } };
}
