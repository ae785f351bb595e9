// The generated client module over WebSocket (graphql-ws, subscriptions
// included) and with typed declared errors (`safeGraphQL` narrowing by code):
// type-checked on its own, then run against a live server beside
// createGraphQLClient, which must give the same values and errors.
import assert from "node:assert/strict";
import { assertChecksStandalone } from "../../support/standalone.ts";
import { createClient as createWsClient } from "graphql-ws";
import { z } from "zod";
import { api, LeafError, op } from "@ramify/api/tree";
import {
  createGraphQLClient,
  createGraphQLServer,
  createHttpGraphQLServer,
  generateGraphQLClient,
} from "@ramify/api/graphql";
import { httpTransport, safeGraphQL, wsTransport } from "@ramify/api/graphql/client";
import { createWsHandler } from "@ramify/api/graphql/ws";

const errors = {
  NOTE_NOT_FOUND: {
    status: 404,
    data: z.object({ id: z.string(), "similar-ids": z.array(z.string()) }),
  },
  NOTE_LOCKED: { status: 423, message: "Locked" },
};
const tree = api({
  notes: api({
    read: op(({ id }) => {
      if (id === "locked") throw new LeafError("NOTE_LOCKED");
      if (id === "odd") throw new LeafError("NOT_DECLARED");
      throw new LeafError("NOTE_NOT_FOUND", { data: { id, "similar-ids": [`${id}0`] } });
    }, { tags: { readOnly: true }, input: z.object({ id: z.string() }), errors }),
    ping: op(() => "pong", { tags: { readOnly: true }, output: z.string() }),
    watch: op(async function* ({ upTo }) {
      for (let n = 1; n <= upTo; n++) yield { n };
      throw new LeafError("NOTE_LOCKED");
    }, {
      tags: { streaming: true },
      input: z.object({ upTo: z.number().int() }),
      output: z.object({ n: z.number().int() }),
      errors,
    }),
  }),
});

// What a front end writes with the generated module; type errors fail the check.
const USE_PROGRAM = `
import { createClient as createWsClient } from "npm:graphql-ws@^6.3.0";
import {
  createClient,
  type GraphQLClientErrorFrom,
  httpTransport,
  type NotesReadErrors,
  safeGraphQL,
  wsTransport,
} from "./client.ts";

function explain(error: GraphQLClientErrorFrom<NotesReadErrors>): string {
  switch (error.code) {
    case "NOTE_NOT_FOUND":
      return \`missing \${error.details.id} (like \${error.details["similar-ids"].join()})\`;
    case "NOTE_LOCKED":
      // @ts-expect-error NOTE_LOCKED declares no data
      return error.details?.id;
    // @ts-expect-error no such code is declared
    case "NOTE_GONE":
      return "";
    default:
      return \`other: \${error.errors[0].extensions?.code}\`;
  }
}

export async function run(url: string) {
  const socket = createWsClient({ url: url.replace("http", "ws"), retryAttempts: 0 });
  try {
    const results = [];
    for (const transport of [httpTransport(url), wsTransport(socket)]) {
      const client = createClient(transport);
      const outcomes = [];
      for (const id of ["9", "locked", "odd"]) {
        const { error, value } = await safeGraphQL(client.notes.read({ id }));
        outcomes.push(error === undefined ? value : [explain(error), error.code ?? null, error.details ?? null]);
      }
      const pong = await safeGraphQL(client.notes.ping());
      // @ts-expect-error ping declares no error: no code is one of its own
      const never: NonNullable<typeof pong.error>["code"] = "NOTE_LOCKED";
      if (never !== "NOTE_LOCKED") outcomes.push("never");
      outcomes.push(pong.value);
      results.push(outcomes);
    }
    const events = [];
    try {
      for await (const event of createClient(wsTransport(socket)).notes.watch({ upTo: 2 })) {
        const n: number = event.n;
        events.push(n);
      }
    } catch (error) {
      events.push((error as { code?: string }).code);
    }
    return { http: results[0], ws: results[1], events };
  } finally {
    await socket.dispose();
  }
}
`;

Deno.test("the generated client: typed declared errors and a WebSocket transport, as createGraphQLClient", async () => {
  const httpServer = createHttpGraphQLServer(tree, { onError: () => {} });
  const wsHandler = createWsHandler(createGraphQLServer(tree, { onError: () => {} }));
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    (request) =>
      request.headers.get("upgrade") === "websocket" ? wsHandler(request) : httpServer(request),
  );
  const url = `http://127.0.0.1:${server.addr.port}/graphql`;
  const socket = createWsClient({ url: url.replace("http", "ws"), retryAttempts: 0 });
  const dir = await Deno.makeTempDir({ prefix: "ramify-generated-" });
  try {
    await Deno.writeTextFile(`${dir}/client.ts`, generateGraphQLClient(tree));
    await Deno.writeTextFile(`${dir}/use.ts`, USE_PROGRAM);
    await assertChecksStandalone(`${dir}/use.ts`);
    const { run } = await import(`file://${dir}/use.ts`);
    const generated = await run(url);

    // The same calls through createGraphQLClient, over HTTP and over WebSocket.
    const expected = [];
    for (const transport of [httpTransport({ url }), wsTransport(socket)]) {
      const client = createGraphQLClient(tree, { transport });
      const outcomes: unknown[] = [];
      for (const id of ["9", "locked", "odd"]) {
        const { error } = await safeGraphQL(client.notes.read({ id }));
        const explained = error?.code === "NOTE_NOT_FOUND"
          ? `missing ${error.details.id} (like ${error.details["similar-ids"].join()})`
          : error?.code === "NOTE_LOCKED"
          ? undefined
          : `other: ${error?.errors[0].extensions?.code}`;
        outcomes.push([explained, error?.code ?? null, error?.details ?? null]);
      }
      outcomes.push(await client.notes.ping());
      expected.push(outcomes);
    }
    const events: unknown[] = [];
    try {
      const client = createGraphQLClient(tree, { transport: wsTransport(socket) });
      for await (const event of await client.notes.watch({ upTo: 2 })) events.push(event.n);
    } catch (error) {
      events.push((error as { code?: string }).code);
    }
    assert.deepEqual(expected[0], [
      ["missing 9 (like 90)", "NOTE_NOT_FOUND", { id: "9", "similar-ids": ["90"] }],
      [undefined, "NOTE_LOCKED", null],
      ["other: INTERNAL_SERVER_ERROR", null, null],
      "pong",
    ]);
    assert.deepEqual(events, [1, 2, "NOTE_LOCKED"]);
    assert.deepEqual(generated, { http: expected[0], ws: expected[1], events });
  } finally {
    await socket.dispose();
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the generated client refuses files over WebSocket and a type name its runtime holds", async () => {
  const source = generateGraphQLClient(api({
    upload: op(() => 1, { input: z.object({ file: z.file() }), output: z.number() }),
  }));
  const dir = await Deno.makeTempDir({ prefix: "ramify-generated-" });
  try {
    await Deno.writeTextFile(`${dir}/client.ts`, source);
    const generated = await import(`file://${dir}/client.ts`);
    const never = { iterate: () => assert.fail("nothing is sent") };
    const client = generated.createClient(generated.wsTransport(never));
    await assert.rejects(
      () => client.upload({ file: new File(["x"], "x.txt") }),
      /wsTransport cannot send files/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  assert.throws(
    () =>
      generateGraphQLClient(api({
        send: op(() => ({ to: "x" }), {
          output: z.object({ to: z.string() }).meta({ id: "Transport" }),
        }),
      })),
    /the type Transport .* the generated client's own; name the schema differently/,
  );
});
