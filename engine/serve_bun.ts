// HTTP adapter for Bun: Bun.serve.

interface BunServer {
  port: number;
  stop(closeActive?: boolean): void | Promise<void>;
}

interface BunGlobal {
  serve(
    options: { port: number; hostname: string; fetch: (r: Request) => Promise<Response> },
  ): BunServer;
}

/** Listens with `Bun.serve`. */
export function listen(
  handler: (request: Request) => Promise<Response>,
  options: { port: number; hostname: string },
): Promise<{ port: number; close(): Promise<void> }> {
  const bun = (globalThis as unknown as { Bun: BunGlobal }).Bun;
  const server = bun.serve({
    port: options.port,
    hostname: options.hostname,
    fetch: (request) => handler(request),
  });
  return Promise.resolve({
    port: server.port,
    close: async () => {
      await server.stop(true);
    },
  });
}
