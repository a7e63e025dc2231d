// Attempt deadlines without a timer per request. Each attempt gets a plain AbortController; one
// shared schedule keeps the attempts in flight and a single pending tick at (or before) the
// earliest deadline. The tick aborts what has expired and sets the next one. A tick is an
// `AbortSignal.timeout` (the web-standard timer that does not keep a process alive by itself);
// it comes at least every 100 ms while attempts are in flight and stops when none are.
//
// Per request that is an AbortController and a link in a list instead of a timer (and, with a
// caller's signal, one listener instead of `AbortSignal.any`): a finished attempt leaves
// nothing pending, where a 30 s timer per request would pile up by the thousand under load. The
// attempts in flight are a doubly linked list through the watches themselves: linking and
// unlinking are a few stores, where a `Set` entry cost about 0.1 µs per attempt (hashing, and
// the table's rehash as entries come and go).
//
// A long attempt (at least `LAZY_FROM_MS`, as the default 30 s is) that starts while a tick is
// pending reads no clock: reading one (`performance.now()`, an op call on Deno 2.9) cost about
// 0.15–0.25 µs, most of what the watch cost. Its start is stamped at the next clock read of the
// schedule, the tick at the latest (within `HEARTBEAT_MS`), or when the transport asks for it
// (`startedAt`, on a failure): its deadline comes at most one heartbeat late, never early.

/**
 * The part of an `AbortSignal` a fetch marked `Symbol.for("searchvisitor.lightSignal")` reads
 * (`aborted`, `reason`, `addEventListener`/`removeEventListener` of `"abort"`,
 * `throwIfAborted`), for such a fetch instead of an `AbortController` per attempt: on Node 20 a
 * controller costs about 6 µs, a listener on it 3 µs more, several percent of a search over
 * loopback. Listeners are called once, in order, with an `abort` event.
 */
export class LightSignal {
  aborted = false;
  reason: unknown = undefined;
  onabort: ((event: Event) => void) | null = null;
  #listeners: EventListenerOrEventListenerObject[] | undefined;

  addEventListener(type: string, listener: EventListenerOrEventListenerObject | null): void {
    if (type !== "abort" || listener === null || this.aborted) return;
    (this.#listeners ??= []).push(listener);
  }

  removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null): void {
    const listeners = this.#listeners;
    if (type !== "abort" || listeners === undefined || listener === null) return;
    const at = listeners.indexOf(listener);
    if (at >= 0) listeners.splice(at, 1);
  }

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  /** Aborts once with `reason`; the listeners are dropped after they ran. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.#listeners ?? [];
    this.#listeners = undefined;
    const event = new Event("abort");
    this.onabort?.(event);
    // Listeners are called through a plain signature: where a DOM and a runtime declare their
    // own `Event` types in one program, they are not assignable to each other.
    type Plain = (this: unknown, event: unknown) => void;
    for (const listener of listeners) {
      if (typeof listener === "function") (listener as unknown as Plain).call(this, event);
      else (listener.handleEvent as unknown as Plain).call(listener, event);
    }
  }
}

/** One watched attempt: its signal aborts at the deadline or when the caller's signal does. */
export class Watch {
  readonly #controller: AbortController | LightSignal;
  readonly #schedule: Deadlines;
  readonly #outer: AbortSignal | undefined;
  /** The attempt's time limit (ms). */
  readonly ms: number;
  /**
   * When the attempt expires (`performance.now()` time); NaN until its start is stamped (a
   * long attempt started while a tick was pending: see the module's notes).
   */
  deadline: number;
  /** The attempt's signal: hand it to `fetch` and to the body reader (read once, here). */
  readonly signal: AbortSignal;
  /** Rejects the pending `race`, if any, when the attempt aborts. */
  #reject: ((reason: unknown) => void) | undefined;
  /** The neighbours in the schedule's list of attempts in flight (see `Deadlines`). */
  prev: Watch | undefined = undefined;
  next: Watch | undefined = undefined;
  /** Whether the watch is in that list. */
  linked = false;

