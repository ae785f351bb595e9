// Cloudflare's workerd for the edge test, the npm build's proof and the
// cold-start bench: found on PATH or installed from npm once (the package
// ships the runtime) into a temporary folder shared by later runs, a worker
// module served by it on a free port, and a worker bundled by esbuild from an
// npm project, as wrangler bundles one.

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

/**
 * Bundles a worker with the esbuild installed in the npm project `project`, as
 * wrangler does (packages inside, honouring their `"sideEffects"`): `files` are
 * the worker's module then the modules it imports by relative path, copied
 * into the project so its packages resolve. Minified ESM for the browser.
 */
export async function esbuildWorker(project: string, files: readonly string[]): Promise<string> {
  const folder = await Deno.makeTempDir({ dir: project });
  const base = (file: string) => file.slice(file.lastIndexOf("/") + 1);
  for (const file of files) await Deno.copyFile(file, `${folder}/${base(file)}`);
  const out = `${folder}/worker.js`;
  const result = await new Deno.Command(`${project}/node_modules/.bin/esbuild`, {
    args: [
      `${folder}/${base(files[0])}`,
      "--bundle",
      "--platform=browser",
      "--format=esm",
      "--minify",
      "--log-level=warning",
      `--outfile=${out}`,
    ],
    cwd: project,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!result.success) throw new Error(`esbuild: ${new TextDecoder().decode(result.stderr)}`);
  const code = await Deno.readTextFile(out);
  await Deno.remove(folder, { recursive: true });
  return code;
}
