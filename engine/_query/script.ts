// Runs update scripts (the small Painless subset of script_parser.ts) against a `ctx`.

import { illegalArgument, parsingError, resourceNotFound } from "../_errors.ts";
import { parseScript, scriptError, type ScriptNode } from "./script_parser.ts";
import { ScriptHost, ScriptReturn } from "./script_host.ts";
import { utf8Length } from "../_utf8.ts";

/** `{source, params, lang}` after normalizing the shorthand string form. */
export interface Script {
  source: string;
  params: Record<string, unknown>;
}

/** Reads a `script` value (string or object) the way Elasticsearch accepts it. */
export function readScript(raw: unknown): Script {
  if (typeof raw === "string") return { source: raw, params: {} };
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw parsingError("Unexpected token in script: expected an object or a string");
  }
  const obj = raw as Record<string, unknown>;
  const lang = obj.lang ?? "painless";
  if (lang !== "painless") {
    throw illegalArgument(`script_lang not supported [${lang}]`);
  }
  if (obj.id !== undefined) {
    throw resourceNotFound(`unable to find script [${obj.id}] in cluster state`);
  }
  const source = obj.source ?? obj.inline;
  if (typeof source !== "string") {
    throw parsingError(
      "must specify either [source] for an inline script or [id] for a stored script",
    );
  }
  const params = obj.params ?? {};
  return { source, params: params as Record<string, unknown> };
}

/** Largest inline script, in UTF-8 bytes (Elasticsearch's `script.max_size_in_bytes`). */
export const MAX_SCRIPT_BYTES = 65535;

type Vars = Record<string, unknown>;

function keyOf(_source: string, key: unknown): string | number {
  return typeof key === "number" ? key : String(key);
}

/**
 * Stores `value` under `key` as an own data property: field names such as `__proto__` or
 * `constructor` are data, never the object's prototype. Lists take in-range indexes only.
 */
