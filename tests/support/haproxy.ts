// A real HAProxy (Debian's package, installed when missing) on a free port in
// front of backends on 127.0.0.1: round robin, no stickiness, HTTP health
// checks on /health every 200 ms, a request that finds its instance dead
// retried on another (`option redispatch`, `retry-on`), and tunnel timeouts
// for WebSocket. Each answer names the instance that gave it (`x-backend`),
// so that a test can see where its requests went. Its config goes to a temp
// dir; it is stopped after the test body.
import { ensureCommands } from "./commands.ts";
import { freePort } from "./server.ts";

/** Why HAProxy is unavailable, or undefined when it is there (installed if need be). */
export async function haproxyMissing(): Promise<string | undefined> {
  const missing = await ensureCommands({ haproxy: "haproxy" });
  return missing.length === 0
    ? undefined
    : "haproxy could not be installed (apt-get install haproxy)";
}

/** A backend by name (in `x-backend` and the stats) and port on 127.0.0.1. */
export interface Backend {
  readonly name: string;
  readonly port: number;
}

/** A running balancer. */
export interface Balancer {
  readonly url: string;
  readonly port: number;
  /** The config it runs, for messages (and the docs' excerpt stays like it). */
  readonly config: string;
  /** Each backend's state as HAProxy sees it now: "UP", "DOWN", ... */
  states(): Promise<Record<string, string>>;
  /** Waits until every named backend is in `state` (30 s guard against hangs). */
  until(state: "UP" | "DOWN", names: readonly string[]): Promise<void>;
}

/** The HAProxy config for backends behind `port`; its stats (CSV) on `statsPort`. */
export function haproxyConfig(
  port: number,
  backends: readonly Backend[],
  statsPort: number,
): string {
  return `global
  maxconn 4096

defaults
  mode http
  timeout connect 1s
  timeout client 60s
  timeout server 60s
  # A WebSocket (GraphQL subscriptions) once upgraded; SSE answers count as server time.
  timeout tunnel 1h
  timeout http-keep-alive 10s
  # A request that cannot reach its instance (or gets nothing back) goes to another one.
  option redispatch 1
  retries 3
  retry-on conn-failure empty-response response-timeout

frontend web
  bind 127.0.0.1:${port}
  # Sent again only if safe: any request that reached no instance; past that, idempotent
  # methods and requests with an Idempotency-Key (the first answer is kept for a retry).
  acl resendable method GET HEAD PUT DELETE OPTIONS
  acl keyed req.hdr(idempotency-key) -m found
  http-request disable-l7-retry unless resendable || keyed
  default_backend app

backend app
  balance roundrobin
  option httpchk
  http-check send meth GET uri /health
  # Which instance answered: for tests and logs, not for affinity.
  http-response set-header x-backend %s
  default-server check inter 200ms fall 1 rise 1
${backends.map((b) => `  server ${b.name} 127.0.0.1:${b.port}`).join("\n")}

# Each instance's state as HAProxy sees it, for tests (a TCP port: the tests may use no other).
frontend stats
  bind 127.0.0.1:${statsPort}
  stats enable
  stats uri /stats
`;
}

/** Starts HAProxy in front of `backends`, runs `body`, stops it. */
export async function withHaproxy(
  backends: readonly Backend[],
  body: (balancer: Balancer) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "ramify-haproxy-" });
  const port = freePort();
  const statsPort = freePort();
  const config = haproxyConfig(port, backends, statsPort);
  await Deno.writeTextFile(`${dir}/haproxy.cfg`, config);
  const child = new Deno.Command("haproxy", {
    args: ["-db", "-f", `${dir}/haproxy.cfg`],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let stderr = "";
  const drained = (async () => {
    for await (const text of child.stderr.pipeThrough(new TextDecoderStream())) stderr += text;
  })();
  let exited = false;
  child.status.then(() => exited = true);
  const states = async () => {
    const csv = await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`)).text();
    const [header, ...rows] = csv.trim().split("\n");
    const columns = header.replace(/^# /, "").split(",");
    const at = (name: string) => columns.indexOf(name);
    const found: Record<string, string> = {};
    for (const row of rows.map((line) => line.split(","))) {
      if (row[at("svname")] !== "FRONTEND" && row[at("svname")] !== "BACKEND") {
        found[row[at("svname")]] = row[at("status")];
      }
    }
    return found;
  };
  const until = async (state: "UP" | "DOWN", names: readonly string[]) => {
    const deadline = Date.now() + 30_000;
    let seen: Record<string, string> = {};
    while (Date.now() < deadline) {
      if (exited) throw new Error(`haproxy exited:\n${stderr}`);
      seen = await states().catch(() => ({}));
      if (names.every((name) => seen[name]?.startsWith(state))) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`gave up waiting for ${names} to be ${state}: ${JSON.stringify(seen)}`);
  };
  try {
    await until("UP", backends.map((b) => b.name));
    await body({ url: `http://127.0.0.1:${port}`, port, config, states, until });
  } finally {
    if (!exited) child.kill("SIGTERM");
    await child.status;
    await drained;
    await Deno.remove(dir, { recursive: true });
  }
}
