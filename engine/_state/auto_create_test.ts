import assert from "node:assert/strict";
import { autoCreateRefusal, parseAutoCreate } from "./auto_create.ts";

Deno.test("auto_create_index: unset and true allow every name, false refuses every name", () => {
  assert.equal(autoCreateRefusal(parseAutoCreate(undefined), "a"), undefined);
  assert.equal(autoCreateRefusal(parseAutoCreate("true"), "a"), undefined);
  assert.equal(autoCreateRefusal(parseAutoCreate(true), "a"), undefined);
  assert.equal(
    autoCreateRefusal(parseAutoCreate(false), "a"),
    "no such index [a] and [action.auto_create_index] is [false]",
  );
});

Deno.test("auto_create_index: the first matching pattern decides; no match refuses", () => {
  const rule = parseAutoCreate("-logs-old*, logs-*,+metrics");
  assert.equal(autoCreateRefusal(rule, "logs-1"), undefined);
  assert.equal(autoCreateRefusal(rule, "metrics"), undefined);
  assert.equal(
    autoCreateRefusal(rule, "logs-old-1"),
    "no such index [logs-old-1] and [action.auto_create_index] contains [-logs-old*] which forbids automatic creation of the index",
  );
  assert.equal(
    autoCreateRefusal(rule, "metrics-2"),
    "no such index [metrics-2] and [action.auto_create_index] ([-logs-old*, logs-*,+metrics]) doesn't match",
  );
  // Order matters: an allow before a forbid wins.
  assert.equal(autoCreateRefusal(parseAutoCreate("+logs-*,-logs-old*"), "logs-old-1"), undefined);
});

Deno.test("auto_create_index: empty patterns and a bare sign are refused", () => {
  assert.throws(() => parseAutoCreate("a,,b"), /Can't parse \[a,,b\] .* comma separated list/);
  assert.throws(() => parseAutoCreate("a,+"), /must contain an index name after \[\+\]/);
  assert.throws(() => parseAutoCreate("-"), /must contain an index name after \[-\]/);
});