function store(
  source: string,
  holder: Vars | unknown[],
  key: string | number,
  value: unknown,
): void {
  if (Array.isArray(holder)) {
    const i = Number(key);
    if (!Number.isInteger(i) || i < 0 || i >= holder.length) {
      throw scriptError(source, `Index ${key} out of bounds for length ${holder.length}`, true);
    }
    holder[i] = value;
    return;
  }
  Object.defineProperty(holder, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}

/**
 * Refuses a value that contains itself (as Elasticsearch's XContent writer does) or nests deeper
 * than a JSON body may, so no stored document can become unreadable.
 */
export function checkStorable(value: unknown, maxDepth = 1000): void {
  const path = new Set<object>();
  const walk = (v: unknown, depth: number): void => {
    if (v === null || typeof v !== "object") return;
    if (path.has(v)) {
      throw illegalArgument(
        Array.isArray(v)
          ? "Iterable object is self-referencing itself"
          : "Object has already been built and is self-referencing itself",
      );
    }
    if (depth > maxDepth) {
      throw illegalArgument(
        `Document nesting depth (${depth}) exceeds the maximum allowed (${maxDepth})`,
      );
    }
    path.add(v);
    for (const child of Array.isArray(v) ? v : Object.values(v)) walk(child, depth + 1);
    path.delete(v);
  };
  walk(value, 1);
}

function read(source: string, obj: unknown, key: string | number): unknown {
  if (obj instanceof ScriptHost) return obj.member(source, key);
  if (obj === null || obj === undefined) {
    throw scriptError(source, `cannot access [${key}] of a null value`, true);
  }
  if (Array.isArray(obj)) {
    if (key === "length") return obj.length;
    return obj[Number(key)];
  }
  if (typeof obj === "object") return Object.hasOwn(obj, key) ? (obj as Vars)[key] : null;
  if (typeof obj === "string" && key === "length") return obj.length;
  throw scriptError(source, `cannot access [${key}] of a ${typeof obj}`, true);
}

function call(source: string, obj: unknown, method: string, args: unknown[]): unknown {
  if (obj instanceof ScriptHost) return obj.invoke(source, method, args);
  if (Array.isArray(obj)) {
    switch (method) {
      case "add":
        if (args.length === 2) obj.splice(Number(args[0]), 0, args[1]);
        else obj.push(args[0]);
        return true;
      case "remove":
        return obj.splice(Number(args[0]), 1)[0];
      case "contains":
        return obj.some((v) => JSON.stringify(v) === JSON.stringify(args[0]));
      case "size":
        return obj.length;
      case "isEmpty":
        return obj.length === 0;
      case "indexOf":
        return obj.findIndex((v) => JSON.stringify(v) === JSON.stringify(args[0]));
      case "get":
        return obj[Number(args[0])];
      case "clear":
        obj.length = 0;
        return null;
    }
  } else if (typeof obj === "string") {
    switch (method) {
      case "length":
        return obj.length;
      case "toUpperCase":
        return obj.toUpperCase();
      case "toLowerCase":
        return obj.toLowerCase();
      case "contains":
        return obj.includes(String(args[0]));
      case "trim":
        return obj.trim();
    }
  } else if (obj !== null && typeof obj === "object") {
    const map = obj as Vars;
    switch (method) {
      case "put": {
        const key = keyOf(source, args[0]);
        const old = Object.hasOwn(map, key) ? map[key] : null;
        store(source, map, key, args[1]);
        return old;
      }
      case "putAll":
        for (const [k, v] of Object.entries((args[0] ?? {}) as Vars)) store(source, map, k, v);
        return null;
      case "remove": {
        const key = keyOf(source, args[0]);
        const old = Object.hasOwn(map, key) ? map[key] : null;
        delete map[key];
        return old;
      }
      case "get":
        return read(source, map, keyOf(source, args[0]));
      case "containsKey":
        return Object.hasOwn(map, keyOf(source, args[0]));
      case "size":
        return Object.keys(map).length;
      case "isEmpty":
        return Object.keys(map).length === 0;
      case "keySet":
        return Object.keys(map);
      case "values":
        return Object.values(map);
    }
  }
  throw scriptError(source, `dynamic method [${method}/${args.length}] not found`, true);
}

function arith(source: string, op: string, l: unknown, r: unknown): unknown {
  switch (op) {
    case "+":
      if (typeof l === "string" || typeof r === "string") return String(l) + String(r);
      if (typeof l !== "number" || typeof r !== "number") {
        throw scriptError(source, "cannot apply [+] to non-numbers", true);
      }
      return l + r;
    case "-":
      return Number(l) - Number(r);
    case "*":
      return Number(l) * Number(r);
    case "/":
      return Number(l) / Number(r);
    case "%":
      return Number(l) % Number(r);
    case "==":
      return JSON.stringify(l) === JSON.stringify(r);
    case "!=":
      return JSON.stringify(l) !== JSON.stringify(r);
    case "<":
      return (l as number) < (r as number);
    case "<=":
      return (l as number) <= (r as number);
    case ">":
      return (l as number) > (r as number);
    case ">=":
      return (l as number) >= (r as number);
  }
  throw scriptError(source, `unknown operator [${op}]`);
}

function evaluate(source: string, node: ScriptNode, vars: Vars): unknown {
  switch (node.k) {
    case "lit":
      return node.v;
    case "var":
      if (!Object.hasOwn(vars, node.name)) {
        throw scriptError(source, `cannot resolve symbol [${node.name}]`);
      }
      return vars[node.name];
    case "member":
      return read(
        source,
        evaluate(source, node.obj, vars),
        keyOf(source, evaluate(source, node.key, vars)),
      );
    case "call":
      return call(
        source,
        evaluate(source, node.obj, vars),
        node.method,
        node.args.map((a) => evaluate(source, a, vars)),
      );
    case "list":
      return node.items.map((i) => evaluate(source, i, vars));
    case "map":
      return Object.fromEntries(
        node.entries.map((
          [k, v],
        ) => [keyOf(source, evaluate(source, k, vars)), evaluate(source, v, vars)]),
      );
    case "not":
      return !evaluate(source, node.e, vars);
    case "neg":
      return -Number(evaluate(source, node.e, vars));
    case "bin":
      if (node.op === "&&") {
        return Boolean(evaluate(source, node.l, vars)) && Boolean(evaluate(source, node.r, vars));
      }
      if (node.op === "||") {
        return Boolean(evaluate(source, node.l, vars)) || Boolean(evaluate(source, node.r, vars));
      }
      return arith(source, node.op, evaluate(source, node.l, vars), evaluate(source, node.r, vars));
    case "assign":
    case "step": {
      const target = node.target;
      const [holder, key] = target.k === "member"
        ? [evaluate(source, target.obj, vars), keyOf(source, evaluate(source, target.key, vars))]
        : [vars, (target as { name: string }).name];
      if (holder === null || typeof holder !== "object") {
        throw scriptError(source, "cannot assign into a non-object", true);
      }
      const h = holder as Vars;
      const old = Object.hasOwn(h, key) ? h[key] : null;
      let value: unknown;
      if (node.k === "step") value = Number(old) + (node.op === "++" ? 1 : -1);
      else if (node.op === "=") value = evaluate(source, node.value, vars);
      else value = arith(source, node.op[0]!, old, evaluate(source, node.value, vars));
      store(source, h, key, value);
      return value;
    }
    case "if":
      for (const s of evaluate(source, node.cond, vars) ? node.then : node.else) {
        evaluate(source, s, vars);
      }
      return null;
    case "fn": {
      const fn = Object.hasOwn(vars, node.name) ? vars[node.name] : undefined;
      if (typeof fn !== "function") {
        throw scriptError(
          source,
          `Unknown call [${node.name}] with [${node.args.length}] arguments.`,
        );
      }
      return fn(...node.args.map((a) => evaluate(source, a, vars)));
    }
    case "cond":
      return evaluate(source, evaluate(source, node.test, vars) ? node.then : node.else, vars);
    case "ret":
      throw new ScriptReturn(evaluate(source, node.e, vars));
  }
}

/**
 * Runs a script that computes a value (score and filter scripts): the value of its `return` or of
 * its last statement. `vars` holds the names it may use, functions included (`cosineSimilarity`).
 */
export function runExpression(script: Script, vars: Vars): unknown {
  const program = parseScript(script.source);
  let value: unknown = null;
  try {
    for (const statement of program) value = evaluate(script.source, statement, vars);
  } catch (e) {
    if (e instanceof ScriptReturn) return e.value;
    throw e;
  }
  return value;
}

/** Runs `script` with `ctx` (mutated in place: `ctx._source`, `ctx.op`). */
export function runScript(script: Script, ctx: Vars): void {
  const size = utf8Length(script.source);
  if (size > MAX_SCRIPT_BYTES) {
    throw illegalArgument(
      `exceeded max allowed inline script size in bytes [${MAX_SCRIPT_BYTES}] with size [${size}] for script [${
        script.source.slice(0, 64)
      }]`,
    );
  }
  const program = parseScript(script.source);
  const vars: Vars = { ctx, params: script.params };
  try {
    for (const statement of program) evaluate(script.source, statement, vars);
  } catch (e) {
    if (!(e instanceof ScriptReturn)) throw e;
  }
  checkStorable(ctx);
}
