// Proves the one ownership rule for tasks (DESIGN.md, "One engine, one owner"; docs/tasks.md)
// through every way in, against a real OpenID provider (tests/support/oidc_provider.ts): a
// long-running leaf behind oauth() asks a question, then waits until it is cancelled, served with
// serve() (REST, GraphQL over HTTP and WebSocket, MCP) on a real port and one task runtime.
// A task is owned by the principal the guards established (the token's issuer and subject), not
// by the token: started by A with one token, it is read, answered and cancelled by A with
// another (renewed) token, over REST and over the surface that started it; A's expired token
// gets the guard's 401 (REST's problem with its challenge, GraphQL's UNAUTHENTICATED, MCP's HTTP
// 401 with `WWW-Authenticate`, the CLI's `error: 401`); another principal (B) and a caller with
// no token find nothing (404, NOT_FOUND, MCP's unknown task, `error: 404`), and their answers and
// cancels change nothing. The ways in: REST, the typed HTTP client's TaskHandle, GraphQL over
// HTTP, GraphQL over WebSocket (the token in connectionParams, none on the upgrade), MCP
// 2026-07-28 with the tasks extension, and the CLI against the server (--url, --token). Then
// `subscription { task(id) }` and MCP's `subscriptions/listen` follow A's task for A alone, and
// openapi-fetch reads its status as A, not as B.
import assert from "node:assert/strict";
import { z } from "zod";
import { decodeJwt } from "jose";
import openapiFetch from "openapi-fetch";
import {
  type Client as WsClient,
  createClient as createWsClient,
  type ExecutionResult,
} from "graphql-ws";
import { api, ask, op, use } from "@ramify/api/tree";
import { createClient } from "@ramify/api/http";
import type { TaskHandle } from "@ramify/api/client";
import { runCli } from "@ramify/api/cli";
import { serve } from "@ramify/api/serve";
import { createTasks } from "@ramify/api/tasks";
import { oauth } from "@ramify/api/auth";
import { OIDC_CLIENTS, withOidcProvider } from "./support/oidc_provider.ts";
import { hostileTokens } from "./support/oidc_hostile.ts";
import { memoryIo } from "./support/cli_io.ts";
import { bearer, bounded, mcpTasksRequest } from "./support/owners.ts";
import { sseMessages, TASKS_META, wsEvents } from "./support/owners.ts";
import { cliSeen, graphqlSeen, mcpRefusal, restSeen, type Seen } from "./support/owners.ts";
import { modernRequest } from "./support/mcp_wire.ts";

/** The resource the guard serves: its tokens' `aud`. */
const RESOURCE = "https://api.test/api";
/** What A answers the task's question with. */
const ANSWER = { shelf: 3 };

/** `shelve({ title })` behind `oauth()`: asks which shelf, then runs until it is cancelled. */
function shelving(issuer: string) {
  const guard = oauth({ issuer, audience: RESOURCE });
  return api({
    shelve: op(
      async ({ title }, ctx) => {
        const said = await ask(ctx, {
          message: `Which shelf for ${title}?`,
          schema: {
            type: "object",
            properties: { shelf: { type: "integer" } },
            required: ["shelf"],
          },
        });
        const signal = ctx.signal!;
        if (!signal.aborted) {
          await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
        }
        return { title, shelf: said.action === "accept" ? Number(said.content.shelf) : 0 };
      },
      use(guard),
      {
        tags: { longRunning: true },
        input: z.object({ title: z.string() }),
        output: z.object({ title: z.string(), shelf: z.number() }),
      },
    ),
  });
}

/** A way back to a task, as one caller (`token`, undefined for none). */
interface Way {
  readonly name: string;
  status(token: string | undefined, id: string): Promise<Seen>;
  /** Only REST has it: `GET /.tasks/{id}/result`. */
  result?(token: string | undefined, id: string): Promise<Seen>;
  answer(token: string | undefined, id: string): Promise<Seen>;
  cancel(token: string | undefined, id: string): Promise<Seen>;
}

