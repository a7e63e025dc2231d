// What score and filter scripts read: `doc[...]` (doc values and vectors) and `Math`, as host
// objects whose cursor the runner moves from doc to doc.

import { scriptError } from "./script_parser.ts";
import { ScriptHost } from "./script_host.ts";
import type { SegmentView } from "../_index/shard_snapshot.ts";
import type { VectorColumn } from "../_index/vectors.ts";
import type { ExecContext } from "./exec_context.ts";

/** Where the script is: the segment and local doc, updated for each doc it runs on. */
export interface Cursor {
  view: SegmentView;
  local: number;
}

export const MISSING_VECTOR = "A document doesn't have a value for a vector field!";

/** `doc['field']` of a vector field. */
export class VectorValues extends ScriptHost {
  /** The segment whose column this is. */
  readonly view: SegmentView;
  constructor(readonly field: string, readonly col: VectorColumn | undefined, readonly at: Cursor) {
    super();
    this.view = at.view;
  }

  has(): boolean {
    return this.col?.has[this.at.local] === 1;
  }

  vector(source: string): number[] {
    if (!this.col || !this.has()) throw scriptError(source, MISSING_VECTOR, true);
    const dims = this.col.spec.dims;
    return Array.from(this.col.data.subarray(this.at.local * dims, (this.at.local + 1) * dims));
  }

  override member(source: string, key: string | number): unknown {
    if (key === "vectorValue") return this.vector(source);
    if (key === "magnitude") {
      if (!this.has()) throw scriptError(source, MISSING_VECTOR, true);
      return this.col!.magnitude[this.at.local]!;
    }
    if (key === "empty") return !this.has();
    throw scriptError(source, `dynamic getter [${key}] not found for a dense_vector field`, true);
  }

  override invoke(source: string, method: string, args: unknown[]): unknown {
    if (method === "size") return this.has() ? 1 : 0;
    if (method === "isEmpty") return !this.has();
    if (method === "getVectorValue") return this.vector(source);
    if (method === "getMagnitude") return this.member(source, "magnitude");
    throw scriptError(source, `dynamic method [${method}/${args.length}] not found`, true);
  }
}

/** `doc['field']` of any other field: its doc values. */
export class FieldValues extends ScriptHost {
  constructor(readonly field: string, readonly at: Cursor) {
    super();
  }

  values(): unknown[] {
    const f = this.at.view.segment.fields.get(this.field);
    if (!f) return [];
    const from = f.dvStart[this.at.local]!;
    const to = f.dvStart[this.at.local + 1]!;
    if (f.numValues) return Array.from(f.numValues.subarray(from, to));
    return f.strValues ? f.strValues.slice(from, to) : [];
  }

  override member(source: string, key: string | number): unknown {
    const values = this.values();
    if (key === "value") {
      if (values.length === 0) {
        throw scriptError(
          source,
          `A document doesn't have a value for a field! Use doc[<field>].size()==0 to check if a document is missing a field!`,
          true,
        );
      }
      return values[0];
    }
    if (key === "empty") return values.length === 0;
    if (typeof key === "number") return values[key] ?? null;
    throw scriptError(source, `dynamic getter [${key}] not found`, true);
  }

  override invoke(source: string, method: string, args: unknown[]): unknown {
    const values = this.values();
    if (method === "size") return values.length;
    if (method === "isEmpty") return values.length === 0;
    if (method === "getValue") return this.member(source, "value");
    if (method === "get") return values[Number(args[0])] ?? null;
    throw scriptError(source, `dynamic method [${method}/${args.length}] not found`, true);
  }
}

/** The `doc` map. */
export class DocAccess extends ScriptHost {
  readonly #cache = new Map<string, VectorValues | FieldValues>();
  constructor(readonly ctx: ExecContext, readonly at: Cursor) {
    super();
  }

  override member(source: string, key: string | number): unknown {
    const field = String(key);
    let values = this.#cache.get(field);
    if (values instanceof VectorValues && values.view !== this.at.view) {
      values = undefined; // another segment: another column
    }
    if (!values) {
      const info = this.ctx.fields.byPath.get(field);
      if (!info) {
        throw scriptError(source, `No field found for [${field}] in mapping`, true);
      }
      values = info.vector
        ? new VectorValues(field, this.at.view.segment.vectors.get(field), this.at)
        : new FieldValues(field, this.at);
      this.#cache.set(field, values);
    }
    return values;
  }

  override invoke(source: string, method: string, args: unknown[]): unknown {
    if (method === "containsKey") return this.ctx.fields.byPath.has(String(args[0]));
    if (method === "get") return this.member(source, String(args[0]));
    throw scriptError(source, `dynamic method [${method}/${args.length}] not found`, true);
  }
}

/** `Math.*` as Painless scripts use it. */
export class MathHost extends ScriptHost {
  override member(source: string, key: string | number): unknown {
    if (key === "PI") return Math.PI;
    if (key === "E") return Math.E;
    throw scriptError(source, `cannot resolve symbol [Math.${key}]`);
  }
  override invoke(source: string, method: string, args: unknown[]): unknown {
    const fn = ["abs", "sqrt", "log", "log10", "exp", "pow", "max", "min", "floor", "ceil"]
        .includes(method)
      ? (Math as unknown as Record<string, (...a: number[]) => number>)[method]!
      : undefined;
    if (!fn) throw scriptError(source, `Unknown call [Math.${method}]`);
    return fn(...args.map(Number));
  }
}
