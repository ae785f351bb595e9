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

/**
 * POSTs the head and the first byte of a JSON body that claims ten, sends no
 * more, and gives the start of the answer (a slow client, for body deadlines).
 */
export async function dribbledPost(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(new URL(base).port) });
  try {
    const lines = Object.entries({ "content-type": "application/json", ...headers })
      .map(([name, value]) => `${name}: ${value}\r\n`).join("");
    await conn.write(new TextEncoder().encode(
      `POST ${path} HTTP/1.1\r\nHost: localhost\r\n${lines}Content-Length: 10\r\n\r\n{`,
    ));
    const buffer = new Uint8Array(4096);
    const read = await conn.read(buffer);
    return new TextDecoder().decode(buffer.subarray(0, read ?? 0));
  } finally {
    conn.close();
  }
}
