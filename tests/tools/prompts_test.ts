// Prompts declared in the tree (`prompt()`), served over MCP with the
// official SDK's Client against a live Deno.serve: listed with their
// arguments, rendered with typed arguments (bad ones a -32602), messages of
// every content kind, the same value as the leaf's HTTP route; not tools
// unless opted in; argument completion from an enum or a completer leaf.
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { z } from "zod";
import { api, HttpError, LeafError, type Middleware, op, use } from "@ramify/api/tree";
import { createFetch } from "@ramify/api/http";
import { createMcpHandler, prompt } from "@ramify/api/tools";
import { ask } from "../../tree/interaction.ts";
import { collectPrompts } from "../../tools/projection/prompts.ts";
import { completePromptArgument } from "../../tools/server/_prompts.ts";

const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);

/** A guard: the caller's `x-user` header, else 401. */
function staff(): Middleware<{ user: string }> {
  return (call, next) => {
    const user = call.context.request?.headers.get("x-user");
    if (user === null || user === undefined) throw new HttpError(401, "Sign in");
    return next({ user });
  };
}

const tree = api({
  simple: prompt(() => "Say hello.", { description: "A prompt without arguments" }),
  review: prompt(({ title, tone }) => `Review "${title}" in a ${tone ?? "neutral"} tone.`, {
    input: z.object({
      title: z.string().describe("The book's title"),
      tone: z.enum(["warm", "harsh", "neutral"]).optional(),
    }),
    title: "Review a book",
    description: "Asks for a review",
    name: "test_prompt_with_arguments",
    complete: { title: "titles" },
  }),
  mixed: prompt(() => [
    { role: "user", content: "Look at this cover." },
    { role: "user", content: { type: "image", data: new Blob([PNG], { type: "image/png" }) } },
    { role: "assistant", content: { type: "text", text: "A fine cover." } },
    {
      role: "user",
      content: {
        type: "resource",
        resource: { uri: "ramify://books/1", mimeType: "text/plain", text: "Dune" },
      },
    },
    {
      role: "user",
      content: {
        type: "resource",
        resource: { uri: "ramify://covers/1", blob: new Blob([PNG], { type: "image/png" }) },
      },
    },
  ]),
  opted: prompt(() => "Also a tool.", { tools: {} }),
  broken: prompt(() => {
    throw new Error("the template at /secret is gone");
  }),
  titles: op(
    ({ value }: { value: string }) =>
      ["Dune", "Dune Messiah", "Emma", "Persuasion"].filter((title) => title.startsWith(value)),
    {
      input: z.object({ value: z.string(), arguments: z.record(z.string(), z.string()) }),
      tags: { readOnly: true },
    },
  ),
  ping: op(() => "pong", { tags: { readOnly: true } }),
  // A guarded prompt with a declared error, as any leaf has them.
  brief: prompt(({ topic }, ctx) => {
    if (topic === "secrets") throw new LeafError("OFF_LIMITS", { data: { topic } });
    return `${ctx.user} asks for a brief on ${topic}.`;
  }, {
    input: z.object({ topic: z.string() }),
    errors: {
      OFF_LIMITS: {
        status: 403,
        message: "Not a topic for briefs",
        data: z.object({ topic: z.string() }),
      },
    },
  }, use(staff())),
  asking: prompt(async (_input, ctx) => {
    const answer = await ask(ctx, {
      message: "Topic?",
      schema: { type: "object", properties: { topic: { type: "string" } }, required: ["topic"] },
    });
    return answer.action === "accept" ? `Write about ${answer.content.topic}.` : answer.action;
  }),
});

async function serve() {
  const mcp = createMcpHandler(tree, { warnMissingHints: false, onError: () => {} });
  const rest = createFetch(tree);
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    (request) => new URL(request.url).pathname === "/mcp" ? mcp(request) : rest(request),
  );
  const base = `http://127.0.0.1:${server.addr.port}`;
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  return {
    client,
    base,
    close: async () => {
      await client.close();
      await mcp.close();
      await server.shutdown();
    },
  };
}

