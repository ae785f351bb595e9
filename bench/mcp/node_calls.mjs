// bench/mcp/calls.ts on Node, from the npm build: ramify's `createMcpHandler`
// over 17 tools against the same 17 tools hand-written on the SDK's own
// `McpServer` (served by the SDK's `createMcpHandler`), both on `node:http`
// through ramify's `serveNode` (one adapter for both, so that only the MCP
// servers differ), one official client each, calls made one after another,
// the contenders taking turns round after round. Prints p50/p90 latency,
// calls per second and the CPU this process spent per call (client and
// server, the median round: steadier than latency on a shared machine) per
// contender, and the ratio.
//
// Run where the built package is installed beside the SDK's server and client
// and zod (a consumer project of `npm/`, as scripts/npm_test/ runs):
//
//   node node_calls.mjs [calls per round = 400] [rounds = 5] [legacy|modern] [before]
//
// `before`, a module of another build exporting `api`, `op` and
// `createMcpHandler` (one bundle, so that its tree and its server agree), adds
// its handler as a third contender, in the same rounds.
import process from "node:process";
import { z } from "zod";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createMcpHandler as sdkHandler, McpServer } from "@modelcontextprotocol/server";
import * as tree from "@ramify/api/tree";
import * as tools from "@ramify/api/tools";
import { serveNode } from "@ramify/api/serve/node";

const CALLS = Number(process.argv[2] ?? 400);
const ROUNDS = Number(process.argv[3] ?? 5);
const ERA = process.argv[4] ?? "legacy";
if (ERA !== "legacy" && ERA !== "modern") throw new Error(`era: legacy or modern, got ${ERA}`);
const BEFORE = process.argv[5];

const TOOLS = Array.from({ length: 15 }, (_, i) => `lookup${i}`);
const Lookup = z.object({ id: z.string(), limit: z.number().int().optional() });
const lookup = ({ id, limit }) => ({ id, limit: limit ?? 10, found: true });
const Add = z.object({ a: z.number(), b: z.number() });

function ramifyTree({ api, op }) {
  return api({
    add: op(({ a, b }) => ({ sum: a + b }), { input: Add, tags: { readOnly: true } }),
    ping: op(() => "pong", { input: z.object({}), tags: { readOnly: true } }),
    ...Object.fromEntries(
      TOOLS.map((name) => [name, op(lookup, { input: Lookup, tags: { readOnly: true } })]),
    ),
  });
}

function sdkServer() {
  const server = new McpServer({ name: "bench", version: "1.0.0" });
  const hints = { annotations: { readOnlyHint: true } };
  server.registerTool("add", { inputSchema: Add, ...hints }, ({ a, b }) => ({
    content: [{ type: "text", text: JSON.stringify({ sum: a + b }) }],
  }));
  server.registerTool("ping", { inputSchema: z.object({}), ...hints }, () => ({
    content: [{ type: "text", text: "pong" }],
  }));
  for (const name of TOOLS) {
    server.registerTool(name, { inputSchema: Lookup, ...hints }, (input) => ({
      content: [{ type: "text", text: JSON.stringify(lookup(input)) }],
    }));
  }
  return server;
}

async function start(name, fetch) {
  const server = await serveNode(
    { fetch, paths: {}, close: () => Promise.resolve() },
    { port: 0, hostname: "127.0.0.1" },
  );
  const client = new Client(
    { name: "bench", version: "1.0.0" },
    ERA === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`)),
  );
  const tools = await client.listTools();
  if (tools.tools.length !== 17) throw new Error(`${name} lists ${tools.tools.length} tools`);
  return {
    name,
    client,
    samples: [],
    cpu: [],
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** One call of each shape in turn; a wrong answer stops the bench. */
async function call(client, i) {
  const which = i % 3;
  const result = which === 0
    ? await client.callTool({ name: "add", arguments: { a: i, b: 1 } })
    : which === 1
    ? await client.callTool({ name: "ping", arguments: {} })
    : await client.callTool({ name: TOOLS[i % TOOLS.length], arguments: { id: `b${i}` } });
  if (result.isError === true) throw new Error(`call ${i} failed: ${JSON.stringify(result)}`);
}

async function round(contender, calls, keep) {
  const cpu = process.cpuUsage();
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await call(contender.client, i);
    if (keep) contender.samples.push(performance.now() - started);
  }
  const used = process.cpuUsage(cpu);
  if (keep) contender.cpu.push((used.user + used.system) / calls);
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** ramify's handler from the installed package, or from another build's module. */
async function ramifyOf(module) {
  const built = module === undefined ? { ...tree, ...tools } : await import(module);
  return built.createMcpHandler(ramifyTree(built), { warnMissingHints: false });
}

const ramifys = [await ramifyOf(), ...(BEFORE === undefined ? [] : [await ramifyOf(BEFORE)])];
const sdk = sdkHandler(() => sdkServer());
const contenders = [
  await start("ramify createMcpHandler", (request) => ramifys[0](request)),
  ...(ramifys[1] === undefined
    ? []
    : [await start("ramify before", (request) => ramifys[1](request))]),
  await start("SDK McpServer + createMcpHandler", (request) => sdk.fetch(request)),
];
try {
  for (const contender of contenders) await round(contender, 100, false);
  for (let r = 0; r < ROUNDS; r++) {
    for (const contender of r % 2 === 0 ? contenders : [...contenders].reverse()) {
      await round(contender, CALLS, true);
    }
  }
} finally {
  for (const contender of contenders) await contender.close();
  for (const ramify of ramifys) await ramify.close();
  await sdk.close();
}

console.log(
  `Node ${process.version}, ${
    ERA === "modern" ? "2026-07-28" : "2025"
  } era, ${ROUNDS} rounds of ${CALLS} sequential tools/call`,
);
const p50s = [];
const cpus = [];
for (const { name, samples, cpu } of contenders) {
  const sorted = [...samples].sort((a, b) => a - b);
  const total = samples.reduce((sum, ms) => sum + ms, 0);
  p50s.push(quantile(sorted, 0.5));
  cpus.push(quantile([...cpu].sort((a, b) => a - b), 0.5));
  console.log(
    `${name.padEnd(34)} p50 ${quantile(sorted, 0.5).toFixed(3)} ms  p90 ${
      quantile(sorted, 0.9).toFixed(3)
    } ms  ${(samples.length / (total / 1000)).toFixed(0)} calls/s  CPU ${
      cpus.at(-1).toFixed(0)
    } µs/call`,
  );
}
for (const [i, { name }] of contenders.slice(0, -1).entries()) {
  const p50 = (p50s[i] / p50s.at(-1)).toFixed(2);
  console.log(`${name} / SDK: p50 ${p50}x, CPU ${(cpus[i] / cpus.at(-1)).toFixed(2)}x`);
}
