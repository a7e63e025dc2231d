// The binding property: a random value (every JSON type, nasty strings with quotes, backslashes,
// `/ . % # ? & = * ,`, control characters, lone surrogates, very long ones, and non-JSON values)
// bound in every placeholder position — path segment, index name, query value, JSON value, key,
// array element, whole body, NDJSON line, hint, through the driver, the template's `#{}` and the tagged
// template's `${}` — either fails with a BindError, or leaves the command's structure exactly as
// written, with a path value always exactly one segment that decodes back to the value.
// Shared by tests/binding_property_test.ts (100 000 cases) and tools/fuzz.ts (a million).
import assert from "node:assert/strict";
import { BindError } from "../../driver/mod.ts";
import type { BoundCommand } from "../../driver/mod.ts";
import { bindScript, parseScript } from "../../driver/internal.ts";
import { DataSource } from "../../driver/mod.ts";
import { bindTemplate, JdbcTemplate } from "../../template/mod.ts";
import { prng } from "./prng.ts";

const jdbc = new JdbcTemplate(
  new DataSource({
    nodes: ["http://property.local"],
    fetch: () => Promise.reject(new Error("no I/O")),
  }),
);

export { prng };

const NASTY = [
  '"',
  "\\",
  "/",
  ".",
  "..",
  "%",
  "%2e",
  "%2F",
  "#",
  "?",
  "&",
  "=",
  "*",
  ",",
  "_all",
  "-",
  "+",
  " ",
  "\n",
  "\r",
  "\t",
  "\u0000",
  "\u001f",
  "\u2028",
  "\ud800",
  "\udfff",
  "{?}",
  "?",
  "#{x}",
  "${x}",
  "@{and, x}",
  "}",
  "{",
  "[",
  "]",
  ":",
  "'",
  "`",
  "<",
  ">",
  "|",
  ";",
  "é",
  "😀",
  "null",
  "true",
  "//",
  "/*",
  "*/",
  "\\u0022",
  "%00",
  "%25",
];

function nastyString(r: () => number): string {
  const n = Math.floor(r() * 6);
  let s = "";
  for (let k = 0; k < n; k++) {
    s += r() < 0.6 ? NASTY[Math.floor(r() * NASTY.length)] : String.fromCharCode(r() * 0x80 | 0);
  }
  if (r() < 0.01) s += "x".repeat(Math.floor(r() * 20_000));
  return s;
}

/** A random value: every JSON type, nested, plus values with no JSON form. */
export function randomValue(r: () => number, depth = 0): unknown {
  const pick = r();
  if (pick < 0.45) return nastyString(r);
  if (pick < 0.55) {
    const nums = [0, -0, 1, -1, 1.5, 1e308, -1e-308, 2 ** 53 + 1, NaN, Infinity, r() * 1e6];
    return nums[Math.floor(r() * nums.length)];
  }
  if (pick < 0.6) return r() < 0.5;
  if (pick < 0.64) return null;
  if (pick < 0.66) {
    const odd = [undefined, 12345678901234567890n, new Date(0), new Map([["k", 1]]), new Set([1])];
    return odd[Math.floor(r() * odd.length)];
  }
  if (depth > 3) return nastyString(r);
  if (pick < 0.83) {
    return Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth + 1));
  }
  const o: Record<string, unknown> = {};
  for (let k = Math.floor(r() * 4); k > 0; k--) o[nastyString(r)] = randomValue(r, depth + 1);
  return o;
}

