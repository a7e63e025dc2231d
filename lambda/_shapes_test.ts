import assert from "node:assert/strict";
import { compileCount, compileSearch, type SearchSpec } from "./compiler.ts";
import { type ConditionNode, type ConditionValue, node } from "./nodes.ts";
import { countShape, searchShape } from "./_shapes.ts";

function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random searches over a few fields (names that look like key tokens among them). */
function searches(seed: number) {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const FIELDS = ["a", "b", "a.b", "1:a", "c,", "(x)", "ab"];
  const VALUES: ConditionValue[] = ["x", "y*?\\", 1, 2n, true, null, '"}]'];
  const value = () => pick(VALUES);
  function leaf(): ConditionNode {
    const field = pick(FIELDS);
    const negated = rand() < 0.5;
    switch (pick(["compare", "in", "between", "exists", "like", "match"] as const)) {
      case "compare":
        return node({
          kind: "compare",
          op: pick(["eq", "ne", "gt", "ge", "lt", "le"]),
          field,
          value: value(),
        });
      case "in":
        return node({ kind: "in", field, values: Object.freeze([value(), value()]), negated });
      case "between":
        return node({ kind: "between", field, low: value(), high: value(), negated });
      case "exists":
        return node({ kind: "exists", field, negated });
      case "like":
        return node({
          kind: "like",
          field,
          mode: pick(["contains", "prefix", "suffix"]),
          text: pick(["x", "a*b?", "\\"]),
          negated,
        });
      case "match":
        return node({ kind: "match", field, text: pick(["x", "y z"]), phrase: rand() < 0.5 });
    }
  }
  function tree(depth: number): ConditionNode {
    const r = rand();
    if (depth === 0 || r < 0.4) return leaf();
    if (r < 0.55) return node({ kind: "not", item: tree(depth - 1) });
    const items = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => tree(depth - 1));
    return node({ kind: rand() < 0.5 ? "and" : "or", items: Object.freeze(items) });
  }
  return (): SearchSpec => ({
    index: pick(["u", "v"]),
    where: rand() < 0.1 ? null : tree(3),
    ...(rand() < 0.3 ? { source: FIELDS.filter(() => rand() < 0.4) } : {}),
    sort: FIELDS.filter(() => rand() < 0.2).map((field) => ({
      field,
      order: pick(["asc", "desc"] as const),
    })),
    ...(rand() < 0.2 ? { versions: pick(["seq_no", "external"] as const) } : {}),
    ...(rand() < 0.5 ? { from: pick([0, 5, 20]) } : {}),
    size: pick([2, 10, 10_000]),
  });
}

Deno.test("a search's shape binds what the compiler binds, in its order", () => {
  const next = searches(27);
  for (let i = 0; i < 3000; i++) {
    const spec = next();
    const compiled = compileSearch(spec);
    const shape = searchShape(spec);
    assert.ok(shape !== undefined);
    assert.deepEqual(shape.args, compiled.args, `search ${i}`);
    const count = compileCount(spec.index, spec.where);
    assert.deepEqual(countShape(spec.index, spec.where)?.args, count.args, `count ${i}`);
  }
});

Deno.test("searches of one shape key have one text: no two structures share a key", () => {
  const next = searches(72);
  const texts = new Map<string, string>();
  let shared = 0;
  for (let i = 0; i < 5000; i++) {
    const spec = next();
    const search = { key: searchShape(spec)!.key, text: compileSearch(spec).text };
    const count = {
      key: countShape(spec.index, spec.where)!.key,
      text: compileCount(spec.index, spec.where).text,
    };
    for (const { key, text } of [search, count]) {
      const known = texts.get(key);
      if (known === undefined) texts.set(key, text);
      else {
        shared++;
        assert.equal(text, known, key);
      }
    }
  }
  assert.ok(shared > 100, `only ${shared} searches shared a shape`);
});

Deno.test("a vector condition is left to the compiler", () => {
  const where = node({
    kind: "vector",
    metric: "l2",
    field: "v",
    vector: Object.freeze([1, 2]),
    threshold: 1,
  });
  const spec: SearchSpec = {
    index: "u",
    where: node({ kind: "not", item: where }),
    sort: [],
    size: 10,
  };
  assert.equal(searchShape(spec), undefined);
  assert.equal(countShape("u", spec.where), undefined);
});
