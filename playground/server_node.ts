// The playground's server (a runtime adapter over node:http, which Deno, Bun and Node provide):
// one loopback origin that serves the page's files under /_playground/ and hands every other
// request, untouched, to the embedded engine's own guarded server. The page and the engine thus
// share an origin, so the engine's Host and Origin checks stay on and see the page's requests as
// same-origin; the engine room knows nothing of the page.

import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile } from "node:fs/promises";
import { Engine, type EngineServer, serve } from "../engine/mod.ts";

/**
 * The path prefix of the page's files; the engine has no route under it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PLAYGROUND_PATH } from "./server_node.ts";
 *
 * assert.equal(PLAYGROUND_PATH, "/_playground/");
 * ```
 */
export const PLAYGROUND_PATH = "/_playground/";

/**
 * Options of {@link startPlayground}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultFiles, type PlaygroundOptions } from "./server_node.ts";
 *
 * const options: PlaygroundOptions = { port: 0, opensearch: true, files: defaultFiles() };
 * assert.equal(options.files?.static.protocol, "file:");
 * ```
 */
export interface PlaygroundOptions {
  /** Port of the page's origin; 0 (the default) picks a free port. */
  port?: number;
  /** The engine answers as OpenSearch instead of Elasticsearch. */
  opensearch?: boolean;
  /** Where the page's files are (default: this room's `static/` and the build's `app.js`). */
  files?: { static: URL; bundle: URL };
}

/**
 * A running playground (see {@link startPlayground} for one started and stopped).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startPlayground } from "./server_node.ts";
 *
 * const bundle = new URL(`file://${await Deno.makeTempFile({ suffix: ".js" })}`);
 * const files = { static: new URL("./static/", import.meta.url), bundle };
 * const playground = await startPlayground({ port: 0, files });
 * assert.equal(new URL(playground.url).pathname, "/_playground/");
 * assert.equal(new URL(playground.url).origin, playground.origin);
 * // The engine behind the origin is the one in `engine`: a document written in process is
 * // counted over HTTP.
 * await playground.engine.fetch("http://engine/p/_doc/1?refresh=true", {
 *   method: "PUT",
 *   headers: { "content-type": "application/json" },
 *   body: "{}",
 * });
 * assert.equal((await (await fetch(`${playground.origin}/p/_count`)).json()).count, 1);
 * await playground.close();
 * await Deno.remove(bundle);
 * ```
 */
export interface Playground {
  /** The page's URL (`http://127.0.0.1:PORT/_playground/`). */
  url: string;
  /** The origin the page and the engine share. */
  origin: string;
  /** The embedded engine (in-process). */
  engine: Engine;
  /** Stops both servers and the engine. */
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  ndjson: "application/x-ndjson",
  svg: "image/svg+xml",
};

/**
 * The file a page path names, or undefined when it names none (no `..`, no folders, no hidden
 * files).
 *
 * @param path The request's path, under {@link PLAYGROUND_PATH}.
 * @returns The file's name in the static folder (`app.js` is the bundle).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pageFile } from "./server_node.ts";
 *
 * assert.equal(pageFile("/_playground/"), "index.html");
 * assert.equal(pageFile("/_playground/style.css"), "style.css");
 * assert.equal(pageFile("/_playground/..%2Fmain.ts"), undefined);
 * ```
 */
export function pageFile(path: string): string | undefined {
  const rest = path.slice(PLAYGROUND_PATH.length);
  if (rest === "") return "index.html";
  return /^[a-z0-9_]+\.(html|js|css|ndjson|svg)$/.test(rest) ? rest : undefined;
}

/**
 * The default places of the page's files: `static/` beside this file, the bundle in `dist/`.
 *
 * @returns The static folder and the bundle's file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultFiles } from "./server_node.ts";
 *
 * assert.match(defaultFiles().bundle.pathname, /\/dist\/playground\/app\.js$/);
 * ```
 */
export function defaultFiles(): { static: URL; bundle: URL } {
  return {
    static: new URL("./static/", import.meta.url),
    bundle: new URL("../dist/playground/app.js", import.meta.url),
  };
}

/**
 * Starts the embedded engine and the playground's origin on loopback.
 *
 * @param options Port, flavour, where the files are.
 * @returns The page's URL and `close()`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startPlayground } from "./server_node.ts";
 *
 * const bundle = new URL(`file://${await Deno.makeTempFile({ suffix: ".js" })}`);
 * const files = { static: new URL("./static/", import.meta.url), bundle };
 * const playground = await startPlayground({ port: 0, files });
 * const page = await fetch(playground.url);
 * assert.match(await page.text(), /searchvisitor playground/);
 * // Every other path is the engine's.
 * assert.equal((await (await fetch(`${playground.origin}/_count`)).json()).count, 0);
 * await playground.close();
 * await Deno.remove(bundle);
 * ```
 */
export async function startPlayground(options: PlaygroundOptions = {}): Promise<Playground> {
  const files = options.files ?? defaultFiles();
  try {
    await readFile(files.bundle);
  } catch {
    throw new Error(
      `playground: the page's bundle ${files.bundle.pathname} is missing; build it with \`deno task playground:build\` (or run \`deno task playground\`)`,
    );
  }
  const engine = new Engine({ flavour: options.opensearch ? "opensearch" : "elasticsearch" });
  let backend: EngineServer;
  try {
    backend = await serve(engine, { port: 0 });
  } catch (error) {
    engine.close();
    throw error;
  }
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    if (path === "/" || path === "/_playground") {
      res.writeHead(302, { location: PLAYGROUND_PATH }).end();
      return;
    }
    if (path.startsWith(PLAYGROUND_PATH)) {
      const name = pageFile(path);
      if (name === undefined || (req.method !== "GET" && req.method !== "HEAD")) {
        res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
        return;
      }
      const url = name === "app.js" ? files.bundle : new URL(name, files.static);
      readFile(url).then(
        (bytes) => {
          res.writeHead(200, {
            "content-type": TYPES[name.split(".").pop()!] ?? "application/octet-stream",
            "cache-control": "no-store",
            "x-content-type-options": "nosniff",
          });
          res.end(req.method === "HEAD" ? undefined : bytes);
        },
        () => res.writeHead(404, { "content-type": "text/plain" }).end("not found\n"),
      );
      return;
    }
    // Everything else is the engine's: passed on as it came (Host and Origin included), so the
    // engine's guard judges the browser's request itself.
    const upstream = httpRequest(
      {
        hostname: "127.0.0.1",
        port: backend.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end("engine unreachable\n");
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: origin + PLAYGROUND_PATH,
    origin,
    engine,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await backend.close();
      engine.close();
    },
  };
}
