// The agreement suite for a long-running leaf that asks (issue 47), beside
// agreement_tasks_test.ts: its question answered through every surface that
// starts tasks, on one runtime: HTTP (`POST .../input`), the typed HTTP
// client's handle, GraphQL (`answerTask`, in process), the typed GraphQL
// client's handle (over HTTP), the command line (`answer <id>`, in process
// and with --url) and MCP (`tasks/update`). Each reads the same question and
// result, and each but MCP refuses an answer that does not fit the question
// with 422 (MCP's answers reach the handler unchecked, which hears `cancel`).
import assert from "node:assert/strict";
import { z } from "zod";
import { api, ask, op } from "@ramify/api/tree";
import { createClient, createFetch } from "@ramify/api/http";
import type { TaskHandle } from "@ramify/api/client";
import {
  createGraphQLClient,
  createGraphQLServer,
  createHttpGraphQLServer,
} from "@ramify/api/graphql";
import { httpTransport } from "@ramify/api/graphql/client";
import { runCli } from "@ramify/api/cli";
import { createMcpHandler } from "@ramify/api/tools";
import { createTasks } from "@ramify/api/tasks";
import { memoryIo } from "./support/cli_io.ts";
import { mcpTasksCall } from "./support/mcp_tasks.ts";

const SHELF = {
  type: "object",
  properties: { shelf: { type: "integer" } },
  required: ["shelf"],
} as const;

const tree = api({
  pick: op(async ({ title }, ctx) => {
    const said = await ask(ctx, { message: `Which shelf for ${title}?`, schema: SHELF });
    return { title, shelf: said.action === "accept" ? Number(said.content.shelf) : 0 };
  }, {
    tags: { longRunning: true },
    input: z.object({ title: z.string() }),
    output: z.object({ title: z.string(), shelf: z.number() }),
  }),
});

/** The runtime every surface shares. */
const tasks = createTasks({ onError: () => {} });
const onError = () => {};
const rest = createFetch(tree, { tasks, onError });
const graphql = createGraphQLServer(tree, { tasks, onError });
const graphqlHttp = createHttpGraphQLServer(tree, { tasks, onError });
const mcp = createMcpHandler(tree, { tasks, onError });
const BASE = "http://agree.test";
const mcpCall = (method: string, params: Record<string, unknown>) =>
  mcpTasksCall(mcp, BASE, method, params);

/** What every surface reads of the leaf that asks: its question, the misfit's status, the result. */
interface Asked {
  readonly question: unknown;
  readonly misfit?: number;
  readonly result: unknown;
}

const ASKED: Asked = {
  question: { key: "ask-1", message: "Which shelf for Dune?", schema: SHELF },
  misfit: 422,
  result: { title: "Dune", shelf: 3 },
};

/** Reads until `done` holds. */
async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: NoInfer<T>) => boolean,
): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const asking = (state: { status: string }) => state.status.toLowerCase() === "input_required";
const over = (state: { status: string }) => state.status.toLowerCase() === "completed";
const statusOf = (error: { status?: number; errors?: { extensions: { status: number } }[] }) =>
  error.status ?? error.errors?.[0].extensions.status;

