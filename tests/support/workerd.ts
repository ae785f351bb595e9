// Cloudflare's workerd for the edge test and the cold-start bench: found on
// PATH or installed from npm once (the package ships the runtime) into a
// temporary folder shared by later runs, and a worker module served by it on
// a free port.

const CACHE = `${Deno.env.get("TMPDIR") ?? "/tmp"}/ramify-workerd`;

async function runs(binary: string): Promise<boolean> {
  try {
    const result = await new Deno.Command(binary, {
      args: ["--version"],
      stdout: "null",
      stderr: "null",
    }).output();
    return result.success;
  } catch {
    return false;
  }
}

/** The workerd binary, installed when missing; `undefined` when npm cannot install it. */
export async function findWorkerd(): Promise<string | undefined> {
  if (await runs("workerd")) return "workerd";
  const installed = `${CACHE}/node_modules/.bin/workerd`;
  if (await runs(installed)) return installed;
  try {
    await Deno.mkdir(CACHE, { recursive: true });
    const result = await new Deno.Command("npm", {
      args: ["install", "--no-audit", "--no-fund", "--prefix", CACHE, "workerd"],
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!result.success) console.warn(new TextDecoder().decode(result.stderr));
  } catch (error) {
    console.warn(`workerd: npm is not available (${error})`);
  }
  return await runs(installed) ? installed : undefined;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

function config(port: number): string {
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = "2025-09-01",
);
`;
}

/** A worker being served: its base URL, when it first answered, and its end. */
export interface ServedWorker {
  readonly base: string;
  /** Milliseconds from spawning workerd to the first answer to `probe`. */
  readonly startedInMs: number;
  /** Stops workerd and gives what it wrote to stderr. */
  stop(): Promise<string>;
}

/**
 * Serves `code` (one self-contained ES module) with workerd, waiting until
 * `probe` (a path) answers; polls every millisecond so `startedInMs` is the
 * cold start as a client sees it.
 */
export async function serveWorker(
  workerd: string,
  code: string,
  probe = "/",
): Promise<ServedWorker> {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/worker.js`, code);
  const port = freePort();
  await Deno.writeTextFile(`${dir}/config.capnp`, config(port));
  const base = `http://127.0.0.1:${port}`;
  const spawned = performance.now();
  const child = new Deno.Command(workerd, {
    args: ["serve", `${dir}/config.capnp`],
    cwd: dir,
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let exited = false;
  child.status.then(() => exited = true);
  const stop = async () => {
    if (!exited) child.kill("SIGTERM");
    const { stderr } = await child.output();
    await Deno.remove(dir, { recursive: true });
    return new TextDecoder().decode(stderr);
  };
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline && !exited) {
    try {
      await (await fetch(`${base}${probe}`)).body?.cancel();
      return { base, startedInMs: performance.now() - spawned, stop };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }
  const log = await stop();
  throw new Error(`${exited ? "workerd exited" : "workerd did not answer within 15 s"}:\n${log}`);
}
