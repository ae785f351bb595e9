/**
 * A redis-server for one benchmark run (Debian's package): on a free
 * loopback port, without persistence, stopped by `stop()`.
 *
 * @module
 */

/** A running redis-server: its URL, and the way to stop it. */
export interface BenchRedis {
  readonly url: string;
  stop(): Promise<void>;
}

/** Starts redis-server on a free port; resolves once it accepts connections. */
export async function startRedis(): Promise<BenchRedis> {
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const server = new Deno.Command("redis-server", {
    args: ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    stdout: "null",
  }).spawn();
  for (let tries = 0;; tries++) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      break;
    } catch (error) {
      if (tries > 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      server.kill();
      await server.status;
    },
  };
}
