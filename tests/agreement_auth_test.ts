// The agreement suite for context, guards and declared errors: one guarded
// tree, one table of calls made anonymously, with a bad token and with good
// ones, through every surface and client. Every surface must let the same
// calls through with the same user and context values, refuse the same calls
// as unauthenticated or forbidden, and show a declared error by its code.
import assert from "node:assert/strict";
import { z } from "zod";
import { createClient as createWsClient } from "graphql-ws";
import { api, LeafError, op, reply, use } from "@ramify/api/tree";
import { createCall, InputError } from "@ramify/api/tree/catalogue";
import { auth, ClientError, createClient, createFetch } from "@ramify/api/http";
import { HttpError } from "@ramify/api/tree";
import {
  createGraphQLClient,
  createGraphQLServer,
  createHttpGraphQLServer,
  generateGraphQLClient,
} from "@ramify/api/graphql";
import { GraphQLClientError, httpTransport, wsTransport } from "@ramify/api/graphql/client";
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

const staff: Record<string, { name: string; admin: boolean }> = {
  "t-ann": { name: "Ann", admin: true },
  "t-bob": { name: "Bob", admin: false },
};
const signedIn = auth({ from: "bearer", verify: (token) => staff[token] });
const adminOnly = auth({
  from: "bearer",
  verify: (token) => staff[token],
  allow: (user) => user.admin,
});
const Note = z.object({ text: z.string(), by: z.string(), tenant: z.string() });

const tree = api({
  notes: api({
    list: op(() => ["open to all"], { tags: { readOnly: true } }),
    add: op(
      ({ text }, ctx) =>
        reply({ text, by: ctx.user.name, tenant: String(ctx.tenant) }, {
          headers: { location: "/notes/1" },
        }),
      { input: z.object({ text: z.string().min(1) }), output: Note, http: { status: 201 } },
      use(signedIn),
    ),
    wipe: op(() => ({ wiped: true }), use(adminOnly)),
  }, {
    fallback: {
      name: "noteId",
      subtree: api({
        read: op(({ noteId }) => {
          throw new LeafError("NOTE_NOT_FOUND", { data: { id: noteId } });
        }, {
          tags: { readOnly: true },
          input: z.object({ noteId: z.string() }),
          errors: { NOTE_NOT_FOUND: { status: 404, data: z.object({ id: z.string() }) } },
        }),
      }),
    },
  }),
});

/** The one context every server makes: a tenant. */
const TENANT = { tenant: "acme" };

type Kind = "unauthenticated" | "forbidden" | "input" | "NOTE_NOT_FOUND";
type Outcome = { readonly value: unknown } | { readonly error: Kind };
type Who = "nobody" | "bad" | "ann" | "bob";
const TOKENS: Record<Who, string | undefined> = {
  nobody: undefined,
  bad: "t-bad",
  ann: "t-ann",
  bob: "t-bob",
};

interface Case {
  readonly name: string;
  readonly who: Who;
  readonly steps: readonly Step[];
  readonly input?: Record<string, unknown>;
  readonly expect: Outcome;
}

const CASES: readonly Case[] = [
  {
    name: "an open leaf needs nothing",
    who: "nobody",
    steps: ["notes", "list"],
    expect: { value: ["open to all"] },
  },
  {
    name: "no credential is unauthenticated",
    who: "nobody",
    steps: ["notes", "add"],
    input: { text: "hi" },
    expect: { error: "unauthenticated" },
  },
  {
    name: "a bad token is unauthenticated",
    who: "bad",
    steps: ["notes", "add"],
    input: { text: "hi" },
    expect: { error: "unauthenticated" },
  },
  {
    name: "the guard answers before validation",
    who: "nobody",
    steps: ["notes", "add"],
    input: { text: "" },
    expect: { error: "unauthenticated" },
  },
  {
    name: "a signed-in user gets past validation's checks",
    who: "bob",
    steps: ["notes", "add"],
    input: { text: "" },
    expect: { error: "input" },
  },
  {
    name: "the handler sees the guard's user and the server's context",
    who: "bob",
    steps: ["notes", "add"],
    input: { text: "hi" },
    expect: { value: { text: "hi", by: "Bob", tenant: "acme" } },
  },
  {
    name: "a user the guard does not allow is forbidden",
    who: "bob",
    steps: ["notes", "wipe"],
    expect: { error: "forbidden" },
  },
  {
    name: "an allowed user passes",
    who: "ann",
    steps: ["notes", "wipe"],
    expect: { value: { wiped: true } },
  },
  {
    name: "a declared error arrives by its code",
    who: "nobody",
    steps: ["notes", ["noteId", "9"], "read"],
    expect: { error: "NOTE_NOT_FOUND" },
  },
];

const BY_STATUS: Record<number, Kind> = { 401: "unauthenticated", 403: "forbidden", 422: "input" };

function graphqlKind(error: unknown): Kind | undefined {
  if (!(error instanceof GraphQLClientError) && !(error as Error)?.name?.includes("GraphQL")) {
    return undefined;
  }
  const code = (error as { errors: { extensions?: { code?: string } }[] }).errors[0]?.extensions
    ?.code;
  return code === "UNAUTHENTICATED"
    ? "unauthenticated"
    : code === "FORBIDDEN"
    ? "forbidden"
    : code === "BAD_USER_INPUT"
    ? "input"
    : code === "NOTE_NOT_FOUND"
    ? "NOTE_NOT_FOUND"
    : undefined;
}

