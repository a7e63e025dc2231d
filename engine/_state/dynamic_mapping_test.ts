import assert from "node:assert/strict";
import { dynamicMappingFor, looksLikeDate, mapDocument } from "./dynamic_mapping.ts";
import type { Mappings } from "../_index/types.ts";

Deno.test("date detection accepts Elasticsearch's default formats only", () => {
  for (
    const s of [
      "2024-01-31",
      "2024-01-31T10:00:00Z",
      "2024-01-31T10:00:00.123+02:00",
      "2024/01/31",
      "2024/01/31 10:11:12",
    ]
  ) {
    assert.ok(looksLikeDate(s), s);
  }
  for (const s of ["2024-13-01", "31-01-2024", "hello", "2024-01-31 10:00"]) {
    assert.ok(!looksLikeDate(s), s);
  }
});

Deno.test("dynamic mapping of values", () => {
  assert.deepEqual(dynamicMappingFor(1, { dateDetection: true }), { type: "long" });
  assert.deepEqual(dynamicMappingFor(1.5, { dateDetection: true }), { type: "float" });
  assert.deepEqual(dynamicMappingFor([null, "2024-01-01"], { dateDetection: true }), {
    type: "date",
  });
  assert.deepEqual(dynamicMappingFor("2024-01-01", { dateDetection: false })?.type, "text");
  assert.equal(dynamicMappingFor([], { dateDetection: true }), undefined);
  assert.deepEqual(dynamicMappingFor({ "a.b": 1 }, { dateDetection: true }), {
    properties: { a: { properties: { b: { type: "long" } } } },
  });
});

Deno.test("mapDocument returns the same object when nothing is new, and respects dynamic:false", () => {
  const mappings: Mappings = { properties: { a: { type: "long" } } };
  assert.equal(
    mapDocument(mappings, { a: 1 }, "1", { errorType: "document_parsing_exception" }),
    mappings,
  );
  const off = { dynamic: false, properties: {} };
  assert.equal(mapDocument(off, { b: "x" }, "1", { errorType: "document_parsing_exception" }), off);
  const next = mapDocument(mappings, { o: { p: true } }, "1", {
    errorType: "document_parsing_exception",
  });
  assert.deepEqual(next.properties?.o, { properties: { p: { type: "boolean" } } });
  assert.equal(mappings.properties?.o, undefined);
});

Deno.test("values that do not fit the mapped type fail with the flavour's exception", () => {
  const mappings = {
    properties: { n: { type: "long" }, o: { properties: { x: { type: "keyword" } } } },
  };
  assert.throws(
    () => mapDocument(mappings, { n: "abc" }, "7", { errorType: "mapper_parsing_exception" }),
    (e: Error & { type?: string }) =>
      e.type === "mapper_parsing_exception" && /document with id '7'/.test(e.message),
  );
  assert.throws(
    () => mapDocument(mappings, { o: 1 }, "1", { errorType: "document_parsing_exception" }),
    /tried to parse field \[o\] as object/,
  );
  assert.throws(
    () =>
      mapDocument({ dynamic: "strict" }, { z: 1 }, "1", {
        errorType: "document_parsing_exception",
      }),
    /dynamic introduction of \[z\] within \[_doc\] is not allowed/,
  );
});

Deno.test("numeric detection and the total fields limit", () => {
  const numeric = mapDocument(
    { numeric_detection: true },
    { a: "12", b: "1.5", c: "x" },
    "1",
    { errorType: "document_parsing_exception" },
  );
  assert.equal(numeric.properties?.a?.type, "long");
  assert.equal(numeric.properties?.b?.type, "float");
  assert.equal(numeric.properties?.c?.type, "text");
  const wide = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`f${i}`, 1]));
  assert.throws(
    () => mapDocument({}, wide, "1", { errorType: "document_parsing_exception", fieldLimit: 5 }),
    /Limit of total fields \[5\] has been exceeded while adding new fields \[6\]/,
  );
});

Deno.test("metadata fields cannot be indexed inside a document", () => {
  assert.throws(
    () => mapDocument({}, { _id: "1" }, "1", { errorType: "document_parsing_exception" }),
    /Field \[_id\] is a metadata field and cannot be added inside a document/,
  );
});

Deno.test("mapped leaf values are checked with their full paths, and odd names anywhere refused", () => {
  const mappings: Mappings = {
    properties: {
      n: { type: "integer" },
      d: { type: "date" },
      b: { type: "boolean" },
      k: { type: "keyword" },
      o: { properties: { n: { type: "long" } } },
    },
  };
  const rules = { errorType: "document_parsing_exception" as const };
  const fine = { n: 3, d: "2024-05-01T10:00:00.000Z", b: true, k: "x", o: { n: "12" } };
  assert.equal(mapDocument(mappings, fine, "1", rules), mappings);
  const failure = (source: Record<string, unknown>) => {
    try {
      mapDocument(mappings, source, "9", rules);
    } catch (e) {
      return (e as Error).message;
    }
    return "accepted";
  };
  assert.match(failure({ n: "x" }), /failed to parse field \[n\] of type \[integer\]/);
  assert.match(failure({ o: { n: "x" } }), /failed to parse field \[o\.n\] of type \[long\]/);
  assert.match(failure({ d: "not a date" }), /failed to parse field \[d\] of type \[date\]/);
  assert.match(failure({ b: "yes" }), /failed to parse field \[b\] of type \[boolean\]/);
  assert.match(failure({ k: { a: 1 } }), /failed to parse field \[k\] of type \[keyword\]/);
  assert.match(failure({ k: "x".repeat(40_000) }), /failed to parse field \[k\]/);
  assert.match(failure({ o: { "a..b": 1 } }), /failed to parse/);
  assert.match(failure({ o: [{ ".x": 1 }] }), /failed to parse/);
  assert.match(failure({ " ": 1 }), /Field name cannot contain only whitespace/);
  assert.match(failure({ _id: "1" }), /is a metadata field/);
  assert.equal(failure({ "x.": 1, é: 2 }), "accepted");
});
