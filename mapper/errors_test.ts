import assert from "node:assert/strict";
import { BindError, ResponseError } from "../driver/mod.ts";
import { describeSite, inStatement, MapperError, OptimisticLockError } from "./errors.ts";

Deno.test("sites read as Class.method [statement id], without repeating an equal id", () => {
  assert.equal(
    describeSite({ mapper: "M", method: "m", statementId: "ns.m" }),
    "M.m [statement ns.m]",
  );
  assert.equal(describeSite({ mapper: "M", method: "m", statementId: "M.m" }), "M.m");
  assert.equal(describeSite({ statementId: "ns.m" }), "statement ns.m");
  assert.equal(describeSite({}), "mapper");
});

Deno.test("inStatement prefixes once and keeps class, code, cause and stack", () => {
  const cause = new Error("root");
  const error = new ResponseError(404, { error: { type: "x", reason: "gone" } }, { cause });
  const site = { mapper: "M", method: "m", statementId: "ns.m" };
  assert.equal(inStatement(error, site), error);
  assert.equal(inStatement(error, site), error);
  assert.match(error.message, /^M\.m \[statement ns\.m\]: HTTP 404 x: gone/);
  assert.equal(error.message.split("M.m").length, 2, "prefixed once");
  assert.equal(error.cause, cause);
  assert.match(error.stack ?? "", /M\.m \[statement ns\.m\]/);
  const bind = new BindError('Cannot bind named argument "x"', { name: "x" });
  inStatement(bind, site);
  assert.equal(bind.argumentName, "x");
  const own = new MapperError("bad", site);
  assert.equal(inStatement(own, { mapper: "Other" }), own);
  assert.equal(own.message, "M.m [statement ns.m]: bad");
  const lock = new OptimisticLockError("i", "1", "update");
  const before = lock.message;
  inStatement(lock, site);
  assert.equal(lock.message, before);
  assert.equal(inStatement("text", site), "text");
});
