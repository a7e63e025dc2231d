// What a `sparse_vector` field accepts in a document, as Elasticsearch checks it: a JSON object
// (or an array of them) mapping each token to a positive float; numbers may come as strings.
// Anything else is refused with the cause Elasticsearch gives.

import { EngineError } from "../_errors.ts";
import { jsonTokenName } from "../_json.ts";
import { javaFloat } from "../_index/java_numbers.ts";

/** Java's `Float.MIN_NORMAL`, the smallest feature value Lucene takes. */
const MIN_NORMAL = 1.1754943508222875e-38;

function illegal(reason: string): EngineError {
  return new EngineError(400, "illegal_argument_exception", reason);
}

/** Why one token's value cannot be indexed, or undefined when it can. */
function featureProblem(field: string, feature: string, raw: unknown): EngineError | undefined {
  if (raw === null) return undefined;
  let value: number;
  if (typeof raw === "number" || typeof raw === "bigint") value = Number(raw);
  else if (typeof raw === "string") {
    const text = raw.trim();
    if (text === "") return new EngineError(400, "number_format_exception", "empty String");
    value = /^[+-]?(NaN|Infinity|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?)$/.test(text)
      ? Number(text.replace(/[fFdD]$/, ""))
      : NaN;
    if (Number.isNaN(value) && !/NaN$/.test(text)) {
      return new EngineError(400, "number_format_exception", `For input string: "${raw}"`);
    }
  } else {
    return illegal(
      `[sparse_vector] fields take hashes that map a feature to a strictly positive float, but got unexpected token ${
        jsonTokenName(raw)
      }`,
    );
  }
  const f = Math.fround(value);
  if (!Number.isFinite(f)) {
    return illegal(
      `featureValue must be finite, got: ${javaFloat(f)} for feature ${feature} on field ${field}`,
    );
  }
  if (f < MIN_NORMAL) {
    return illegal(
      `featureValue must be a positive normal float, got: ${
        javaFloat(f)
      } for feature ${feature} on field ${field} which is less than the minimum positive normal float: 1.1754944E-38`,
    );
  }
  return undefined;
}

/**
 * Why `value` cannot be indexed into `sparse_vector` field `field` (the cause Elasticsearch
 * puts under its `failed to parse: …` document error), or undefined when it can. `null` is no
 * value; an array holds objects, each checked.
 */
export function sparseVectorProblem(field: string, value: unknown): EngineError | undefined {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = sparseVectorProblem(field, item);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (typeof value !== "object") {
    return illegal(
      `[sparse_vector] fields must be json objects, expected a START_OBJECT but got: ${
        jsonTokenName(value)
      }`,
    );
  }
  for (const [feature, raw] of Object.entries(value as Record<string, unknown>)) {
    const problem = featureProblem(field, feature, raw);
    if (problem !== undefined) return problem;
  }
  return undefined;
}