Deno.test("prompts: listed with titles, descriptions and arguments; not tools unless opted in", async () => {
  const { client, close } = await serve();
  try {
    assert.deepEqual(client.getServerCapabilities()?.prompts, { listChanged: false });
    const { prompts } = await client.listPrompts();
    assert.deepEqual(prompts.map((p) => p.name), [
      "simple",
      "test_prompt_with_arguments",
      "mixed",
      "opted",
      "broken",
      "brief",
      "asking",
    ]);
    assert.deepEqual(prompts[1], {
      name: "test_prompt_with_arguments",
      title: "Review a book",
      description: "Asks for a review",
      arguments: [
        { name: "title", description: "The book's title", required: true },
        { name: "tone", required: false },
      ],
    });
    assert.deepEqual(prompts[0].arguments, []);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name), ["opted", "titles", "ping"]);
  } finally {
    await close();
  }
});

Deno.test("prompts: prompts/get renders typed arguments, the same value as the HTTP route", async () => {
  const { client, base, close } = await serve();
  try {
    const got = await client.getPrompt({
      name: "test_prompt_with_arguments",
      arguments: { title: "Dune", tone: "warm" },
    });
    const expected = {
      description: "Asks for a review",
      messages: [{
        role: "user",
        content: { type: "text", text: 'Review "Dune" in a warm tone.' },
      }],
    };
    assert.deepEqual(got, expected);
    const response = await fetch(`${base}/review?title=Dune&tone=warm`);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), expected);
    assert.deepEqual(await client.getPrompt({ name: "simple" }), {
      description: "A prompt without arguments",
      messages: [{ role: "user", content: { type: "text", text: "Say hello." } }],
    });
  } finally {
    await close();
  }
});

Deno.test("prompts: messages with roles, images from bytes and embedded resources", async () => {
  const { client, base, close } = await serve();
  try {
    const got = await client.getPrompt({ name: "mixed" });
    const png = btoa(String.fromCharCode(...PNG));
    assert.deepEqual(got.messages, [
      { role: "user", content: { type: "text", text: "Look at this cover." } },
      { role: "user", content: { type: "image", data: png, mimeType: "image/png" } },
      { role: "assistant", content: { type: "text", text: "A fine cover." } },
      {
        role: "user",
        content: {
          type: "resource",
          resource: { uri: "ramify://books/1", mimeType: "text/plain", text: "Dune" },
        },
      },
      {
        role: "user",
        content: {
          type: "resource",
          resource: { uri: "ramify://covers/1", mimeType: "image/png", blob: png },
        },
      },
    ]);
    assert.deepEqual(await (await fetch(`${base}/mixed`)).json(), got);
  } finally {
    await close();
  }
});

Deno.test("prompts (hostile): bad or missing arguments and unknown prompts are -32602; faults masked", async () => {
  const { client, close } = await serve();
  try {
    for (
      const args of [{}, { title: "Dune", tone: "furious" }, { tone: "warm" }] as never[]
    ) {
      await assert.rejects(
        client.getPrompt({ name: "test_prompt_with_arguments", arguments: args }),
        (error: { code?: number; message?: string }) => {
          assert.equal(error.code, -32602, JSON.stringify(args));
          return true;
        },
      );
    }
    await assert.rejects(
      client.getPrompt({ name: "nope" }),
      (error: { code?: number }) => error.code === -32602,
    );
    await assert.rejects(
      client.getPrompt({ name: "broken" }),
      (error: Error & { code?: number }) => {
        assert.equal(error.code, -32603);
        assert.doesNotMatch(error.message, /secret/);
        return true;
      },
    );
  } finally {
    await close();
  }
});

