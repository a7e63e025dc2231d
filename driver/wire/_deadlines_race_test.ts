import assert from "node:assert/strict";
import { Deadlines } from "./_deadlines.ts";

const never = () => new Promise<never>(() => {});

Deno.test("watch.race: settles as the promise does while the attempt runs", async () => {
  const schedule = new Deadlines();
  const ok = schedule.watch(1_000, undefined);
  assert.equal(await ok.race(Promise.resolve(7)), 7);
  ok.done();
  const failing = schedule.watch(1_000, undefined);
  await assert.rejects(failing.race(Promise.reject(new Error("refused"))), /refused/);
  failing.done();
  assert.equal(schedule.size, 0);
});

Deno.test("watch.race: a promise that never settles is cut off at the deadline", async () => {
  const schedule = new Deadlines();
  const watch = schedule.watch(20, undefined);
  const error = await watch.race(never()).catch((e) => e);
  assert.equal(error?.name, "TimeoutError");
  assert.equal(error, watch.signal.reason);
  assert.equal(schedule.size, 0);
});

Deno.test("watch.race: the caller's abort rejects it with the caller's reason", async () => {
  const schedule = new Deadlines();
  const caller = new AbortController();
  const watch = schedule.watch(10_000, caller.signal);
  const pending = watch.race(never());
  caller.abort(new Error("user cancelled"));
  await assert.rejects(pending, /user cancelled/);
  watch.done();
  // Already aborted: rejected at once, whatever the promise does.
  await assert.rejects(watch.race(Promise.resolve(1)), /user cancelled/);
  assert.equal(schedule.size, 0);
});

Deno.test("watch.race: after done(), a later abort leaves a settled race alone", async () => {
  const schedule = new Deadlines();
  const caller = new AbortController();
  const watch = schedule.watch(10_000, caller.signal);
  const value = await watch.race(Promise.resolve("answer"));
  watch.done();
  caller.abort(new Error("too late"));
  assert.equal(value, "answer");
  assert.equal(watch.signal.aborted, false, "a finished attempt no longer follows the caller");
});
