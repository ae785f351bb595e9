// The agreement suite, part four: failures. One tree whose leaves fail in every
// way a leaf can (an abort the client did not cause, a deadline, a declared
// error and a crash in the middle of a stream, a rejected promise inside a
// result), called through every surface and client. Each must answer with the
// same status (HTTP, MCP, the command line) or the matching code (GraphQL),
// report to its onError the faults and nothing else, and keep serving.
import assert from "node:assert/strict";
import { untilAborted } from "./support/outcomes.ts";
import { createClient as createWsClient } from "graphql-ws";
import { api, HttpError, LeafError, op } from "@ramify/api/tree";
import { codeOfStatus, createCall, failureOf, runCall } from "@ramify/api/tree/catalogue";
import { ClientError, createClient, createFetch } from "@ramify/api/http";
import { http } from "@ramify/api/http/verbs";
import {
  createGraphQLClient,
  createGraphQLServer,
  createHttpGraphQLServer,
  generateGraphQLClient,
} from "@ramify/api/graphql";
import { httpTransport, wsTransport } from "@ramify/api/graphql/client";
import { createWsHandler } from "@ramify/api/graphql/ws";
import { createMcpHandler } from "@ramify/api/tools";
import { Client as McpClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  callThrough,
  cliCall,
  leafAt,
  mcpCall,
  openapiCall,
  type Step,
} from "./support/agreement.ts";
import { mountSurfaces } from "./support/every_surface.ts";

const TIMEOUT_MS = 100;
const SOLD_OUT = { SOLD_OUT: { status: 409, message: "Sold out" } };

const tree = api({
  ping: op(() => "pong", http.get),
  missing: op(() => {
    throw new HttpError(404, "No such thing");
  }, http.get),
  // An upstream call the server itself cut off: the client is still there.
  upstream: op(() => {
    throw new DOMException("The upstream call was aborted", "AbortError");
  }, http.get),
  slow: op((_input, ctx) => untilAborted(ctx.signal), http.get),
  lazy: op(() => ({ id: "1", author: Promise.reject(new Error("a lazy field failed")) }), http.get),
  soldOutFeed: op(async function* () {
    yield 1;
    throw new LeafError("SOLD_OUT");
  }, { tags: { streaming: true }, errors: SOLD_OUT }),
  crashingFeed: op(async function* () {
    yield 1;
    throw new Error("the feed crashed");
  }, { tags: { streaming: true } }),
});

/** What a failure looks like from outside: a status, and a declared code where there is one. */
interface Failed {
  readonly status: number;
  readonly code?: string;
}

type Outcome =
  | { readonly value: unknown }
  | { readonly items: readonly unknown[]; readonly failed?: Failed }
  | { readonly failed: Failed };

interface Case {
  readonly name: string;
  readonly steps: readonly Step[];
  readonly stream?: boolean;
  readonly expect: Outcome;
  /** Faults each server surface must report to its onError. */
  readonly faults?: number;
}

const CASES: readonly Case[] = [
  { name: "a plain call answers", steps: ["ping"], expect: { value: "pong" } },
  {
    name: "an HttpError is the caller's to see, with its status",
    steps: ["missing"],
    expect: { failed: { status: 404 } },
  },
  {
    name: "an AbortError the client did not cause is a server fault, reported",
    steps: ["upstream"],
    expect: { failed: { status: 500 } },
    faults: 1,
  },
  {
    name: "a handler past its deadline times out (503), not reported",
    steps: ["slow"],
    expect: { failed: { status: 503 } },
  },
  {
    name: "a rejected promise inside a result is a server fault, reported, and crashes nothing",
    steps: ["lazy"],
    expect: { failed: { status: 500 } },
    faults: 1,
  },
  {
    name: "a declared error thrown mid-stream ends the stream with its status and code",
    steps: ["soldOutFeed"],
    stream: true,
    expect: { items: [1], failed: { status: 409, code: "SOLD_OUT" } },
  },
  {
    name: "a crash mid-stream ends the stream with a server fault, reported",
    steps: ["crashingFeed"],
    stream: true,
    expect: { items: [1], failed: { status: 500 } },
    faults: 1,
  },
];

