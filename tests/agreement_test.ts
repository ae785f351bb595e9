// The agreement suite: one tree, one table of calls, run through every surface
// and client (the call path itself, the HTTP client over a live createFetch,
// openapi-fetch over the served document, the GraphQL client over HTTP and over
// WebSocket, the generated GraphQL client over HTTP and over WebSocket, the MCP
// SDK's client over Streamable HTTP, and the command line in process and
// against the server). Every surface must give the same values and the same
// kinds of error (a declared one with its code and data), report server faults
// to its onError, and never put a hidden field on the wire.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, LeafError, op } from "@ramify/api/tree";
import { createCall, InputError, OutputError } from "@ramify/api/tree/catalogue";
import { ClientError, createClient } from "@ramify/api/http";
import { http } from "@ramify/api/http/verbs";
import { createGraphQLClient } from "@ramify/api/graphql";
import { GraphQLClientError, httpTransport, wsTransport } from "@ramify/api/graphql/client";
import {
  callThrough,
  cliCall,
  leafAt,
  mcpCall,
  openapiCall,
  type Step,
} from "./support/agreement.ts";
import { serveEverySurface } from "./support/every_surface.ts";

const User = z.object({ id: z.string(), name: z.string() });
type UserIn = z.input<typeof User>;
const SECRET = "hunter2-secret";
const TAKEN = { TAKEN: { status: 409, message: "Taken", data: z.object({ by: z.string() }) } };
const TAKEN_DATA = { by: "ann" };

const tree = api({
  users: api({
    me: op(() => ({ id: "7", name: "Ann", passwordHash: SECRET }), http.get, { output: User }),
    broken: op(() => ({ id: 7, passwordHash: SECRET }) as unknown as UserIn, http.get, {
      output: User,
    }),
    rename: op(({ name }) => ({ id: "7", name, passwordHash: SECRET }), {
      input: z.object({ name: z.string().min(1) }),
      output: User,
    }),
    reserve: op((): UserIn => {
      throw new LeafError("TAKEN", { data: TAKEN_DATA });
    }, { output: User, errors: TAKEN }),
  }, {
    fallback: {
      name: "userId",
      subtree: api({
        read: op(({ userId }) => ({ id: userId, name: "Ann", passwordHash: SECRET }), http.get, {
          input: z.object({}),
          output: User,
        }),
      }),
    },
  }),
  feed: op(async function* () {
    yield { id: "1", name: "Ann", passwordHash: SECRET };
    yield { id: "2", name: "Bob", passwordHash: SECRET };
  }, { tags: { streaming: true }, output: User }),
  badFeed: op(async function* () {
    yield { id: "1", name: "Ann" };
    yield { id: 2, passwordHash: SECRET } as unknown as UserIn;
  }, { tags: { streaming: true }, output: User }),
  takenFeed: op(async function* (): AsyncGenerator<UserIn> {
    yield { id: "1", name: "Ann" };
    throw new LeafError("TAKEN", { data: TAKEN_DATA });
  }, { tags: { streaming: true }, output: User, errors: TAKEN }),
});

/** How a call failed: bad input, a server fault, or the error the leaf declares (`TAKEN`). */
type Kind = "input" | "fault" | "declared";

type Outcome =
  | { readonly value: unknown }
  | { readonly items: readonly unknown[]; readonly error?: Kind }
  | { readonly error: Kind };

interface Case {
  readonly name: string;
  readonly steps: readonly Step[];
  readonly input?: Record<string, unknown>;
  readonly stream?: boolean;
  readonly expect: Outcome;
  /** Server faults each server surface must report to its onError. */
  readonly faults?: number;
}

