// oauth() agrees on every surface: the typed HTTP client, the GraphQL client over HTTP and over
// WebSocket (the token in the connection parameters), MCP over HTTP (a 2026-07-28 tools/call,
// refused at the HTTP level with the challenge) and the command line against the server
// (--token, and RAMIFY_TOKEN through mainCli) call with a real provider's tokens, see the same
// identity, are refused alike for a missing scope (naming it) and for no token, and refuse every
// hostile token with no handler run and nothing of it in an answer or log.
import assert from "node:assert/strict";
import { z } from "zod";
import { createClient as createWsClient } from "graphql-ws";
import { api, op, use } from "@ramify/api/tree";
import { ClientError, createClient, createFetch } from "@ramify/api/http";
import {
  createGraphQLClient,
  createGraphQLServer,
  createHttpGraphQLServer,
} from "@ramify/api/graphql";
import { GraphQLClientError, httpTransport, wsTransport } from "@ramify/api/graphql/client";
import { createWsHandler } from "@ramify/api/graphql/ws";
import { createMcpHandler } from "@ramify/api/tools";
import { oauth, type OAuthUser } from "@ramify/api/auth";
import { OIDC_CLIENTS, withOidcProvider } from "../support/oidc_provider.ts";
import { hostileTokens } from "../support/oidc_hostile.ts";
import { callThrough, cliCall, type Step } from "../support/agreement.ts";
import { mountSurfaces } from "../support/every_surface.ts";
import { modernToolCall } from "../support/mcp_wire.ts";

const RESOURCE = "https://api.test/api";
const Who = z.object({ sub: z.string(), client_id: z.string(), scope: z.array(z.string()) });

interface Refused {
  readonly refused: number;
  readonly scope?: string;
  readonly text: string;
}
type Outcome = { readonly value: unknown } | Refused;
type Input = Record<string, unknown>;

interface Surface {
  readonly name: string;
  call(token: string | undefined, steps: readonly Step[], input: Input): Promise<unknown>;
  /** A refusal as status, the scope it names and all it says, or undefined for another error. */
  refusal(error: unknown): Refused | undefined;
}

/** An MCP request refused at the HTTP level: its status, its challenge and its body. */
class McpRefusal extends Error {
  constructor(
    readonly status: number,
    readonly challenge: string | null,
    readonly text: string,
  ) {
    super(`MCP ${status}`);
  }
}

