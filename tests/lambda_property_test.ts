// Property test: random condition trees (every exact operator, or()/and()/or(g)/not(g) nested)
// over random documents. The engine's answer to the compiled query must equal a plain JavaScript
// filter written independently from the same random choices. Seeded; the seed is in the message.
import assert from "node:assert/strict";
import { backendTest, suiteIndex } from "./support/backend.ts";
import { JdbcTemplate } from "../template/mod.ts";
import { type Conditions, type Doc, LambdaTemplate } from "../lambda/mod.ts";

const TREES = 400;
const DOCS = 60;

function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ["a", "ab", "abc", "a*b", "a?b", "b\\c", "B", "ba", "*", "?x", "c%d"];
const DATES = ["2020-01-01T00:00:00.000Z", "2021-06-15T12:00:00.000Z", "2022-12-31T23:59:59.000Z"];

type Q = Conditions<Doc>;
interface Gen {
  apply(q: Q): Q;
  test(doc: Doc): boolean;
  text: string;
}

function generator(rand: () => number) {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const present = (d: Doc, f: string) => d[f] !== undefined && d[f] !== null;
  const cmp = (a: unknown, b: unknown) =>
    (a as number | string) < (b as number | string) ? -1 : a === b ? 0 : 1;

  function value(field: string): number | string | boolean | Date {
    switch (field) {
      case "n":
        return Math.floor(rand() * 7) - 1;
      case "b":
        return rand() < 0.5;
      case "d":
        return new Date(pick(DATES));
      default:
        return pick(WORDS);
    }
  }
  const norm = (v: unknown) => v instanceof Date ? v.toISOString() : v;

  function leaf(): Gen {
    const field = pick(["k", "t", "n", "b", "d"]);
    const v = value(field);
    const nv = norm(v);
    const orderable = field !== "b";
    const ops = ["eq", "ne", "in", "notIn", "isNull", "isNotNull", "eqNull", "neNull"];
    if (orderable) ops.push("gt", "ge", "lt", "le", "between", "notBetween");
    if (field === "k" || field === "t") {
      ops.push("like", "notLike", "likeRight", "likeLeft", "notLikeRight", "notLikeLeft");
    }
    const op = pick(ops);
    const has = (d: Doc) => present(d, field);
    const x = (d: Doc) => d[field];
    switch (op) {
      case "eq":
        return {
          text: `eq(${field},${nv})`,
          apply: (q) => q.eq(field, v),
          test: (d) => has(d) && x(d) === nv,
        };
      case "ne":
        return {
          text: `ne(${field},${nv})`,
          apply: (q) => q.ne(field, v),
          test: (d) => !(has(d) && x(d) === nv),
        };
      case "eqNull":
        return { text: `eq(${field},null)`, apply: (q) => q.eq(field, null), test: (d) => !has(d) };
      case "neNull":
        return { text: `ne(${field},null)`, apply: (q) => q.ne(field, null), test: (d) => has(d) };
      case "isNull":
        return { text: `isNull(${field})`, apply: (q) => q.isNull(field), test: (d) => !has(d) };
      case "isNotNull":
        return {
          text: `isNotNull(${field})`,
          apply: (q) => q.isNotNull(field),
          test: (d) => has(d),
        };
      case "in":
      case "notIn": {
        const vs = Array.from({ length: Math.floor(rand() * 3) }, () => value(field));
        const set = vs.map(norm);
        const inSet = (d: Doc) => has(d) && set.includes(x(d));
        return op === "in"
          ? { text: `in(${field},${set})`, apply: (q) => q.in(field, vs), test: inSet }
          : {
            text: `notIn(${field},${set})`,
            apply: (q) => q.notIn(field, vs),
            test: (d) => !inSet(d),
          };
      }
      case "gt":
      case "ge":
      case "lt":
      case "le": {
        const ok = {
          gt: (c: number) => c > 0,
          ge: (c: number) => c >= 0,
          lt: (c: number) => c < 0,
          le: (c: number) => c <= 0,
        }[op];
        return {
          text: `${op}(${field},${nv})`,
          apply: (q) => q[op](field, v),
          test: (d) => has(d) && ok(cmp(x(d), nv)),
        };
      }
      case "between":
      case "notBetween": {
        const w = value(field);
        const [lo, hi] = cmp(nv, norm(w)) <= 0 ? [v, w] : [w, v];
        const inside = (d: Doc) => has(d) && cmp(x(d), norm(lo)) >= 0 && cmp(x(d), norm(hi)) <= 0;
        return op === "between"
          ? {
            text: `between(${field},${norm(lo)},${norm(hi)})`,
            apply: (q) => q.between(field, lo, hi),
            test: inside,
          }
          : {
            text: `notBetween(${field},${norm(lo)},${norm(hi)})`,
            apply: (q) => q.notBetween(field, lo, hi),
            test: (d) => !inside(d),
          };
      }
      default: {
        // like family: the text part is literal (its * ? \ % included, except % anchors of like()).
        const s = String(v).replace(/^%+|%+$/g, "") || "a";
        const mode = pick(["prefix", "suffix", "contains"] as const);
        const matches = (d: Doc) => {
          if (!has(d)) return false;
          const t = String(x(d));
          return mode === "prefix"
            ? t.startsWith(s)
            : mode === "suffix"
            ? t.endsWith(s)
            : t.includes(s);
        };
        const negated = op.startsWith("not");
        const test = negated ? (d: Doc) => !matches(d) : matches;
        const flip = rand() < 0.5;
        const pattern = mode === "prefix" ? `${s}%` : mode === "suffix" ? `%${s}` : `%${s}%`;
        const apply = (q: Q) =>
          negated
            ? mode === "prefix" && flip ? q.notLikeRight(field, s) : q.notLike(field, pattern)
            : mode === "prefix"
            ? q.likeRight(field, s)
            : mode === "suffix"
            ? q.likeLeft(field, s)
            : q.like(field, pattern);
        return { text: `${negated ? "not" : ""}like(${field},${pattern})`, apply, test };
      }
    }
  }

  function tree(depth: number): Gen {
    const clauses: Gen[][] = Array.from(
      { length: 1 + Math.floor(rand() * (depth > 0 ? 3 : 2)) },
      () =>
        Array.from({ length: Math.floor(rand() * 3) }, () => {
          const r = rand();
          if (depth > 0 && r < 0.2) {
            const inner = tree(depth - 1);
            return {
              text: inner.text && `and(${inner.text})`,
              apply: (q: Q) => q.and((g) => inner.apply(g)),
              test: inner.test,
            };
          }
          if (depth > 0 && r < 0.35) {
            const inner = tree(depth - 1);
            return {
              text: inner.text && `not(${inner.text})`,
              apply: (q: Q) => q.not((g) => inner.apply(g)),
              // An empty group adds nothing: not() of nothing is no condition.
              test: (d: Doc) => inner.text === "" || !inner.test(d),
            };
          }
          return leaf();
        }),
    );
    const nonEmpty = clauses.filter((c) => c.some((g) => g.text !== ""));
    const text = nonEmpty.map((c) => c.map((g) => g.text).filter(Boolean).join(" AND ")).join(
      " OR ",
    );
    return {
      text,
      apply: (q) => {
        clauses.forEach((clause, i) => {
          if (i > 0) q = q.or();
          for (const g of clause) q = g.apply(q);
        });
        return q;
      },
      // A clause whose items are all empty groups adds no alternative; no clause = everything.
      test: (d) => nonEmpty.length === 0 || nonEmpty.some((c) => c.every((g) => g.test(d))),
    };
  }

  function doc(i: number): Doc {
    const d: Doc = { _id: String(i) };
    for (const f of ["k", "t", "n", "b", "d"]) {
      const r = rand();
      if (r < 0.15) continue; // missing
      d[f] = r < 0.25 ? null : norm(value(f));
    }
    return d;
  }
  return { tree, doc };
}

