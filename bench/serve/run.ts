/**
 * The serving benchmark under load: each contender (bench/serve/apps.ts) on
 * Deno.serve pinned to CPU 0, wrk pinned to CPU 1 on 127.0.0.1, every route
 * in turn, contenders interleaved round by round; prints the median
 * requests/second and ramify's ratios to each other contender, and the
 * server's CPU time per request (user + system, from /proc), which moves
 * less than throughput on a shared machine: time stolen by its neighbours is
 * not counted in it. The floor's ratio to Hono is printed too: no router can
 * lead Hono by more than the floor does.
 *
 *   deno run -A bench/serve/run.ts [rounds=5] [seconds=5] [connections=64] [bun project]
 *     [--contenders=floor,floorAsync,bare,hono,orpc,ramify]
 *
 * With a fourth argument, the contenders run on Bun.serve instead, from a
 * project that installed the npm build (see bun_server.ts for its making).
 *
 * @module
 */

const positional = Deno.args.filter((arg) => !arg.startsWith("--"));
const rounds = Number(positional[0] ?? 5);
const seconds = Number(positional[1] ?? 5);
const connections = Number(positional[2] ?? 64);
const bunProject = positional[3];
const here = new URL("./", import.meta.url).pathname;
const contenders =
  (Deno.args.find((arg) => arg.startsWith("--contenders="))?.slice("--contenders=".length) ??
    "floor,floorAsync,bare,hono,orpc,ramify").split(",");
const routes: Record<string, string[]> = {
  "GET /hello": ["/hello"],
  "GET /books/{id}": ["/books/42"],
  "POST /books (zod)": ["/books", "post"],
};

async function ensureWrk(): Promise<void> {
  const found = await new Deno.Command("sh", { args: ["-c", "command -v wrk"] }).output();
  if (found.success) return;
  for (const args of [["install", "-y", "wrk"], ["update"], ["install", "-y", "wrk"]]) {
    await new Deno.Command("apt-get", { args, stdout: "null", stderr: "null" }).output();
  }
}

const POST_LUA = `wrk.method = "POST"
wrk.body = '{"title":"Dune","author":"Frank Herbert"}'
wrk.headers["Content-Type"] = "application/json"`;

interface Run {
  readonly perSecond: number;
  readonly requests: number;
}

async function measure(
  port: number,
  path: string,
  post: boolean,
  duration = seconds,
): Promise<Run> {
  const args = ["-c", "1", "wrk", "-t1", `-c${connections}`, `-d${duration}s`];
  let script: string | undefined;
  if (post) {
    script = await Deno.makeTempFile({ suffix: ".lua" });
    await Deno.writeTextFile(script, POST_LUA);
    args.push("-s", script);
  }
  args.push(`http://127.0.0.1:${port}${path}`);
  const output = await new Deno.Command("taskset", { args }).output();
  if (script !== undefined) await Deno.remove(script);
  const text = new TextDecoder().decode(output.stdout);
  if (/Non-2xx|Socket errors/.test(text)) throw new Error(`errors under load:\n${text}`);
  return {
    perSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? 0),
    requests: Number(/(\d+) requests in/.exec(text)?.[1] ?? 0),
  };
}

/** The CPU time a process has used, in microseconds (Linux clock ticks of 10 ms). */
async function cpuMicros(pid: number): Promise<number> {
  const fields = (await Deno.readTextFile(`/proc/${pid}/stat`)).split(") ")[1].split(" ");
  // utime and stime: fields 14 and 15 of the whole line, 12 and 13 after the name.
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function serve(name: string, port: number): Promise<Deno.ChildProcess> {
  const command = bunProject === undefined
    // oRPC reads `request.signal`: the flag keeps Deno from warning for each server.
    ? [Deno.execPath(), "run", "-A", "--unstable-no-legacy-abort", `${here}server.ts`]
    : [`${bunProject}/node_modules/.bin/bun`, `${bunProject}/bun_server.ts`];
  const child = new Deno.Command("taskset", {
    args: ["-c", "0", ...command, name, String(port)],
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  for (let tries = 0;; tries++) {
    try {
      await (await fetch(`http://127.0.0.1:${port}/hello`)).body?.cancel();
      return child;
    } catch {
      if (tries > 200) throw new Error(`${name} did not start`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

await ensureWrk();
const results: Record<string, Record<string, number[]>> = {};
const cpu: Record<string, Record<string, number[]>> = {};
for (let round = 0; round < rounds; round++) {
  for (const name of round % 2 === 0 ? contenders : [...contenders].reverse()) {
    const port = 19_000 + Math.floor(Math.random() * 1_000);
    const child = await serve(name, port);
    try {
      for (const [route, [path, post]] of Object.entries(routes)) {
        // A short warm-up, then the measured run.
        await measure(port, path, post === "post", 1).catch(() => undefined);
        const before = await cpuMicros(child.pid);
        const run = await measure(port, path, post === "post");
        const used = await cpuMicros(child.pid) - before;
        ((results[route] ??= {})[name] ??= []).push(run.perSecond);
        ((cpu[route] ??= {})[name] ??= []).push(used / run.requests);
      }
    } finally {
      child.kill();
      await child.status;
    }
  }
}
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const names: Record<string, string> = {
  floor: "floor",
  floorAsync: "floor, async",
  bare: "bare",
  hono: "Hono",
  orpc: "oRPC",
  ramify: "ramify",
};
/** Pairs of (leader, other) whose ratio each table prints: ramify against each other contender, and the floor against Hono. */
const pairs: [string, string][] = [
  ...contenders.filter((name) => name !== "ramify").map((name): [string, string] => [
    "ramify",
    name,
  ]),
  ...(contenders.includes("floor") && contenders.includes("hono")
    ? [["floor", "hono"] as [string, string]]
    : []),
];

/** One Markdown table: each contender's median, then each pair's ratio (above 1: the leader is ahead). */
function table(
  measured: Record<string, Record<string, number[]>>,
  unit: string,
  cell: (value: number) => string,
  lead: (leader: number, other: number) => number,
): void {
  const ratioHeads = pairs.map(([leader, other]) =>
    unit === "req/s" ? `${names[leader]} / ${names[other]}` : `${names[other]} / ${names[leader]}`
  );
  const heads = [...contenders.map((name) => `${names[name]} ${unit}`), ...ratioHeads];
  console.log(`| route | ${heads.join(" | ")} |`);
  console.log(`| --- |${" --: |".repeat(heads.length)}`);
  for (const [route, byName] of Object.entries(measured)) {
    const values = contenders.map((name) => median(byName[name]));
    const ratios = pairs.map(([leader, other]) =>
      `${lead(median(byName[leader]), median(byName[other])).toFixed(2)}x`
    );
    console.log(`| ${route} | ${[...values.map(cell), ...ratios].join(" | ")} |`);
  }
}

table(results, "req/s", (n) => n.toFixed(0), (leader, other) => leader / other);
console.log();
table(cpu, "CPU/req", (n) => `${n.toFixed(1)} µs`, (leader, other) => other / leader);
