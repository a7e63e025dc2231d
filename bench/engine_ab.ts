// Before/after of the engine's load path, the baseline in the same run: the scale report's
// documents (5,000-document `_bulk` batches, in process, then a refresh and a search that sees
// them all) loaded alternately (ABBA) by two copies of the repository, each into a fresh engine,
// in one process; medians of documents/s to searchable, by wall time and by CPU time (the machine
// may be shared: CPU time is the steadier figure then). The load average is printed.
//
//   git archive <base-commit> | tar -x -C /tmp/base
//   deno run -A --v8-flags=--max-old-space-size=4096 bench/engine_ab.ts 100000 10 /tmp/base .

import { cpuUsage } from "node:process";

const docs = Number(Deno.args[0] ?? 100_000);
const rounds = Number(Deno.args[1] ?? 6);
const here = new URL(`file://${Deno.cwd()}/`);
const roots = Deno.args.slice(2).map((r) => new URL(r.replace(/\/?$/, "/"), here).href);
if (roots.length < 2) throw new Error("usage: engine_ab.ts DOCS ROUNDS BASE_DIR NEW_DIR");

type EngineModule = typeof import("../engine/mod.ts");
type ScaleModule = typeof import("./engine_scale.ts");
const engines: EngineModule[] = await Promise.all(roots.map((r) => import(`${r}engine/mod.ts`)));
const scale: ScaleModule = await import(`${roots[0]}bench/engine_scale.ts`);
const r = scale.rng(42);
const bodies: string[] = [];
for (let i = 0; i < docs; i += 5000) bodies.push(scale.batch(i, Math.min(5000, docs - i), r));

const wall = roots.map((): number[] => []);
const cpu = roots.map((): number[] => []);

async function load(k: number): Promise<void> {
  const engine = new engines[k]!.Engine();
  const call = async (method: string, path: string, body?: string) => {
    const res = await engine.fetch(`http://engine${path}`, {
      method,
      headers: { "content-type": "application/json" },
      body,
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${path}: ${text.slice(0, 200)}`);
    return text;
  };
  await call("PUT", "/scale", JSON.stringify({ mappings: scale.MAPPINGS }));
  const c0 = cpuUsage();
  const t0 = performance.now();
  for (const body of bodies) {
    await call("POST", "/scale/_bulk", body);
    await new Promise((done) => setTimeout(done, 0));
  }
  await call("POST", "/scale/_refresh");
  const count = JSON.parse(await call("POST", "/scale/_search", '{"track_total_hits":true}'));
  const ms = performance.now() - t0;
  const used = cpuUsage(c0);
  engine.close();
  if (count.hits.total.value !== docs) throw new Error(`${count.hits.total.value} of ${docs}`);
  wall[k]!.push(docs / (ms / 1000));
  cpu[k]!.push(docs / ((used.user + used.system) / 1e6));
}

for (let i = 0; i < rounds; i++) {
  for (let k = 0; k < roots.length; k++) await load(i % 2 ? roots.length - 1 - k : k);
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return Math.round(s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2);
}
console.log(`load average ${Deno.loadavg().map((x) => x.toFixed(1)).join(" ")}`);
roots.forEach((_root, k) => {
  console.log(
    `${Deno.args[k + 2]}: docs/s to searchable ${median(wall[k]!)} (wall), ${
      median(cpu[k]!)
    } (per CPU second); runs ${wall[k]!.map(Math.round).join(", ")}`,
  );
});
