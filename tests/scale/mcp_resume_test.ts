// A resumable MCP call stream across instances: three ramify MCP servers
// (each its own handler and Redis connection, as three processes have) share
// one real redis-server (sessions, cancellations and call streams' events)
// behind a real HAProxy, round robin without stickiness. A call runs on one
// instance with `pollAfterMs`: its stream is closed mid-call, and the SDK's
// client (v2, and the v1 most 2025-era users run) resumes it through the
// balancer, which sends the GET to another instance: that one replays from
// Redis what the client missed and follows the rest live, and the client gets
// every progress event exactly once, in order, then the answer.
import assert from "node:assert/strict";
import { z } from "zod";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createMcpHandler } from "@ramify/api/tools";
import { api, op } from "@ramify/api/tree";
import {
  connectRedis,
  type Redis,
  redisMcpCancellations,
  redisMcpEvents,
  redisMcpSessions,
} from "@ramify/api/redis";
import { haproxyMissing, withHaproxy } from "../support/haproxy.ts";
import { redisMissing, type RedisServer, withRedis } from "../support/redis.ts";

const missing = [await redisMissing(), await haproxyMissing()].filter((why) => why !== undefined);
const ignore = missing.length > 0;
if (ignore) console.warn(`skipped: ${missing.join("; ")}`);

/** Opens when the test lets the call go on: first after its stream closed, then once resumed. */
const gates = { missed: Promise.withResolvers<void>(), live: Promise.withResolvers<void>() };

const tree = api({
  feed: op(async function* () {
    yield { n: 1 };
    yield { n: 2 };
    // Sent while no stream listens: kept in Redis for the replay.
    await gates.missed.promise;
    yield { n: 3 };
    yield { n: 4 };
    // Sent while the resumed stream, on another instance, follows it live.
    await gates.live.promise;
    yield { n: 5 };
    yield { n: 6 };
  }, { input: z.object({}), tags: { streaming: true, readOnly: true } }),
});

interface Served {
  readonly name: string;
  readonly port: number;
  readonly faults: unknown[];
  close(): Promise<void>;
}

function instance(name: string, redis: Redis): Served {
  const faults: unknown[] = [];
  const mcp = createMcpHandler(tree, {
    sessions: redisMcpSessions(redis),
    cancellations: redisMcpCancellations(redis),
    resumability: { store: redisMcpEvents(redis), pollAfterMs: 100, retryMs: 10 },
    onError: (error) => faults.push(error),
  });
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    (request) => new URL(request.url).pathname === "/health" ? new Response("ok") : mcp(request),
  );
  return {
    name,
    port: server.addr.port,
    faults,
    close: async () => {
      await mcp.close();
      await server.shutdown();
    },
  };
}

/** An MCP client of either SDK, as far as this test uses it: `feed` called with progress. */
interface Caller {
  feed(onprogress: (progress: { progress: number }) => void): Promise<unknown>;
  close(): Promise<void>;
}

/** The events the stream of `feed`'s call holds in Redis now. */
async function kept(redis: RedisServer): Promise<number> {
  const [key] = (await redis.cli("--scan", "--pattern", "*mcp:events:*")).split("\n");
  return key === "" ? 0 : Number(await redis.cli("XLEN", key));
}

async function eventually(done: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!await done()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function resumeTest(
  sdk: string,
  connect: (url: URL, fetch: typeof globalThis.fetch) => Promise<Caller>,
) {
  Deno.test({
    name:
      `MCP resumability on Redis behind HAProxy: the ${sdk} client resumes a polled call on another instance, each event once`,
    ignore,
    fn: () =>
      withRedis(async (redis) => {
        gates.missed = Promise.withResolvers();
        gates.live = Promise.withResolvers();
        const connections = await Promise.all(
          [0, 1, 2].map(() => connectRedis({ url: redis.url, app: "resume" })),
        );
        const instances = connections.map((connection, i) => instance(`app${i}`, connection));
        try {
          await withHaproxy(instances, async (balancer) => {
            // Where each request went, as the balancer says.
            const sent: { call: boolean; resumes: boolean; backend: string | null }[] = [];
            const watched = (async (input: string | URL | Request, init?: RequestInit) => {
              const resumes = new Headers(init?.headers).has("last-event-id");
              if (resumes && sent.every((request) => !request.resumes)) {
                gates.missed.resolve();
                // Priming, 1 and 2 on the closed stream, 3 and 4 since: the replay's part.
                await eventually(async () => await kept(redis) === 5, "3 and 4 kept in Redis");
              }
              const response = await fetch(input, init);
              sent.push({
                call: String(init?.body ?? "").includes('"tools/call"'),
                resumes,
                backend: response.headers.get("x-backend"),
              });
              if (resumes) gates.live.resolve();
              return response;
            }) as typeof fetch;
            const client = await connect(new URL(`${balancer.url}/mcp`), watched);
            try {
              const progress: number[] = [];
              const result = await client.feed((update) => void progress.push(update.progress)) as {
                content: { text: string }[];
              };
              assert.deepEqual(progress, [1, 2, 3, 4, 5, 6], "every event once, in order");
              assert.deepEqual(
                JSON.parse(result.content[0].text),
                [1, 2, 3, 4, 5, 6].map((n) => ({ n })),
              );
              const [call, ...others] = sent.filter((request) => request.call);
              const resumed = sent.filter((request) => request.resumes);
              assert.deepEqual(others, [], "one call");
              assert.equal(resumed.length, 1, JSON.stringify(sent));
              assert.notEqual(resumed[0].backend, call.backend, "resumed on another instance");
              assert.ok(resumed[0].backend?.startsWith("app"), JSON.stringify(sent));
            } finally {
              await client.close();
            }
          });
          assert.deepEqual(instances.flatMap((served) => served.faults), []);
        } finally {
          gates.missed.resolve();
          gates.live.resolve();
          await Promise.all(instances.map((served) => served.close()));
          await Promise.all(connections.map((connection) => connection.close()));
        }
      }),
  });
}

resumeTest("v2", async (url, fetch) => {
  const client = new Client({ name: "resuming", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, { fetch }));
  return {
    feed: (onprogress) => client.callTool({ name: "feed", arguments: {} }, { onprogress }),
    close: () => client.close(),
  };
});

resumeTest("v1", async (url, fetch) => {
  const client = new V1Client({ name: "resuming-v1", version: "1.0.0" });
  await client.connect(new V1Transport(url, { fetch }));
  return {
    feed: (onprogress) =>
      client.callTool({ name: "feed", arguments: {} }, undefined, { onprogress }),
    close: () => client.close(),
  };
});
