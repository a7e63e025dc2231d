// Where the demo runs: the embedded engine on a loopback port (the default), or a real cluster
// named by `--url URL`. On a real cluster the demo owns only the indexes it creates: it refuses to
// start when one of them exists, deletes them at the end, and a step needing what the cluster
// lacks (a REST module, a field type, a script language) is reported and skipped.
import { ResponseError } from "../driver/mod.ts";
import type { JdbcTemplate } from "../template/mod.ts";

/** The indexes the demo creates (and, on a real cluster, deletes at the end). */
export const DEMO_INDEXES = ["cities", "notes"] as const;

/** The cluster the demo talks to. */
export interface DemoTarget {
  /** The cluster's URL. */
  url: string;
  /** True for a cluster named by `--url`, false for the embedded engine. */
  real: boolean;
  /** One line that says where the demo runs. */
  description: string;
  /** Fails with a clear message when an index the demo creates already exists on a real cluster. */
  refuseExisting(jdbc: JdbcTemplate): Promise<void>;
  /** Stops the embedded engine, or deletes the demo's indexes from a real cluster. */
  close(jdbc: JdbcTemplate): Promise<void>;
}

/** Reads `--url URL` (or `--url=URL`) from `args`. */
export function urlArgument(args: readonly string[]): string | undefined {
  for (const [i, arg] of args.entries()) {
    if (arg === "--") continue;
    if (arg === "--url") {
      const value = args[i + 1];
      if (value === undefined || value.startsWith("--")) {
        throw new Error("--url needs a value: --url http://127.0.0.1:9200");
      }
      return value;
    }
    if (arg.startsWith("--url=")) return arg.slice("--url=".length);
    throw new Error(`unknown argument ${JSON.stringify(arg)}; the demo takes only --url URL`);
  }
  return undefined;
}

/** The demo's target from its arguments; `embedded` starts the embedded engine when no URL is given. */
export async function demoTarget(
  args: readonly string[],
  embedded: () => Promise<{ url: string; close(): Promise<void> }>,
): Promise<DemoTarget> {
  const url = urlArgument(args);
  if (url === undefined) {
    const server = await embedded();
    return {
      url: server.url,
      real: false,
      description: `engine listening on ${server.url}`,
      refuseExisting: () => Promise.resolve(),
      close: () => server.close(),
    };
  }
  const created = new Set<string>();
  return {
    url,
    real: true,
    description: `against the cluster at ${url}`,
    async refuseExisting(jdbc) {
      for (const index of DEMO_INDEXES) {
        if (await exists(jdbc, index)) {
          throw new Error(
            `index ${index} already exists at ${url}; the demo creates and deletes ${
              DEMO_INDEXES.join(" and ")
            }: delete it first or point --url at another cluster`,
          );
        }
        created.add(index);
      }
    },
    async close(jdbc) {
      for (const index of created) {
        if (await exists(jdbc, index)) await jdbc.execute(`DELETE /${index}`);
      }
    },
  };
}

async function exists(jdbc: JdbcTemplate, index: string): Promise<boolean> {
  try {
    await jdbc.execute(`GET /${index}/_mapping`);
    return true;
  } catch (e) {
    if (e instanceof ResponseError && e.status === 404) return false;
    throw e;
  }
}

/**
 * What a failure says the cluster lacks, when it says so: no REST handler for the endpoint (a
 * module that is not installed), an unknown field type, query, aggregation or script language.
 */
export function lacking(error: unknown): string | undefined {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (!(e instanceof ResponseError)) continue;
    // The message too: a search names what failed in its root cause ("all shards failed" on top).
    const text = `${e.type ?? ""}: ${e.reason ?? ""} ${e.message}`;
    if (
      /no handler found for uri|incorrect http method for uri \[\/\]|no handler for type|unknown (query|field|key|aggregation|type)|unknown aggregation type|script_lang|lang \[[a-z]+\] not supported|not supported by the \[.*\] engine|unsupported_operation/i
        .test(text)
    ) return /all shards failed/.test(e.reason ?? "") ? e.message : e.reason ?? e.message;
  }
  return undefined;
}

/**
 * Runs one step of the tour. On a real cluster, a failure that says the cluster lacks something
 * is printed as a skip and the tour goes on; any other failure, and every failure on the
 * embedded engine, is thrown.
 */
export async function optionalStep(target: DemoTarget, step: () => Promise<void>): Promise<void> {
  try {
    await step();
  } catch (error) {
    const what = target.real ? lacking(error) : undefined;
    if (what === undefined) throw error;
    console.log(`  skipped: the cluster lacks what this step needs — ${what}`);
  }
}
