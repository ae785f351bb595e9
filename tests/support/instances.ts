// Instances of the example server as separate processes, started exactly as
// `deno task server` starts one (its flags read from deno.json, so a
// permission the task lacks fails here too): each on a free port, waited for
// on /health, killable (SIGKILL, as a crash) and restartable on its port.
import { freePort } from "./server.ts";

const ROOT = new URL("../../", import.meta.url);

/** The arguments `deno task server` gives deno (after `deno`), with paths made absolute. */
export async function serverTaskArgs(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  const words: string[] = config.tasks.server.split(/\s+/);
  if (words[0] !== "deno") throw new Error(`the server task no longer starts with deno: ${words}`);
  return words.slice(1).map((word) => word.endsWith(".ts") ? new URL(word, ROOT).pathname : word);
}

/** One instance: its name (as the balancer knows it), port and URL. */
export interface Instance {
  readonly name: string;
  readonly port: number;
  readonly url: string;
  /** Whether its process is running now. */
  readonly running: boolean;
  /** SIGKILL, as a crash: no shutdown, connections cut. */
  kill(): Promise<void>;
  /** Starts it again on the same port; resolves once healthy. */
  restart(): Promise<void>;
}

/** Options of {@linkcode withInstances}. */
export interface InstancesOptions {
  readonly count: number;
  /** Environment of every instance (REDIS_URL, BOOKSTORE_TOKEN, ...), besides PORT. */
  readonly env: Record<string, string>;
}

/** Waits until `url` answers 2xx; gives up after 60 s (a guard against hangs). */
async function healthy(url: string, exited: () => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (exited()) throw new Error(`the instance at ${url} exited while starting`);
    const ok = await fetch(`${url}/health`).then(async (r) => {
      await r.body?.cancel();
      return r.ok;
    }, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gave up waiting for ${url}/health`);
}

/** Starts `count` instances of the example (in parallel), runs `body`, stops them all. */
export async function withInstances(
  opts: InstancesOptions,
  body: (instances: readonly Instance[]) => Promise<void>,
): Promise<void> {
  const args = await serverTaskArgs();
  const stops: (() => Promise<void>)[] = [];
  const start = (name: string, port: number): Instance => {
    let child: Deno.ChildProcess | undefined;
    let exited = true;
    const launch = async () => {
      const process = new Deno.Command(Deno.execPath(), {
        args,
        env: { ...opts.env, PORT: String(port), NO_COLOR: "1" },
        stdin: "null",
        stdout: "null",
        stderr: "piped",
      }).spawn();
      child = process;
      exited = false;
      // Kept for the message when it fails to start, and drained so it never blocks.
      let stderr = "";
      const drained = (async () => {
        for await (const text of process.stderr.pipeThrough(new TextDecoderStream())) {
          stderr += text;
        }
      })();
      process.status.then(() => {
        if (child === process) exited = true;
      });
      try {
        await healthy(`http://127.0.0.1:${port}`, () => exited);
      } catch (error) {
        await kill();
        await drained;
        throw new Error(`${name}: ${(error as Error).message}\n${stderr}`);
      }
    };
    const kill = async () => {
      if (child === undefined || exited) return;
      const process = child;
      process.kill("SIGKILL");
      await process.status;
    };
    stops.push(kill);
    return {
      name,
      port,
      url: `http://127.0.0.1:${port}`,
      get running() {
        return !exited;
      },
      kill,
      async restart() {
        await kill();
        await launch();
      },
    };
  };
  const instances = Array.from({ length: opts.count }, (_, i) => start(`app${i}`, freePort()));
  try {
    await Promise.all(instances.map((instance) => instance.restart()));
    await body(instances);
  } finally {
    await Promise.all(stops.map((stop) => stop()));
  }
}
