// `deno task playground`: starts the embedded engine and the playground page on loopback and
// prints the page's URL; Ctrl-C stops both. Flags: --port N (0 = a free port, the default),
// --opensearch.
import process from "node:process";
import { startPlayground } from "./mod.ts";

const args = process.argv.slice(2);
const portAt = args.indexOf("--port");
const port = portAt >= 0 ? Number(args[portAt + 1]) : 0;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write("playground: --port takes a number from 0 to 65535\n");
  process.exit(64);
}
const playground = await startPlayground({ port, opensearch: args.includes("--opensearch") });
process.stdout.write(`searchvisitor playground: ${playground.url}\n(Ctrl-C stops it)\n`);
process.on("SIGINT", () => {
  playground.close().then(() => process.exit(0));
});