/** A way in: starts the task as `token`, its id. */
type Start = (token: string) => Promise<string>;

const TASK = "id status";
const DOCUMENTS = {
  start: `mutation Start { shelve(title: "Dune") { ${TASK} } }`,
  status: `query Task($id: ID!) { task(id: $id) { ${TASK} } }`,
  answer:
    `mutation Answer($id: ID!, $answer: JSON!) { answerTask(id: $id, answer: $answer) { ${TASK} } }`,
  cancel: `mutation Cancel($id: ID!) { cancelTask(id: $id) { ${TASK} } }`,
  watch: `subscription Watch($id: ID!) { task(id: $id) { ${TASK} } }`,
};

/** A GraphQL way back, over `run` (HTTP or WebSocket). */
function graphqlWay(
  name: string,
  run: (token: string | undefined, query: string, variables: Record<string, unknown>) => Promise<
    ExecutionResult
  >,
): Way {
  return {
    name,
    status: async (token, id) => graphqlSeen(await run(token, DOCUMENTS.status, { id }), "task"),
    answer: async (token, id) =>
      graphqlSeen(await run(token, DOCUMENTS.answer, { id, answer: ANSWER }), "answerTask"),
    cancel: async (token, id) =>
      graphqlSeen(await run(token, DOCUMENTS.cancel, { id }), "cancelTask"),
  };
}