/** A status and, for a declared error, its code: what the text surfaces (MCP, CLI) show. */
function statusKind(error: unknown): Kind | undefined {
  const { status, code, body, message } = error as {
    status?: number;
    code?: string;
    body?: { code?: string };
    message?: string;
  };
  if (
    status === 404 &&
    (code ?? body?.code ?? /\[(\w+)\]/.exec(message ?? "")?.[1]) === "NOTE_NOT_FOUND"
  ) {
    return "NOTE_NOT_FOUND";
  }
  return status === undefined ? undefined : BY_STATUS[status];
}

interface Surface {
  readonly name: string;
  call(who: Who, steps: readonly Step[], input?: Record<string, unknown>): Promise<unknown>;
  classify(error: unknown): Kind | undefined;
}

Deno.test("agreement: guards, context and declared errors act alike on every surface", async (t) => {
  const context = () => TENANT;
  const rest = createFetch(tree, { context });
  const graphqlServer = createGraphQLServer(tree);
  const graphqlHttp = createHttpGraphQLServer(tree, { context });
  const graphqlWs = createWsHandler(graphqlServer, { context });
  const mcp = createMcpHandler(tree, { context });
  const server = mountSurfaces({ rest, graphqlHttp, graphqlWs, mcp });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const bearer = (who: Who): Record<string, string> =>
    TOKENS[who] === undefined ? {} : { authorization: `Bearer ${TOKENS[who]}` };
  const sockets = new Map<Who, ReturnType<typeof createWsClient>>();
  const mcpClients = new Map<Who, McpClient>();
  const dir = await Deno.makeTempDir({ prefix: "ramify-agreement-auth-" });
  try {
    await Deno.writeTextFile(`${dir}/client.ts`, generateGraphQLClient(tree));
    const generated = await import(`file://${dir}/client.ts`);
    const socketOf = (who: Who) => {
      let socket = sockets.get(who);
      if (socket === undefined) {
        socket = createWsClient({
          url: `${base.replace("http", "ws")}/graphql`,
          retryAttempts: 0,
          connectionParams: bearer(who),
        });
        sockets.set(who, socket);
      }
      return socket;
    };
    const mcpOf = async (who: Who) => {
      let client = mcpClients.get(who);
      if (client === undefined) {
        client = new McpClient({ name: "agreement-auth", version: "1.0.0" });
        await client.connect(
          new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
            requestInit: { headers: bearer(who) },
          }),
        );
        mcpClients.set(who, client);
      }
      return client;
    };
    const surfaces: Surface[] = [
      {
        name: "call path",
        call: (who, steps, input) => {
          const { node, captures } = leafAt(tree, steps);
          const request = new Request(base, { headers: bearer(who) });
          return (async () =>
            await createCall(node, { captures: Object.keys(captures) })(
              { ...input, ...captures },
              { request, ...TENANT },
            ))();
        },
        classify: (error) =>
          error instanceof HttpError
            ? BY_STATUS[error.status]
            : error instanceof InputError
            ? "input"
            : error instanceof LeafError && error.status === 404
            ? error.code as Kind
            : undefined,
      },
      {
        name: "HTTP client",
        call: (who, steps, input) =>
          callThrough(createClient(tree, { baseUrl: base, token: TOKENS[who] }), steps, input),
        classify: (error) =>
          error instanceof ClientError
            ? (error.code as Kind | undefined) ?? BY_STATUS[error.status]
            : undefined,
      },
      {
        name: "openapi-fetch",
        call: (who, steps, input) => openapiCall(base, tree, fetch, bearer(who))(steps, input),
        classify: statusKind,
      },
      {
        name: "GraphQL client over HTTP",
        call: (who, steps, input) =>
          callThrough(
            createGraphQLClient(tree, {
              transport: httpTransport({ url: `${base}/graphql`, headers: bearer(who) }),
            }),
            steps,
            input,
          ),
        classify: graphqlKind,
      },
      {
        name: "GraphQL client over WebSocket (credentials in connection params)",
        call: (who, steps, input) =>
          callThrough(
            createGraphQLClient(tree, { transport: wsTransport(socketOf(who)) }),
            steps,
            input,
          ),
        classify: graphqlKind,
      },
      {
        name: "generated GraphQL client",
        call: (who, steps, input) =>
          callThrough(
            generated.createClient(
              generated.httpTransport(`${base}/graphql`, { headers: bearer(who) }),
            ),
            steps,
            input,
          ),
        classify: graphqlKind,
      },
      {
        name: "MCP client",
        call: async (who, steps, input) => await mcpCall(await mcpOf(who))(steps, input),
        classify: statusKind,
      },
      {
        name: "command line, in process",
        call: (who, steps, input) =>
          cliCall(tree, undefined, { token: TOKENS[who], context })(steps, input),
        classify: statusKind,
      },
      {
        name: "command line, against the server (--url)",
        call: (who, steps, input) => cliCall(tree, base, { token: TOKENS[who] })(steps, input),
        classify: statusKind,
      },
    ];
    for (const surface of surfaces) {
      await t.step(surface.name, async () => {
        for (const test of CASES) {
          let outcome: Outcome;
          try {
            outcome = { value: await surface.call(test.who, test.steps, test.input) };
          } catch (error) {
            const kind = surface.classify(error);
            if (kind === undefined) {
              throw new Error(`${surface.name}: ${test.name}: unexpected error`, { cause: error });
            }
            outcome = { error: kind };
          }
          assert.deepEqual(outcome, test.expect, `${surface.name}: ${test.name}`);
        }
      });
    }
  } finally {
    for (const client of mcpClients.values()) await client.close();
    await mcp.close();
    for (const socket of sockets.values()) await socket.dispose();
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