interface Surface {
  readonly name: string;
  readonly streams: boolean;
  call(steps: readonly Step[], stream?: boolean): Promise<unknown>;
  /** The failure as this surface shows it; `undefined` for an error that is not a surface's answer. */
  failed(error: unknown): Failed | undefined;
  /** What the server reported to onError during the last call (undefined: no server). */
  readonly reported?: unknown[];
}

/** A GraphQL error's code, checked against the status the other surfaces give. */
function graphqlFailed(error: unknown): Failed | undefined {
  const first = (error as { errors?: { message: string; extensions?: Record<string, unknown> }[] })
    .errors?.[0];
  const code = first?.extensions?.code;
  if (typeof code !== "string") return undefined;
  if (code === "INTERNAL_SERVER_ERROR") {
    assert.equal(first!.message, "Unexpected error.", "a fault is masked");
    return { status: 500 };
  }
  const status = first!.extensions!.status;
  if (typeof status !== "number") return undefined;
  return codeOfStatus(status) === code ? { status } : { status, code };
}

/** An HTTP client's error: the status, and the problem's code when the leaf declared one. */
function clientFailed(error: unknown): Failed | undefined {
  if (!(error instanceof ClientError)) return undefined;
  return error.code === undefined
    ? { status: error.status }
    : { status: error.status, code: error.code };
}

/** A text surface's failure line: `409 Conflict [SOLD_OUT]: Sold out`. */
function lineFailed(error: unknown): Failed | undefined {
  const status = (error as { status?: number }).status;
  if (typeof status !== "number" || Number.isNaN(status)) return undefined;
  const code = /^(?:error: )?\d{3} [^[\n]*\[([^\]]+)\]/.exec(String((error as Error).message))?.[1];
  if (status === 500) {
    assert.doesNotMatch(String(error), /crashed|lazy|upstream/, "a fault is masked");
  }
  return code === undefined ? { status } : { status, code };
}

async function outcomeOf(surface: Surface, test: Case): Promise<Outcome> {
  const items: unknown[] = [];
  try {
    const result = await surface.call(test.steps, test.stream);
    if (!test.stream) return { value: result };
    for await (const item of result as AsyncIterable<unknown>) items.push(item);
    return { items };
  } catch (error) {
    const failed = surface.failed(error);
    if (failed === undefined) {
      throw new Error(`${surface.name}: ${test.name}: unexpected error`, { cause: error });
    }
    return test.stream ? { items, failed } : { failed };
  }
}

