// A consumer module, type-checked against the shipped `.d.ts` (nothing skipped)
// with graphql 16 and with graphql 17 installed: every subpath resolves under
// Node's ESM resolution and the types a user leans on come through. The build
// checks it; it is never run. `deno check` reads it against the sources too.
import { api, type Client, createClient, createFetch, http, op, toOpenApi } from "@ramify/api";
import { mergeMeta } from "@ramify/api/tree";
import { isLeaf, type Node } from "@ramify/api/tree/node";
import { mapNodes, standardTags } from "@ramify/api/tree/tags";
import { type HttpRoute, toRouter } from "@ramify/api/http";
import { http as verbs } from "@ramify/api/http/verbs";
import { crud, httpProjection } from "@ramify/api/http/dx";
import { retry } from "@ramify/api/http/extensions/retry";
import { timeout } from "@ramify/api/http/extensions/timeout";
import { interceptors } from "@ramify/api/http/extensions/interceptors";
import { logging } from "@ramify/api/http/extensions/logging";
import { paginate } from "@ramify/api/http/extensions/pagination";
import {
  createGraphQLClient,
  createGraphQLServer,
  type GraphQLServer,
  toSDL,
} from "@ramify/api/graphql";
import { httpTransport } from "@ramify/api/graphql/client";
import { createWsHandler, handleBunWebSocket, type WsPeer } from "@ramify/api/graphql/ws";
import {
  createMcpHandler,
  type McpFetchHandler,
  type ToolDescriptor,
  toTools,
} from "@ramify/api/tools";
import { type CliOptions, completionScript, runCli } from "@ramify/api/cli";
import type { GraphQLSchema } from "graphql";
import { z } from "zod";

const Book = z.object({ id: z.string(), title: z.string() });

const tree = api({
  books: api({
    list: op(() => [{ id: "1", title: "Dune" }], http.get),
    add: op(({ title }) => ({ id: "2", title }), {
      input: z.object({ title: z.string() }),
      output: Book,
    }),
  }, {
    fallback: {
      name: "bookId",
      subtree: api({
        read: op(({ bookId }: { bookId: string }) => ({ id: bookId }), verbs.get),
      }),
    },
  }),
});

const node: Node = tree;
const client: Client<typeof tree> = createClient(tree, {
  baseUrl: "http://localhost:8000/",
  extensions: [retry(), timeout({ ms: 5_000 })],
});

/** What the typed clients give: each line fails to compile if a type were lost. */
export async function typed(): Promise<string[]> {
  const listed: { id: string; title: string }[] = await client.books.list();
  const added: { id: string; title: string } = await client.books.add({ title: "Emma" });
  const read: { id: string } = await client.books.bookId("1").read();
  const graphql = createGraphQLClient(tree, {
    transport: httpTransport({ url: "http://localhost:8000/graphql" }),
  });
  const viaGraphQL: { id: string; title: string } = await graphql.books.add({ title: "Emma" });
  return [...listed.map((book) => book.title), added.title, read.id, viaGraphQL.id];
}

/** The servers and the rest of the surface, as values of their declared types. */
export function surfaces(): unknown[] {
  const server: GraphQLServer = createGraphQLServer(tree);
  const schema: GraphQLSchema = server.schema;
  const peer: WsPeer = {
    data: { request: new Request("http://localhost/graphql"), protocol: "graphql-transport-ws" },
    send: () => {},
    close: () => {},
  };
  const fetchHandler: (request: Request) => Response | Promise<Response> = createFetch(tree);
  const routes: HttpRoute = httpProjection(tree);
  return [
    node,
    schema,
    peer,
    fetchHandler,
    routes,
    toRouter,
    toOpenApi,
    toSDL(tree),
    mergeMeta,
    isLeaf,
    mapNodes,
    standardTags,
    crud,
    interceptors,
    logging,
    paginate,
    createWsHandler,
    handleBunWebSocket(server).websocket,
  ];
}

// The tool projection and the MCP server.
const tools: ToolDescriptor[] = toTools(tree);
const toolName: string = tools[0].name;
const readOnlyHint: boolean | undefined = tools[0].annotations.readOnlyHint;
const mcp: McpFetchHandler = createMcpHandler(tree, {
  name: "consumer",
  allowedOrigins: ["localhost"],
});
const mcpResponse: Promise<Response> = mcp(new Request("http://localhost/mcp"));
void [toolName, readOnlyHint, mcpResponse];

// The command line.
const cliOptions: CliOptions = { name: "consumer", baseUrl: "http://localhost:8000" };
const exitCode: Promise<number> = runCli(tree, ["books", "list"], cliOptions);
const script: string = completionScript("bash", "consumer");
void [exitCode, script];
