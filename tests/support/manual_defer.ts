// Test support: a deferral queue the test drives task by task (background merges slice by slice).

import type { Defer } from "../../engine/_index/merge_job.ts";

/** Deferred tasks held until the test runs them. */
export class ManualDefer {
  /** Tasks waiting, oldest first. */
  readonly tasks: Array<() => void> = [];
  /** The {@link Defer} to hand to a shard. */
  readonly defer: Defer = (task) => {
    this.tasks.push(task);
    return () => {
      const at = this.tasks.indexOf(task);
      if (at >= 0) this.tasks.splice(at, 1);
    };
  };

  /** Runs the oldest task; false when none was waiting. */
  runOne(): boolean {
    const task = this.tasks.shift();
    task?.();
    return task !== undefined;
  }

  /** Runs tasks until none is left (bounded); returns how many ran. */
  runAll(limit = 1_000_000): number {
    let n = 0;
    while (n < limit && this.runOne()) n++;
    return n;
  }
}
