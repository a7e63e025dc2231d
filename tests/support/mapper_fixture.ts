// A mapper session on the test's backend (tests/support/backend.ts), or on a fresh embedded engine
// reached in-process (`"in-process"`), through a fetch that records every request (method, path,
// body), so tests can assert how many requests a call made.
import { DataSource } from "../../driver/mod.ts";
import { Engine } from "../../engine/mod.ts";
import { Configuration, type ConfigurationOptions, type Session } from "../../mapper/mod.ts";
import type { BackendScope } from "./backend.ts";

/** One recorded request. */
export interface Sent {
  method: string;
  /** The path and query as sent (percent-encoded). */
  path: string;
  body: string;
}

/** The data source, the session and the requests sent so far. */
export interface MapperFixture {
  ds: DataSource;
  config: Configuration;
  session: Session;
  sent: Sent[];
}

/** Creates the fixture; `setup` runs commands before the test (e.g. index mappings). */
export async function mapperFixture(
  on: BackendScope | "in-process",
  options: ConfigurationOptions = {},
  setup: readonly string[] = [],
  configure?: (config: Configuration) => void,
): Promise<MapperFixture> {
  const engine = on === "in-process" ? new Engine() : undefined;
  const sent: Sent[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    sent.push({
      method: init?.method ?? "GET",
      path: url.pathname + url.search,
      body: typeof init?.body === "string" ? init.body : "",
    });
    return await (engine?.fetch ?? globalThis.fetch)(input, init);
  };
  const ds = on === "in-process"
    ? new DataSource({ nodes: ["http://engine"], fetch })
    : on.dataSource({ fetch });
  const config = new Configuration(options);
  configure?.(config);
  const session = config.newSession(ds);
  for (const command of setup) await session.jdbc().execute(command);
  sent.length = 0;
  return { ds, config, session, sent };
}
