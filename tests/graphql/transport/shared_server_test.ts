// One GraphQL server, built once, behind both transports: HTTP serves the
// server it is given (its limits, introspection, error rules, deadline and
// document cache), beside the WebSocket handler, with one context function
// for both.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, type ContextSource, HttpError, op } from "@ramify/api/tree";
import {
  createGraphQLServer,
  createHttpGraphQLServer,
  type GraphQLServer,
} from "@ramify/api/graphql";
import { createWsHandler } from "@ramify/api/graphql/ws";
import { collect, connect, within } from "./ws_support.ts";

const tree = api({
  whoami: op((_input, ctx) => String(ctx.user), { tags: { readOnly: true } }),
  wait: op(() => new Promise<string>(() => {}), { tags: { readOnly: true } }),
  books: api({
    add: op(({ title }) => ({ title }), {
      input: z.object({ title: z.string().min(1) }),
      output: z.object({ title: z.string() }),
    }),
  }),
});

/** What both transports are told: the credentials in a header, or in the connection's parameters. */
const context = ({ request, connectionParams }: ContextSource) => {
  const user = request?.headers.get("x-user") ?? connectionParams?.user;
  if (user === "mallory") throw new HttpError(403, "Not you");
  return { user };
};

const post = (handler: (request: Request) => Promise<Response>, query: string, user = "ada") =>
  handler(
    new Request("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", "x-user": user },
      body: JSON.stringify({ query }),
    }),
  ).then(async (response) => ({ status: response.status, body: await response.json() }));

Deno.test("createHttpGraphQLServer serves a built server: its rules, its deadline, its document cache", async () => {
  const reported: unknown[] = [];
  const server = createGraphQLServer(tree, {
    introspection: false,
    limits: { maxDepth: 3 },
    timeoutMs: 30,
    onError: (error) => reported.push(error),
  });
  const prepared: string[] = [];
  const spied: GraphQLServer = {
    ...server,
    prepare: (query) => {
      prepared.push(query);
      return server.prepare(query);
    },
  };
  const http = createHttpGraphQLServer(spied, { context });

  assert.deepEqual(await post(http, "{ whoami }"), {
    status: 200,
    body: { data: { whoami: "ada" } },
  });
  assert.deepEqual(prepared, ["{ whoami }"], "documents go through the given server");
  const introspection = await post(http, "{ __schema { types { name } } }");
  assert.match(JSON.stringify(introspection.body), /Introspection is disabled/);
  const late = await post(http, "{ wait }");
  assert.deepEqual(late.body.errors[0].extensions, { code: "TIMEOUT", status: 503 });
  const refused = await post(http, "{ whoami }", "mallory");
  assert.deepEqual(refused, {
    status: 403,
    body: { errors: [{ message: "Not you", extensions: { code: "FORBIDDEN", status: 403 } }] },
  });
  const invalid = await post(http, 'mutation { booksAdd(title: "") { title } }');
  assert.equal(invalid.body.errors[0].extensions.code, "BAD_USER_INPUT");
  assert.deepEqual(reported, [], "no failure here is a crash");

  assert.throws(
    // @ts-expect-error given a server, the server's own options are not taken again: refused
    () => createHttpGraphQLServer(server, { path: "/api", limits: { maxDepth: 1 } }),
    /createHttpGraphQLServer: unknown option "limits"/,
  );
  assert.throws(() => createHttpGraphQLServer(server, { path: "api" }), /path must start with/);
});

Deno.test("one server behind HTTP and WebSocket: one context function for both", async () => {
  const server = createGraphQLServer(tree, { onError: () => {} });
  const http = createHttpGraphQLServer(server, { context });
  const ws = createWsHandler(server, { context });
  const served = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) =>
      request.headers.get("upgrade")?.toLowerCase() === "websocket" ? ws(request) : http(request),
  );
  const url = `127.0.0.1:${served.addr.port}/graphql`;
  try {
    const response = await fetch(`http://${url}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-user": "grace" },
      body: JSON.stringify({ query: "{ whoami }" }),
    });
    assert.deepEqual(await response.json(), { data: { whoami: "grace" } });
    const ada = connect(`ws://${url}`, { connectionParams: { user: "ada" } });
    try {
      assert.deepEqual(await collect(ada.client, "{ whoami }"), { data: [{ whoami: "ada" }] });
    } finally {
      await ada.dispose();
    }
    const { client, dispose } = connect(`ws://${url}`, { connectionParams: { user: "mallory" } });
    try {
      const result = await collect(client, "{ whoami }");
      assert.deepEqual(result.errors?.map((e) => (e as { extensions: unknown }).extensions), [
        { code: "FORBIDDEN", status: 403 },
      ]);
    } finally {
      await dispose();
    }
  } finally {
    await within(served.shutdown(), "the server to shut down");
  }
});