/** Each surface: starts the leaf that asks, answers it wrongly then rightly, reads the result. */
const ANSWERING: Record<string, () => Promise<Asked>> = {
  async http() {
    const started = await rest(new Request(`${BASE}/pick`, json({ title: "Dune" })));
    const location = `${BASE}${started.headers.get("location")}`;
    await started.body?.cancel();
    const read = async () => await (await rest(new Request(location))).json();
    const { question } = await waitFor(read, asking);
    const answer = (value: unknown) =>
      rest(new Request(`${location}/input`, json({ answer: value })));
    const misfit = await answer({ shelf: "x" });
    await misfit.body?.cancel();
    await (await answer({ shelf: 3 })).body?.cancel();
    return { question, misfit: misfit.status, result: (await waitFor(read, over)).result };
  },
  "http client": () => handleAnswers(createClient(tree, { baseUrl: BASE, fetch: rest })),
  async graphql() {
    const run = async (query: string) =>
      JSON.parse(JSON.stringify(await graphql.execute({ query })));
    const { id } = (await run(`mutation { pick(title: "Dune") { id } }`)).data.pick;
    const read = async () =>
      (await run(`{ task(id: "${id}") { status question result } }`)).data.task;
    const { question } = await waitFor(read, asking);
    const answer = (value: string) =>
      run(`mutation { answerTask(id: "${id}", answer: ${value}) { status } }`);
    const misfit = statusOf(await answer(`{ shelf: "x" }`));
    await answer("{ shelf: 3 }");
    return { question, misfit, result: (await waitFor(read, over)).result };
  },
  "graphql client": () =>
    handleAnswers(createGraphQLClient(tree, {
      transport: httpTransport({ url: `${BASE}/graphql`, fetch: graphqlHttp }),
    })),
  cli: () => cliAnswers([]),
  "cli --url": () => cliAnswers(["--url", BASE]),
  async mcp() {
    const { taskId } = await mcpCall("tools/call", { name: "pick", arguments: { title: "Dune" } });
    const read = () => mcpCall("tasks/get", { taskId });
    const asked = await waitFor(read, (task) => task.status === "input_required");
    const { params } =
      (asked.inputRequests as Record<string, { params: Record<string, unknown> }>)["ask-1"];
    const content = { shelf: 3 };
    await mcpCall("tasks/update", {
      taskId,
      inputResponses: { "ask-1": { action: "accept", content } },
    });
    const done = await waitFor(read, (task) => task.status === "completed");
    return {
      question: { key: "ask-1", message: params.message, schema: params.requestedSchema },
      result: (done.result as { structuredContent: unknown }).structuredContent,
    };
  },
};

function json(body: unknown): RequestInit {
  return {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  };
}

/** A typed client's handle (HTTP's or GraphQL's: the same `TaskHandle`). */
async function handleAnswers(client: {
  pick(input: { title: string }, options: { async: true }): Promise<TaskHandle<unknown, unknown>>;
}): Promise<Asked> {
  const handle = await client.pick({ title: "Dune" }, { async: true });
  const { question } = await waitFor(() => handle.status(), asking);
  const misfit = statusOf(await handle.answer({ shelf: "x" }).catch((error) => error));
  await handle.answer({ shelf: 3 });
  return { question, misfit, result: await handle.result() };
}

/** The command line: detached, read with `status`, answered with `answer`. */
async function cliAnswers(url: readonly string[]): Promise<Asked> {
  const run = async (argv: readonly string[]) => {
    const io = memoryIo();
    const code = await runCli(tree, [...url, ...argv], { io, tasks, fetch: rest, onError });
    return { code, out: io.stdout.join(""), err: io.stderr.join("") };
  };
  const { id } = JSON.parse((await run(["pick", "--title", "Dune", "--detach", "--json"])).out);
  const read = async () => JSON.parse((await run(["status", id, "--json"])).out);
  const { questions } = await waitFor(read, asking);
  const misfit = await run(["answer", id, "--json", '{"shelf":"x"}']);
  assert.equal(misfit.code, 1);
  await run(["answer", id, "--json", '{"shelf":3}']);
  return {
    question: questions[0],
    misfit: Number(/^error: (\d+)/.exec(misfit.err)?.[1]),
    result: (await waitFor(read, over)).result,
  };
}

for (const [surface, answering] of Object.entries(ANSWERING)) {
  Deno.test(`agreement task answers: ${surface}`, async () => {
    const { misfit: _unchecked, ...mcp } = ASKED;
    assert.deepEqual(await answering(), surface === "mcp" ? mcp : ASKED);
  });
}

Deno.test("agreement task answers: the runtime closes", async () => {
  await mcp.close();
  await tasks.close();
});