const CASES: readonly Case[] = [
  {
    name: "an output schema strips unknown keys (query)",
    steps: ["users", "me"],
    expect: { value: { id: "7", name: "Ann" } },
  },
  {
    name: "an output schema strips unknown keys (mutation with validated input)",
    steps: ["users", "rename"],
    input: { name: "Bo" },
    expect: { value: { id: "7", name: "Bo" } },
  },
  {
    name: "a capture the input schema does not name still reaches the handler",
    steps: ["users", ["userId", "9"], "read"],
    expect: { value: { id: "9", name: "Ann" } },
  },
  {
    name: "invalid input is the caller's error",
    steps: ["users", "rename"],
    input: { name: "" },
    expect: { error: "input" },
  },
  {
    name: "a result that breaks the output schema is a server fault, reported",
    steps: ["users", "broken"],
    expect: { error: "fault" },
    faults: 1,
  },
  {
    name: "a stream's items are shaped by the output schema",
    steps: ["feed"],
    stream: true,
    expect: { items: [{ id: "1", name: "Ann" }, { id: "2", name: "Bob" }] },
  },
  {
    name: "a stream item that breaks the output schema ends it with a server fault",
    steps: ["badFeed"],
    stream: true,
    expect: { items: [{ id: "1", name: "Ann" }], error: "fault" },
    faults: 1,
  },
  {
    name: "a declared error reaches the caller with its code and data, not reported",
    steps: ["users", "reserve"],
    expect: { error: "declared" },
  },
  {
    name: "a declared error thrown mid-stream ends it with its code and data",
    steps: ["takenFeed"],
    stream: true,
    expect: { items: [{ id: "1", name: "Ann" }], error: "declared" },
  },
];

interface Surface {
  readonly name: string;
  readonly streams: boolean;
  call(
    steps: readonly Step[],
    input: Record<string, unknown> | undefined,
    stream?: boolean,
  ): Promise<unknown>;
  classify(error: unknown): Kind | undefined;
  /** What the server reported to onError during the last call (undefined: no server). */
  readonly reported?: unknown[];
}

/** The declared error, checked: its code, and its data where the surface carries it. */
function declared(code: unknown, ...data: unknown[]): "declared" | undefined {
  if (code !== "TAKEN") return undefined;
  for (const item of data) assert.deepEqual(item, TAKEN_DATA, "the declared error's data");
  return "declared";
}

/**
 * A GraphQL client's error; both clients (the package's and the generated
 * one) give a declared error's code and details typed, from `extensions`.
 */
function graphqlKind(error: unknown): Kind | undefined {
  const { errors, code, details } = error as {
    errors?: { message: string; extensions?: { code?: unknown; data?: unknown } }[];
    code?: unknown;
    details?: unknown;
  };
  const first = errors?.[0];
  if (first?.extensions?.code === "TAKEN") {
    assert.equal(code, "TAKEN", "the client's typed code");
    return declared(code, details, first.extensions.data);
  }
  if (first?.extensions?.code === "BAD_USER_INPUT") return "input";
  if (first?.extensions?.code === "INTERNAL_SERVER_ERROR") {
    assert.equal(first.message, "Unexpected error.", "a fault is masked");
    return "fault";
  }
  return undefined;
}

/** A failed command: exit code 1 and one line starting with the status (and a code). */
function cliKind(error: unknown): Kind | undefined {
  const { status, exitCode, code } = error as { status?: number; exitCode?: number; code?: string };
  if (exitCode !== 1) return undefined;
  if (status === 409) return declared(code);
  return status === 422 ? "input" : status === 500 ? "fault" : undefined;
}

async function outcomeOf(surface: Surface, test: Case): Promise<Outcome> {
  const items: unknown[] = [];
  try {
    const result = await surface.call(test.steps, test.input, test.stream);
    if (!test.stream) return { value: result };
    for await (const item of result as AsyncIterable<unknown>) items.push(item);
    return { items };
  } catch (error) {
    const kind = surface.classify(error);
    if (kind === undefined) {
      throw new Error(`${surface.name}: ${test.name}: unexpected error`, { cause: error });
    }
    return test.stream ? { items, error: kind } : { error: kind };
  }
}

