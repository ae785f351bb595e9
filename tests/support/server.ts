// A real server for integration tests: Deno.serve on a free loopback port for
// the duration of one test body, shut down however the body ends.

/** Serves `handler` on 127.0.0.1, port 0, while `run` gets its base URL. */
export async function withServer(
  handler: (request: Request) => Response | Promise<Response>,
  run: (base: string) => Promise<void>,
): Promise<void> {
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, handler);
  try {
    await run(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}

/** A free TCP port on 127.0.0.1, for a server another process starts. */
export function freePort(): number {
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  return port;
}
