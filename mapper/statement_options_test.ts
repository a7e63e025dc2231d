import assert from "node:assert/strict";
import {
  defaultReturns,
  RETURNS,
  type ShapeCheck,
  type ShapeFits,
  type StatementKind,
  statementText,
} from "./statement_options.ts";

Deno.test("defaultReturns: queries are lists, execute statements results, writes counts", () => {
  const kinds: StatementKind[] = ["query", "insert", "update", "delete", "execute"];
  assert.deepEqual(kinds.map(defaultReturns), ["list", "number", "number", "number", "results"]);
  for (const kind of kinds) assert.ok(RETURNS.includes(defaultReturns(kind)), kind);
});

Deno.test("RETURNS holds every shape once", () => {
  assert.equal(new Set(RETURNS).size, RETURNS.length);
  assert.deepEqual([...RETURNS].sort(), [
    "boolean",
    "list",
    "number",
    "one",
    "page",
    "results",
    "value",
    "void",
  ]);
});

Deno.test("statementText: a text stays as written; parts join with newlines, none lost", () => {
  assert.equal(statementText("GET /a/_search"), "GET /a/_search");
  assert.equal(
    statementText(['POST /a/_search {"query":', '{"match_all": {}}}']),
    'POST /a/_search {"query":\n{"match_all": {}}}',
  );
  assert.equal(statementText([]), "");
});

Deno.test("ShapeFits and ShapeCheck: a declared result type fits its shape or does not compile", () => {
  const fits: [
    ShapeFits<string[], "list">,
    ShapeFits<{ a: 1 } | null, "one">,
    ShapeFits<number | null, "number">,
    ShapeFits<boolean, "boolean">,
  ] = [true, true, true, true];
  assert.deepEqual(fits, [true, true, true, true]);
  const misfits: [
    ShapeFits<string, "list">,
    ShapeFits<string[], "one">,
    ShapeFits<string, "number">,
    ShapeFits<{ items: string[] }, "page">,
  ] = [false, false, false, false];
  assert.deepEqual(misfits, [false, false, false, false]);
  // A method declared with a fitting result needs no extra member; a misfit needs an impossible one.
  const method = (): Promise<string[]> => Promise.resolve(["a"]);
  const ok: typeof method & ShapeCheck<typeof method, "list"> = method;
  assert.equal(ok, method);
  const single = (): Promise<string> => Promise.resolve("a");
  // @ts-expect-error: a Promise<string> is not a list
  const bad: typeof single & ShapeCheck<typeof single, "list"> = single;
  assert.equal(bad, single);
});