Deno.test("oauth agreement: REST client, GraphQL (HTTP, WebSocket), MCP and the CLI alike", async (t) => {
  await withOidcProvider(async (provider) => {
    let calls = 0;
    const logged: unknown[] = [];
    const onError = (error: unknown) => void logged.push(error);
    const guard = oauth({ issuer: provider.issuer, audience: RESOURCE, cooldownMs: 50 });
    const who = (ctx: { user: OAuthUser }) => {
      calls++;
      return {
        sub: ctx.user.sub ?? "",
        client_id: ctx.user.client_id ?? "",
        scope: [...ctx.user.scope],
      };
    };
    const tree = api({
      me: op((_input, ctx) => who(ctx), use(guard), {
        tags: { readOnly: true },
        input: z.object({}),
        output: Who,
      }),
      books: api({
        add: op((_input, ctx) => who(ctx), use(guard), {
          input: z.object({ title: z.string() }),
          output: Who,
        }),
      }, { meta: { scopes: ["books:write"] } }),
    });
    const rest = createFetch(tree, { onError });
    const graphqlHttp = createHttpGraphQLServer(tree, { onError });
    const graphqlWs = createWsHandler(createGraphQLServer(tree, { onError }), { onError });
    const server = mountSurfaces({
      rest,
      graphqlHttp,
      graphqlWs,
      mcp: createMcpHandler(tree, { onError }),
    });
    const base = `http://127.0.0.1:${server.addr.port}`;
    const sockets: ReturnType<typeof createWsClient>[] = [];
    const bearer = (token?: string): Record<string, string> =>
      token === undefined ? {} : { authorization: `Bearer ${token}` };
    const graphqlRefusal = (error: unknown) => {
      if (!(error instanceof GraphQLClientError)) return undefined;
      const extensions = error.errors[0]?.extensions as
        | { code?: string; data?: { scope?: string } }
        | undefined;
      const status = extensions?.code === "UNAUTHENTICATED"
        ? 401
        : extensions?.code === "FORBIDDEN"
        ? 403
        : undefined;
      return status === undefined
        ? undefined
        : { refused: status, scope: extensions?.data?.scope, text: JSON.stringify(error.errors) };
    };
    const surfaces: Surface[] = [
      {
        name: "HTTP client",
        call: (token, steps, input) =>
          callThrough(createClient(tree, { baseUrl: base, token }), steps, input),
        refusal: (error) => {
          if (!(error instanceof ClientError) || (error.status !== 401 && error.status !== 403)) {
            return undefined;
          }
          const data = error.problem?.data as { scope?: string } | undefined;
          return { refused: error.status, scope: data?.scope, text: JSON.stringify(error.problem) };
        },
      },
      {
        name: "GraphQL over HTTP",
        call: (token, steps, input) =>
          callThrough(
            createGraphQLClient(tree, {
              transport: httpTransport({ url: `${base}/graphql`, headers: bearer(token) }),
            }),
            steps,
            input,
          ),
        refusal: graphqlRefusal,
      },
      {
        name: "GraphQL over WebSocket",
        call: (token, steps, input) => {
          const socket = createWsClient({
            url: `${base.replace("http", "ws")}/graphql`,
            retryAttempts: 0,
            connectionParams: bearer(token),
          });
          sockets.push(socket);
          return callThrough(
            createGraphQLClient(tree, { transport: wsTransport(socket) }),
            steps,
            input,
          );
        },
        refusal: graphqlRefusal,
      },
      {
        name: "MCP over HTTP",
        call: async (token, steps, input) => {
          const name = steps.map(String).join(".");
          const answer = await modernToolCall(`${base}/mcp`, name, input, {
            headers: bearer(token),
          });
          if (answer.status !== 200) {
            throw new McpRefusal(answer.status, answer.challenge, answer.text);
          }
          const result = answer.message.result as {
            content: { text: string }[];
            isError?: boolean;
          };
          if (result.isError === true) throw new Error(result.content[0].text);
          return JSON.parse(result.content[0].text);
        },
        refusal: (error) => {
          if (!(error instanceof McpRefusal)) return undefined;
          return {
            refused: error.status,
            scope: /scope="([^"]*)"/.exec(error.challenge ?? "")?.[1],
            text: `${error.challenge} ${error.text}`,
          };
        },
      },
      {
        name: "command line (--url, --token)",
        call: (token, steps, input) => cliCall(tree, base, { token })(steps, input),
        refusal: (error) => {
          const { status, message, exitCode } = error as {
            status?: number;
            message?: string;
            exitCode?: number;
          };
          if ((status !== 401 && status !== 403) || exitCode !== 1) return undefined;
          return {
            refused: status,
            scope: /lacks the scopes? ([\w:, ]+)/.exec(message ?? "")?.[1],
            text: message ?? "",
          };
        },
      },
    ];
    const outcome = async (
      surface: Surface,
      token: string | undefined,
      steps: Step[],
      input: Input,
    ) => {
      try {
        return { value: await surface.call(token, steps, input) } as Outcome;
      } catch (error) {
        const refused = surface.refusal(error);
        if (refused === undefined) throw error;
        return refused as Outcome;
      }
    };
    const reader = await provider.tokenFor(RESOURCE, "books:read");
    const writer = await provider.tokenFor(RESOURCE, "books:read books:write");
    const hostile = await hostileTokens(provider, RESOURCE, { hugeBytes: 32 * 1024 });
    const { valid: _valid, ...bad } = hostile;
    const identity = (scope: string[]) => ({
      sub: OIDC_CLIENTS.app.id,
      client_id: OIDC_CLIENTS.app.id,
      scope,
    });
    try {
      for (const surface of surfaces) {
        await t.step(surface.name, async () => {
          assert.deepEqual(await outcome(surface, reader, ["me"], {}), {
            value: identity(["books:read"]),
          });
          assert.deepEqual(await outcome(surface, writer, ["books", "add"], { title: "T" }), {
            value: identity(["books:read", "books:write"]),
          });
          const before = calls;
          const short = await outcome(surface, reader, ["books", "add"], { title: "T" });
          assert.ok("refused" in short && short.refused === 403, JSON.stringify(short));
          assert.equal(short.scope, "books:write");
          const none = await outcome(surface, undefined, ["me"], {});
          assert.ok("refused" in none && none.refused === 401, JSON.stringify(none));
          for (const [name, token] of Object.entries(bad)) {
            const refused = await outcome(surface, token, ["me"], {});
            assert.ok(
              "refused" in refused && refused.refused === 401,
              `${name}: ${JSON.stringify(refused).slice(0, 300)}`,
            );
            for (const part of token.split(".").filter((p) => p.length > 8)) {
              assert.ok(!refused.text.includes(part), `${name}: nothing of the token answered`);
            }
          }
          assert.equal(calls, before, "no handler ran");
          assert.deepEqual(logged, [], "nothing logged");
        });
      }
    } finally {
      await Promise.all(sockets.map((socket) => socket.dispose()));
      await server.shutdown();
    }
  });
});

Deno.test("oauth agreement: a command line program takes RAMIFY_TOKEN and names the missing scope", async () => {
  await withOidcProvider(async (provider) => {
    const guard = oauth({ issuer: provider.issuer, audience: RESOURCE });
    const tree = api({
      me: op((_input, ctx) => ctx.user.scope, use(guard), {
        tags: { readOnly: true },
        input: z.object({}),
      }),
      books: api({
        add: op((_input, ctx) => ctx.user.scope, use(guard), {
          input: z.object({ title: z.string() }),
        }),
      }, { meta: { scopes: ["books:write"] } }),
    });
    const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, createFetch(tree));
    const base = `http://127.0.0.1:${server.addr.port}`;
    const reader = await provider.tokenFor(RESOURCE, "books:read");
    const run = async (env: Record<string, string>, ...args: string[]) => {
      const output = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "--quiet",
          "--allow-net=127.0.0.1",
          "--allow-env",
          new URL("./_cli_program.ts", import.meta.url).pathname,
          "--url",
          base,
          ...args,
        ],
        env,
      }).output();
      const decoder = new TextDecoder();
      return {
        code: output.code,
        out: decoder.decode(output.stdout),
        err: decoder.decode(output.stderr),
      };
    };
    try {
      const me = await run({ RAMIFY_TOKEN: reader }, "me");
      assert.equal(me.code, 0, me.err);
      assert.deepEqual(JSON.parse(me.out), ["books:read"]);
      const add = await run({ RAMIFY_TOKEN: reader }, "books", "add", "--title", "T");
      assert.equal(add.code, 1);
      assert.equal(add.err, "error: 403 Forbidden: The token lacks the scope books:write\n");
      const none = await run({}, "me");
      assert.equal(none.code, 1);
      assert.match(none.err, /^error: 401 Unauthorized: This operation needs a bearer token/);
      // --token wins over the environment.
      const flag = await run({ RAMIFY_TOKEN: "not-a-token" }, "me", "--token", reader);
      assert.equal(flag.code, 0, flag.err);
    } finally {
      await server.shutdown();
    }
  });
});
