// Parent pipelines over a histogram's buckets in key order: `moving_fn` (a script over a sliding
// window of earlier values, with Painless's `MovingFunctions`) and `serial_diff` (the difference
// with the value `lag` buckets before).

import { illegalArgument } from "../_errors.ts";
import { setOwn } from "../_index/own.ts";
import { readScript, runExpression } from "../_query/script.ts";
import { ScriptHost } from "../_query/script_host.ts";
import { scriptError } from "../_query/script_parser.ts";
import {
  bucketValue,
  gapPolicyOf,
  type ParentFn,
  parseBucketsPath,
  singlePath,
} from "./buckets_path.ts";
import type { JsonObject } from "../_json.ts";

const finite = (values: number[]): number[] => values.filter((v) => !Number.isNaN(v));

function holt(values: number[], alpha: number, beta: number): number {
  let s = 0;
  let b = 0;
  let lastS = 0;
  let lastB = 0;
  let counter = 0;
  for (const v of finite(values)) {
    if (counter === 0) {
      s = v;
      b = 0;
    } else {
      s = alpha * v + (1 - alpha) * (lastS + lastB);
      b = beta * (s - lastS) + (1 - beta) * lastB;
    }
    counter++;
    lastS = s;
    lastB = b;
  }
  return counter === 0 ? NaN : s;
}

/** The functions of Painless's `MovingFunctions`, over a window of doubles (NaN ignored). */
const FUNCTIONS: Record<string, (values: number[], ...args: number[]) => number> = {
  max: (vs) => (finite(vs).length ? Math.max(...finite(vs)) : NaN),
  min: (vs) => (finite(vs).length ? Math.min(...finite(vs)) : NaN),
  sum: (vs) => finite(vs).reduce((a, b) => a + b, 0),
  unweightedAvg: (vs) => {
    const f = finite(vs);
    return f.length ? f.reduce((a, b) => a + b, 0) / f.length : NaN;
  },
  stdDev: (vs, avg = NaN) => {
    const f = finite(vs);
    if (!f.length) return NaN;
    return Math.sqrt(f.reduce((a, v) => a + (v - avg) ** 2, 0) / f.length);
  },
  linearWeightedAvg: (vs) => {
    const f = finite(vs);
    if (!f.length) return NaN;
    let total = 0;
    let weights = 0;
    f.forEach((v, i) => {
      total += v * (i + 1);
      weights += i + 1;
    });
    return total / weights;
  },
  ewma: (vs, alpha = 0.3) => {
    let avg = NaN;
    for (const v of finite(vs)) avg = Number.isNaN(avg) ? v : v * alpha + avg * (1 - alpha);
    return avg;
  },
  holt: (vs, alpha = 0.3, beta = 0.1) => holt(vs, alpha, beta),
};

/** `MovingFunctions.*` as a script host object. */
export class MovingFunctionsHost extends ScriptHost {
  override member(source: string, key: string | number): unknown {
    throw scriptError(source, `cannot resolve symbol [MovingFunctions.${key}]`);
  }
  override invoke(source: string, method: string, args: unknown[]): unknown {
    const fn = Object.hasOwn(FUNCTIONS, method) ? FUNCTIONS[method] : undefined;
    if (!fn || !Array.isArray(args[0])) {
      throw scriptError(source, `Unknown call [MovingFunctions.${method}]`);
    }
    return fn((args[0] as unknown[]).map(Number), ...args.slice(1).map(Number));
  }
}

/** A pipeline's integer setting that must be positive. */
function positive(body: JsonObject, key: string, fallback: number | undefined, reason: string) {
  const v = body[key] ?? fallback;
  if (typeof v !== "number" || !Number.isInteger(v) || v <= 0) throw illegalArgument(reason);
  return v;
}

/** `moving_fn` and `serial_diff`, by type name. */
export const MOVING_FNS: Record<string, ParentFn> = {
  moving_fn: (buckets, body, name, type) => {
    const text = singlePath(type, name, body);
    const path = parseBucketsPath(text);
    const window = positive(
      body,
      "window",
      undefined,
      "[window] must be a positive, non-zero integer.",
    );
    const shift = Number(body.shift ?? 0);
    if (body.script === undefined) {
      throw illegalArgument(`[script] is required for moving_fn aggregation [${name}]`);
    }
    const script = readScript(body.script);
    const gap = gapPolicyOf(body.gap_policy);
    const all = buckets.map((b) => bucketValue(b, path, text, gap));
    const values = all.filter((v) => !Number.isNaN(v));
    const host = new MovingFunctionsHost();
    let index = 0;
    buckets.forEach((b, i) => {
      if (Number.isNaN(all[i])) return;
      const clamp = (n: number) => Math.max(0, Math.min(values.length, n));
      const from = clamp(index - window + shift);
      const to = clamp(index + shift);
      const out = runExpression(script, {
        params: { ...script.params },
        values: values.slice(from, to),
        MovingFunctions: host,
      });
      const value = typeof out === "number" ? out : Number(out);
      setOwn(b, name, { value: Number.isFinite(value) ? value : null });
      index++;
    });
    return buckets;
  },
  serial_diff: (buckets, body, name, type) => {
    const text = singlePath(type, name, body);
    const path = parseBucketsPath(text);
    const lag = positive(body, "lag", 1, `[lag] must be a positive integer: [${name}]`);
    const gap = gapPolicyOf(body.gap_policy);
    const seen: number[] = [];
    buckets.forEach((b, i) => {
      const v = bucketValue(b, path, text, gap);
      const before = i >= lag ? seen[i - lag]! : NaN;
      if (!Number.isNaN(v) && !Number.isNaN(before)) setOwn(b, name, { value: v - before });
      seen.push(v);
    });
    return buckets;
  },
};