/** The JSON a value should come back as, or undefined when it has no plain JSON form. */
function plainJson(value: unknown): unknown {
  try {
    const text = JSON.stringify(value, (_k, v) => {
      if (typeof v === "number" && !Number.isFinite(v)) throw new Error("not JSON");
      if (v === undefined || typeof v === "bigint" || v instanceof Map || v instanceof Set) {
        throw new Error("not plain");
      }
      return v;
    });
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean" || typeof value === "bigint") return String(value);
  return undefined;
}

function bindOne(text: string, value: unknown): BoundCommand {
  const [command] = bindScript(parseScript(text), [value]);
  return command!;
}

function segments(path: string): string[] {
  const pathname = new URL("http://h" + path).pathname;
  return pathname.split("/").slice(1);
}

type Check = (value: unknown) => void;

function pathCheck(bind: (v: unknown) => BoundCommand): Check {
  return (value) => {
    const c = bind(value);
    const segs = segments(c.path);
    assert.equal(segs.length, 3, `one segment: ${c.path}`);
    assert.deepEqual(segs.slice(0, 2), ["idx", "_doc"]);
    const text = scalarText(value);
    if (text !== undefined) assert.equal(decodeURIComponent(segs[2]!), text);
  };
}

function queryCheck(bind: (v: unknown) => BoundCommand): Check {
  return (value) => {
    const c = bind(value);
    const url = new URL("http://h" + c.path);
    assert.equal(url.pathname, "/idx/_search");
    assert.deepEqual([...url.searchParams.keys()], ["q", "size"]);
    assert.equal(url.searchParams.get("size"), "1");
    const text = scalarText(value);
    if (text !== undefined) assert.equal(url.searchParams.get("q"), text);
  };
}

function valueCheck(bind: (v: unknown) => BoundCommand): Check {
  return (value) => {
    const body = JSON.parse(bind(value).body!);
    assert.deepEqual(Object.keys(body), ["query", "size"]);
    assert.deepEqual(Object.keys(body.query.term), ["f"]);
    assert.equal(body.size, 1);
    const expected = plainJson(value);
    if (expected !== undefined) assert.deepEqual(body.query.term.f, expected);
  };
}

const tpl = (text: string) => (v: unknown) => {
  const b = bindTemplate(text, { v });
  return bindScript(parseScript(b.text), b.args)[0]!;
};

/** Every position a value can be bound in, with the structure check for it. */
export const POSITIONS: Record<string, Check> = {
  path: pathCheck((v) => bindOne("DELETE /idx/_doc/{?}", v)),
  index: (value) => {
    const c = bindOne("POST /{?}/_search", value);
    const segs = segments(c.path);
    assert.equal(segs.length, 2, `one segment: ${c.path}`);
    assert.equal(segs[1], "_search");
  },
  query: queryCheck((v) => bindOne("GET /idx/_search?q={?}&size=1", v)),
  value: valueCheck((v) =>
    bindOne('POST /idx/_search {"query": {"term": {"f": ?}}, "size": 1}', v)
  ),
  key: (value) => {
    const body = JSON.parse(
      bindOne('POST /i/_search {"aggs": {?: {"max": {"field": "f"}}}}', value).body!,
    );
    assert.deepEqual(Object.keys(body), ["aggs"]);
    assert.deepEqual(Object.keys(body.aggs), [value]);
    assert.deepEqual(body.aggs[value as string], { max: { field: "f" } });
  },
  element: (value) => {
    const body = JSON.parse(bindOne('POST /i/_search {"a": [1, ?, 3], "b": 2}', value).body!);
    assert.deepEqual(Object.keys(body), ["a", "b"]);
    assert.equal(body.a.length, 3);
    assert.equal(body.a[0], 1);
    assert.equal(body.a[2], 3);
    assert.equal(body.b, 2);
  },
  body: (value) => {
    const body = JSON.parse(bindOne("POST /i/_search ?", value).body!);
    assert.ok(body !== null && typeof body === "object");
    const expected = typeof value === "string" ? JSON.parse(value) : plainJson(value);
    if (expected !== undefined) assert.deepEqual(body, expected);
  },
  line: (value) => {
    const c = bindOne('POST /_bulk\n{"index": {"_index": "i"}}\n?\n', value);
    assert.ok(c.ndjson && c.body!.endsWith("\n"));
    const lines = c.body!.slice(0, -1).split("\n");
    assert.deepEqual(JSON.parse(lines[0]!), { index: { _index: "i" } });
    for (const line of lines) assert.equal(typeof JSON.parse(line), "object");
  },
  hint: (value) => {
    const c = bindOne(
      '/*+ overwrite_find_limit=? */ POST /i/_search {"query": {"match_all": {}}}',
      value,
    );
    const body = JSON.parse(c.body!);
    assert.deepEqual(Object.keys(body).sort(), ["query", "size"]);
    assert.deepEqual(body.query, { match_all: {} });
    assert.ok(Number.isSafeInteger(body.size) && body.size >= 0);
    assert.equal(c.path, "/i/_search");
  },
  templatePath: pathCheck(tpl("DELETE /idx/_doc/#{v}")),
  templateQuery: queryCheck(tpl("GET /idx/_search?q=#{v}&size=1")),
  templateValue: valueCheck(tpl('POST /idx/_search {"query": {"term": {"f": #{v}}}, "size": 1}')),
  taggedPath: pathCheck((v) => {
    const b = jdbc.command`DELETE /idx/_doc/${v}`.bound;
    return bindScript(parseScript(b.text), b.args)[0]!;
  }),
  taggedValue: valueCheck((v) => {
    const b = jdbc.command`POST /idx/_search {"query": {"term": {"f": ${v}}}, "size": 1}`.bound;
    return bindScript(parseScript(b.text), b.args)[0]!;
  }),
};

const NAMES = Object.keys(POSITIONS);

/**
 * Runs `cases` random (value, position) bindings from `seed`.
 *
 * @returns How many cases ran and how many were refused with a BindError.
 * @throws The first case whose binding changed the structure or threw anything but BindError,
 * with its seed and index so it can be replayed.
 */
export function runBindingProperty(
  cases: number,
  seed: number,
): { cases: number; refused: number } {
  const r = prng(seed);
  let refused = 0;
  for (let k = 0; k < cases; k++) {
    const value = randomValue(r);
    const name = NAMES[k % NAMES.length]!;
    try {
      POSITIONS[name]!(value);
    } catch (error) {
      if (error instanceof BindError) {
        refused++;
        continue;
      }
      let shown: string;
      try {
        shown = JSON.stringify(value)?.slice(0, 200) ?? String(value);
      } catch {
        shown = String(value);
      }
      throw new Error(
        `binding property failed: seed ${seed}, case ${k}, position ${name}, value ${shown}`,
        {
          cause: error,
        },
      );
    }
  }
  return { cases, refused };
}
