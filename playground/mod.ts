/**
 * The playground: a page in the browser for console text, served with the embedded engine on one
 * loopback origin (`deno task playground`, or `searchvisitor --engine --playground`). The page
 * runs the library itself — the driver's tokenizer and binder, the transport over `fetch` — and
 * draws tables and charts of the answers.
 *
 * @example
 * ```ts ignore
 * import { startPlayground } from "./playground/mod.ts";
 *
 * const playground = await startPlayground({ port: 0 });
 * console.log(playground.url); // http://127.0.0.1:PORT/_playground/
 * await playground.close();
 * ```
 *
 * @module
 */

export {
  defaultFiles,
  pageFile,
  type Playground,
  PLAYGROUND_PATH,
  type PlaygroundOptions,
  startPlayground,
} from "./server_node.ts";
