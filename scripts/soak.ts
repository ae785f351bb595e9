/**
 * The soak test: the example server (REST, GraphQL, MCP in one handler) under
 * a steady mixed load for a while, its memory sampled, to show a bad day does
 * not leak. wrk (Debian's package, installed when missing) drives 64
 * connections on 127.0.0.1, in turn a REST list, a REST search, a REST
 * replace (a write that does not grow the store) and a GraphQL query; the
 * server and wrk run pinned to different CPUs.
 *
 *   deno run -A scripts/soak.ts            # 60 s, 64 connections
 *   deno run -A scripts/soak.ts 20 32      # seconds, connections
 *
 * It prints the requests, the errors (socket errors and non-2xx answers),
 * the RSS samples and the growth after warm-up (the first quarter), and
 * exits non-zero when there were errors or the growth passed 10%.
 *
 * @module
 */

const seconds = Number(Deno.args[0] ?? 60);
const connections = Number(Deno.args[1] ?? 64);
const root = new URL("../", import.meta.url).pathname;

async function ensureWrk(): Promise<void> {
  const found = await new Deno.Command("sh", { args: ["-c", "command -v wrk"] }).output();
  if (found.success) return;
  for (const args of [["install", "-y", "wrk"], ["update"], ["install", "-y", "wrk"]]) {
    await new Deno.Command("apt-get", { args, stdout: "null", stderr: "null" }).output();
  }
}

function rssKiB(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

const LUA = `
local n = 0
request = function()
  n = n + 1
  local kind = n % 4
  if kind == 0 then
    return wrk.format("GET", "/books/list")
  elseif kind == 1 then
    return wrk.format("GET", "/catalog/search?q=dune&limit=5")
  elseif kind == 2 then
    return wrk.format("PUT", "/books/1", { ["content-type"] = "application/json" },
      '{"title":"Dune","author":"Frank Herbert","year":1965}')
  else
    return wrk.format("POST", "/graphql", { ["content-type"] = "application/json" },
      '{"query":"{ books { list { title author } } catalog { search(q: \\\\"dune\\\\") { title } } }"}')
  end
end
`;

await ensureWrk();
const port = 18_000 + Math.floor(Math.random() * 1_000);
const server = new Deno.Command("taskset", {
  args: [
    "-c",
    "0",
    Deno.execPath(),
    "run",
    "--allow-net",
    "--allow-env=PORT",
    `${root}examples/bookstore.ts`,
  ],
  env: { PORT: String(port), NO_COLOR: "1" },
  stdout: "piped",
  stderr: "piped",
}).spawn();
try {
  // Wait for the server to answer.
  for (let tries = 0;; tries++) {
    try {
      await (await fetch(`http://127.0.0.1:${port}/books/list`)).body?.cancel();
      break;
    } catch {
      if (tries > 200) throw new Error("the server did not start");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const script = await Deno.makeTempFile({ suffix: ".lua" });
  await Deno.writeTextFile(script, LUA);
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(rssKiB(server.pid)), 1_000);
  const load = await new Deno.Command("taskset", {
    args: [
      "-c",
      "1",
      "wrk",
      "-t1",
      `-c${connections}`,
      `-d${seconds}s`,
      "-s",
      script,
      `http://127.0.0.1:${port}`,
    ],
  }).output();
  clearInterval(sampler);
  const report = new TextDecoder().decode(load.stdout);
  console.log(report.trim());
  const requests = Number(/(\d+) requests in/.exec(report)?.[1] ?? 0);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/
    .exec(report)?.slice(1).reduce((sum, n) => sum + Number(n), 0) ?? 0;
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(report)?.[1] ?? 0);
  const warm = samples[Math.floor(samples.length / 4)];
  const last = samples[samples.length - 1];
  const growth = (last - warm) / warm * 100;
  console.log(`RSS samples (MiB): ${samples.map((kib) => (kib / 1024).toFixed(0)).join(" ")}`);
  console.log(
    `soak: ${seconds} s, ${connections} connections, ${requests} requests, ` +
      `${socketErrors + non2xx} errors, RSS ${(warm / 1024).toFixed(1)} MiB after warm-up -> ` +
      `${(last / 1024).toFixed(1)} MiB at the end (${growth.toFixed(1)}%)`,
  );
  await Deno.remove(script);
  if (socketErrors + non2xx > 0 || growth >= 10) Deno.exitCode = 1;
} finally {
  server.kill();
  await server.status;
}
