import assert from "node:assert/strict";
import { Deadlines } from "./_deadlines.ts";
import { Transport } from "./transport.ts";

const reasonOf = (signal: AbortSignal) => signal.reason as { name?: string };

const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));

Deno.test("deadlines: an attempt's signal aborts with a TimeoutError once its time is up", async () => {
  const schedule = new Deadlines();
  const started = performance.now();
  const watch = schedule.watch(30, undefined);
  assert.equal(watch.signal.aborted, false);
  await aborted(watch.signal);
  assert.ok(performance.now() - started >= 29, "not before its deadline");
  assert.equal(reasonOf(watch.signal).name, "TimeoutError");
  assert.equal(schedule.size, 0, "an expired attempt is no longer watched");
});

Deno.test("deadlines: a shorter attempt after a longer one expires first; the longer one later", async () => {
  const schedule = new Deadlines();
  const long = schedule.watch(120, undefined);
  const short = schedule.watch(20, undefined);
  await aborted(short.signal);
  assert.equal(long.signal.aborted, false, "the long attempt still runs");
  assert.equal(schedule.size, 1);
  await aborted(long.signal);
  assert.equal(schedule.size, 0);
});

Deno.test("deadlines: a finished attempt is never aborted and leaves nothing behind", async () => {
  const schedule = new Deadlines();
  const early = schedule.watch(10, undefined);
  early.done();
  const later = schedule.watch(40, undefined);
  await aborted(later.signal);
  assert.equal(early.signal.aborted, false);
  assert.equal(schedule.size, 0);
  // Watching again after the schedule went idle arms a new tick.
  const again = schedule.watch(10, undefined);
  await aborted(again.signal);
  assert.equal(reasonOf(again.signal).name, "TimeoutError");
});

Deno.test("deadlines: the caller's signal aborts the attempt with the caller's reason", () => {
  const schedule = new Deadlines();
  const caller = new AbortController();
  const watch = schedule.watch(60_000, caller.signal);
  caller.abort(new Error("user left"));
  assert.equal(watch.signal.aborted, true);
  assert.equal((watch.signal.reason as Error).message, "user left");
  watch.done();
  assert.equal(schedule.size, 0);
  // Already aborted before the attempt started.
  const late = schedule.watch(60_000, caller.signal);
  assert.equal(late.signal.aborted, true);
  late.done();
  // After done() the caller's signal no longer reaches the attempt.
  const other = new AbortController();
  const finished = schedule.watch(60_000, other.signal);
  finished.done();
  other.abort();
  assert.equal(finished.signal.aborted, false);
});

Deno.test("deadlines: a finished request leaves nothing that keeps the process running", async () => {
  // A script that makes one request (attempt timeout one minute) and ends: it must exit at once,
  // not when the pending tick would fire.
  const transport = new URL("./transport.ts", import.meta.url).href;
  const script = `
    const { Transport } = await import(${JSON.stringify(transport)});
    const t = new Transport({ nodes: ["http://a:9200"], timeoutMs: 60000,
      fetch: () => Promise.resolve(Response.json({ ok: true })) });
    await t.request({ method: "GET", path: "/" });
    console.log("done");`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", script],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const killer = setTimeout(() => child.kill(), 20_000);
  const out = await child.output();
  clearTimeout(killer);
  assert.equal(out.success, true, new TextDecoder().decode(out.stderr));
  assert.equal(new TextDecoder().decode(out.stdout).trim(), "done");
});

Deno.test("a light watch aborts its signal at the deadline; listeners run once, removed ones never", async () => {
  const deadlines = new Deadlines();
  const watch = deadlines.watch(5, undefined, true);
  const signal = watch.signal;
  assert.equal(signal instanceof AbortSignal, false);
  const seen: string[] = [];
  const removed = () => seen.push("removed");
  signal.addEventListener("abort", () => seen.push(`fn ${signal.aborted}`), { once: true });
  signal.addEventListener("abort", { handleEvent: (e: Event) => seen.push(`object ${e.type}`) });
  signal.addEventListener("abort", removed);
  signal.removeEventListener("abort", removed);
  await new Promise((resolve) => signal.addEventListener("abort", resolve));
  assert.deepEqual(seen, ["fn true", "object abort"]);
  assert.equal((signal.reason as DOMException).name, "TimeoutError");
  assert.throws(() => signal.throwIfAborted(), { name: "TimeoutError" });
  assert.equal(deadlines.size, 0);
});