Deno.test("agreement ownership: a task is its principal's on every way in and back", async (t) => {
  await withOidcProvider(async (provider) => {
    const tree = shelving(provider.issuer);
    // A: two tokens of one subject (the renewed one another token entirely) and an expired one;
    // B: another client, so another subject.
    const hostile = await hostileTokens(provider, RESOURCE);
    const a1 = hostile.valid;
    const a2 = await provider.tokenFor(RESOURCE);
    const b = await provider.tokenFor(RESOURCE, "", OIDC_CLIENTS.api);
    const expired = hostile.expired;
    /** Everyone but A: what each must get. */
    const others: [string, string | undefined, number][] = [
      ["A's expired token", expired, 401],
      ["B", b, 404],
      ["no token", undefined, 404],
    ];

    const tasks = createTasks();
    const faults: unknown[] = [];
    const server = await serve(tree, {
      port: 0,
      hostname: "127.0.0.1",
      quiet: true,
      tasks,
      docs: false,
      onError: (error: unknown) => void faults.push(error),
    });
    const base = `http://127.0.0.1:${server.port}`;
    const mcpUrl = `${base}/mcp`;
    const sockets = new Map<string, WsClient>();

    /** A graphql-ws client per caller, its token in connectionParams (none on the upgrade). */
    const socket = (token: string | undefined) => {
      const key = token ?? "";
      let made = sockets.get(key);
      if (made === undefined) {
        made = createWsClient({
          url: `${base.replace("http", "ws")}/graphql`,
          retryAttempts: 0,
          ...(token === undefined
            ? {}
            : { connectionParams: { authorization: `Bearer ${token}` } }),
        });
        sockets.set(key, made);
      }
      return made;
    };
    const overWs = async (
      token: string | undefined,
      query: string,
      variables: Record<string, unknown>,
    ) => (await bounded(wsEvents(socket(token), query, variables).all, query)).at(-1)!;
    const overHttp = async (
      token: string | undefined,
      query: string,
      variables: Record<string, unknown>,
    ): Promise<ExecutionResult> => {
      const response = await fetch(`${base}/graphql`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/graphql-response+json, application/json",
          ...bearer(token),
        },
        body: JSON.stringify({ query, variables }),
      });
      return await response.json();
    };

    const rest: Way = {
      name: "REST",
      status: async (token, id) =>
        restSeen(await fetch(`${base}/.tasks/${id}`, { headers: bearer(token) })),
      result: async (token, id) =>
        restSeen(await fetch(`${base}/.tasks/${id}/result`, { headers: bearer(token) })),
      answer: async (token, id) =>
        restSeen(
          await fetch(`${base}/.tasks/${id}/input`, {
            method: "POST",
            headers: { "content-type": "application/json", ...bearer(token) },
            body: JSON.stringify({ answer: ANSWER }),
          }),
        ),
      cancel: async (token, id) =>
        restSeen(await fetch(`${base}/.tasks/${id}`, { method: "DELETE", headers: bearer(token) })),
    };
    const restStart: Start = async (token) => {
      const response = await fetch(`${base}/shelve`, {
        method: "POST",
        headers: { "content-type": "application/json", ...bearer(token) },
        body: JSON.stringify({ title: "Dune" }),
      });
      assert.equal(response.status, 202, await response.clone().text());
      assert.match(response.headers.get("location") ?? "", /^\/\.tasks\//);
      return (await response.json()).id;
    };

    // The typed HTTP client: a handle per task, its requests sent with the token of the moment
    // (`current`), as a client that renews its token sends them.
    let current: string | undefined;
    const asCurrent = async (
      token: string | undefined,
      read: () => Promise<{ status: string }>,
    ) => {
      current = token;
      try {
        return { status: (await read()).status };
      } catch (error) {
        // The client's ClientError (found by its status: its module is moving between subpaths).
        const status = (error as { status?: unknown }).status;
        if (typeof status === "number") return { refused: status };
        throw error;
      }
    };
    /** A typed client made with `options`: its way in, and its handles' way back. */
    const typedClient = (
      name: string,
      options: Omit<Parameters<typeof createClient>[1], "baseUrl">,
    ): { start: Start; way: Way } => {
      const client = createClient(tree, { baseUrl: base, ...options });
      const handles = new Map<string, TaskHandle<unknown, unknown>>();
      const handleOf = (id: string) => handles.get(id)!;
      return {
        async start(token) {
          current = token;
          const handle = await client.shelve({ title: "Dune" }, { async: true });
          assert.ok(handle.id !== undefined && handle.location !== undefined);
          handles.set(handle.id, handle as TaskHandle<unknown, unknown>);
          return handle.id;
        },
        way: {
          name,
          status: (token, id) => asCurrent(token, () => handleOf(id).status()),
          answer: (token, id) => asCurrent(token, () => handleOf(id).answer(ANSWER)),
          cancel: (token, id) => asCurrent(token, () => handleOf(id).cancel()),
        },
      };
    };
    // Its transport puts the token of the moment on each request.
    const byFetch = typedClient("the typed HTTP client's TaskHandle", {
      fetch: (request: Request) => {
        const headers = new Headers(request.headers);
        if (current === undefined) headers.delete("authorization");
        else headers.set("authorization", `Bearer ${current}`);
        return fetch(new Request(request, { headers }));
      },
    });
    // Its `token` option as a function, "giving it for each call" (client/remote.ts).
    const byToken = typedClient("the TaskHandle of a client whose token is a function", {
      token: () => current,
    });

    const graphqlStart = (run: typeof overHttp): Start => async (token) => {
      const started = await run(token, DOCUMENTS.start, {});
      assert.deepEqual(graphqlSeen(started, "shelve"), { status: "working" });
      return (started.data as { shelve: { id: string } }).shelve.id;
    };

    const mcp: Way = {
      name: "MCP tasks/*",
      async status(token, id) {
        const answer = await mcpTasksRequest(mcpUrl, "tasks/get", { taskId: id }, token);
        return mcpRefusal(answer) ?? { status: String(answer.message?.result?.status) };
      },
      async answer(token, id) {
        const inputResponses = { "ask-1": { action: "accept", content: ANSWER } };
        const params = { taskId: id, inputResponses };
        const answer = await mcpTasksRequest(mcpUrl, "tasks/update", params, token);
        return mcpRefusal(answer) ?? await mcp.status(token, id);
      },
      async cancel(token, id) {
        const answer = await mcpTasksRequest(mcpUrl, "tasks/cancel", { taskId: id }, token);
        return mcpRefusal(answer) ?? await mcp.status(token, id);
      },
    };
    const mcpStart: Start = async (token) => {
      const params = { name: "shelve", arguments: { title: "Dune" } };
      const answer = await mcpTasksRequest(mcpUrl, "tools/call", params, token);
      const result = answer.message?.result;
      assert.equal(result?.resultType, "task", JSON.stringify(answer));
      return result.taskId as string;
    };

    const cliRun = async (token: string | undefined, argv: string[]) => {
      const io = memoryIo();
      const flags = token === undefined ? [] : ["--token", token];
      const code = await runCli(tree, ["--url", base, ...flags, ...argv], { io });
      return { code, out: io.stdout.join(""), err: io.stderr.join("") };
    };
    const cli: Way = {
      name: "the CLI (--url, --token)",
      status: async (token, id) => cliSeen(await cliRun(token, ["status", id, "--json"])),
      answer: async (token, id) =>
        cliSeen(await cliRun(token, ["answer", id, "--json", JSON.stringify(ANSWER)])),
      cancel: async (token, id) => cliSeen(await cliRun(token, ["cancel", id, "--json"])),
    };
    const cliStart: Start = async (token) => {
      const started = await cliRun(token, ["shelve", "--title", "Dune", "--detach", "--json"]);
      assert.equal(started.code, 0, started.err);
      return JSON.parse(started.out).id;
    };

    /**
     * Started by A's first token, the task is refused to everyone else on `way` (and their answers
     * and cancels change nothing), then read, answered and cancelled there by A's renewed token.
     */
    /** Started by A's first token, once it asks (a guard against a hang, not a time limit). */
    const asking = async (start: Start) => {
      const id = await start(a1);
      let waiting = true;
      const read = async () => {
        while (waiting) {
          const seen = await rest.status(a2, id);
          if ("status" in seen && seen.status === "input_required") return id;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        return id;
      };
      try {
        return await bounded(read(), `task ${id} to ask`);
      } finally {
        waiting = false;
      }
    };
    const owned = async (start: Start, way: Way) => {
      const id = await asking(start);
      for (const [who, token, refused] of others) {
        for (const name of ["status", "result", "answer", "cancel"] as const) {
          const seen = await way[name]?.(token, id);
          if (seen !== undefined) {
            assert.deepEqual(seen, { refused }, `${way.name}: ${name} as ${who}`);
          }
        }
      }
      const asks = { status: "input_required" };
      assert.deepEqual(await way.status(a2, id), asks, `${way.name}: A's renewed token reads it`);
      if (way.result !== undefined) assert.deepEqual(await way.result(a2, id), asks);
      assert.deepEqual(await way.answer(a2, id), { status: "working" }, `${way.name}: answers`);
      assert.deepEqual(await way.cancel(a2, id), { status: "cancelled" }, `${way.name}: cancels`);
      assert.deepEqual(await rest.status(a2, id), { status: "cancelled" }, "REST agrees");
    };
    /** The way in, its task brought back over REST and over the way in's own surface. */
    const wayIn = (name: string, start: Start, own?: Way) =>
      t.step(name, async (t) => {
        for (const way of own === undefined ? [rest] : [rest, own]) {
          await t.step(`back over ${way.name}`, () => owned(start, way));
        }
      });

    try {
      await t.step("the principals: A's tokens are two, of one subject; B is another", () => {
        const [first, renewed, other, old] = [a1, a2, b, expired].map((token) => decodeJwt(token));
        assert.notEqual(a1, a2);
        assert.equal(first.iss, provider.issuer);
        assert.deepEqual([renewed.iss, renewed.sub], [first.iss, first.sub]);
        assert.deepEqual([old.iss, old.sub], [first.iss, first.sub]);
        assert.ok(old.exp! < Date.now() / 1000 - 60, "expired past the guard's tolerance");
        assert.notEqual(other.sub, first.sub);
      });

      await wayIn("REST", restStart);
      await t.step("REST read through openapi-fetch: A's renewed token, not B", async () => {
        const id = await asking(restStart);
        const read = async (token: string) => {
          const client = openapiFetch({ baseUrl: base, headers: bearer(token) }) as unknown as {
            GET(
              path: string,
              init: object,
            ): Promise<{ data?: { status: string }; response: Response }>;
          };
          const { data, response } = await client.GET("/.tasks/{id}", { params: { path: { id } } });
          return response.ok ? { status: data!.status } : { refused: response.status };
        };
        assert.deepEqual(await read(a2), { status: "input_required" });
        assert.deepEqual(await read(b), { refused: 404 });
        assert.deepEqual(await rest.cancel(a2, id), { status: "cancelled" });
      });
      await wayIn("the typed HTTP client", byFetch.start, byFetch.way);
      // A handle's requests take the client's token as it is now: a renewed one keeps the task.
      await wayIn("the typed HTTP client, its token a function", byToken.start, byToken.way);
      await wayIn(
        "GraphQL over HTTP",
        graphqlStart(overHttp),
        graphqlWay("GraphQL over HTTP", overHttp),
      );
      await wayIn(
        "GraphQL over WebSocket",
        graphqlStart(overWs),
        graphqlWay("GraphQL over WebSocket", overWs),
      );
      await wayIn("MCP 2026-07-28 (tasks extension)", mcpStart, mcp);
      await wayIn("the CLI against the server", cliStart, cli);

      await t.step(
        "subscription { task(id) } over WebSocket streams A's task to A alone",
        async () => {
          const id = await asking(restStart);
          const watch = (token: string | undefined) =>
            wsEvents(socket(token), DOCUMENTS.watch, { id });
          const mine = watch(a2);
          const first = await bounded(mine.first, "A's first event");
          assert.deepEqual(first.data, { task: { id, status: "INPUT_REQUIRED" } });
          for (const [who, token, refused] of others) {
            const events = await bounded(watch(token).all, `${who}'s subscription`);
            assert.deepEqual(events.map((event) => graphqlSeen(event, "task")), [{ refused }], who);
          }
          assert.deepEqual(await rest.cancel(a2, id), { status: "cancelled" });
          const all = await bounded(mine.all, "A's subscription to end");
          assert.deepEqual(all.at(-1)?.data, { task: { id, status: "CANCELLED" } });
        },
      );

      await t.step("MCP subscriptions/listen follows A's task for A alone", async () => {
        const id = await asking(restStart);
        const listen = (token: string | undefined) => {
          const params = { notifications: { taskIds: [id] }, _meta: TASKS_META };
          const { init } = modernRequest({ method: "subscriptions/listen", params }, bearer(token));
          return fetch(mcpUrl, init);
        };
        const heard = (messages: readonly { method?: string }[]) =>
          messages.some((message) => message.method === "notifications/tasks");
        const mine = await listen(a2);
        assert.equal(mine.status, 200);
        const said = await bounded(sseMessages(mine, heard), "A's listen");
        assert.deepEqual(said[0].params?.notifications, { taskIds: [id] }, "A's task acknowledged");
        const told = said.find((message) => message.method === "notifications/tasks")!;
        assert.deepEqual([told.params?.taskId, told.params?.status], [id, "input_required"]);

        const refused = await listen(expired);
        assert.equal(refused.status, 401, "A's expired token");
        assert.match(
          refused.headers.get("www-authenticate") ?? "",
          /^Bearer error="invalid_token"/,
        );
        await refused.body?.cancel();
        for (const [who, token] of others.slice(1)) {
          const answer = await listen(token);
          assert.equal(answer.status, 200, who);
          const messages = await bounded(sseMessages(answer), `${who}'s listen`);
          assert.deepEqual(messages[0].params?.notifications, { taskIds: [] }, `${who}: none`);
          assert.ok(!heard(messages), `${who} hears nothing of A's task`);
        }
        assert.deepEqual(await rest.cancel(a2, id), { status: "cancelled" });
      });

      await t.step("no fault reached onError", () => assert.deepEqual(faults, []));
    } finally {
      await Promise.all([...sockets.values()].map((made) => made.dispose()));
      await server.close();
      await tasks.close();
    }
  });
});
