// The embedded engine served over loopback HTTP, reached through the runtime's own fetch that
// records every request (method, path, body): end-to-end tests of the mapper layer as a user's
// program runs it. Close it with `await using` (or `close()`).
import { DataSource } from "../../driver/mod.ts";
import { Engine, serve } from "../../engine/mod.ts";
import { Configuration, type ConfigurationOptions, type Session } from "../../mapper/mod.ts";
import type { Sent } from "./mapper_fixture.ts";

/** The served engine, a session over it and the requests sent so far. */
export interface HttpMapperFixture extends AsyncDisposable {
  url: string;
  ds: DataSource;
  config: Configuration;
  session: Session;
  sent: Sent[];
  close(): Promise<void>;
}

/** Serves a fresh engine; `setup` runs before the test, `configure` before the session opens. */
export async function httpMapperFixture(
  options: ConfigurationOptions = {},
  setup: readonly string[] = [],
  configure?: (config: Configuration) => void,
): Promise<HttpMapperFixture> {
  const engine = new Engine();
  const server = await serve(engine, { port: 0 });
  const sent: Sent[] = [];
  const fetch = (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    sent.push({
      method: init?.method ?? "GET",
      path: url.pathname + url.search,
      body: typeof init?.body === "string" ? init.body : "",
    });
    return globalThis.fetch(input, init);
  };
  const ds = new DataSource({ nodes: [server.url], fetch });
  const config = new Configuration(options);
  configure?.(config);
  const session = config.newSession(ds);
  for (const command of setup) await session.jdbc().execute(command);
  sent.length = 0;
  const close = async () => {
    await server.close();
    engine.close();
  };
  return { url: server.url, ds, config, session, sent, close, [Symbol.asyncDispose]: close };
}
