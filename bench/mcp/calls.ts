// MCP `tools/call` through the official client: ramify's `createMcpHandler`
// over a tree of 17 tools against the same 17 tools hand-written on the SDK's
// own `McpServer`, served by the SDK's `createMcpHandler` (its documented way
// to serve both eras over web Request/Response). Both on `Deno.serve` at
// 127.0.0.1, one client each (`@modelcontextprotocol/client`: the 2025 era it
// negotiates by default, or pinned to 2026-07-28 with `modern`, where each
// call is a request of its own on both sides), calls made one after another so that a figure is one call's
// cost; the contenders take turns, round after round, so that a noisy
// neighbour slows both alike. Prints p50/p90 latency, calls per second and the
// CPU this process spent per call (client and server, the median round:
// steadier than latency on a shared machine) per contender, and the ratio.
//
//   deno run -A --unstable-no-legacy-abort bench/mcp/calls.ts [calls per round = 400] [rounds = 5] [legacy|modern] [before]
//
// `before`, a checkout of another commit (a git worktree), adds its
// `createMcpHandler` as a third contender, in the same rounds.
import process from "node:process";
import { z } from "zod";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createMcpHandler as sdkHandler, McpServer } from "@modelcontextprotocol/server";
import * as tree from "../../tree/mod.ts";
import * as tools from "../../tools/mod.ts";

const CALLS = Number(Deno.args[0] ?? 400);
const ROUNDS = Number(Deno.args[1] ?? 5);
const ERA = Deno.args[2] ?? "legacy";
if (ERA !== "legacy" && ERA !== "modern") throw new Error(`era: legacy or modern, got ${ERA}`);
const BEFORE = Deno.args[3];

/** The 17 tools: a few shapes of input and output, every one a quick handler. */
const TOOLS = Array.from({ length: 15 }, (_, i) => `lookup${i}`);
const Lookup = z.object({ id: z.string(), limit: z.number().int().optional() });
const lookup = ({ id, limit }: z.infer<typeof Lookup>) => ({ id, limit: limit ?? 10, found: true });
const Add = z.object({ a: z.number(), b: z.number() });

function ramifyTree({ api, op }: typeof tree) {
  return api({
    add: op(({ a, b }: z.infer<typeof Add>) => ({ sum: a + b }), {
      input: Add,
      tags: { readOnly: true },
    }),
    ping: op(() => "pong", { input: z.object({}), tags: { readOnly: true } }),
    ...Object.fromEntries(
      TOOLS.map((name) => [name, op(lookup, { input: Lookup, tags: { readOnly: true } })]),
    ),
  });
}

function sdkServer(): McpServer {
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

interface Contender {
  readonly name: string;
  readonly client: Client;
  readonly close: () => Promise<void>;
  readonly samples: number[];
  /** CPU µs per call of each kept round: client and server, this process. */
  readonly cpu: number[];
}

async function start(
  name: string,
  fetch: (request: Request) => Promise<Response>,
): Promise<Contender> {
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, fetch);
  const client = new Client(
    { name: "bench", version: "1.0.0" },
    ERA === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.addr.port}/mcp`)),
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
      await server.shutdown();
    },
  };
}

/** One call of each shape in turn; a wrong answer stops the bench. */
async function call(client: Client, i: number): Promise<void> {
  const which = i % 3;
  const result = which === 0
    ? await client.callTool({ name: "add", arguments: { a: i, b: 1 } })
    : which === 1
    ? await client.callTool({ name: "ping", arguments: {} })
    : await client.callTool({ name: TOOLS[i % TOOLS.length], arguments: { id: `b${i}` } });
  if (result.isError === true) throw new Error(`call ${i} failed: ${JSON.stringify(result)}`);
}

async function round(contender: Contender, calls: number, keep: boolean): Promise<void> {
  const cpu = process.cpuUsage();
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await call(contender.client, i);
    if (keep) contender.samples.push(performance.now() - started);
  }
  const used = process.cpuUsage(cpu);
  if (keep) contender.cpu.push((used.user + used.system) / calls);
}

const quantile = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** ramify's handler from this checkout's modules, or another's (`dir`). */
async function ramifyOf(dir?: string): Promise<tools.McpFetchHandler> {
  const [own, served]: [typeof tree, typeof tools] = dir === undefined
    ? [tree, tools]
    : [await import(`${dir}/tree/mod.ts`), await import(`${dir}/tools/mod.ts`)];
  return served.createMcpHandler(ramifyTree(own), { warnMissingHints: false });
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
  `Deno ${Deno.version.deno}, ${
    ERA === "modern" ? "2026-07-28" : "2025"
  } era, ${ROUNDS} rounds of ${CALLS} sequential tools/call`,
);
const p50s: number[] = [];
const cpus: number[] = [];
for (const { name, samples, cpu } of contenders) {
  const sorted = [...samples].sort((a, b) => a - b);
  const total = samples.reduce((sum, ms) => sum + ms, 0);
  p50s.push(quantile(sorted, 0.5));
  cpus.push(quantile([...cpu].sort((a, b) => a - b), 0.5));
  console.log(
    `${name.padEnd(34)} p50 ${quantile(sorted, 0.5).toFixed(3)} ms  p90 ${
      quantile(sorted, 0.9).toFixed(3)
    } ms  ${(samples.length / (total / 1000)).toFixed(0)} calls/s  CPU ${
      cpus.at(-1)!.toFixed(0)
    } µs/call`,
  );
}
for (const [i, { name }] of contenders.slice(0, -1).entries()) {
  const p50 = (p50s[i] / p50s.at(-1)!).toFixed(2);
  console.log(`${name} / SDK: p50 ${p50}x, CPU ${(cpus[i] / cpus.at(-1)!).toFixed(2)}x`);
}