  /** A watch of `ms`, not yet stamped (its deadline NaN until the schedule sets it). */
  constructor(
    schedule: Deadlines,
    ms: number,
    outer: AbortSignal | undefined,
    light = false,
  ) {
    const controller = light ? new LightSignal() : new AbortController();
    this.#controller = controller;
    this.signal = controller instanceof LightSignal
      ? controller as unknown as AbortSignal
      : controller.signal;
    this.#schedule = schedule;
    this.deadline = NaN;
    this.ms = ms;
    this.#outer = outer;
    if (outer !== undefined) {
      if (outer.aborted) this.#controller.abort(outer.reason);
      else outer.addEventListener("abort", this, { once: true });
    }
  }

  /**
   * When the attempt started (`performance.now()` time): stamped now if it was not yet (then
   * its deadline counts from now, at most one heartbeat late).
   */
  startedAt(): number {
    if (this.deadline !== this.deadline) this.deadline = performance.now() + this.ms; // NaN
    return this.deadline - this.ms;
  }

  /**
   * Settles as `promise` does, or rejects with the abort reason as soon as the attempt aborts:
   * for a fetch that may ignore its signal. The watch rejects it itself, so no listener is
   * added to (and removed from) the signal per attempt.
   */
  race<T>(promise: Promise<T>): Promise<T> {
    const signal = this.signal;
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise<T>((resolve, reject) => {
      this.#reject = reject;
      promise.then(resolve, reject);
    });
  }

  /**
   * Calls `onAbort` with the abort reason when the attempt aborts (at once when it has): what
   * `race` does, for a caller that settles its own promise. One callback at a time.
   */
  onAbort(onAbort: (reason: unknown) => void): void {
    if (this.signal.aborted) onAbort(this.signal.reason);
    else this.#reject = onAbort;
  }

  /** Stops calling back (`race`'s or `onAbort`'s) on an abort; the signal still follows it. */
  release(): void {
    this.#reject = undefined;
  }

  /** The caller's signal aborted (an EventListener object: no closure per attempt). */
  handleEvent(): void {
    this.#abort(this.#outer?.reason);
  }

  /** The deadline passed. */
  expire(): void {
    this.#outer?.removeEventListener("abort", this);
    this.#abort(new DOMException("The attempt timed out", "TimeoutError"));
  }

  #abort(reason: unknown): void {
    this.#controller.abort(reason);
    const reject = this.#reject;
    this.#reject = undefined;
    reject?.(this.signal.reason);
  }

  /** The attempt is over (answered or failed): stop watching it. */
  done(): void {
    this.#reject = undefined;
    this.#outer?.removeEventListener("abort", this);
    this.#schedule.forget(this);
  }
}

/**
 * How often the tick comes while attempts are in flight, at the latest (ms). A process whose
 * last request has ended keeps running at most this long for a pending tick (a listened
 * `AbortSignal.timeout` keeps Deno alive); listening and unlistening per request instead costs
 * several µs of each request in Deno's event loop. Each tick wakes the event loop and makes an
 * abort event with a `DOMException` (on Deno 2.9 about 120–170 µs of CPU when the loop was
 * asleep): at 10 ms that was up to 1.5 % of a core for one slow request in flight.
 */
const HEARTBEAT_MS = 100;

/**
 * The shortest attempt whose start may be stamped late (ms): late by at most one heartbeat, at
 * most 5 % of its time (0.3 % of the default 30 s). Shorter attempts read the clock.
 */
const LAZY_FROM_MS = 20 * HEARTBEAT_MS;