const PROP = suiteIndex("prop");

backendTest(
  `property: ${TREES} random condition trees × ${DOCS} random documents: engine = JS filter`,
  async (t) => {
    const seed = Number(Deno.env.get("LAMBDA_SEED") ?? Date.now() % 1_000_000);
    const rand = prng(seed);
    const gen = generator(rand);
    const ds = t.dataSource();
    await new JdbcTemplate(ds).execute(`PUT /${PROP} {"mappings": {"properties": {
    "k": {"type": "keyword"}, "t": {"type": "text", "fields": {"keyword": {"type": "keyword"}}},
    "n": {"type": "integer"}, "b": {"type": "boolean"}, "d": {"type": "date"}}}}`);
    const lambda = new LambdaTemplate(ds);
    const docs = Array.from({ length: DOCS }, (_, i) => gen.doc(i));
    assert.equal(await lambda.insert(PROP).applyMap(docs).executeSumResult(), DOCS);
    let nonTrivial = 0;
    for (let i = 0; i < TREES; i++) {
      const g = gen.tree(3);
      const q = g.apply(lambda.query(PROP)) as ReturnType<typeof lambda.query>;
      const expected = docs.filter(g.test).map((d) => d._id as string).sort();
      const actual = (await q.queryForList()).map((d) => d._id as string).sort();
      if (expected.length > 0 && expected.length < DOCS) nonTrivial++;
      assert.deepEqual(
        actual,
        expected,
        `seed ${seed}, tree ${i}: ${g.text}\n${q.toCommand().text}`,
      );
      // Where `exists` on the text field miscounts (a server defect: tests/README.md), a tree
      // that asks it has its hits compared above but not its count.
      if (t.info.capabilities.has("exists-count") || !/Null\(t\)|\(t,null\)/.test(g.text)) {
        assert.equal(await q.queryForCount(), expected.length, `count, seed ${seed}, tree ${i}`);
      }
    }
    assert.ok(
      nonTrivial > TREES / 3,
      `only ${nonTrivial} trees split the documents (seed ${seed})`,
    );
  },
);
