// `deno task engine [--port N] [--host H] [--opensearch]`: runs the engine until interrupted.

import { Engine, serve } from "./mod.ts";

function option(name: string): string | undefined {
  const at = Deno.args.indexOf(name);
  return at >= 0 ? Deno.args[at + 1] : undefined;
}

if (import.meta.main) {
  const port = Number(option("--port") ?? 9200);
  const hostname = option("--host") ?? "127.0.0.1";
  const flavour = Deno.args.includes("--opensearch") ? "opensearch" : "elasticsearch";
  const engine = new Engine({ flavour });
  const server = await serve(engine, { port, hostname });
  console.log(`listening on ${server.url}`);
}
