import assert from "node:assert/strict";
import { fromLocal, offsetText, parseTimeZone, toLocal } from "./time_zones.ts";
import { evalDateMath, formatDateAt, parseDate } from "./dates.ts";

const H = 3_600_000;

Deno.test("time zones: fixed offsets in Java's spellings, UTC/GMT prefixes", () => {
  for (
    const [id, ms] of [
      ["Z", 0],
      ["+01:00", H],
      ["-05:30", -5.5 * H],
      ["+0100", H],
      ["+1", H],
      ["-08", -8 * H],
      ["UTC", 0],
      ["GMT+02:00", 2 * H],
      ["UTC-3", -3 * H],
    ] as const
  ) {
    const zone = parseTimeZone(id);
    assert.equal(zone.fixed, true, id);
    assert.equal(zone.offsetAt(Date.UTC(2024, 6, 1)), ms, id);
  }
});

Deno.test("time zones: region names follow daylight saving", () => {
  const paris = parseTimeZone("Europe/Paris");
  assert.equal(paris.offsetAt(Date.UTC(2024, 0, 15)), H);
  assert.equal(paris.offsetAt(Date.UTC(2024, 6, 15)), 2 * H);
  // Clocks went forward at 01:00 UTC on 31 March 2024.
  assert.equal(paris.offsetAt(Date.UTC(2024, 2, 31, 0, 59)), H);
  assert.equal(paris.offsetAt(Date.UTC(2024, 2, 31, 1, 0)), 2 * H);
  const ny = parseTimeZone("America/New_York");
  assert.equal(ny.offsetAt(Date.UTC(2024, 0, 15)), -5 * H);
  assert.equal(ny.offsetAt(Date.UTC(2024, 6, 15)), -4 * H);
});

Deno.test("time zones: local times in gaps move later, in overlaps take the earlier instant", () => {
  const paris = parseTimeZone("Europe/Paris");
  // 02:30 on 31 March 2024 does not exist in Paris: Java reads it as 03:30+02:00.
  assert.equal(fromLocal(paris, Date.UTC(2024, 2, 31, 2, 30)), Date.UTC(2024, 2, 31, 1, 30));
  // 02:30 on 27 October 2024 happens twice: the first (+02:00) wins.
  assert.equal(fromLocal(paris, Date.UTC(2024, 9, 27, 2, 30)), Date.UTC(2024, 9, 27, 0, 30));
  const t = Date.UTC(2024, 6, 1, 12);
  assert.equal(fromLocal(paris, toLocal(paris, t)), t);
  assert.equal(offsetText(2 * H), "+02:00");
  assert.equal(offsetText(-5.5 * H), "-05:30");
  assert.equal(offsetText(0), "Z");
});

Deno.test("time zones: unknown and malformed ids fail as Elasticsearch does", () => {
  const fails = (id: string, type: string, reason: string) =>
    assert.throws(() => parseTimeZone(id), (e: Error & { type?: string }) => {
      assert.equal(e.type, type);
      assert.equal(e.message, reason);
      return true;
    });
  fails("Mars/Olympus", "zone_rules_exception", "Unknown time-zone ID: Mars/Olympus");
  fails("+25:00", "date_time_exception", "Invalid ID for ZoneOffset, invalid format: +25:00");
  fails(
    "1 hour",
    "date_time_exception",
    "Invalid ID for region-based ZoneId, invalid format: 1 hour",
  );
});

Deno.test("dates in a zone: local dates, rounding on the local clock, formatting with the offset", () => {
  const paris = parseTimeZone("Europe/Paris");
  assert.equal(parseDate("2024-07-01T10:00:00", undefined, paris), Date.UTC(2024, 6, 1, 8));
  assert.equal(parseDate("2024-07-01T10:00:00Z", undefined, paris), Date.UTC(2024, 6, 1, 10));
  assert.equal(parseDate("2024-01-01", undefined, paris), Date.UTC(2023, 11, 31, 23));
  const now = Date.UTC(2024, 6, 1, 23, 30); // 01:30 on 2 July in Paris
  assert.equal(evalDateMath("now/d", now, { zone: paris }), Date.UTC(2024, 6, 1, 22));
  assert.equal(evalDateMath("now/d", now, { zone: paris }, "up"), Date.UTC(2024, 6, 2, 22) - 1);
  // A day after local midnight of 31 March is local midnight again, 23 hours later.
  assert.equal(
    evalDateMath("2024-03-31||+1d", 0, { zone: paris }),
    Date.UTC(2024, 2, 31, 22),
  );
  assert.equal(evalDateMath("2024-03-31", 0, { zone: paris }), Date.UTC(2024, 2, 30, 23));
  assert.equal(
    formatDateAt(Date.UTC(2024, 6, 1, 8), { zone: paris }),
    "2024-07-01T10:00:00.000+02:00",
  );
});

Deno.test("date patterns: offset letters parse and print the zone's offset", async () => {
  const { formatWithPattern, parseWithPattern } = await import("./date_format.ts");
  const at = Date.UTC(2021, 7, 11, 22);
  const nanos = "uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSSZZZZZ";
  assert.equal(parseWithPattern("2021-08-12T00:00:00.000000000+02:00", nanos), at);
  assert.equal(formatWithPattern(at, nanos), "2021-08-11T22:00:00.000000000Z");
  assert.equal(formatWithPattern(at, nanos, -4 * H), "2021-08-11T18:00:00.000000000-04:00");
  assert.equal(formatWithPattern(at, "HH:mm Z", 5.5 * H), "03:30 +0530");
  assert.equal(formatWithPattern(at, "HH:mm XXX", 0), "22:00 Z");
  assert.equal(formatWithPattern(at, "HH:mm xxx", 0), "22:00 +00:00");
  assert.equal(
    parseWithPattern("2021-08-12 01:00 +0100", "yyyy-MM-dd HH:mm Z"),
    Date.UTC(2021, 7, 12),
  );
});

Deno.test("dates in a zone: date_nanos values print in the zone with its offset", () => {
  const ny = parseTimeZone("America/New_York");
  const nanos = Date.UTC(2024, 6, 1, 12) * 1e6 + 5_000_000;
  assert.equal(formatDateAt(nanos, { nanos: true, zone: ny }), "2024-07-01T08:00:00.005-04:00");
  assert.equal(formatDateAt(nanos, { nanos: true }), "2024-07-01T12:00:00.005Z");
});