Deno.test("agreement: every surface gives the same status for each way a leaf fails, reports faults only, and keeps serving", async (t) => {
  const unhandled: unknown[] = [];
  const onUnhandled = (event: PromiseRejectionEvent) => {
    unhandled.push(event.reason);
    event.preventDefault();
  };
  globalThis.addEventListener("unhandledrejection", onUnhandled);
  const httpReported: unknown[] = [];
  const graphqlReported: unknown[] = [];
  const mcpReported: unknown[] = [];
  const cliReported: unknown[] = [];
  const timeoutMs = TIMEOUT_MS;
  const rest = createFetch(tree, { timeoutMs, onError: (error) => httpReported.push(error) });
  const graphqlOptions = { timeoutMs, onError: (error: unknown) => graphqlReported.push(error) };
  const graphqlHttp = createHttpGraphQLServer(tree, graphqlOptions);
  const graphqlWs = createWsHandler(createGraphQLServer(tree, graphqlOptions));
  const mcp = createMcpHandler(tree, { timeoutMs, onError: (error) => mcpReported.push(error) });
  const server = mountSurfaces({ rest, graphqlHttp, graphqlWs, mcp });
  const origin = `127.0.0.1:${server.addr.port}`;
  const socket = createWsClient({ url: `ws://${origin}/graphql`, retryAttempts: 0 });
  const dir = await Deno.makeTempDir({ prefix: "ramify-failures-" });
  const mcpClient = new McpClient({ name: "failures", version: "1.0.0" });
  try {
    await mcpClient.connect(new StreamableHTTPClientTransport(new URL(`http://${origin}/mcp`)));
    await Deno.writeTextFile(`${dir}/client.ts`, generateGraphQLClient(tree));
    const generated = await import(`file://${dir}/client.ts`);
    const restClient = createClient(tree, { baseUrl: `http://${origin}` });
    const openapi = openapiCall(`http://${origin}`, tree);
    const graphqlSurface = (name: string, client: unknown, streams = false): Surface => ({
      name,
      streams,
      reported: graphqlReported,
      call: (steps) => callThrough(client, steps),
      failed: graphqlFailed,
    });
    const mcpSurface = mcpCall(mcpClient);
    const surfaces: Surface[] = [
      {
        name: "the call runner",
        streams: true,
        call: async (steps) => {
          const { node, captures } = leafAt(tree, steps);
          const call = createCall(node, { captures: Object.keys(captures) });
          return await runCall(call, captures, {}, timeoutMs);
        },
        failed: (error) => {
          const { status, code, declaredCode } = failureOf(error);
          return declaredCode ? { status, code } : { status };
        },
      },
      {
        name: "HTTP client over createFetch",
        streams: true,
        reported: httpReported,
        call: (steps) => callThrough(restClient, steps),
        failed: clientFailed,
      },
      {
        name: "openapi-fetch over the served document",
        streams: false,
        reported: httpReported,
        call: (steps) => openapi(steps),
        failed: (error) => {
          const { status, body } = error as { status?: number; body?: { code?: string } };
          if (typeof status !== "number") return undefined;
          return body?.code === undefined ? { status } : { status, code: body.code };
        },
      },
      graphqlSurface(
        "GraphQL client over HTTP",
        createGraphQLClient(tree, {
          transport: httpTransport({ url: `http://${origin}/graphql` }),
        }),
      ),
      graphqlSurface(
        "GraphQL client over WebSocket",
        createGraphQLClient(tree, { transport: wsTransport(socket) }),
        true,
      ),
      graphqlSurface(
        "generated GraphQL client over HTTP",
        generated.createClient(generated.httpTransport(`http://${origin}/graphql`)),
      ),
      {
        name: "command line, in process",
        streams: true,
        reported: cliReported,
        call: (steps, stream) =>
          cliCall(tree, undefined, { timeoutMs, onError: (error) => cliReported.push(error) })(
            steps,
            {},
            stream,
          ),
        failed: lineFailed,
      },
      {
        name: "command line, against the server (--url)",
        streams: true,
        reported: httpReported,
        call: (steps, stream) => cliCall(tree, `http://${origin}`)(steps, {}, stream),
        failed: lineFailed,
      },
      {
        name: "MCP client over Streamable HTTP",
        streams: true,
        reported: mcpReported,
        call: (steps, stream) => mcpSurface(steps, {}, stream),
        failed: lineFailed,
      },
    ];
    for (const surface of surfaces) {
      await t.step(surface.name, async () => {
        for (const test of CASES) {
          if (test.stream && !surface.streams) continue;
          surface.reported?.splice(0);
          const where = `${surface.name}: ${test.name}`;
          assert.deepEqual(await outcomeOf(surface, test), test.expect, where);
          if (surface.reported !== undefined) {
            assert.equal(surface.reported.length, test.faults ?? 0, `${where}: onError calls`);
          }
        }
        // Still serving after every failure.
        assert.deepEqual(await outcomeOf(surface, CASES[0]), CASES[0].expect, surface.name);
      });
    }
    // Give a late rejection its turn before counting.
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(unhandled, [], "no promise was left to reject unhandled");
  } finally {
    globalThis.removeEventListener("unhandledrejection", onUnhandled);
    await mcpClient.close();
    await mcp.close();
    await socket.dispose();
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
