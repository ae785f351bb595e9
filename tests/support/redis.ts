// A real redis-server (Debian's package, installed when missing) on a free
// port for one test: started, restartable, asked with redis-cli, stopped after.
import { ensureCommands } from "./commands.ts";
import { freePort } from "./server.ts";

/** A running Redis: its URL, a restart, and a command through redis-cli. */
export interface RedisServer {
  readonly url: string;
  readonly port: number;
  restart(): Promise<void>;
  /** Stops the server (Redis unreachable) until `start()`; idempotent. */
  stop(): Promise<void>;
  /** Starts it again, empty, on the same port. */
  start(): Promise<void>;
  /** Freezes the process (SIGSTOP): connections stay open and nothing answers, until `resume()`. */
  pause(): void;
  resume(): void;
  cli(...args: string[]): Promise<string>;
}

/** Why Redis is unavailable, or undefined when it is there (installed if need be). */
export async function redisMissing(): Promise<string | undefined> {
  const missing = await ensureCommands({
    "redis-server": "redis-server",
    "redis-cli": "redis-tools",
  });
  return missing.length === 0
    ? undefined
    : `${missing.join(", ")} could not be installed (apt-get install redis-server)`;
}

export async function withRedis(body: (redis: RedisServer) => Promise<void>): Promise<void> {
  const port = freePort();
  const start = async () => {
    const child = new Deno.Command("redis-server", {
      args: ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      stdout: "null",
      stderr: "null",
    }).spawn();
    for (let tries = 0; tries < 100; tries++) {
      try {
        (await Deno.connect({ hostname: "127.0.0.1", port })).close();
        return child;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    throw new Error("redis-server did not start");
  };
  let server: Deno.ChildProcess | undefined = await start();
  const stop = async () => {
    const running = server;
    server = undefined;
    if (running === undefined) return;
    running.kill("SIGCONT");
    running.kill();
    await running.status;
  };
  try {
    await body({
      url: `redis://127.0.0.1:${port}`,
      port,
      async restart() {
        await stop();
        server = await start();
      },
      stop,
      async start() {
        server ??= await start();
      },
      pause: () => server?.kill("SIGSTOP"),
      resume: () => server?.kill("SIGCONT"),
      async cli(...args) {
        const output = await new Deno.Command("redis-cli", {
          args: ["-p", String(port), ...args],
          stdout: "piped",
          stderr: "null",
        }).output();
        return new TextDecoder().decode(output.stdout).trim();
      },
    });
  } finally {
    await stop();
  }
}
