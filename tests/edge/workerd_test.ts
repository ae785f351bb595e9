// Runs at the edge, proven: the REST + GraphQL worker (tests/support/size_entries/
// rest_graphql.ts), bundled for the browser platform with zod and graphql inside,
// served by Cloudflare's workerd (the npm package ships the runtime) and called
// over the network: a GET with a capture, a 422 problem, the OpenAPI document
// and a GraphQL answer. workerd comes from PATH, or is installed from npm once
// into a temporary folder shared by later runs.
import assert from "node:assert/strict";
import { bundle } from "../support/bundle.ts";

const WORKER = new URL("../support/size_entries/rest_graphql.ts", import.meta.url).pathname;
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

async function findWorkerd(): Promise<string | undefined> {
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
    console.warn(`workerd test: npm is not available (${error})`);
  }
  return await runs(installed) ? installed : undefined;
}

const workerd = await findWorkerd();
if (workerd === undefined) {
  console.warn("workerd test skipped: workerd is not on PATH and `npm install workerd` failed");
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

async function waitUntilUp(base: string, child: Deno.ChildProcess): Promise<void> {
  let exited = false;
  child.status.then(() => exited = true);
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline && !exited) {
    try {
      await (await fetch(`${base}/openapi.json`)).body?.cancel();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(exited ? "workerd exited" : "workerd did not answer within 15 s");
}

Deno.test({
  name: "edge: the REST + GraphQL worker runs on workerd, called over the network",
  ignore: workerd === undefined,
  async fn() {
    const dir = await Deno.makeTempDir();
    const code = await bundle(WORKER);
    // No package stays an import: workerd gets one self-contained module.
    assert.ok(!/\bfrom"[^".][^"]*"/.test(code), "the bundle imports a package");
    await Deno.writeTextFile(`${dir}/worker.js`, code);
    const port = freePort();
    await Deno.writeTextFile(`${dir}/config.capnp`, config(port));
    const child = new Deno.Command(workerd!, {
      args: ["serve", `${dir}/config.capnp`],
      cwd: dir,
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const base = `http://127.0.0.1:${port}`;
    try {
      await waitUntilUp(base, child);

      const read = await fetch(`${base}/items/abc`);
      assert.equal(read.status, 200);
      assert.deepEqual(await read.json(), { id: "abc" });

      const bad = await fetch(`${base}/items/add`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "" }),
      });
      assert.equal(bad.status, 422);
      assert.equal(bad.headers.get("content-type"), "application/problem+json");
      const problem = await bad.json();
      assert.equal(problem.status, 422);
      assert.deepEqual(problem.issues[0].path, ["name"]);

      const good = await fetch(`${base}/items/add`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "x" }),
      });
      assert.deepEqual(await good.json(), { name: "x", added: true });

      const document = await fetch(`${base}/openapi.json`);
      assert.equal(document.status, 200);
      const openapi = await document.json();
      assert.equal(openapi.openapi, "3.1.0");
      assert.deepEqual(Object.keys(openapi.paths).sort(), ["/items/add", "/items/{id}"]);
      assert.ok(openapi.paths["/items/add"].post.requestBody, "the POST's body is described");

      const graphql = await fetch(`${base}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ query: '{ items { read(id: "abc") } }' }),
      });
      assert.equal(graphql.status, 200);
      assert.deepEqual(await graphql.json(), { data: { items: { read: { id: "abc" } } } });
    } finally {
      child.kill("SIGTERM");
      const { stderr } = await child.output();
      const log = new TextDecoder().decode(stderr);
      await Deno.remove(dir, { recursive: true });
      assert.ok(!/uncaught|error/i.test(log), `workerd logged:\n${log}`);
    }
  },
});
