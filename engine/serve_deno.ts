// HTTP adapter for Deno: Deno.serve.

/** Listens with `Deno.serve`. */
export function listen(
  handler: (request: Request) => Promise<Response>,
  options: { port: number; hostname: string },
): Promise<{ port: number; close(): Promise<void> }> {
  return new Promise((resolve) => {
    const server = Deno.serve({
      port: options.port,
      hostname: options.hostname,
      onListen: (addr) => {
        resolve({ port: addr.port, close: () => server.shutdown() });
      },
    }, (request) => handler(request));
  });
}