Deno.test("prompts: a guard and a declared error, for a signed-in, a second and an anonymous caller, over MCP and HTTP", async () => {
  const { client: anonymous, base, close } = await serve();
  const signedIn = async (user: string) => {
    const client = new Client({ name: user, version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { "x-user": user } },
      }),
    );
    return client;
  };
  const ann = await signedIn("ann");
  const bob = await signedIn("bob");
  const failed = async (pending: Promise<unknown>) => {
    const error = await pending.then(() => undefined, (error: Error & { code?: number }) => error);
    assert.ok(error !== undefined, "refused");
    return [error.code, error.message];
  };
  try {
    for (const [client, user] of [[ann, "ann"], [bob, "bob"]] as const) {
      const rendered = await client.getPrompt({ name: "brief", arguments: { topic: "tea" } });
      assert.deepEqual(rendered.messages[0].content, {
        type: "text",
        text: `${user} asks for a brief on tea.`,
      });
    }
    // The guard refuses before render runs; the declared error is the caller's, not a crash.
    const [code, message] = await failed(
      anonymous.getPrompt({ name: "brief", arguments: { topic: "tea" } }),
    );
    assert.equal(code, -32602);
    assert.match(String(message), /401 Unauthorized: Sign in/);
    const [declaredCode, declared] = await failed(
      bob.getPrompt({ name: "brief", arguments: { topic: "secrets" } }),
    );
    assert.equal(declaredCode, -32602);
    assert.match(String(declared), /403 Forbidden \[OFF_LIMITS\]: Not a topic for briefs/);
    // The same leaf over HTTP: the same guard, the same declared error.
    const http = (topic: string, headers: Record<string, string> = {}) =>
      fetch(`${base}/brief?topic=${topic}`, { headers });
    const refused = await http("tea");
    assert.equal(refused.status, 401);
    await refused.body?.cancel();
    const off = await http("secrets", { "x-user": "bob" });
    assert.deepEqual([off.status, (await off.json()).code], [403, "OFF_LIMITS"]);
    const fine = await http("tea", { "x-user": "ann" });
    assert.equal((await fine.json()).messages[0].content.text, "ann asks for a brief on tea.");
  } finally {
    await ann.close();
    await bob.close();
    await close();
  }
});

Deno.test("prompts: argument completion from the completer leaf or the argument's enum", async () => {
  const prompts = collectPrompts(tree, "test");
  const name = "test_prompt_with_arguments";
  assert.deepEqual(await completePromptArgument(prompts, name, "title", "Dune", {}, {}), {
    values: ["Dune", "Dune Messiah"],
    total: 2,
    hasMore: false,
  });
  assert.deepEqual(await completePromptArgument(prompts, name, "tone", "h", {}, {}), {
    values: ["harsh"],
    total: 1,
    hasMore: false,
  });
  assert.equal(await completePromptArgument(prompts, name, "nope", "", {}, {}), undefined);
  assert.equal(await completePromptArgument(prompts, "nope", "title", "", {}, {}), undefined);
});

Deno.test("prompts: completion/complete answers a prompt's argument over the wire", async () => {
  const { client, close } = await serve();
  try {
    const { completion } = await client.complete({
      ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
      argument: { name: "title", value: "Du" },
    });
    assert.deepEqual(completion, { values: ["Dune", "Dune Messiah"], total: 2, hasMore: false });
    await assert.rejects(
      client.complete({
        ref: { type: "ref/prompt", name: "nope" },
        argument: { name: "title", value: "" },
      }),
      (error: { code?: number }) => error.code === -32602,
    );
  } finally {
    await close();
  }
});

Deno.test("prompts (hostile): a completer that is no leaf, or for no argument, fails at construction", () => {
  const make = (complete: Record<string, string>) =>
    api({
      p: prompt(({ a }) => a, { input: z.object({ a: z.string() }), complete }),
      list: op(() => [], { tags: { readOnly: true } }),
    });
  assert.throws(() => collectPrompts(make({ a: "missing" }), "test"), /which is no leaf/);
  assert.throws(() => collectPrompts(make({ b: "list" }), "test"), /which is no argument/);
  assert.throws(
    () =>
      createMcpHandler(
        api({ a: prompt(() => "x", { name: "same" }), b: prompt(() => "y", { name: "same" }) }),
      ),
    /which another prompt has/,
  );
});

Deno.test("prompts: a render may ask the client, in either era", async () => {
  for (const era of ["legacy", "modern"] as const) {
    const mcp = createMcpHandler(tree, { warnMissingHints: false });
    const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, mcp);
    const client = new Client({ name: "test", version: "1.0.0" }, {
      capabilities: { elicitation: { form: {} } },
      ...(era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}),
    });
    client.setRequestHandler("elicitation/create", () => ({
      action: "accept" as const,
      content: { topic: "tides" },
    }));
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.addr.port}/mcp`)),
    );
    try {
      const got = await client.getPrompt({ name: "asking" });
      assert.deepEqual(got.messages, [
        { role: "user", content: { type: "text", text: "Write about tides." } },
      ], era);
    } finally {
      await client.close();
      await mcp.close();
      await server.shutdown();
    }
  }
});