Deno.test("a light watch follows the caller's signal and stops on done()", () => {
  const deadlines = new Deadlines();
  const outer = new AbortController();
  const watch = deadlines.watch(60_000, outer.signal, true);
  outer.abort(new Error("caller"));
  assert.equal(watch.signal.aborted, true);
  assert.equal((watch.signal.reason as Error).message, "caller");
  watch.done();
  const quiet = deadlines.watch(60_000, undefined, true);
  quiet.done();
  assert.equal(quiet.signal.aborted, false);
  assert.equal(deadlines.size, 0);
});

Deno.test("deadlines: a long attempt started while a tick is pending is stamped late, never early", async () => {
  // Attempts of at least 40 ms that start while a tick is pending read no clock of their own.
  const schedule = new Deadlines(40);
  const first = schedule.watch(1_000, undefined); // no tick yet: reads the clock, arms one
  assert.equal(Number.isNaN(first.deadline), false);
  const started = performance.now();
  const lazy = schedule.watch(60, undefined);
  assert.equal(Number.isNaN(lazy.deadline), true, "its start waits for the schedule's clock");
  const short = schedule.watch(10, undefined); // shorter than 40 ms: read at once
  assert.equal(Number.isNaN(short.deadline), false);
  await aborted(lazy.signal);
  assert.ok(performance.now() - started >= 59, "not before its time");
  assert.equal(reasonOf(lazy.signal).name, "TimeoutError");
  assert.equal(short.signal.aborted, true);
  assert.equal(first.signal.aborted, false);
  first.done();
  assert.equal(schedule.size, 0);
});

Deno.test("deadlines: startedAt stamps an unstamped attempt with the time it is asked", () => {
  const schedule = new Deadlines(40);
  const first = schedule.watch(1_000, undefined);
  const before = performance.now();
  const lazy = schedule.watch(1_000, undefined);
  assert.equal(Number.isNaN(lazy.deadline), true);
  const at = lazy.startedAt();
  assert.ok(at >= before && at <= performance.now());
  assert.equal(lazy.deadline, at + 1_000);
  assert.equal(lazy.startedAt(), at, "stamped once");
  assert.equal(first.startedAt(), first.deadline - 1_000);
  lazy.done();
  first.done();
  assert.equal(schedule.size, 0);
});

Deno.test("deadlines: a caller's abort reaches an unstamped attempt at once", () => {
  const schedule = new Deadlines(40);
  const first = schedule.watch(60_000, undefined);
  const caller = new AbortController();
  const lazy = schedule.watch(60_000, caller.signal);
  const pending = lazy.race(new Promise<never>(() => {}));
  caller.abort(new Error("user left"));
  assert.equal((lazy.signal.reason as Error).message, "user left");
  lazy.done();
  first.done();
  assert.equal(schedule.size, 0);
  return assert.rejects(pending, /user left/);
});

Deno.test("with no fetch given, the runtime's fetch gets an AbortSignal on every attempt", async () => {
  const original = globalThis.fetch;
  const seen: unknown[] = [];
  globalThis.fetch = (_url: string | URL | Request, init?: RequestInit) => {
    seen.push(init?.signal);
    return Promise.resolve(Response.json({ ok: true }));
  };
  try {
    const t = new Transport({ nodes: ["http://es:9200"] });
    await t.request({ method: "GET", path: "/" });
    await t.request({ method: "POST", path: "/idx/_search", body: "{}" });
  } finally {
    globalThis.fetch = original;
  }
  assert.equal(seen.length, 2);
  for (const signal of seen) assert.ok(signal instanceof AbortSignal);
});
