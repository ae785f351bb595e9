// The server programs of docs/serve.md (the page the README points to for
// Node and Bun, copied beside this module) run as a reader runs them: a block copied to a
// file of the consumer project, started with the runtime running this module
// (node, or bun), called over the network, stopped; what it printed on
// standard error comes back, so that a suite can require nothing there. Only
// Node's built-ins: the bare consumer (the README's npm line alone) uses it too.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import process from "node:process";
import { MCP_HELLO } from "./mcp_hello.mjs";

const README = readFileSync("serve.md", "utf8");

/** Where each program is in docs/serve.md: the first `js` block after these words. */
export const APPS = {
  serve: "## Everything at once",
  hono: "on Node, serve `createFetch(tree)`",
  bun: "On Bun, `Bun.serve` takes the handler as it is:",
  bunWebSocket: "and `handleBunWebSocket` from `@ramify/api/graphql/ws` adds",
};

/** The program after `marker`, as the README shows it (listening on 8000). */
export function readmeApp(marker) {
  const at = README.indexOf(marker);
  assert.ok(at >= 0, `the README says ${marker}`);
  const code = /```js(?: ignore)?\n([\s\S]*?)```/.exec(README.slice(at))?.[1];
  assert.ok(code?.includes("port: 8000"), `a program listening on 8000 follows ${marker}`);
  return code;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    }).on("error", reject);
  });
}

/**
 * Runs `code` on a free port until `ready` answers, then `calls(base)`;
 * stops it and returns its standard error. A failure shows that output.
 */
export async function runApp(code, ready, calls) {
  const port = await freePort();
  const file = `.readme_app_${process.pid}_${port}.mjs`;
  writeFileSync(file, code.replace("port: 8000", `port: ${port}`));
  const child = spawn(process.execPath, [file], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => stderr += chunk);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const base = `http://127.0.0.1:${port}`;
  let failure;
  try {
    for (let tries = 0;; tries++) {
      const up = await fetch(`${base}${ready}`).then((r) => r.arrayBuffer(), () => undefined);
      if (up !== undefined) break;
      if (tries === 600) throw new Error("the program did not start");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await calls(base);
  } catch (error) {
    failure = error;
  } finally {
    child.kill("SIGTERM");
    await exited;
    rmSync(file, { force: true });
  }
  if (failure !== undefined) {
    throw new Error(`${failure?.stack ?? failure}\nthe program printed:\n${stderr}`, {
      cause: failure,
    });
  }
  return stderr;
}

/** Calls `url`; checks the status and returns the body's text. */
export async function expectStatus(url, status, init = {}) {
  const response = await fetch(url, init);
  const text = await response.text();
  assert.equal(response.status, status, `${init.method ?? "GET"} ${url}: ${text.slice(0, 200)}`);
  return text;
}

/** The README's `serve()` program with every optional peer installed: each surface answers. */
export async function checkEverySurface(base) {
  assert.equal(await expectStatus(`${base}/hello?name=Ann`, 200), '"Hello, Ann"');
  await expectStatus(`${base}/hello`, 422);
  await expectStatus(`${base}/mcp`, 200, MCP_HELLO);
  await expectStatus(`${base}/docs/assets/swagger-ui-bundle.js`, 200);
  await expectStatus(`${base}/graphql/assets/graphiql.js`, 200);
  const graphiql = await expectStatus(`${base}/graphql`, 200, { headers: { accept: "text/html" } });
  assert.match(graphiql, /graphiql-init\.js/);
}
