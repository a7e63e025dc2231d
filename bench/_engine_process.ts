// The embedded engine in its own process, for benchmarks that measure the client's heap: started
// on a free loopback port, stopped when the benchmark process unloads.

/**
 * Starts `engine/main.ts` in a child process and waits for its banner.
 *
 * @returns The engine's base URL, e.g. `http://127.0.0.1:40123`.
 */
export async function startEngineProcess(): Promise<string> {
  const { url, stop } = await spawnEngineProcess();
  globalThis.addEventListener("unload", stop);
  return url;
}

/** Starts `engine/main.ts` in a child process: its URL once the banner is out, its pid, a stop. */
export async function spawnEngineProcess(): Promise<
  { url: string; pid: number; stop: () => void }
> {
  const main = new URL("../engine/main.ts", import.meta.url).pathname;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", main, "--port", "0"],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let banner = "";
  while (!banner.includes("\n")) banner += (await reader.read()).value ?? "";
  const url = /listening on (\S+)/.exec(banner)![1]!;
  const stop = () => {
    reader.cancel().catch(() => {});
    try {
      child.kill();
    } catch { /* already gone */ }
  };
  return { url, pid: child.pid, stop };
}
