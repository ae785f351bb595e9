// docs/deploy.md's balancer in front of Bun: three instances of the packed
// package on serve(), behind a real HAProxy with the page's config (its health
// check is `GET /health` over HTTP/1.0 with no Host, which Bun gives a relative
// request URL). Every instance must be UP and answer through the balancer.
import { join } from "node:path";
import { haproxyMissing, withHaproxy } from "../../tests/support/haproxy.ts";
import { freePort } from "../../tests/support/server.ts";
import { ko, ok, type Tally } from "./shared.ts";

const INSTANCES = 3;

/** Starts one instance in `dir`; resolves once it says it listens. */
async function instance(bun: string, dir: string, name: string) {
  const port = freePort();
  const child = new Deno.Command(bun, {
    args: [join(dir, "bun_instance.mjs")],
    cwd: dir,
    env: { PORT: String(port) },
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let said = "";
  const guard = setTimeout(() => child.kill("SIGKILL"), 60_000);
  while (!said.includes("listening")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${name} exited before listening: ${said}`);
    said += value;
  }
  clearTimeout(guard);
  reader.releaseLock();
  child.stdout.cancel().catch(() => {});
  return {
    name,
    port,
    async close() {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

/** The check, one tally: every Bun instance UP by the docs' health check, each answering. */
export async function bunBehindHaproxy(bun: string, dir: string): Promise<Tally> {
  const missing = await haproxyMissing();
  if (missing !== undefined) {
    console.log(`skipped: ${missing}`);
    return { passed: 0, failed: 0 };
  }
  const started = [];
  try {
    for (let i = 0; i < INSTANCES; i++) started.push(await instance(bun, dir, `bun${i}`));
    const answered = new Set<string>();
    // withHaproxy itself waits until every backend is UP (a 30 s guard) before the body.
    await withHaproxy(started, async (balancer) => {
      for (let i = 0; i < INSTANCES * 2; i++) {
        const response = await fetch(`${balancer.url}/books/list`);
        await response.body?.cancel();
        if (response.status !== 200) throw new Error(`through the balancer: ${response.status}`);
        answered.add(response.headers.get("x-backend") ?? "");
      }
    });
    const all = started.map(({ name }) => name).sort();
    if ([...answered].sort().join() !== all.join()) {
      throw new Error(`answered by ${[...answered]} of ${all}`);
    }
    console.log(`ok - ${INSTANCES} Bun instances UP behind HAProxy (GET /health, no Host)`);
    return ok;
  } catch (error) {
    console.log(`not ok - Bun behind HAProxy: ${error instanceof Error ? error.message : error}`);
    return ko;
  } finally {
    await Promise.all(started.map((one) => one.close()));
  }
}
