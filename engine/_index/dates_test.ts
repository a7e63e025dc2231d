import assert from "node:assert/strict";
import { evalDateMath, formatDate, parseDate } from "./dates.ts";

Deno.test("parseDate reads ISO dates, date-times and epoch millis", () => {
  assert.equal(parseDate("2020-01-02"), Date.UTC(2020, 0, 2));
  assert.equal(parseDate("2020-01-02T03:04:05"), Date.UTC(2020, 0, 2, 3, 4, 5));
  assert.equal(parseDate("2020-01-02T03:04:05+01:00"), Date.UTC(2020, 0, 2, 2, 4, 5));
  assert.equal(parseDate("2020/01/02 03:04:05"), Date.UTC(2020, 0, 2, 3, 4, 5));
  assert.equal(parseDate(1577836800000), 1577836800000);
  assert.equal(parseDate("1577836800000"), 1577836800000);
  assert.ok(Number.isNaN(parseDate("not a date")));
});

Deno.test("evalDateMath handles now, offsets and rounding", () => {
  const now = Date.UTC(2024, 4, 15, 13, 30);
  assert.equal(evalDateMath("now", now), now);
  assert.equal(evalDateMath("now-1d/d", now), Date.UTC(2024, 4, 14));
  assert.equal(evalDateMath("now-1d/d", now, {}, "up"), Date.UTC(2024, 4, 15) - 1);
  assert.equal(evalDateMath("now+1M", now), Date.UTC(2024, 5, 15, 13, 30));
  assert.equal(evalDateMath("2020-01-01||+1y/M", now), Date.UTC(2021, 0, 1));
  assert.ok(Number.isNaN(evalDateMath("now+x", now)));
});

Deno.test("formatDate prints ISO UTC", () => {
  assert.equal(formatDate(0), "1970-01-01T00:00:00.000Z");
});

Deno.test("parseDate honours custom patterns from the mapping or query", () => {
  assert.equal(parseDate("21/10/2019", "dd/MM/yyyy"), Date.UTC(2019, 9, 21));
  assert.equal(
    parseDate("2019-10-21 08:30:04.828", "yyyy-MM-dd HH:mm:ss.SSS"),
    Date.UTC(2019, 9, 21, 8, 30, 4, 828),
  );
  assert.equal(
    parseDate("10/21/2019 08:30", "MM/dd/yyyy HH:mm||epoch_millis"),
    Date.UTC(2019, 9, 21, 8, 30),
  );
  assert.equal(parseDate("1571646604828", "MM/dd/yyyy||epoch_millis"), 1571646604828);
  assert.equal(
    parseDate("2019-10-21T08:30:00+02:00", "yyyy-MM-dd'T'HH:mm:ssXXX"),
    Date.UTC(2019, 9, 21, 6, 30),
  );
});

Deno.test("full ISO UTC dates read by the fast path agree with the general parser", () => {
  for (
    const text of [
      "2024-02-29T23:59:59.999Z",
      "2024-12-31T00:00:00Z",
      "1999-01-01T12:30:45.120Z",
      "0099-06-01T00:00:00Z",
      "2000-02-29T00:00:00.000Z",
      // Impossible dates are left to the general parser, which rolls or rejects them.
      "2023-02-29T00:00:00Z",
      "2024-04-31T00:00:00.000Z",
      "2024-13-01T00:00:00Z",
      "2024-01-01T24:00:00Z",
      "2024-01-01T00:60:00Z",
      "2024-01-0xT00:00:00Z",
    ]
  ) assert.ok(Object.is(parseDate(text), Date.parse(text)), text);
  assert.equal(parseDate("2024-02-29T23:59:59.999Z"), Date.UTC(2024, 1, 29, 23, 59, 59, 999));
});

Deno.test("parseDate: four digits under an epoch format are seconds or millis, not a year", () => {
  assert.equal(parseDate("1000", "epoch_second"), 1_000_000);
  assert.equal(parseDate("1000", "epoch_millis"), 1000);
  assert.equal(parseDate("1000"), Date.UTC(1000, 0, 1));
});

Deno.test("parseDate: a number under epoch_second is seconds", () => {
  assert.equal(parseDate(1000, "epoch_second"), 1_000_000);
  assert.equal(parseDate(1000, "strict_date_optional_time||epoch_millis"), 1000);
  assert.equal(parseDate(1.5, "epoch_second"), 1500);
});

Deno.test("a format of custom patterns and epoch formats reads nothing else", () => {
  // Real OpenSearch 3.8.0 and Elasticsearch 9.5.4, a `date` field with `format: yyyy-MM-dd`:
  // `range` `gte: "2024-01-01T00:00:00Z"` (also `2024-01`, `2024-1-1`, `946684800000` as text)
  // answers 400 `failed to parse date field [2024-01-01T00:00:00Z] with format [yyyy-MM-dd]`, and
  // indexing that text is a parse error; `format: epoch_millis` refuses "2024-01-01" the same way
  // and reads "1600000000000".
  for (const text of ["2024-01-01T00:00:00Z", "2024-01", "2024-1-1", "946684800000"]) {
    assert.ok(Number.isNaN(parseDate(text, "yyyy-MM-dd")), text);
  }
  assert.equal(parseDate("2024-01-01", "yyyy-MM-dd"), Date.UTC(2024, 0, 1));
  assert.ok(Number.isNaN(parseDate("2024-01-01", "epoch_millis")));
  assert.equal(parseDate("1600000000000", "epoch_millis"), 1600000000000);
  assert.equal(parseDate("1600000000", "yyyy-MM-dd||epoch_second"), 1600000000000);
  // A built-in name among the alternatives still reads ISO text.
  assert.equal(
    parseDate("2024-01-01T00:00:00Z", "yyyy-MM-dd||strict_date_optional_time"),
    Date.UTC(2024, 0, 1),
  );
});