/** The attempts in flight of one transport and the tick that expires them. */
export class Deadlines {
  /** The attempts in flight, newest first, linked through `Watch.prev` / `Watch.next`. */
  #head: Watch | undefined;
  #size = 0;
  /** The pending tick, and when it fires (Infinity: none). */
  #tick: AbortSignal | undefined;
  #next = Infinity;
  readonly #onTick = (): void => this.#expire();
  readonly #lazyFromMs: number;

  /**
   * @param lazyFromMs The shortest attempt whose start may be stamped at the next clock read
   *   rather than read (for tests; see `LAZY_FROM_MS`).
   */
  constructor(lazyFromMs: number = LAZY_FROM_MS) {
    this.#lazyFromMs = lazyFromMs;
  }

  /** How many attempts are watched (for tests: nothing stays behind). */
  get size(): number {
    return this.#size;
  }

  /**
   * Starts watching an attempt that may take `ms` milliseconds.
   *
   * @param ms The attempt's time limit.
   * @param outer The caller's signal, if any: its abort aborts the attempt with its reason.
   * @param light Give the attempt a {@linkcode LightSignal} instead of an `AbortController`'s
   *   (for a fetch marked `Symbol.for("searchvisitor.lightSignal")`).
   * @returns The watch; call `done()` when the attempt is over.
   */
  watch(ms: number, outer: AbortSignal | undefined, light = false): Watch {
    // A pending tick comes within a heartbeat (its time is at most `HEARTBEAT_MS` after the
    // clock read that armed it) and stamps a long attempt's start before it could expire.
    if (this.#tick !== undefined && ms >= this.#lazyFromMs) {
      return this.#link(new Watch(this, ms, outer, light));
    }
    const now = performance.now();
    const deadline = now + ms;
    const watch = this.#link(new Watch(this, ms, outer, light));
    watch.deadline = deadline;
    if (this.#tick === undefined || deadline < this.#next) this.#arm(deadline, now);
    return watch;
  }

  #link(watch: Watch): Watch {
    const head = this.#head;
    watch.next = head;
    if (head !== undefined) head.prev = watch;
    this.#head = watch;
    watch.linked = true;
    this.#size++;
    return watch;
  }

  /** Stops watching (called by `Watch.done`). */
  forget(watch: Watch): void {
    if (!watch.linked) return;
    watch.linked = false;
    const { prev, next } = watch;
    if (prev !== undefined) prev.next = next;
    else this.#head = next;
    if (next !== undefined) next.prev = prev;
    watch.prev = watch.next = undefined;
    this.#size--;
  }

  #arm(deadline: number, now: number): void {
    this.#tick?.removeEventListener("abort", this.#onTick);
    const at = Math.min(deadline, now + HEARTBEAT_MS);
    this.#next = at;
    // Rounded up: a tick never comes before the deadline it is for.
    const tick = AbortSignal.timeout(Math.max(0, Math.ceil(at - now)));
    tick.addEventListener("abort", this.#onTick, { once: true });
    this.#tick = tick;
  }

  #expire(): void {
    const now = performance.now();
    this.#tick = undefined;
    this.#next = Infinity;
    // The expired are unlinked first, then aborted: an abort's listeners may start or finish
    // other attempts, which changes the list; the earliest deadline is read after that.
    let expired: Watch[] | undefined;
    for (let watch = this.#head; watch !== undefined;) {
      const next = watch.next;
      // Not stamped yet (NaN): it started after the last clock read, at most now.
      if (watch.deadline !== watch.deadline) watch.deadline = now + watch.ms;
      else if (watch.deadline <= now) {
        this.forget(watch);
        (expired ??= []).push(watch);
      }
      watch = next;
    }
    if (expired !== undefined) { for (const watch of expired) watch.expire(); }
    let earliest = Infinity;
    for (let watch = this.#head; watch !== undefined; watch = watch.next) {
      if (watch.deadline < earliest) earliest = watch.deadline;
    }
    // Nothing in flight: no tick (an idle transport costs nothing and holds no process open).
    if (earliest < Infinity) this.#arm(earliest, now);
  }
}