Deno.test("agreement: every surface gives the same values and errors, and hides what the output schema does not name", async (t) => {
  const httpReported: unknown[] = [];
  const graphqlReported: unknown[] = [];
  const wire: string[] = [];
  const recording =
    (target: typeof fetch) => async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await target(input, init);
      if (response.headers.get("content-type")?.includes("event-stream")) return response;
      const text = await response.text();
      wire.push(text);
      return new Response(text, response);
    };
  class RecordingWebSocket extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener("message", (event) => wire.push(String(event.data)));
    }
  }

  const mcpReported: unknown[] = [];
  const { base, mcpClient, socket, generated, close } = await serveEverySurface(tree, {
    onError: {
      rest: (error) => httpReported.push(error),
      graphql: (error) => graphqlReported.push(error),
      mcp: (error) => mcpReported.push(error),
    },
    mcpFetch: recording(fetch),
    webSocketImpl: RecordingWebSocket,
  });
  try {
    const graphqlFetch = recording(fetch);
    const restClient = createClient(tree, { baseUrl: base, fetch: recording(fetch) });
    const graphqlSurface = (
      name: string,
      client: unknown,
      ErrorClass: abstract new (...args: never[]) => unknown,
      { streams = false } = {},
    ): Surface => ({
      name,
      streams,
      reported: graphqlReported,
      call: (steps, input) => callThrough(client, steps, input),
      classify: (error) => error instanceof ErrorClass ? graphqlKind(error) : undefined,
    });
    const openapi = openapiCall(base, tree, recording(fetch));
    const surfaces: Surface[] = [
      {
        name: "call path",
        streams: true,
        call: (steps, input) => {
          const { node, captures } = leafAt(tree, steps);
          return Promise.resolve(
            createCall(node, { captures: Object.keys(captures) })(
              { ...input, ...captures },
              {},
            ),
          );
        },
        classify: (error) =>
          error instanceof InputError
            ? "input"
            : error instanceof OutputError
            ? "fault"
            : error instanceof LeafError
            ? declared(error.code, error.data)
            : undefined,
      },
      {
        name: "HTTP client over createFetch",
        streams: true,
        reported: httpReported,
        call: (steps, input) => callThrough(restClient, steps, input),
        classify: (error) => {
          if (!(error instanceof ClientError)) return undefined;
          if (error.status === 409) return declared(error.code, error.data);
          if (error.status === 422) return "input";
          if (error.status === 500) return "fault";
          return undefined;
        },
      },
      {
        name: "openapi-fetch over the served document",
        streams: false,
        reported: httpReported,
        call: openapi,
        classify: (error) => {
          const { status, body } = error as { status?: number; body?: Record<string, unknown> };
          if (status === 409) return declared(body?.code, body?.data);
          return status === 422 ? "input" : status === 500 ? "fault" : undefined;
        },
      },
      graphqlSurface(
        "GraphQL client over HTTP",
        createGraphQLClient(tree, {
          transport: httpTransport({ url: `${base}/graphql`, fetch: graphqlFetch }),
        }),
        GraphQLClientError,
      ),
      graphqlSurface(
        "GraphQL client over WebSocket",
        createGraphQLClient(tree, { transport: wsTransport(socket) }),
        GraphQLClientError,
        { streams: true },
      ),
      graphqlSurface(
        "generated GraphQL client over HTTP",
        generated.createClient(generated.httpTransport(`${base}/graphql`)),
        generated.GraphQLClientError,
      ),
      graphqlSurface(
        "generated GraphQL client over WebSocket",
        generated.createClient(generated.wsTransport(socket)),
        generated.GraphQLClientError,
        { streams: true },
      ),
      {
        name: "command line, in process",
        streams: true,
        call: cliCall(tree),
        classify: cliKind,
      },
      {
        name: "command line, against the server (--url)",
        streams: true,
        reported: httpReported,
        call: cliCall(tree, base),
        classify: cliKind,
      },
      {
        name: "MCP client over Streamable HTTP",
        streams: true,
        reported: mcpReported,
        call: mcpCall(mcpClient),
        classify: (error) => {
          const status = (error as { status?: number }).status;
          if (status === 500) {
            assert.equal(
              (error as Error).message,
              "500 Internal Server Error",
              "a fault is masked",
            );
          }
          if (status === 409) {
            return declared(/^409 [^[\n]*\[([^\]]+)\]/.exec((error as Error).message)?.[1]);
          }
          return status === 422 ? "input" : status === 500 ? "fault" : undefined;
        },
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
            for (const error of surface.reported) assert.ok(error instanceof OutputError, where);
          }
        }
      });
    }
    assert.ok(wire.length > 10, "the wire was recorded");
    for (const text of wire) {
      assert.ok(!text.includes(SECRET), `nothing hidden leaves the server: ${text}`);
      assert.ok(!text.includes("passwordHash"), `no hidden key leaves the server: ${text}`);
    }
  } finally {
    await close();
  }
});
